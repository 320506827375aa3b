"""``apply_made``, the playouts' way into the engine, changes a state exactly as
``apply_in_place`` does for every legal command (R2-R7), only without checking it again and
without the events; ``station_order`` ranks a station exactly as ``rank_station`` (R3.3-R3.5)."""

from __future__ import annotations

import random

import pytest

from companion.engine import NotAwaited, State, apply_in_place, apply_made, copy_state, new_game
from companion.engine.ranking import rank_station, station_order
from companion.players.random_games import random_command, random_players


def random_games(seeds: range) -> list[tuple[State, random.Random]]:
    games = []
    for seed in seeds:
        rng = random.Random(seed)
        players = random_players(3 + seed % 3)
        games.append((new_game(players, rng.sample(players, len(players))), rng))
    return games


@pytest.mark.parametrize("seeds", [range(0, 40), range(40, 80), range(80, 120)])
def test_made_commands_give_the_checked_states(seeds: range) -> None:
    """Every command of 40 random whole games (3 to 5 players, every mode and station, bonus
    dice, huts, the pyramid, the final roll and scoring) on two copies, one path each."""
    kinds: set[str] = set()
    for checked, rng in random_games(seeds):
        made = copy_state(checked)
        while not checked["finished"]:
            command = random_command(checked, rng)
            kinds.add(command["type"])
            apply_in_place(checked, command)
            apply_made(made, command)
            assert made == checked, command
    assert kinds == {
        "sacrifice",
        "harvest",
        "improvements",
        "bid",
        "dice",
        "roll",
        "city",
        "pyramid",
    }


def test_a_made_command_must_be_awaited() -> None:
    state = new_game(["ana", "ben", "cleo"])
    before = copy_state(state)
    with pytest.raises(NotAwaited):
        apply_made(state, {"type": "bid", "player": "ana", "bids": {"1": [0, 1]}})
    assert state == before


def test_station_order_is_the_rankings_order() -> None:
    """At every revealed station of random games, with random bonus dice added (R3.2), and
    with the bids changed to force ties (R3.4 figure, score and stack)."""
    compared = ties = 0
    for state, rng in random_games(range(120, 150)):
        while not state["finished"]:
            apply_in_place(state, random_command(state, rng))
            players = state["players"]
            for key in state["revealed"]:
                if any(len(ps["bids"].get(key, [])) != 2 for ps in players.values()):
                    continue  # a green round's first cards: not a whole bid yet
                trial = copy_state(state)
                if rng.random() < 0.5:
                    for ps in trial["players"].values():  # equal cards: ties everywhere
                        ps["bids"][key] = [3, 3]
                dice = {p: [rng.randint(1, 6)] for p in players if rng.random() < 0.3}
                ranking = rank_station(trial, int(key), dice)
                order, lead = station_order(trial, int(key), dice)
                assert order == ranking["order"]
                totals = [e["total"] for e in ranking["entries"]]
                assert lead == totals[0] - totals[1]
                compared += 1
                ties += bool(ranking["ties"])
    assert compared > 1000 and ties > 300
