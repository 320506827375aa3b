"""The LED board follows the show, not the newest state (DESIGN.md "The show").

A real table in a real SQLite file with its simulated board (``--board sim``: a
pseudo-terminal with the simulated firmware behind it). The players answer as fast as they
can what the screens ask (the table refuses a move of a step not shown yet); while the show
holds a station's result, the board
shows that step — never a later one — and catches up when the show does.

The show runs on a test clock (``ManualClock``): the test moves it on a quarter beat at a time
and ticks the stage, so every beat is seen in order and no test waits the pace out.
"""

from __future__ import annotations

import time
from pathlib import Path

from manual_clock import ManualClock
from waiting import wait_for

from companion.cafe import Cafe, TableConfig
from companion.engine import view
from companion.players import autopilot
from companion.store import Store
from companion.table import Outcome, show

PACE = 1.0
# Beats that each tell more of a step (a last-round notice comes with its station's result).
TOLD = {"station", "summary"}


def on_test_clock(table: object) -> ManualClock:
    """The table's show on a clock the test moves (set before its game starts)."""
    clock = ManualClock()
    table.stage.clock = clock  # type: ignore[attr-defined]
    return clock


def step_clock(table: object, clock: ManualClock, pace: float) -> None:
    """A quarter beat on: the stage puts up whatever is due then (no beat is skipped)."""
    clock.advance(pace / 4)
    table.stage.tick()  # type: ignore[attr-defined]


def answer_on_screen(table: object, cmd_id: str) -> bool:
    """A phone's answer to what the screens ask now (the show's step), as a player taps it;
    False when they ask nothing of anybody."""
    with table.lock:  # type: ignore[attr-defined]
        shown = table.stage.shown_game(table.game).state  # type: ignore[attr-defined]
    waiting = [e["player"] for e in shown["pending"] if "player" in e]
    if not waiting:
        return False
    move = autopilot.move(shown, waiting[0])
    table.submit(f"seat:{waiting[0]}", cmd_id, move)  # type: ignore[attr-defined]
    return True


def test_the_board_shows_the_step_the_screens_show(tmp_path: Path) -> None:
    cafe = Cafe(Store(tmp_path / "db.sqlite3"), [TableConfig("1", board="sim")], pace="normal")
    try:
        table = cafe.tables["1"]
        board = cafe.boards[0]
        for name, colour in (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green")):
            table.join(table.join_secret, name, colour)
        table.set_pace(f"test:{PACE}")
        clock = on_test_clock(table)
        table.start("digital")
        stage = table.stage
        n = 0
        # Answer on the true state until the show is behind (it holds a resolved station).
        while stage.behind() == 0:
            state = table.game.state
            waiting = [e["player"] for e in state["pending"] if "player" in e]
            assert waiting, "the game ended before the show fell behind"
            n += 1
            table.submit(f"seat:{waiting[0]}", f"c{n}", autopilot.move(state, waiting[0]))
        # One more answer while it holds: what the screens ask already (a phone answers
        # what it is shown; a move of a later step is refused while the show is behind).
        answer_on_screen(table, f"c{n + 1}")
        with table.lock:
            shown = stage._staged(table.game) or view(stage.shown_state(), None)
            newest = view(table.game.state, None)
            behind = stage.behind()
        assert behind > 0 and shown != newest
        with board._lock:
            on_board = board._view
        assert on_board == shown  # the shown step (at its beat), not the newest one
        # The show moves on with its clock; the board follows it to the newest state.
        for _ in range(400):  # 100 beats
            if not stage.behind():
                break
            step_clock(table, clock, PACE)
        assert stage.behind() == 0
        with table.lock:
            newest = view(table.game.state, None)

        # The last step's beats are told one by one too: the board gets there at the last.
        def drawn_newest() -> bool:
            step_clock(table, clock, PACE)
            with board._lock:
                return board._view == newest

        wait_for(drawn_newest, "the board drawing the newest state", 60)
        with board._lock:
            assert board._view == newest
    finally:
        cafe.close()
        cafe.store.close()


def test_the_board_walks_a_steps_stations_beat_by_beat(tmp_path: Path) -> None:
    """A bid that resolves several stations at once is one step; the board tells it as the
    screens do, a station a beat: the station light on the station whose result is up and the
    markers moved as far as that station (R3.3, R6.1), never the step's end before its time."""
    pace = 0.4
    cafe = Cafe(Store(tmp_path / "db.sqlite3"), [TableConfig("1", board="sim")], pace="normal")
    try:
        table = cafe.tables["1"]
        board = cafe.boards[0]
        for name, colour in (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green")):
            table.join(table.join_secret, name, colour)
        table.set_pace(f"test:{pace}")
        clock = on_test_clock(table)
        table.start("digital")
        stage = table.stage
        seen: list[tuple[float, int, dict]] = []  # (the show's time, step, view drawn)

        def record(_table: object, outcome: Outcome) -> None:
            drawn = outcome.shown if outcome.shown is not None else view(outcome.state, None)
            seen.append((clock(), stage.shown, drawn))

        stage.subscribe(record)
        n = 0
        target: tuple[int, list[dict]] | None = None  # (step, its beats)
        deadline = time.monotonic() + 120
        while target is None and time.monotonic() < deadline:
            with table.lock:
                state = table.game.state
                for k in range(stage.shown, len(table.game.events)):
                    beats = show.beats(table.game.events[k], "quick")
                    kinds = [b["kind"] for b in beats]
                    if len(kinds) >= 2 and kinds[0] == "station" and set(kinds) <= TOLD:
                        target = (k + 1, beats)
            assert target is not None or not state["finished"], "no step with several beats"
            if target is None:
                n += 1
                if not answer_on_screen(table, f"c{n}"):
                    step_clock(table, clock, pace)
        assert target is not None, "no step with several beats"
        step, beats = target
        while stage.shown <= step and time.monotonic() < deadline:
            step_clock(table, clock, pace)
        with table.lock:
            end = view(stage._state_at(step), None)
        drawn = [(t, v) for t, s, v in seen if s == step]
        # A drawing a beat; each station beat lights its station (the step's end is only
        # drawn on the last beat).
        # (A next station's cards waiting for a decision or dice turn once the step is read.)
        assert len(beats) <= len(drawn) <= len(beats) + 1, [b["kind"] for b in beats]
        for (_, v), b in zip(drawn[:-1], beats, strict=False):
            assert v != end
            if b["kind"] == "station":
                assert v["station"] == b["station"]
                assert v["round"] == drawn[0][1]["round"]  # the round it belongs to
        assert drawn[-1][1] == end
        # Each beat comes no sooner than the pace after the one before (on the show's clock).
        times = [t for t, _ in drawn]
        assert all(b - a >= pace for a, b in zip(times, times[1:], strict=False)), times
        with table.lock, board._lock:  # the board itself draws what its subscription got
            assert board._view == (stage._staged(table.game) or view(stage.shown_state(), None))
    finally:
        cafe.close()
        cafe.store.close()


def _lamp_game(tmp_path: Path, colour: str, rounds: int) -> list[tuple[list[dict], int, dict]]:
    """Play ``rounds`` rounds of ``colour`` rounds only (R2.3) at a quick test pace; every
    drawing the LED board is given, with the beats of the step up and the beat up then."""
    pace = 0.25
    cafe = Cafe(Store(tmp_path / "db.sqlite3"), [TableConfig("1", board="sim")], pace="normal")
    seen: list[tuple[list[dict], int, dict]] = []
    try:
        table = cafe.tables["1"]
        for name, colour_ in (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green")):
            table.join(table.join_secret, name, colour_)
        table.set_track_colors([colour] * 60)
        table.set_pace(f"test:{pace}")
        clock = on_test_clock(table)
        stage = table.stage

        def record(_table: object, outcome: Outcome) -> None:
            # Called under the table's lock, at the tick that tells the board.
            drawn = outcome.shown if outcome.shown is not None else view(outcome.state, None)
            beats = stage._beats(table.game)
            seen.append((beats, show.beat_at(beats, clock() - stage.reached), drawn))

        stage.subscribe(record)
        table.start("digital")
        n = 0
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            with table.lock:
                state = table.game.state
                caught_up = stage.behind() == 0
            if state["round"] > rounds or state["finished"]:
                break
            waiting = [e["player"] for e in state["pending"] if "player" in e]
            if waiting and caught_up:  # a table answers what its screens show
                n += 1
                table.submit(f"seat:{waiting[0]}", f"c{n}", autopilot.move(state, waiting[0]))
            else:
                step_clock(table, clock, pace)
        # The show catches up: the last step's beats are drawn and read.
        while stage.behind() and time.monotonic() < deadline:
            step_clock(table, clock, pace)
        for _ in range(12):  # three beats more
            step_clock(table, clock, pace)
    finally:
        cafe.close()
        cafe.store.close()
    return seen


def _lamp_problems(seen: list[tuple[list[dict], int, dict]]) -> list[str]:
    """The station light on the station whose result is up, else on the station being
    resolved (its dice window, its city or pyramid decision), else off (bidding)."""
    out = []
    for beats, index, drawn in seen:
        up = beats[index] if index >= 0 else None
        window = (drawn.get("dice_window") or {}).get("station")
        if up is not None and up["kind"] in ("station", "decision"):
            want = up["station"]
        elif up is None and window is not None:
            want = window
        else:
            continue
        if drawn.get("station") != want:
            kinds = [b["kind"] for b in beats]
            out.append(f"light on {drawn.get('station')}, {want} is up (beat {index} of {kinds})")
    return out


def test_the_station_light_follows_the_show_in_gold_rounds(tmp_path: Path) -> None:
    """Gold rounds (R2.6): each station's result is a step of its own, told at once; its light
    is on while the result is up, and off again once the next station's bids are asked."""
    seen = _lamp_game(tmp_path, "gold", 1)
    stations = [
        d.get("station") for beats, i, d in seen if i >= 0 and beats[i]["kind"] == "station"
    ]
    assert set(stations) >= {1, 2, 5}, stations
    assert _lamp_problems(seen) == []
    # Once a gold station's result is read the light is off while bids are asked.
    read = [d for beats, i, d in seen if i < 0 and d.get("phase") == "bid"]
    assert read and all(d.get("station") is None for d in read)


def test_the_station_light_follows_the_show_in_red_rounds(tmp_path: Path) -> None:
    """Red rounds (R2.4): one bid resolves station after station in one step; the light walks
    with the beats and, once they are read, stands on the station whose dice window is open."""
    seen = _lamp_game(tmp_path, "red", 2)
    assert any((d.get("dice_window") or {}).get("station") for _, i, d in seen if i < 0)
    assert _lamp_problems(seen) == []
