"""Copies of plain JSON data: the state, views and profiles are dicts and lists of numbers,
strings and None, so a copy only needs to rebuild the containers."""

from __future__ import annotations

from typing import Any, TypeVar, cast

T = TypeVar("T")
_CONTAINERS = (dict, list)


def clone(value: T) -> T:
    """A copy of plain JSON data (dicts and lists copied, numbers and strings shared).

    >>> a = {"x": [1, 2]}
    >>> b = clone(a)
    >>> b["x"].append(3)
    >>> a
    {'x': [1, 2]}
    """
    return cast(T, _copy(value))


def _copy(value: Any) -> Any:
    # Every command copies the game's state (and every frame a view's parts), so this is one
    # of the hottest loops of the server and of the players' searches: leaves are shared
    # without a call, and the containers' exact types are tested first (JSON data has no
    # subclasses; anything else goes the general way).
    kind = type(value)
    if kind is dict:
        return {k: _copy(v) if isinstance(v, _CONTAINERS) else v for k, v in value.items()}
    if kind is list:
        return [_copy(v) if isinstance(v, _CONTAINERS) else v for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
