"""Folding a step's told events onto the public view (the screens' board part-way through a
step) gives the engine's own answer, whoever folds it: the live show, the replay, the LED board.

Every random game's every step is folded whole onto the view before it and compared with the
engine's view after it: scores, huts, dice, cubes used (R6.4: a hut takes a cube; a cube that
finds the pyramid full uses none, R5.4), dice spent at a ranking (R3.2), the track (R6.1) and
the pyramid.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from companion.engine import apply, new_game, view, visible_events
from companion.players.randomplay import random_command, random_players
from companion.table import show
from companion.web.replay import step_view

PLAYER_FIELDS = ("score", "huts", "dice", "cubes_used")
SEEDS = range(10)


def steps(seed: int) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]]:
    """(public view before, public events, public view after) of each step of a random game."""
    rng = random.Random(seed)
    players = random_players(3 + seed % 3)
    state = new_game(players, players)
    while not state["finished"]:
        before = dict(view(state, None))
        state, events = apply(state, random_command(state, rng))
        told = [{k: v for k, v in e.items() if k != "text"} for e in visible_events(events, None)]
        yield before, told, dict(view(state, None))


def board(v: dict[str, Any]) -> dict[str, Any]:
    """What the events of a step move on the board."""
    return {
        "players": {p: {k: ps[k] for k in PLAYER_FIELDS} for p, ps in v["players"].items()},
        "track": {box: list(stack) for box, stack in v["track"].items() if stack},
        "pyramid": v["pyramid"],
    }


def before_view() -> dict[str, Any]:
    """The public view of a new three-player game (a station's events are folded onto it)."""
    return dict(view(new_game(["ana", "ben", "cleo"], ["ana", "ben", "cleo"]), None))


HUT = [{"type": "city_choice", "player": "ana", "choice": "hut"},
       {"type": "hut", "player": "ana", "huts": 1}]  # fmt: skip
FULL_CUBE = [{"type": "cube", "player": "ben", "row": None, "cell": None}]
RANKED_DICE = [
    {
        "type": "ranking",
        "station": 5,
        "entries": [{"player": "cleo", "dice": [4, 2], "place": 1},
                    {"player": "ana", "dice": [], "place": 2}],
        "ties": [],
        "order": ["cleo", "ana"],
    }
]  # fmt: skip


def folds() -> dict[str, Any]:
    """Every way the server folds told events onto a view (one, once they agree)."""
    return {
        "show.staged": lambda before, events: show.staged(before, before, events, False),
        "replay.step_view": step_view,
    }


@pytest.mark.parametrize("fold", sorted(folds()))
def test_a_hut_takes_a_cube(fold: str) -> None:
    """R6.4: building a hut uses one of the builder's cubes (engine: build_hut)."""
    before = before_view()
    before["players"]["ana"]["dice"] = 0
    out = folds()[fold](before, HUT)
    assert out["players"]["ana"]["huts"] == 1
    assert out["players"]["ana"]["cubes_used"] == 1


@pytest.mark.parametrize("fold", sorted(folds()))
def test_a_cube_on_a_full_pyramid_uses_none(fold: str) -> None:
    """R5.4: a cube that finds no free cell is not placed and not used (engine: place_cube)."""
    out = folds()[fold](before_view(), FULL_CUBE)
    assert out["players"]["ben"]["cubes_used"] == 0


@pytest.mark.parametrize("fold", sorted(folds()))
def test_dice_rolled_at_a_ranking_are_spent(fold: str) -> None:
    """R3.2: the dice a player rolled at a station leave the player."""
    before = before_view()
    before["players"]["cleo"]["dice"] = 3
    out = folds()[fold](before, RANKED_DICE)
    assert out["players"]["cleo"]["dice"] == 1
    assert out["players"]["ana"]["dice"] == before["players"]["ana"]["dice"]


@pytest.mark.parametrize("fold", sorted(folds()))
def test_every_step_of_random_games_folds_to_the_engine_view(fold: str) -> None:
    wrong: list[str] = []
    checked = 0
    for seed in SEEDS:
        for n, (before, events, after) in enumerate(steps(seed), start=1):
            if not events:
                continue
            checked += 1
            got = board(folds()[fold](before, events))
            if got != board(after) and len(wrong) < 5:
                kinds = sorted({e["type"] for e in events})
                wrong.append(f"seed {seed} step {n} ({', '.join(kinds)})")
    assert checked > 500
    assert not wrong, f"{fold} differs from the engine at: {'; '.join(wrong)}"
