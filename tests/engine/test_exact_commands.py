"""Commands carry exactly their type's fields (SCENARIO.md "Commands"), host inputs carry no
player, and a profile cannot hand out more black dice than the box holds (R1.5, R2.1)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.engine import (
    InvalidSetup,
    MalformedCommand,
    ReplayError,
    apply,
    make_profile,
    new_game,
    replay_document,
    view,
)
from companion.engine.asks import bid_shape, free_cards
from companion.engine.types import COMMAND_FIELDS
from companion.players.random_games import random_command, random_document

PLAYERS = ["ana", "ben", "cleo"]


def _sacrificed() -> dict[str, Any]:
    return {
        "players": PLAYERS,
        "commands": [{"type": "sacrifice", "player": p, "card": i} for i, p in enumerate(PLAYERS)],
    }


def test_a_command_with_an_extra_key_is_refused_and_changes_nothing() -> None:
    """SCENARIO.md "Commands": a key the command's type does not have is named and refused."""
    state = new_game(PLAYERS)
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(MalformedCommand) as info:
        apply(state, {"type": "sacrifice", "player": "ana", "card": 7, "note": "x" * 4000})
    assert "'note'" in str(info.value) and "sacrifice" in str(info.value)
    assert json.dumps(state, sort_keys=True) == before


def test_replay_refuses_a_logged_command_with_an_extra_key() -> None:
    """A game log with junk in a command does not replay: the index and the key are named."""
    document = _sacrificed()
    document["commands"][1]["note"] = "hello"
    with pytest.raises(ReplayError) as info:
        replay_document(document)
    assert info.value.index == 1
    assert "'note'" in info.value.reason


@pytest.mark.parametrize("kind", ["harvest", "improvements"])
@pytest.mark.parametrize("player", ["zed", "ana"])
def test_replay_refuses_a_host_input_carrying_a_player(kind: str, player: str) -> None:
    """R2.2: the harvest dice and improvement cards are the table's, not a player's; a host
    input naming a player (at the table or not) is refused."""
    document = _sacrificed()
    command: dict[str, Any] = (
        {"type": "harvest", "dice": [1, 2, 3]}
        if kind == "harvest"
        else {"type": "improvements", "cards": [13, 10]}
    )
    document["commands"].append(command | {"player": player})
    with pytest.raises(ReplayError) as info:
        replay_document(document)
    assert info.value.index == 3
    assert "'player'" in info.value.reason


def test_replay_refuses_a_roll_from_a_player_not_at_the_table() -> None:
    """R3.2: only a player at the table rolls; a roll for "zed" is refused at every point."""
    rng = random.Random(5)
    document = random_document(rng, 3)
    for index, command in enumerate(document["commands"]):
        if command["type"] == "roll":
            bad = {**document, "commands": document["commands"][:index] + [command]}
            bad["commands"][index] = command | {"player": "zed"}
            with pytest.raises(ReplayError) as info:
                replay_document(bad)
            assert "zed" in info.value.reason
            return
    pytest.fail("the random game had no roll")


@pytest.mark.parametrize("kind", sorted(COMMAND_FIELDS))
def test_every_command_type_refuses_an_extra_key(kind: str) -> None:
    """Each type's own answer is accepted as it is and refused with one more key."""
    rng = random.Random(11)
    state = new_game(PLAYERS)
    for _ in range(2000):
        command = random_command(state, rng)
        if command["type"] == kind:
            assert set(command) == COMMAND_FIELDS[kind]
            with pytest.raises(MalformedCommand) as info:
                apply(state, command | {"extra": 1})
            assert "'extra'" in str(info.value)
            apply(state, command)  # the exact command itself is fine
            return
        state, _ = apply(state, command)
        if state["finished"]:
            state = new_game(PLAYERS)
    pytest.fail(f"no {kind} command came up")


@pytest.mark.parametrize("rounds", [8, 9, 20])
def test_more_rounds_than_black_dice_are_refused(rounds: int) -> None:
    """R1.5 / R2.1 / R2.2: a round puts one of the 7 black dice at the city, so a profile with
    more than 7 rounds is refused with the reason."""
    with pytest.raises(InvalidSetup) as info:
        make_profile({"max_rounds": rounds})
    assert "max_rounds" in str(info.value) and "7" in str(info.value)
    with pytest.raises(InvalidSetup):
        new_game(PLAYERS, profile={"max_rounds": rounds})


def test_seven_rounds_stay_allowed() -> None:
    """R2.1: 1 to 7 rounds are fine."""
    assert make_profile({"max_rounds": 7})["max_rounds"] == 7
    assert make_profile({"max_rounds": 1})["max_rounds"] == 1


def test_the_view_carries_the_bid_shape_of_every_step() -> None:
    """R2.4-R2.6: while a bid is awaited each seat's view says the stations and the cards a
    station; the bid built from it is accepted."""
    rng = random.Random(3)
    seen: set[str] = set()
    for seed in range(40):
        state = new_game(PLAYERS)
        rng = random.Random(seed)
        while not state["finished"]:
            v = view(state, "ana")
            if state["phase"] == "bid":
                assert v["bid_shape"] == bid_shape(state["step"])
                shape = v["bid_shape"]
                seen.add(str(state["step"]))
                if any(e.get("player") == "ana" for e in state["pending"]):
                    free = free_cards(v["players"]["ana"])
                    bids = {
                        s: free[i * shape["cards"] : (i + 1) * shape["cards"]]
                        for i, s in enumerate(shape["stations"])
                    }
                    state, _ = apply(state, {"type": "bid", "player": "ana", "bids": bids})
                    continue
            else:
                assert v["bid_shape"] is None
            state, _ = apply(state, random_command(state, rng))
    assert {"all", "first", "second"} <= seen and seen & {"1", "2", "3", "4", "5", "6"}
