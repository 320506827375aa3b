"""The LED picture: public game view + layout + player colours + time -> pixel buffer.

Pure: no I/O, no clock. The caller passes the time (any monotonic seconds) and the running
animations, and renders frames at about 20 fps while :func:`needs_frames` says the picture
moves; otherwise one frame per state change is enough.

How to read the board (also in ``hardware/README.md``):

* An empty box glows faintly in its track colour (R2.3, ``profile.track_colors[b % n]``).
* A box with markers shows them from its front LED (the one towards higher scores) backwards:
  the front LED is the top of the stack, the next LED back the marker below it, and so on;
  free slots at the back keep the faint box colour. The stack order breaks ties (R3.4), so
  it must be readable.
* More markers than LEDs in a box: the front LED keeps the top marker, the other LEDs page
  through the rest of the stack (top to bottom) every ``STACK_PAGE_S`` seconds. A one-LED box
  pages through the whole stack.
* Scores wrap around the track (R6.2): score ``s`` stands on box ``s % boxes`` with lap
  ``s // boxes``. A marker on lap n >= 1 goes dark n times at the start of every
  ``LAP_PERIOD_S`` second cycle (5 flashes means lap 5 or more). On a box shared across laps the
  higher score counts as higher in the stack.
* Pyramid cells show their owner's colour; empty cells glow faint white.
* Status LEDs: mode LED in the round's bidding colour; round LEDs lit up to the current round
  (current one bright); the station LED of the station being resolved.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.engine.types import Event
from companion.leds.layout import Layout
from companion.leds.palette import PLAYER_COLOURS, TRACK_COLOURS
from companion.leds.vision import Vec, hex_to_linear

# Levels are fractions of the full colour, before the layout's brightness cap.
EMPTY_BOX_LEVEL = 0.10
TOP_MARKER_LEVEL = 1.0
# Lower markers are not dimmed: a dimmed colour drifts towards another player's colour for
# colour-blind eyes (dimmed yellow reads as orange with deuteranopia; tests/leds/test_vision.py).
# The top of a stack is told by position: it is always on the box's front LED.
UNDER_MARKER_LEVEL = 1.0
EMPTY_CELL: Vec = (0.03, 0.03, 0.03)
WHITE: Vec = (1.0, 1.0, 1.0)
PAST_ROUND_LEVEL = 0.15
BLACK: Vec = (0.0, 0.0, 0.0)
LAST_ROUND: Vec = (1.0, 0.35, 0.0)  # the current round's light once it is the last (R6.3)
# A player (as the view names them) and where it is drawn -> the player's colour.
ColourOf = Callable[[Any, str], Vec]

STACK_PAGE_S = 1.5
LAP_PERIOD_S = 3.0
LAP_FLASH_S = 0.25  # dark for this long, then lit for this long, per lap
MAX_LAP_FLASHES = 5
ROW_ANIMATION_S = 2.0
ROW_FLASH_S = 0.25
WINNER_ANIMATION_S = 8.0
FRAME_RATE = 20

PLAYER_LINEAR: dict[str, Vec] = {n: hex_to_linear(h) for n, h in PLAYER_COLOURS.items()}
TRACK_LINEAR: dict[str, Vec] = {n: hex_to_linear(h) for n, h in TRACK_COLOURS.items()}


class PictureError(ValueError):
    """The view or the colour map cannot be drawn; the message says why."""


@dataclass(frozen=True)
class Animation:
    """A time-limited effect on top of the picture.

    ``kind`` is ``"row"`` (pyramid row ``row``, 0 = bottom, completed; ``players`` holds who
    scored it, R5.4) or ``"winners"`` (game over; ``players`` are the winners, R7).
    """

    kind: str
    start: float
    row: int = -1
    players: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.kind not in ("row", "winners"):
            raise PictureError(f"unknown animation kind {self.kind!r}")
        if self.kind == "row" and self.row < 0:
            raise PictureError("a row animation needs the row number (0 = bottom)")

    @property
    def duration(self) -> float:
        return ROW_ANIMATION_S if self.kind == "row" else WINNER_ANIMATION_S

    def active(self, now: float) -> bool:
        return self.start <= now < self.start + self.duration


def animations_from_events(events: Iterable[Event], now: float) -> list[Animation]:
    """Animations started at ``now`` by engine events (``row_completed`` R5.4, ``game_over``
    R7); the tests of each branch read ``e["type"]`` itself, so each reads its own fields."""
    out = []
    for e in events:
        if e["type"] == "row_completed":
            player = e.get("player")
            out.append(Animation("row", now, int(e["row"]), (player,) if player else ()))
        elif e["type"] == "game_over":
            out.append(Animation("winners", now, players=tuple(e.get("winners") or ())))
    return out


def animations_between(
    before: Mapping[str, Any] | None, after: Mapping[str, Any], now: float
) -> list[Animation]:
    """Animations started at ``now`` by the change from view ``before`` to view ``after``.

    For callers that only keep views: a pyramid row that became full, the game that finished.
    With no ``before`` (a fresh start after a restart) nothing is replayed.
    """
    if before is None:
        return []
    out = []
    old_rows = before.get("pyramid") or []
    for r, row in enumerate(after.get("pyramid") or []):
        was_full = r < len(old_rows) and all(c is not None for c in old_rows[r])
        if row and all(c is not None for c in row) and not was_full:
            out.append(Animation("row", now, r))
    if after.get("finished") and not before.get("finished"):
        out.append(Animation("winners", now, players=tuple(after.get("winners") or ())))
    return out


def animation_active(animations: Iterable[Animation], now: float) -> bool:
    """True while any of ``animations`` still runs at ``now``."""
    return any(a.active(now) for a in animations)


def prune(animations: Iterable[Animation], now: float) -> list[Animation]:
    """The animations that have not ended by ``now`` (keeps the caller's list short)."""
    return [a for a in animations if now < a.start + a.duration]


def needs_frames(
    view: Mapping[str, Any], layout: Layout, animations: Iterable[Animation] = (), now: float = 0.0
) -> bool:
    """True while the picture changes with time: an animation runs, a marker shows its lap, or
    a box holds more markers than it has LEDs."""
    if animation_active(animations, now):
        return True
    per_box: dict[int, int] = {}
    for score, stack in _track_entries(view):
        if stack and score >= layout.boxes:
            return True
        box = score % layout.boxes
        per_box[box] = per_box.get(box, 0) + len(stack)
    return any(n > layout.leds_per_box for n in per_box.values())


def assign_colours(
    player_ids: Sequence[str], chosen: Mapping[str, str], offered: Sequence[str]
) -> dict[str, str]:
    """Every player's colour name: the chosen ones, then the first free offered colours in seat
    order for players who have not chosen. Raises :class:`PictureError` on an unknown or shared
    colour."""
    out: dict[str, str] = {}
    for p, name in chosen.items():
        if name not in PLAYER_COLOURS:
            raise PictureError(f"player {p!r}: unknown colour {name!r}")
        if name in out.values():
            other = next(q for q, n in out.items() if n == name)
            raise PictureError(f"players {other!r} and {p!r} both have colour {name!r}")
        out[p] = name
    free = [n for n in offered if n not in out.values()]
    for p in player_ids:
        if p not in out:
            if not free:
                raise PictureError(f"no colour left for player {p!r}")
            out[p] = free.pop(0)
    return out


def _track_entries(view: Mapping[str, Any]) -> list[tuple[int, list[str]]]:
    track = view.get("track")
    if not isinstance(track, Mapping):
        raise PictureError("view has no track object")
    out = []
    for key, stack in track.items():
        try:
            score = int(key)
        except (TypeError, ValueError):
            raise PictureError(f"track key {key!r} is not a score") from None
        if score < 0:
            raise PictureError(f"track key {key!r}: scores are never negative (R6.1)")
        if not isinstance(stack, list):
            raise PictureError(f"track[{key!r}] is not a list of player ids")
        out.append((score, stack))
    return out


def _scale(c: Vec, level: float) -> Vec:
    return c[0] * level, c[1] * level, c[2] * level


def lap_visible(lap: int, now: float) -> bool:
    """Whether a marker on ``lap`` is lit at ``now`` (dark during its lap flashes)."""
    if lap <= 0:
        return True
    phase = now % LAP_PERIOD_S
    flashes = min(lap, MAX_LAP_FLASHES)
    if phase >= flashes * 2 * LAP_FLASH_S:
        return True
    return int(phase // LAP_FLASH_S) % 2 == 1


def box_slots(stack_top_first: Sequence[str], k: int, now: float) -> list[str | None]:
    """Which marker each slot of a ``k``-LED box shows, listed from the front LED backwards."""
    m = len(stack_top_first)
    if m <= k:
        return list(stack_top_first) + [None] * (k - m)
    if k == 1:
        return [stack_top_first[int(now // STACK_PAGE_S) % m]]
    rest = list(stack_top_first[1:])
    per_page = k - 1
    pages = math.ceil(len(rest) / per_page)
    p = int(now // STACK_PAGE_S) % pages
    shown = rest[p * per_page : (p + 1) * per_page]
    return [stack_top_first[0], *shown] + [None] * (per_page - len(shown))


def _box_colour(view: Mapping[str, Any], box: int) -> Vec:
    colours = (view.get("profile") or {}).get("track_colors")
    if not isinstance(colours, list) or not colours:
        raise PictureError("view.profile.track_colors is missing or empty")
    name = colours[box % len(colours)]
    if name not in TRACK_LINEAR:
        raise PictureError(f"track colour {name!r} of box {box} is not one of gold, red, green")
    return TRACK_LINEAR[name]


def render(
    view: Mapping[str, Any],
    layout: Layout,
    colours: Mapping[str, str],
    now: float = 0.0,
    animations: Iterable[Animation] = (),
) -> bytes:
    """The whole strip as ``3 * layout.led_count`` bytes (R, G, B per LED, strip order).

    ``colours`` maps player ids to names of ``PLAYER_COLOURS``; players missing from it get
    free colours from the layout's list (see :func:`assign_colours`).
    """
    px = _frame(view, layout, colours, now, animations)
    cap = layout.brightness_cap * 255
    out = bytearray(3 * len(px))
    for i, (r, g, b) in enumerate(px):
        out[3 * i] = round(min(1.0, max(0.0, r)) * cap)
        out[3 * i + 1] = round(min(1.0, max(0.0, g)) * cap)
        out[3 * i + 2] = round(min(1.0, max(0.0, b)) * cap)
    return bytes(out)


def _frame(
    view: Mapping[str, Any],
    layout: Layout,
    colours: Mapping[str, str],
    now: float,
    animations: Iterable[Animation],
) -> list[Vec]:
    if not isinstance(view, Mapping):
        raise PictureError("view is not an object")
    players = view.get("players")
    if not isinstance(players, Mapping):
        raise PictureError("view has no players object")
    seats = view.get("seats") or list(players)
    names = assign_colours(seats, colours, layout.player_colours)
    linear = {p: PLAYER_LINEAR[n] for p, n in names.items()}

    def colour_of(p: Any, where: str) -> Vec:
        if p not in players:
            raise PictureError(f"{where}: {p!r} is not a player of this game")
        return linear[p]

    px: list[Vec] = [BLACK] * layout.led_count
    _draw_track(view, layout, colour_of, now, px)
    _draw_pyramid(view, layout, colour_of, px)
    _draw_status(view, layout, px)
    for a in animations:
        if a.active(now):
            if a.kind == "row":
                _animate_row(a, view, layout, colour_of, now, px)
            else:
                _animate_winners(a, layout, colour_of, now, px)
    return px


def _draw_track(
    view: Mapping[str, Any], layout: Layout, colour_of: ColourOf, now: float, px: list[Vec]
) -> None:
    boxes, k = layout.boxes, layout.leds_per_box
    stacks: dict[int, list[tuple[int, int, str]]] = {}
    for score, stack in _track_entries(view):
        for pos, p in enumerate(stack):
            colour_of(p, f"track[{score}]")
            stacks.setdefault(score % boxes, []).append((score, pos, p))
    for box in range(boxes):
        dim = _scale(_box_colour(view, box), EMPTY_BOX_LEVEL)
        entries = sorted(stacks.get(box, []))  # bottom..top; a higher lap is higher (R6.2)
        top_first = [p for _, _, p in reversed(entries)]
        lap = {p: s // boxes for s, _, p in entries}
        leds = layout.box_leds[box]
        for i, shown in enumerate(box_slots(top_first, k, now)):
            led = leds[k - 1 - i]
            if shown is None:
                px[led] = dim
            elif not lap_visible(lap[shown], now):
                px[led] = BLACK
            else:
                level = TOP_MARKER_LEVEL if shown == top_first[0] else UNDER_MARKER_LEVEL
                px[led] = _scale(colour_of(shown, "track"), level)


def _draw_pyramid(
    view: Mapping[str, Any], layout: Layout, colour_of: ColourOf, px: list[Vec]
) -> None:
    rows = view.get("pyramid")
    if not isinstance(rows, list):
        raise PictureError("view has no pyramid rows")
    for r, leds in enumerate(layout.pyramid):
        cells = rows[r] if r < len(rows) else []
        for c, led in enumerate(leds):
            owner = cells[c] if c < len(cells) else None
            px[led] = EMPTY_CELL if owner is None else colour_of(owner, f"pyramid[{r}][{c}]")


def _draw_status(view: Mapping[str, Any], layout: Layout, px: list[Vec]) -> None:
    mode = view.get("mode")
    if layout.status_mode is not None:
        if mode is None:
            px[layout.status_mode] = BLACK
        elif mode in TRACK_LINEAR:
            px[layout.status_mode] = TRACK_LINEAR[mode]
        else:
            raise PictureError(f"mode {mode!r} is not one of gold, red, green")
    rnd = view.get("round") or 0
    n = len(layout.status_round)
    for i, led in enumerate(layout.status_round):
        if i + 1 < min(rnd, n):
            px[led] = _scale(WHITE, PAST_ROUND_LEVEL)
        elif i + 1 == min(rnd, n):
            px[led] = LAST_ROUND if view.get("last_round") and not view.get("finished") else WHITE
        else:
            px[led] = BLACK
    station = view.get("station")
    for i, led in enumerate(layout.status_station):
        px[led] = WHITE if station == i + 1 else BLACK


def _animate_row(
    a: Animation,
    view: Mapping[str, Any],
    layout: Layout,
    colour_of: ColourOf,
    now: float,
    px: list[Vec],
) -> None:
    """Row completed (R5.4): the row flashes in the scorer's colour (white if unknown)."""
    if a.row >= len(layout.pyramid):
        return
    flash = colour_of(a.players[0], "row animation") if a.players else WHITE
    if int((now - a.start) // ROW_FLASH_S) % 2 == 0:
        for led in layout.pyramid[a.row]:
            px[led] = flash


def _animate_winners(
    a: Animation, layout: Layout, colour_of: ColourOf, now: float, px: list[Vec]
) -> None:
    """Game over (R7): bands of the winners' colours run along the track, the pyramid pulses."""
    t = now - a.start
    palette = [colour_of(p, "winner animation") for p in a.players] or [WHITE]
    step = int(t * 12)
    k = layout.leds_per_box
    for box, leds in enumerate(layout.box_leds):
        band = (box - step) // 3
        level = 1.0 if band % 2 == 0 else 0.15
        colour = _scale(palette[(band // 2) % len(palette)], level)
        for led in leds[:k]:
            px[led] = colour
    pulse = 0.55 + 0.45 * math.cos(2 * math.pi * t)
    colour = _scale(palette[int(t) % len(palette)], pulse)
    for row in layout.pyramid:
        for led in row:
            px[led] = colour
