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
from typing import get_args, get_type_hints

import pytest
from shapes import check_typeddict, optional_keys

from companion.engine import apply, new_game, visible_events
from companion.engine import types as engine_types
from companion.engine.types import Event, EventType
from companion.players.random_games import random_command, random_players


def _members() -> dict[str, type]:
    """Each event ``type`` tag and the TypedDict that describes it."""
    out: dict[str, type] = {}
    for member in get_args(Event):
        for tag in get_args(get_type_hints(member)["type"]):
            assert tag not in out, f"{tag} is the tag of two event types"
            out[tag] = member
    return out


MEMBERS = _members()


def check_event(event: object, where: str) -> None:
    assert isinstance(event, dict), f"{where}: {event!r} is not an object"
    member = MEMBERS.get(event.get("type"))  # type: ignore[arg-type]
    assert member is not None, f"{where}: unknown event type {event.get('type')!r}"
    check_typeddict(event, member, f"{where} ({event['type']})")


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
