"""Folding a step's told events onto a view (the screens' board part-way through a step) gives
the engine's own answer, and there is one fold: ``companion.table.staging``. The live frames
(each beat's view), the LED board, the replay's mid-command steps and its played steps all
use it; the pages fold nothing (tests/js/show.test.mjs).

Before, three copies (``show.staged``, show.js ``Beat.staged``, the replay's ``step_view``)
gave three answers for the same events: a hut built (R6.4: it takes a cube), a cube on a full
pyramid (R5.4: it uses none), dice rolled at a ranking (R3.2: they are spent). Every random
game's every step is folded whole onto the view before it and compared with the engine's view
after it: scores, huts, dice, cubes used, the track (R6.1) and the pyramid.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from companion.engine import apply, new_game, view, visible_events
from companion.players.random_games import random_command, random_document, random_players
from companion.table import show, staging
from companion.table.replay_frames import replay_frames

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


def fold(before: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """All of ``events`` folded onto ``before`` (the after view only gives what they do not
    speak of: here the same view)."""
    return staging.fold(before, before, events)


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


def test_a_hut_takes_a_cube() -> None:
    """R6.4: building a hut uses one of the builder's cubes (engine: build_hut)."""
    out = fold(before_view(), HUT)
    assert out["players"]["ana"]["huts"] == 1
    assert out["players"]["ana"]["cubes_used"] == 1


def test_a_cube_on_a_full_pyramid_uses_none() -> None:
    """R5.4: a cube that finds no free cell is not placed and not used (engine: place_cube)."""
    out = fold(before_view(), FULL_CUBE)
    assert out["players"]["ben"]["cubes_used"] == 0


def test_dice_rolled_at_a_ranking_are_spent() -> None:
    """R3.2: the dice a player rolled at a station leave the player."""
    before = before_view()
    before["players"]["cleo"]["dice"] = 3
    out = fold(before, RANKED_DICE)
    assert out["players"]["cleo"]["dice"] == 1
    assert out["players"]["ana"]["dice"] == before["players"]["ana"]["dice"]


def test_a_ranking_closes_its_stations_dice_window() -> None:
    """R3.2: once the station's ranking is told, its dice window is over, while the step's
    later stations are up too (the next station's window waits for the step to be read)."""
    before = before_view()
    before["phase"] = "roll"
    before["dice_window"] = {"station": 5, "holders": ["cleo"], "decided": {"cleo": True}}
    assert fold(before, RANKED_DICE)["dice_window"] is None
    other = {**before, "dice_window": {**before["dice_window"], "station": 4}}
    assert fold(other, RANKED_DICE)["dice_window"] == other["dice_window"]


def test_every_step_of_random_games_folds_to_the_engine_view() -> None:
    wrong: list[str] = []
    checked = 0
    for seed in SEEDS:
        for n, (before, events, after) in enumerate(steps(seed), start=1):
            if not events:
                continue
            checked += 1
            if board(fold(before, events)) != board(after) and len(wrong) < 5:
                kinds = sorted({e["type"] for e in events})
                wrong.append(f"seed {seed} step {n} ({', '.join(kinds)})")
    assert checked > 500
    assert not wrong, f"the fold differs from the engine at: {'; '.join(wrong)}"


def test_each_beat_of_a_step_is_staged_by_the_same_fold() -> None:
    """A frame's ``staged`` views are the fold at each beat's ``told`` (the count every frame
    carries for the logs): patched onto the frame's view they give the fold's answer."""
    checked = 0
    for before, events, after in steps(3):
        step_beats = show.beats(events, "quick")
        if len(step_beats) < 2:
            continue
        staged = staging.beat_views(before, after, events, step_beats)
        assert staging.patch(after, staged["before"]) == before
        for i, b in enumerate(step_beats):
            told = show.told(events, step_beats, i)
            expected = staging.at_beat(before, after, events, told, b)
            assert staging.patch(after, staged["beats"][i]) == expected
            checked += 1
    assert checked > 20


def test_the_replay_steps_through_a_command_with_the_same_fold() -> None:
    """A replay's mid-command step is the live show's view with the events so far told."""
    doc = random_document(random.Random(7), 4)
    seats = [{"seat": p, "name": p, "colour": "orange"} for p in doc["players"]]
    frames = replay_frames(
        table="1",
        title="T",
        lang="en",
        game_id=1,
        document=doc,
        seats=seats,
        commands=doc["commands"],
        status="finished",
    )
    state = new_game(doc["players"], doc["stack"])
    k = 1
    for command in doc["commands"]:
        before = dict(view(state, None))
        state, events = apply(state, command)
        after = dict(view(state, None))
        told = visible_events(events, None)
        for j in range(len(events) - 1):
            assert frames[k + j]["game"]["view"] == staging.at_beat(before, after, told, j + 1)
        k += max(1, len(events))
    assert k == len(frames)
