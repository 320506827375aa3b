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
from typing import TypeGuard, cast

from companion.engine.errors import InvalidSetup
from companion.engine.jsondata import clone
from companion.engine.types import Profile, TrackColour

_DATA = json.loads(files(__package__).joinpath("profile.json").read_text(encoding="utf-8"))

DEFAULT_PROFILE: Profile = _DATA["profile"]
# key -> why the default is a placeholder (shown to hosts; see README).
PLACEHOLDERS: dict[str, str] = _DATA["placeholders"]
TRACK_COLOURS = ("gold", "red", "green")
# R1.5: the box holds 7 black dice and each round puts one at the city (R2.2), so more than
# 7 rounds would hand out dice that do not exist; R2.1 caps the game at 7 rounds.
MAX_ROUNDS = 7


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(key: str, v: object, low: int, high: int = 10**6) -> None:
    if not _is_int(v) or not low <= v <= high:
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


def _check(key: str, v: object) -> None:
    if key == "track_colors":
        if not isinstance(v, list) or not v or any(c not in TRACK_COLOURS for c in v):
            raise InvalidSetup("profile track_colors must be a non-empty list of gold, red, green")
    elif key == "max_rounds":
        if not _is_int(v) or not 1 <= v <= MAX_ROUNDS:
            raise InvalidSetup(
                f"profile max_rounds must be a whole number from 1 to {MAX_ROUNDS}: a game has at"
                f" most {MAX_ROUNDS} rounds (R2.1), one black die from the supply of"
                f" {MAX_ROUNDS} each (R1.5, R2.2)"
            )
    elif key in ("end_score", "cubes"):
        _int(key, v, 1)
    elif key in ("hut_spaces", "drink_penalty", "chocolatl_points"):
        _int(key, v, 0)
    elif key in ("pyramid_rows", "drink"):
        _pairs(key, v)
        if key == "pyramid_rows" and any(row[0] < 1 for row in cast(list[list[int]], v)):
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


def make_profile(overrides: object = None) -> Profile:
    """The default profile with ``overrides`` applied, checked key by key.

    >>> make_profile({"max_rounds": 8})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.engine.errors.InvalidSetup: profile max_rounds must be ... from 1 to 7: ...(R2.1)...
    """
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, dict):
        raise InvalidSetup("profile must be an object")
    for key, value in overrides.items():
        _check(key, value)
    # Every key was checked above, so the merged mapping is a whole, valid profile.
    return cast(Profile, {**clone(DEFAULT_PROFILE), **clone(overrides)})


def track_colour(profile: Profile, box: int) -> TrackColour:
    """Colour of score box ``box`` (R2.3): ``track_colors[box % len]``.

    >>> track_colour(DEFAULT_PROFILE, 0), track_colour(DEFAULT_PROFILE, 4)
    ('red', 'gold')
    """
    colours = profile["track_colors"]
    return colours[box % len(colours)]
