"""Does a JSON value have a declared type? A small run-time reading of the TypedDicts,
``Literal``s, unions, lists and dicts the package's shapes are written in (engine/types.py,
table/frame_types.py), so tests can hold real data to the types the type checker trusts.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints


def check(value: object, hint: Any, where: str) -> None:
    """Raise AssertionError naming ``where`` unless ``value`` has the type ``hint``."""
    origin = get_origin(hint)
    if origin is NotRequired:
        check(value, get_args(hint)[0], where)
    elif hint is Any:
        return
    elif origin in (Union, types.UnionType):
        errors = []
        for option in get_args(hint):
            try:
                check(value, option, where)
                return
            except AssertionError as exc:
                errors.append(str(exc))
        raise AssertionError(f"{where}: {value!r} fits none of {hint}: {errors}")
    elif origin is Literal:
        assert value in get_args(hint), f"{where}: {value!r} is not one of {get_args(hint)}"
    elif hint is type(None):
        assert value is None, f"{where}: {value!r} is not None"
    elif origin is list:
        assert isinstance(value, list), f"{where}: {value!r} is not a list"
        for i, item in enumerate(value):
            check(item, get_args(hint)[0], f"{where}[{i}]")
    elif origin is dict:
        assert isinstance(value, dict), f"{where}: {value!r} is not a dict"
        key_hint, value_hint = get_args(hint)
        for k, v in value.items():
            check(k, key_hint, f"{where} key")
            check(v, value_hint, f"{where}[{k!r}]")
    elif typing.is_typeddict(hint):
        check_typeddict(value, hint, where)
    elif hint is object:
        return
    elif hint is int:
        assert type(value) is int, f"{where}: {value!r} is not an int"
    elif hint is float:
        assert type(value) in (int, float), f"{where}: {value!r} is not a number"
    else:
        assert isinstance(value, hint), f"{where}: {value!r} is not a {hint}"


def optional_keys(hint: Any) -> set[str]:
    """The ``NotRequired`` keys of a TypedDict. Read from the hints: with postponed
    annotations Python 3.11's ``__optional_keys__`` does not see them."""
    hints = get_type_hints(hint, include_extras=True)
    return {k for k, h in hints.items() if get_origin(h) is NotRequired}


def check_typeddict(value: object, hint: Any, where: str) -> None:
    """``check`` for a TypedDict: its required keys all there, no other key, each value of
    its declared type."""
    assert isinstance(value, dict), f"{where}: {value!r} is not an object"
    keys = set(value)
    hints = get_type_hints(hint, include_extras=True)
    required = set(hints) - optional_keys(hint)
    missing = required - keys
    unknown = keys - set(hints)
    assert not missing, f"{where}: {hint.__name__} lacks {sorted(missing)}"
    assert not unknown, f"{where}: {hint.__name__} has no {sorted(unknown)}"
    for k in keys:
        check(value[k], hints[k], f"{where}.{k}")
