"""Where every LED of the board sits: the physical layout, loaded from a JSON file.

The strip is one WS2812B chain. The layout says which strip index lights which track box slot,
which pyramid cell and which status LED, so a maker can route the strip any way that suits the
frame (reversed segments, serpentine pyramid, unused LEDs left dark at corners) and only edit the
JSON. See ``hardware/LED_MAP.md`` for the default board.

Track boxes are numbered from 0 like scores (R6.2: scores wrap around the track for display).
Each box has ``leds_per_box`` slots numbered in the track direction (towards higher scores), so
slot ``leds_per_box - 1`` is the box's front LED.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.leds.palette import PLAYER_COLOURS

DEFAULT_LAYOUT_PATH = Path(__file__).with_name("default_layout.json")

MAX_LEDS_PER_BOX = 8
STATIONS = 6
MAX_PLAYERS = 5  # R1.1
_TOP_KEYS = {"name", "track", "pyramid", "status", "brightness_cap", "player_colours"}
_TRACK_KEYS = {"boxes", "leds_per_box", "segments"}
_SEGMENT_KEYS = {"boxes", "start", "reverse"}
_STATUS_KEYS = {"mode", "round", "station"}


class LayoutError(ValueError):
    """A layout file that cannot describe a board; the message names the reason."""


class LayoutFormatError(LayoutError):
    """A key is missing or unknown, or a value has the wrong JSON type."""


class LayoutRangeError(LayoutError):
    """A number is out of its allowed range (box count, LEDs per box, index, brightness)."""


class SegmentError(LayoutError):
    """The track segments do not cover every box exactly once."""


class LedCollisionError(LayoutError):
    """Two places of the layout claim the same strip LED."""


class PyramidShapeError(LayoutError):
    """The pyramid has no rows or an empty row."""


class ColourNameError(LayoutError):
    """A player colour name is unknown, repeated, or there are too few for a full table."""


@dataclass(frozen=True)
class Segment:
    """Boxes ``first..last`` (inclusive) laid on strip LEDs from ``start`` upwards.

    With ``reverse`` the strip runs against the track: box ``first``'s slot 0 is the segment's
    highest strip index.
    """

    first: int
    last: int
    start: int
    reverse: bool = False

    @property
    def box_count(self) -> int:
        return self.last - self.first + 1


@dataclass(frozen=True)
class Layout:
    """A validated board layout; build it with :func:`layout_from_dict` or :func:`load_layout`."""

    name: str
    boxes: int
    leds_per_box: int
    segments: tuple[Segment, ...]
    pyramid: tuple[tuple[int, ...], ...]
    status_mode: int | None
    status_round: tuple[int, ...]
    status_station: tuple[int, ...]
    brightness_cap: float
    player_colours: tuple[str, ...]
    box_leds: tuple[tuple[int, ...], ...]  # per box, strip indices of slots 0..leds_per_box-1

    @property
    def track_led_count(self) -> int:
        return self.boxes * self.leds_per_box

    @property
    def pyramid_led_count(self) -> int:
        return sum(len(row) for row in self.pyramid)

    @property
    def status_led_count(self) -> int:
        mode = 0 if self.status_mode is None else 1
        return mode + len(self.status_round) + len(self.status_station)

    @property
    def used_led_count(self) -> int:
        """LEDs the picture drives (track + pyramid + status)."""
        return self.track_led_count + self.pyramid_led_count + self.status_led_count

    @property
    def led_count(self) -> int:
        """Length of the pixel buffer: highest used strip index + 1 (gaps stay dark)."""
        return 1 + max(self._all_indices())

    def _all_indices(self) -> list[int]:
        out = [i for box in self.box_leds for i in box]
        out += [i for row in self.pyramid for i in row]
        if self.status_mode is not None:
            out.append(self.status_mode)
        return out + list(self.status_round) + list(self.status_station)

    def roles(self) -> dict[int, str]:
        """Strip index -> readable role ("box 12 slot 2", "pyramid row 1 cell 3", ...)."""
        return dict(_claims(self))


def _need(obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in obj:
        raise LayoutFormatError(f"{where}: missing key {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        name = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise LayoutFormatError(f"{where}.{key}: expected {name}, got {type(value).__name__}")
    return value


def _no_unknown(obj: Mapping[str, Any], allowed: set[str], where: str) -> None:
    extra = sorted(set(obj) - allowed)
    if extra:
        raise LayoutFormatError(f"{where}: unknown key(s) {', '.join(map(repr, extra))}")


def _index(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise LayoutFormatError(f"{where}: expected an LED index (int), got {value!r}")
    if value < 0:
        raise LayoutRangeError(f"{where}: LED index {value} is negative")
    return value


def _index_list(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise LayoutFormatError(f"{where}: expected a list of LED indices")
    return tuple(_index(v, f"{where}[{n}]") for n, v in enumerate(value))


def _segments(raw: Any, boxes: int) -> tuple[Segment, ...]:
    if not isinstance(raw, list) or not raw:
        raise LayoutFormatError("track.segments: expected a non-empty list")
    segments = []
    for n, seg in enumerate(raw):
        where = f"track.segments[{n}]"
        if not isinstance(seg, dict):
            raise LayoutFormatError(f"{where}: expected an object")
        _no_unknown(seg, _SEGMENT_KEYS, where)
        span = _need(seg, "boxes", list, where)
        if len(span) != 2 or not all(isinstance(b, int) and not isinstance(b, bool) for b in span):
            raise LayoutFormatError(f"{where}.boxes: expected [first, last] box numbers")
        first, last = span
        if first > last:
            raise SegmentError(f"{where}.boxes: first box {first} is after last box {last}")
        if first < 0 or last >= boxes:
            raise SegmentError(f"{where}.boxes: boxes {first}..{last} outside 0..{boxes - 1}")
        start = _index(_need(seg, "start", int, where), f"{where}.start")
        reverse = seg.get("reverse", False)
        if not isinstance(reverse, bool):
            raise LayoutFormatError(f"{where}.reverse: expected true or false")
        segments.append(Segment(first, last, start, reverse))
    covered: dict[int, int] = {}
    for n, seg in enumerate(segments):
        for b in range(seg.first, seg.last + 1):
            if b in covered:
                raise SegmentError(
                    f"box {b} is in track.segments[{covered[b]}] and track.segments[{n}]"
                )
            covered[b] = n
    missing = [b for b in range(boxes) if b not in covered]
    if missing:
        raise SegmentError(f"box {missing[0]} is in no track segment ({len(missing)} missing)")
    return tuple(segments)


def _box_leds(segments: Sequence[Segment], boxes: int, k: int) -> tuple[tuple[int, ...], ...]:
    out: list[tuple[int, ...]] = [()] * boxes
    for seg in segments:
        span = seg.box_count * k
        for b in range(seg.first, seg.last + 1):
            offsets = [(b - seg.first) * k + slot for slot in range(k)]
            if seg.reverse:
                offsets = [span - 1 - o for o in offsets]
            out[b] = tuple(seg.start + o for o in offsets)
    return tuple(out)


def layout_from_dict(raw: Any) -> Layout:
    """Validate a parsed layout document; raise a :class:`LayoutError` subclass naming the fault."""
    if not isinstance(raw, dict):
        raise LayoutFormatError("layout: expected a JSON object")
    _no_unknown(raw, _TOP_KEYS, "layout")
    name = raw.get("name", "unnamed")
    if not isinstance(name, str):
        raise LayoutFormatError("layout.name: expected a string")

    track = _need(raw, "track", dict, "layout")
    _no_unknown(track, _TRACK_KEYS, "track")
    boxes = _need(track, "boxes", int, "track")
    if boxes < 1:
        raise LayoutRangeError(f"track.boxes: {boxes} boxes; a track needs at least 1")
    k = _need(track, "leds_per_box", int, "track")
    if not 1 <= k <= MAX_LEDS_PER_BOX:
        raise LayoutRangeError(f"track.leds_per_box: {k} is outside 1..{MAX_LEDS_PER_BOX}")
    segments = (
        _segments(track.get("segments"), boxes)
        if "segments" in track
        else (Segment(0, boxes - 1, 0, False),)
    )

    rows_raw = _need(raw, "pyramid", list, "layout")
    if not rows_raw:
        raise PyramidShapeError("pyramid: needs at least one row")
    pyramid = []
    for r, row in enumerate(rows_raw):
        cells = _index_list(row, f"pyramid[{r}]")
        if not cells:
            raise PyramidShapeError(f"pyramid[{r}]: row {r + 1} has no cells")
        pyramid.append(cells)

    status = raw.get("status", {})
    if not isinstance(status, dict):
        raise LayoutFormatError("layout.status: expected an object")
    _no_unknown(status, _STATUS_KEYS, "status")
    mode = status.get("mode")
    mode = None if mode is None else _index(mode, "status.mode")
    rounds = _index_list(status.get("round", []), "status.round")
    stations = _index_list(status.get("station", []), "status.station")
    if stations and len(stations) != STATIONS:
        raise LayoutRangeError(
            f"status.station: {len(stations)} LEDs; give one per station ({STATIONS}) or none"
        )

    cap = _need(raw, "brightness_cap", (int, float), "layout")
    if isinstance(cap, bool) or not 0 < cap <= 1:
        raise LayoutRangeError(f"brightness_cap: {cap} is outside (0, 1]")

    names = _need(raw, "player_colours", list, "layout")
    for n in names:
        if not isinstance(n, str) or n not in PLAYER_COLOURS:
            raise ColourNameError(
                f"player_colours: unknown colour {n!r}; known: {', '.join(PLAYER_COLOURS)}"
            )
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise ColourNameError(f"player_colours: {dup!r} is listed twice")
    if len(names) < MAX_PLAYERS:
        raise ColourNameError(
            f"player_colours: {len(names)} colours; a table of {MAX_PLAYERS} needs {MAX_PLAYERS}"
        )

    box_leds = _box_leds(segments, boxes, k)
    layout = Layout(
        name=name,
        boxes=boxes,
        leds_per_box=k,
        segments=segments,
        pyramid=tuple(pyramid),
        status_mode=mode,
        status_round=rounds,
        status_station=stations,
        brightness_cap=float(cap),
        player_colours=tuple(names),
        box_leds=box_leds,
    )
    roles: dict[int, str] = {}
    for i, role in _claims(layout):
        if i in roles:
            raise LedCollisionError(f"LED {i} is claimed by {roles[i]} and by {role}")
        roles[i] = role
    return layout


def _claims(layout: Layout) -> list[tuple[int, str]]:
    out = [
        (i, f"box {b} slot {s}")
        for b, leds in enumerate(layout.box_leds)
        for s, i in enumerate(leds)
    ]
    out += [
        (i, f"pyramid row {r + 1} cell {c + 1}")
        for r, row in enumerate(layout.pyramid)
        for c, i in enumerate(row)
    ]
    if layout.status_mode is not None:
        out.append((layout.status_mode, "status mode"))
    out += [(i, f"status round {n + 1}") for n, i in enumerate(layout.status_round)]
    out += [(i, f"status station {n + 1}") for n, i in enumerate(layout.status_station)]
    return out


def load_layout(path: str | Path | None = None) -> Layout:
    """Read and validate a layout file (default: the packaged ``default_layout.json``)."""
    p = Path(path) if path is not None else DEFAULT_LAYOUT_PATH
    try:
        raw = json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise LayoutFormatError(f"{p.name}: not valid JSON ({e.msg} at line {e.lineno})") from e
    return layout_from_dict(raw)
