"""The event types (engine/types.py) say what the engine really emits.

The type checker trusts the TypedDicts; these tests hold them to the events of random games
played through ``apply``: every event's ``type`` names one member of the ``Event`` union,
its keys are that member's (required ones all there), and every value has the declared
type, down to the ``Literal`` reasons and the nested entries. The same holds for the
redacted events every other seat gets (``visible_events``), whose secret fields are the
``NotRequired`` ones.
"""

from __future__ import annotations

import random
import types
import typing
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints

import pytest

from companion.engine import apply, new_game, visible_events
from companion.engine import types as engine_types
from companion.engine.types import Event, EventType
from companion.players.randomplay import random_command, random_players


def _members() -> dict[str, type]:
    """Each event ``type`` tag and the TypedDict that describes it."""
    out: dict[str, type] = {}
    for member in get_args(Event):
        for tag in get_args(get_type_hints(member)["type"]):
            assert tag not in out, f"{tag} is the tag of two event types"
            out[tag] = member
    return out


MEMBERS = _members()


def _check(value: object, hint: Any, where: str) -> None:
    """Raise AssertionError naming ``where`` unless ``value`` has the type ``hint``."""
    origin = get_origin(hint)
    if origin is NotRequired:
        _check(value, get_args(hint)[0], where)
    elif hint is Any:
        return
    elif origin in (Union, types.UnionType):
        errors = []
        for option in get_args(hint):
            try:
                _check(value, option, where)
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
            _check(item, get_args(hint)[0], f"{where}[{i}]")
    elif origin is dict:
        assert isinstance(value, dict), f"{where}: {value!r} is not a dict"
        key_hint, value_hint = get_args(hint)
        for k, v in value.items():
            _check(k, key_hint, f"{where} key")
            _check(v, value_hint, f"{where}[{k!r}]")
    elif typing.is_typeddict(hint):
        _check_typeddict(value, hint, where)
    elif hint is int:
        assert type(value) is int, f"{where}: {value!r} is not an int"
    else:
        assert isinstance(value, hint), f"{where}: {value!r} is not a {hint}"


def optional_keys(hint: Any) -> set[str]:
    """The ``NotRequired`` keys of a TypedDict. Read from the hints: with postponed
    annotations Python 3.11's ``__optional_keys__`` does not see them."""
    hints = get_type_hints(hint, include_extras=True)
    return {k for k, h in hints.items() if get_origin(h) is NotRequired}


def _check_typeddict(value: object, hint: Any, where: str) -> None:
    assert isinstance(value, dict), f"{where}: {value!r} is not an object"
    keys = set(value)
    hints = get_type_hints(hint, include_extras=True)
    required = set(hints) - optional_keys(hint)
    missing = required - keys
    unknown = keys - set(hints)
    assert not missing, f"{where}: {hint.__name__} lacks {sorted(missing)}"
    assert not unknown, f"{where}: {hint.__name__} has no {sorted(unknown)}"
    for k in keys:
        _check(value[k], hints[k], f"{where}.{k}")


def check_event(event: object, where: str) -> None:
    assert isinstance(event, dict), f"{where}: {event!r} is not an object"
    member = MEMBERS.get(event.get("type"))  # type: ignore[arg-type]
    assert member is not None, f"{where}: unknown event type {event.get('type')!r}"
    _check_typeddict(event, member, f"{where} ({event['type']})")


def test_every_tag_is_an_event_type_and_back() -> None:
    assert set(MEMBERS) == set(get_args(EventType))


def test_the_checker_refuses_what_does_not_fit() -> None:
    """The check itself can fail: a wrong value, a missing key, an unknown key."""
    good = {"type": "scored", "player": "ana", "points": 2, "reason": "drink", "from": 1}
    with pytest.raises(AssertionError, match="lacks \\['score'\\]"):
        check_event(good, "e")
    with pytest.raises(AssertionError, match="not one of"):
        check_event({**good, "score": 3, "reason": "luck"}, "e")
    with pytest.raises(AssertionError, match="has no \\['note'\\]"):
        check_event({**good, "score": 3, "note": "x"}, "e")
    with pytest.raises(AssertionError, match="unknown event type"):
        check_event({"type": "sneezed"}, "e")
    check_event({**good, "score": 3}, "e")


@pytest.mark.parametrize("seed", range(12))
def test_random_games_emit_what_the_types_say(seed: int) -> None:
    rng = random.Random(seed)
    players = random_players(3 + seed % 3)
    state = new_game(players)
    seen: set[str] = set()
    for n in range(2000):
        if state["finished"]:
            break
        state, events = apply(state, random_command(state, rng))
        for i, e in enumerate(events):
            check_event(e, f"seed {seed}, command {n}, event {i}")
            seen.add(e["type"])
        for seat in [None, *players]:
            for i, e in enumerate(visible_events(events, seat)):
                check_event(e, f"seed {seed}, command {n}, event {i} for {seat}")
    assert state["finished"], "a random game ends"
    # A whole game meets the common events, the secrets and the final scoring.
    assert {"sacrificed", "bid_placed", "ranking", "scored", "game_over"} <= seen


def test_the_secret_fields_are_the_not_required_ones() -> None:
    """What ``visible_events`` removes is exactly what its type may go without (besides
    the English ``text``)."""
    secret = {tag: optional_keys(m) - {"text"} for tag, m in MEMBERS.items()}
    assert {tag: keys for tag, keys in secret.items() if keys} == {
        "sacrificed": {"card"},
        "bid_placed": {"bids"},
        "dice_decided": {"count"},
    }
    assert optional_keys(engine_types.RankingEntry) == {"place"}
