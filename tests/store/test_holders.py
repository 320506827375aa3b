"""Who held a seat in which rounds is read from the log alone (store/results.py ``by_round``,
also used by the version-3 migration without an engine replay): its round of every player's
move is the engine's, in random whole games (the setup's cards and dice, in any order (R2.2),
belong to no player)."""

from __future__ import annotations

import random

import pytest

from companion.engine import apply, new_game
from companion.players.random_games import random_document
from companion.store.results import by_round, credited, seat_holders
from companion.store.rows import TakeoverRow


@pytest.mark.parametrize("seed", range(12))
def test_rounds_read_from_the_log_are_the_engines(seed: int) -> None:
    doc = random_document(random.Random(seed), 3 + seed % 3)
    state = new_game(doc["players"], doc["stack"], doc.get("profile"))
    engine_rounds = []
    for command in doc["commands"]:
        engine_rounds.append(max(1, state["round"]))
        state, _ = apply(state, command)
    logged = [(n, c, f"seat:{c.get('player')}") for n, c in enumerate(doc["commands"])]
    moves = [i for i, c in enumerate(doc["commands"]) if "player" in c]
    read = by_round(logged)
    assert [read[i][0] for i in moves] == [engine_rounds[i] for i in moves]
    assert read[-1][0] == state["round"] >= 2


def test_a_companion_round_and_a_takeover() -> None:
    """Ana holds her seat for round 1 and a companion player round 2; Bert takes the seat
    over from round 3 on: three holders, Bert credited (most rounds)."""
    seats = [{"seat": "a", "name": "Ana", "colour": "green"}]
    logged = []
    for source in ("seat:a", "bot:a:strong", "seat:a", "seat:a"):  # rounds 1 to 4
        logged.append((len(logged), {"type": "harvest"}, "dealer"))
        logged.append((len(logged), {"type": "bid", "player": "a"}, source))
    takeover = TakeoverRow(seat="a", n=4, name="Bert", colour="blue")
    held = seat_holders(seats, by_round(logged), [takeover])["a"]
    assert held == [
        {"name": "Ana", "colour": "green", "companion": None, "rounds": [1]},
        {"name": "Ana", "colour": "green", "companion": "strong", "rounds": [2]},
        {"name": "Bert", "colour": "blue", "companion": None, "rounds": [3, 4]},
    ]
    assert credited(held) == 2
