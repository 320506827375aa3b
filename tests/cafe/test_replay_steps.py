"""A replay walked step by step: the log and the player cards agree at every step (who has
bid, decided or sacrificed; scores, huts, dice, cubes, figure, old man), a replay opens at its
first step, and companion-played seats keep their mark."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.engine import visible_events
from companion.players.random_games import random_document
from companion.table.replay_frames import replay_frames
from companion.web.admin import Replay

COLOURS = ["orange", "sky", "green", "yellow", "blue"]


def _frames(seed: int, players: int, companions: dict[str, str] | None = None) -> list[dict]:
    doc = random_document(random.Random(seed), players)
    seats = [
        {"seat": p, "name": p.title(), "colour": c, "companion": (companions or {}).get(p)}
        for p, c in zip(doc["players"], COLOURS, strict=False)
    ]
    return replay_frames(
        table="1",
        title="Table 1",
        lang="en",
        game_id=1,
        document=doc,
        seats=seats,
        commands=doc["commands"],
        status="finished",
    )


def disagreements(frame: dict[str, Any]) -> list[str]:
    """What the cards of one step say against the log of that step (empty when they agree)."""
    view = frame["game"]["view"]
    history = frame["history"]
    cards = view["players"]
    out = []
    # Scores and huts change only through their events: the round's latest says what the
    # card shows (R6.1, R5.3).
    for field, kind in (("score", "scored"), ("huts", "hut")):
        latest = {e["player"]: e[field] for e in history if e["type"] == kind}
        for p, value in latest.items():
            if cards[p][field] != value:
                out.append(f"{p}: log says {field} {value}, card shows {cards[p][field]}")
    if not history:
        return out
    newest = history[-1]
    p = newest.get("player")
    kind = newest["type"]
    if kind == "bid_placed" and view["bid_status"] is not None and not view["bid_status"][p]:
        out.append(f"log: {p} has bid; card: thinking")
    if kind == "sacrificed" and any(
        e["type"] == "sacrifice" and e.get("player") == p for e in view["pending"]
    ):
        out.append(f"log: {p} has sacrificed; card: still to sacrifice")
    if kind == "dice_decided" and view["dice_window"]:
        if not view["dice_window"]["decided"].get(p, True):
            out.append(f"log: {p} has decided on dice; card: thinking")
    if kind == "die" and cards[p]["dice"] != newest["dice"]:
        out.append(f"log: {p} has {newest['dice']} dice; card: {cards[p]['dice']}")
    if kind == "figure" and view["chocolatl"] != p:
        out.append(f"log: {p} took the figure; card: {view['chocolatl']}")
    if kind == "old_man" and view["old_man"] != p:
        out.append(f"log: {p} took the old man; card: {view['old_man']}")
    if kind == "cube" and newest["row"] is not None:
        if view["pyramid"][newest["row"]][newest["cell"]] != p:
            out.append(f"log: {p} placed a cube; pyramid cell is empty")
    return out


@pytest.mark.parametrize(("seed", "players"), [(4, 3), (11, 4), (23, 5)])
def test_log_and_cards_agree_at_every_step(seed: int, players: int) -> None:
    frames = _frames(seed, players)
    assert len(frames) > 100
    problems = []
    for step, frame in enumerate(frames):
        problems += [f"step {step}: {p}" for p in disagreements(frame)]
        # Nothing secret on the way: the history is what anybody may see.
        assert frame["history"] == visible_events(frame["history"], None)
    assert problems == []


def test_a_mid_command_step_gives_nothing_later_away() -> None:
    """The cards follow the log, but what the command reveals later (cards, rankings) waits."""
    frames = _frames(4, 3)
    for before, frame in zip(frames, frames[1:], strict=False):
        newest = frame["history"][-1] if frame["history"] else None
        if newest and newest["type"] == "bid_placed" and frame["game"]["view"]["revealed"]:
            assert frame["game"]["view"]["revealed"] == before["game"]["view"]["revealed"]


def test_replay_opens_at_the_first_step_and_keeps_companion_marks() -> None:
    doc_players = random_document(random.Random(4), 3)["players"]
    frames = _frames(4, 3, {doc_players[1]: "strong"})
    replay = Replay(frames)
    assert replay.step == 0
    seats = {s["id"]: s for s in frames[0]["seats"]}
    assert seats[doc_players[1]]["companion"] is True
    assert seats[doc_players[1]]["level"] == "strong"
    assert not seats[doc_players[0]]["companion"] and seats[doc_players[0]]["level"] is None
