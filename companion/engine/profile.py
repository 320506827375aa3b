"""Board profile: the numbers and colours of the board, with the defaults from ``profile.json``.

A table corrects a value (say the track colours, R2.3) by giving that key; every key given
replaces the default's key whole.

>>> p = make_profile({"end_score": 30})
>>> p["end_score"], p["max_rounds"]
(30, 7)
>>> make_profile({"speed": 3})
Traceback (most recent call last):
...
companion.engine.errors.InvalidSetup: unknown profile key 'speed'
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

from companion.engine.errors import InvalidSetup
from companion.engine.jsondata import clone

_DATA = json.loads(files(__package__).joinpath("profile.json").read_text(encoding="utf-8"))

DEFAULT_PROFILE: dict[str, Any] = _DATA["profile"]
# key -> why the default is a placeholder (shown to hosts; see README).
PLACEHOLDERS: dict[str, str] = _DATA["placeholders"]
TRACK_COLOURS = ("gold", "red", "green")


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(key: str, v: object, low: int, high: int = 10**6) -> None:
    if not _is_int(v) or not low <= v <= high:  # type: ignore[operator]
        raise InvalidSetup(f"profile {key} must be a whole number from {low} to {high}")


def _pairs(key: str, v: object) -> None:
    ok = (
        isinstance(v, list)
        and v
        and all(
            isinstance(p, list) and len(p) == 2 and all(_is_int(x) and x >= 0 for x in p) for p in v
        )
    )
    if not ok:
        raise InvalidSetup(f"profile {key} must be a non-empty list of [number, number] pairs")


def _check(key: str, v: Any) -> None:
    if key == "track_colors":
        if not isinstance(v, list) or not v or any(c not in TRACK_COLOURS for c in v):
            raise InvalidSetup("profile track_colors must be a non-empty list of gold, red, green")
    elif key in ("end_score", "max_rounds", "cubes"):
        _int(key, v, 1)
    elif key in ("hut_spaces", "drink_penalty", "chocolatl_points"):
        _int(key, v, 0)
    elif key in ("pyramid_rows", "drink"):
        _pairs(key, v)
        if key == "pyramid_rows" and any(cells < 1 for cells, _ in v):
            raise InvalidSetup("profile pyramid_rows: every row needs at least one cell")
    elif key == "tachli_last_round":
        if not (isinstance(v, list) and len(v) == 2 and all(_is_int(x) and x >= 0 for x in v)):
            raise InvalidSetup("profile tachli_last_round must be two points values")
    elif key == "improvement_decks":
        ok = (
            isinstance(v, list)
            and len(v) == 2
            and all(
                isinstance(d, list) and d and all(_is_int(c) and 0 <= c <= 99 for c in d) for d in v
            )
        )
        if not ok:
            raise InvalidSetup("profile improvement_decks must be two non-empty lists of cards")
    else:
        raise InvalidSetup(f"unknown profile key {key!r}")


def make_profile(overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The default profile with ``overrides`` applied, checked key by key."""
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, dict):
        raise InvalidSetup("profile must be an object")
    for key, value in overrides.items():
        _check(key, value)
    merged = clone(DEFAULT_PROFILE)
    merged.update(clone(overrides))
    return merged


def track_colour(profile: dict[str, Any], box: int) -> str:
    """Colour of score box ``box`` (R2.3): ``track_colors[box % len]``.

    >>> track_colour(DEFAULT_PROFILE, 0), track_colour(DEFAULT_PROFILE, 4)
    ('red', 'gold')
    """
    colours = profile["track_colors"]
    return colours[box % len(colours)]
