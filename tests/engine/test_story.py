"""The story of a game (companion/engine/story.py) on real games: random whole games and the
worked scenarios, checked against the engine's own states."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import companion.engine.flow as flow
from companion.engine import ReplayError, replay_document
from companion.engine.errors import InvalidSetup
from companion.engine.story import TOP_GAINS, Story, game_story
from companion.players.random_games import random_document

SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios").glob("*.json"))


def _random_games() -> list[tuple[str, dict[str, Any]]]:
    games = []
    for seed in range(9):
        k = 3 + seed % 3
        games.append((f"random-{seed}-{k}p", random_document(random.Random(seed), k)))
    return games


GAMES = [(p.stem, json.loads(p.read_text())) for p in SCENARIOS] + _random_games()


def _station_gains_from_states(
    document: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> tuple[list[dict[str, int]], dict[str, Any]]:
    """Every player's score at each station's ranking, taken from the engine's state itself
    (R3.4: before that station's effects), plus the state at the end: an account of the
    station gains that does not read the events the story reads."""
    seen: list[dict[str, int]] = []
    real = flow.rank_station

    def recording(state: dict[str, Any], station: int, rolls: Any) -> Any:
        seen.append({p: ps["score"] for p, ps in state["players"].items()})
        return real(state, station, rolls)

    with monkeypatch.context() as m:
        m.setattr(flow, "rank_station", recording)
        state, _ = replay_document(document, keep_events=False)
    return seen, state


def _check_story(story: Story, document: dict[str, Any], mp: pytest.MonkeyPatch) -> None:
    before, state = _station_gains_from_states(document, mp)
    players = list(state["players"])
    final_scores = {p: state["players"][p]["score"] for p in players}
    # A finished game's chart ends with its final scoring (R7): every final total; the
    # stations' points are the marks before it.
    if state["finished"]:
        assert story["marks"][-1] == {"round": state["round"], "station": 0, "final": True}
        for p in players:
            assert story["series"][p][-1] == state["players"][p]["final"]["total"]
        story = {
            **story,
            "marks": story["marks"][:-1],
            "series": {p: v[:-1] for p, v in story["series"].items()},
        }
    assert not any(m.get("final") for m in story["marks"])
    # Each series ends on that player's track score (R6.1) and starts at 0 (R1.3).
    for p in players:
        assert story["series"][p][0] == 0
        assert story["series"][p][-1] == final_scores[p]
        assert len(story["series"][p]) == len(story["marks"])
    # One point per station played; the station statistics add up to it.
    assert story["played"] == len(before) == len(story["marks"]) - 1
    assert sum(s["played"] for s in story["stations"]) == story["played"]
    for s in story["stations"]:
        assert sum(s["wins"].values()) == s["played"]  # one first place per station (R3.4)
    # Every point scored during play was scored at a station.
    for p in players:
        assert sum(s["points"][p] for s in story["stations"]) == final_scores[p]
    # The series agree with the states at each ranking.
    for i, scores in enumerate(before):
        for p in players:
            assert story["series"][p][i] == scores[p]
    # The biggest swing is the largest single-station gain of the states.
    after = [*before[1:], final_scores]
    gains = [after[i][p] - before[i][p] for i in range(len(before)) for p in players]
    named = [t for t in story["turning_points"] if t["kind"] == "gain"]
    positive = sorted((g for g in gains if g > 0), reverse=True)
    assert [t["points"] for t in named] == positive[:TOP_GAINS]
    for t in named:
        i = story["marks"].index({"round": t["round"], "station": t["station"]})
        assert story["series"][t["player"]][i] - story["series"][t["player"]][i - 1] == t["points"]
        assert story["series"][t["player"]][i] == t["score"]
    # Lead changes: the named player leads alone there, and took it from the one before.
    leads = [t for t in story["turning_points"] if t["kind"] == "lead"]
    rival = None
    for t in leads:
        i = story["marks"].index({"round": t["round"], "station": t["station"]})
        scores = {p: story["series"][p][i] for p in players}
        assert all(scores[t["player"]] > v for p, v in scores.items() if p != t["player"])
        assert t["rival"] == rival and t["player"] != rival
        rival = t["player"]
    # Player statistics against the end state.
    stats = story["players_stats"]
    for p in players:
        ps = state["players"][p]
        assert stats[p]["huts"] == ps["huts"]
        assert stats[p]["cubes"] == sum(row.count(p) for row in state["pyramid"])
        assert stats[p]["dice_taken"] - stats[p]["dice_used"] == ps["dice"]
    station1 = story["stations"][0]["played"]
    assert sum(v["figures"] for v in stats.values()) == station1  # R5.1
    assert sum(v["old_man"] for v in stats.values()) == station1
    # The final scoring's overtaking is told exactly when the track leader did not win (R7).
    finals = [t for t in story["turning_points"] if t["kind"] == "final"]
    if state["finished"]:
        best = max(final_scores.values())
        top = [p for p, v in final_scores.items() if v == best]
        overtaken = len(top) == 1 and best > 0 and top[0] not in state["winners"]
        assert bool(finals) == overtaken
        if finals:
            assert finals[0]["player"] in state["winners"] and finals[0]["rival"] == top[0]
    else:
        assert not finals
    assert story["finished"] == state["finished"]


@pytest.mark.parametrize(("name", "document"), GAMES, ids=[n for n, _ in GAMES])
def test_story_of_whole_games(
    name: str, document: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    story = game_story(document)
    assert story["finished"]
    _check_story(story, document, monkeypatch)
    json.dumps(story)  # goes into frames as it is


def test_the_chart_ends_at_the_final_totals() -> None:
    """The series' last point is the final scoring (R7), not the track: the total the
    winner's headline names. In this game the final lines change every total, so a series
    that stopped at the track would end elsewhere."""
    document = random_document(random.Random(3), 4)
    state, _ = replay_document(document, keep_events=False)
    story = game_story(document)
    totals = {p: ps["final"]["total"] for p, ps in state["players"].items()}
    track = {p: ps["score"] for p, ps in state["players"].items()}
    assert totals != track  # the case the headline and the chart disagreed on
    assert {p: v[-1] for p, v in story["series"].items()} == totals
    assert {p: v[-2] for p, v in story["series"].items()} == track
    assert story["marks"][-1] == {"round": state["round"], "station": 0, "final": True}
    winner = state["winners"][0]
    assert story["series"][winner][-1] == max(totals.values())
    # The stations played are counted without the final mark.
    assert story["played"] == len(story["marks"]) - 2 == sum(s["played"] for s in story["stations"])


@pytest.mark.parametrize("cut", [0.3, 0.6, 0.9])
def test_story_of_an_ended_game(cut: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game the host ended early tells its story up to where it stopped."""
    whole = random_document(random.Random(42), 4)
    document = {**whole, "commands": whole["commands"][: int(len(whole["commands"]) * cut)]}
    story = game_story(document)
    assert not story["finished"]
    _check_story(story, document, monkeypatch)


def test_red_round_drink_is_the_biggest_swing() -> None:
    """red_one_round: station 5 of round 1 pays the drink's 8 (R5.5), more than any harvest
    die (at most 6, R5.2), the last round's tachli (6, R5.6) or a station 1 point (R5.1);
    no row of the pyramid fills in one round (R5.4), so nobody gains more elsewhere."""
    document = json.loads((Path(__file__).parents[1] / "scenarios/red_one_round.json").read_text())
    story = game_story(document)
    top = story["turning_points"][0]
    assert (top["kind"], top["round"], top["station"], top["reason"]) == ("gain", 1, 5, "drink")
    assert top["points"] == 8


def test_a_gap_in_the_log_names_the_command() -> None:
    document = random_document(random.Random(3), 3)
    broken = {**document, "commands": [*document["commands"][:5], {"type": "harvest"}]}
    with pytest.raises(ReplayError, match="command 5"):
        game_story(broken)
    with pytest.raises(InvalidSetup, match="3 to 5 players"):
        game_story({"players": ["ana"], "commands": []})
    with pytest.raises(InvalidSetup, match="commands must be a list"):
        game_story({"players": ["ana", "ben", "cleo"], "commands": "bid"})
