"""LED picture of the score track and pyramid, computed from the public state.

Pure: ``render(view(state, None), layout, colours, now, animations)`` gives the pixel buffer the
board link sends; ``needs_frames`` says whether to keep rendering at ``FRAME_RATE``.
"""

from companion.leds.layout import Layout, LayoutError, layout_from_dict, load_layout
from companion.leds.picture import (
    FRAME_RATE,
    Animation,
    PictureError,
    animation_active,
    animations_between,
    animations_from_events,
    assign_colours,
    needs_frames,
    prune,
    render,
)

__all__ = [
    "FRAME_RATE",
    "Animation",
    "Layout",
    "LayoutError",
    "PictureError",
    "animation_active",
    "animations_between",
    "animations_from_events",
    "assign_colours",
    "layout_from_dict",
    "load_layout",
    "needs_frames",
    "prune",
    "render",
]
