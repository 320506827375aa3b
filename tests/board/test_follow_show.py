"""The LED board follows the show, not the newest state (DESIGN.md "The show").

A real table in a real SQLite file with its simulated board (``--board sim``: a pseudo-terminal
with the simulated firmware behind it). The players answer on the true state as fast as they
can (as companion players think ahead); while the show holds a station's result, the board
shows that step — never a later one — and catches up when the show does.
"""

from __future__ import annotations

import time
from pathlib import Path

from companion.cafe import Cafe, TableConfig
from companion.engine import view
from companion.players import autopilot
from companion.store import Store

PACE = 1.0


def test_the_board_shows_the_step_the_screens_show(tmp_path: Path) -> None:
    cafe = Cafe(Store(tmp_path / "db.sqlite3"), [TableConfig("1", board="sim")], pace="normal")
    try:
        table = cafe.tables["1"]
        board = cafe.boards[0]
        for name, colour in (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green")):
            table.join(table.join_secret, name, colour)
        table.set_pace(f"test:{PACE}")
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
        # One more answer while it holds (a companion player thinking ahead).
        state = table.game.state
        waiting = [e["player"] for e in state["pending"] if "player" in e]
        if waiting:
            n += 1
            table.submit(f"seat:{waiting[0]}", f"c{n}", autopilot.move(state, waiting[0]))
        with table.lock:
            shown = view(stage.shown_state(), None)
            newest = view(table.game.state, None)
            behind = stage.behind()
        assert behind > 0 and shown != newest
        with board._lock:
            on_board = board._view
        assert on_board == shown  # the shown step, not the newest one
        # The show moves on by itself; the board follows it to the newest state.
        deadline = time.monotonic() + 60 * PACE
        while stage.behind() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert stage.behind() == 0
        with table.lock:
            newest = view(table.game.state, None)
        with board._lock:
            assert board._view == newest
    finally:
        cafe.close()
        cafe.store.close()
