"""A replay that plays: each command comes up as the live show put it up, one frame with the
command's events (nothing private: R2.7, R1.2) and a ``show`` block made as the live stage
makes it, so the display walks through the same beats for the same seconds (DESIGN.md "The
show"). Bad play requests change nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest
from shapes import check_typeddict

from companion.engine import visible_events
from companion.engine.story import game_story
from companion.players.random_games import random_document
from companion.table import frame_types as ft
from companion.table import show
from companion.table.replay_frames import chapters as render_chapters
from companion.table.replay_frames import replay_frames, replay_steps
from companion.table.staging import beat_views
from companion.web.replay_sessions import BadPlay, Replay, move

COLOURS = ["orange", "sky", "green", "yellow", "blue"]


class Screen:
    """What an attached display receives (the replay only calls ``send``)."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []

    def send(self, frame: dict[str, Any]) -> bool:
        self.frames.append(frame)
        return True


def _replay(seed: int, players: int) -> tuple[Replay, Screen, list[list[dict[str, Any]]]]:
    doc = random_document(random.Random(seed), players)
    seats = [
        {"seat": p, "name": p.title(), "colour": c}
        for p, c in zip(doc["players"], COLOURS, strict=False)
    ]
    frames = replay_frames(
        table="1",
        title="Table 1",
        lang="en",
        game_id=1,
        document=doc,
        seats=seats,
        commands=doc["commands"],
        status="finished",
    )
    steps = replay_steps(doc, doc["commands"])
    replay = Replay(frames, steps)
    screen = Screen()
    replay.conns.append(screen)
    return replay, screen, steps


@pytest.mark.parametrize(("seed", "players"), [(4, 3), (23, 5)])
def test_playing_shows_each_command_with_the_live_beats(seed: int, players: int) -> None:
    replay, screen, steps = _replay(seed, players)
    kinds: set[str] = set()
    step = 0
    for n, events in enumerate(steps, start=1):
        answer = replay.play(step + 1, "normal")
        frame = screen.frames[-1]
        # The command's last frame, with all its events, the show block as the live stage's.
        assert answer["step"] == replay.step == step + max(1, len(events))
        # With each beat's view staged on the server as the live show stages it.
        game = dict(frame["game"])
        staged = game.pop("staged", None)
        assert game == replay.frames[answer["step"]]["game"]
        told = frame["events"]
        beats = show.beats(events, "normal")
        before = replay.frames[step]["game"]["view"]
        assert staged == (beat_views(before, game["view"], told, beats) if beats else None)
        assert frame["show"] == show.block(steps, n, "normal", 0.0) == answer["show"]
        # The same beats as the live show's for the same events (a summary adds its rankings,
        # a station whose decision is the next step names it: next).
        plain = [
            {k: v for k, v in b.items() if k not in ("rankings", "untold", "next")}
            for b in frame["show"]["beats"]
        ]
        assert plain == beats
        assert [b["untold"] for b in frame["show"]["beats"]] == [
            len(events) - show.told(events, beats, i) for i in range(len(beats))
        ]
        assert frame["show"]["hold"] == show.hold(events, "normal")
        assert frame["show"]["step"] == n and frame["show"]["more"] == (n < len(steps))
        assert frame["reason"] == "command"
        assert frame["events"] == [
            {k: v for k, v in e.items() if k != "text"} for e in visible_events(events, None)
        ]
        # The log as before the command (the display adds the command's events to it).
        assert frame["history"] == replay.frames[step]["history"]
        # Played in order, every command follows the last: no view in between.
        assert len([f for f in screen.frames if "show" not in f]) == 0
        kinds |= {b["kind"] for b in frame["show"]["beats"]}
        step = answer["step"]
    assert step == len(replay.frames) - 1
    assert {"station", "summary", "final_line", "winner"} <= kinds
    # A summary beat carries the round's rankings, as the live stage's (R3.3).
    summary = next(b for f in screen.frames for b in f["show"]["beats"] if b["kind"] == "summary")
    assert summary["rankings"] and all(r["type"] == "ranking" for r in summary["rankings"])


def test_no_private_field_of_a_bid_reaches_the_display() -> None:
    replay, screen, steps = _replay(11, 4)
    step = 0
    while step < len(replay.frames) - 1:
        step = replay.play(step + 1, "quick")["step"]
    for frame in screen.frames:
        for e in frame["events"]:
            for field in e.get("private") or []:
                assert field not in e, (e["type"], field)


def test_playing_from_the_middle_of_a_command_skips_the_beats_already_read() -> None:
    replay, screen, steps = _replay(4, 3)
    # A command that resolves at least two stations (the last bid of a round).
    n = next(
        i for i, ev in enumerate(steps, start=1) if sum(e["type"] == "ranking" for e in ev) >= 2
    )
    events = steps[n - 1]
    start = 1 + sum(max(1, len(e)) for e in steps[: n - 1])
    second = [i for i, e in enumerate(events) if e["type"] == "ranking"][1]
    replay.show(start + second - 1)  # the step before the second station's ranking
    screen.frames.clear()
    answer = replay.play(start + second, "test:2")
    before, shown = screen.frames
    # The view before the command first (the display stages the beats on it), then the show
    # frame already past the beats of the events told before this step.
    assert before["game"] == replay.frames[start - 1]["game"] and "show" not in before
    assert shown["show"]["elapsed"] == show.hold(events[:second], "test:2") > 0
    assert answer["step"] == start + len(events) - 1
    # Paused: the same frame again, frozen at its elapsed seconds; no view before it this time.
    screen.frames.clear()
    replay.play(answer["step"], "test:2", elapsed=1.25, paused=True)
    assert [f["show"]["elapsed"] for f in screen.frames] == [1.25]
    assert screen.frames[0]["show"]["paused"] is True
    assert replay.step == answer["step"]


def test_bad_play_requests_change_nothing() -> None:
    replay, screen, _ = _replay(4, 3)
    replay.show(7)
    screen.frames.clear()
    for body, error in [
        ({"to": 8, "pace": "bogus"}, "bad_play"),
        ({"to": 8, "pace": f"test:{show.TEST_MAX_S + 1:g}"}, "bad_play"),
        ({"to": 8, "pace": "quick", "elapsed": -1}, "bad_message"),
        ({"to": 8, "pace": "quick", "elapsed": "2"}, "bad_message"),
        ({"to": 8, "pace": "quick", "paused": "yes"}, "bad_message"),
        ({"to": "8", "pace": "quick"}, "bad_message"),
        (None, "bad_message"),
    ]:
        answer, status = move(replay, body)
        assert status == 400 and answer["error"] == error, body
        assert answer["reason"]
    assert replay.step == 7 and screen.frames == []
    with pytest.raises(BadPlay, match="without the game's steps"):
        Replay(replay.frames).play(3, "quick")
    answer, status = move(replay, {"to": 9})  # a plain step still just shows the step
    assert status == 200 and answer["step"] == 9 and "show" not in screen.frames[-1]


def test_a_display_that_comes_mid_play_joins_the_beat_and_leaves_the_others_alone() -> None:
    replay, screen, steps = _replay(4, 3)
    n = next(i for i, ev in enumerate(steps, start=1) if show.hold(ev, "quick") > 0)
    start = 1 + sum(max(1, len(e)) for e in steps[: n - 1])
    shown = replay.play(start, "quick")
    seen = len(screen.frames)
    late = Screen()
    replay.attach(late)  # type: ignore[arg-type] - anything with send() is a display here
    assert len(screen.frames) == seen  # the first display's beat runs on undisturbed
    (frame,) = late.frames
    assert frame["show"]["step"] == n and frame["replay"]["step"] == shown["step"]
    assert 0 <= frame["show"]["elapsed"] <= frame["show"]["hold"]
    assert frame["events"] == screen.frames[-1]["events"]


@pytest.mark.parametrize(("seed", "players"), [(8, 4), (31, 5)])
def test_every_replay_frame_and_chapter_has_its_declared_shape(seed: int, players: int) -> None:
    """What a replay's display receives, stepped and played, is held to ``ReplayFrame`` (and
    the jump list to ``Chapter``): the type checker trusts those types, so a key the page
    reads that the frames lack, or one they carry that is not declared, fails here."""
    replay, screen, steps = _replay(seed, players)
    for step in range(0, len(replay.frames), 7):
        replay.show(step)
    step = 0
    while step < len(replay.frames) - 1:
        step = replay.play(step + 1, "quick")["step"]
    kinds = {frame["reason"] for frame in screen.frames}
    assert kinds == {"replay", "command"}
    for i, frame in enumerate(screen.frames):
        check_typeddict(frame, ft.ReplayFrame, f"sent frame {i}")
    chapters = render_chapters(replay.frames)
    last_round = replay.frames[-1]["game"]["view"]["round"]
    assert [c["round"] for c in chapters if c["station"] is None] == list(range(1, last_round + 1))
    for i, chapter in enumerate(chapters):
        check_typeddict(chapter, ft.Chapter, f"chapter {i}")


def test_played_to_the_winner_the_replay_tells_the_story_as_live() -> None:
    """The command that names the winner, played, carries the game's story and says when it
    may come up (``show.story_at``: after the winner's moment), as the live display's frame
    does; no other command carries it, and the end shown by hand (a step, not played) is the
    final scoring without it."""
    doc = random_document(random.Random(4), 3)
    story = game_story(doc)
    replay, screen, steps = _replay(4, 3)
    told = Replay(replay.frames, steps, story)
    told.conns.append(screen)
    last = len(replay.frames) - 1
    answer = told.play(last, "quick")
    frame = screen.frames[-1]
    assert frame["story"] == story and story["players"]
    winner_from = answer["show"]["hold"] - answer["show"]["beats"][-1]["seconds"]
    assert answer["show"]["story_at"] > winner_from  # after the winner's beat began
    assert [b["kind"] for b in frame["show"]["beats"]][-1] == "winner"
    check_typeddict(frame, ft.ReplayFrame, "the winner's frame")
    told.play(1, "quick")
    assert "story" not in screen.frames[-1]
    told.show(last)
    assert "story" not in screen.frames[-1]
    # A replay opened without the story plays its end without one.
    replay.play(last, "quick")
    assert "story" not in screen.frames[-1]


def test_a_game_the_host_ended_tells_its_story_after_its_last_move() -> None:
    """A game the host ended has no winner's moment: played to its last move, the replay
    tells the story at once (its frame says the game is ``ended``, as the live display's
    does when the host ends it); no earlier move carries it."""
    doc = random_document(random.Random(4), 3)
    doc = {**doc, "commands": doc["commands"][:40]}  # the host ended it there
    seats = [
        {"seat": p, "name": p.title(), "colour": c}
        for p, c in zip(doc["players"], COLOURS, strict=False)
    ]
    frames = replay_frames(
        table="1",
        title="Table 1",
        lang="en",
        game_id=1,
        document=doc,
        seats=seats,
        commands=doc["commands"],
        status="ended",
    )
    steps = replay_steps(doc, doc["commands"])
    story = game_story(doc)
    replay = Replay(frames, steps, story)
    screen = Screen()
    replay.conns.append(screen)
    replay.play(len(frames) - 2, "quick")  # a move before the last one (or its last event)
    if replay.step < len(frames) - 1:
        assert "story" not in screen.frames[-1]
    replay.play(len(frames) - 1, "quick")
    frame = screen.frames[-1]
    assert frame["game"]["status"] == "ended" and frame["story"] == story
    assert "story_at" not in frame["show"]
    check_typeddict(frame, ft.ReplayFrame, "the ended game's last frame")
