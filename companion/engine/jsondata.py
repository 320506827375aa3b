"""Copies of plain JSON data: the state, views and profiles are dicts and lists of numbers,
strings and None, so a copy only needs to rebuild the containers."""

from __future__ import annotations

from typing import TypeVar, cast

T = TypeVar("T")


def clone(value: T) -> T:
    """A copy of plain JSON data (dicts and lists copied, numbers and strings shared).

    >>> a = {"x": [1, 2]}
    >>> b = clone(a)
    >>> b["x"].append(3)
    >>> a
    {'x': [1, 2]}
    """
    if isinstance(value, dict):
        return cast(T, {k: clone(v) for k, v in value.items()})
    if isinstance(value, list):
        return cast(T, [clone(v) for v in value])
    return value
