"""Seats follow the game the screens show, not the one the store has over already.

Companion players and skipped seats can play a game to its end in a moment, while the screens
still show its earlier steps for minutes (DESIGN.md "The show"). Until the end is shown, the
game is running to everybody at the table: the display offers a freed seat ("scan to take
it"), so a phone that scans then takes that seat, rather than a new seat of the lobby that no
game knows; and a seat is not removed or given up as if the table were in its lobby. Once
the end is shown, the lobby's rules are back. A real table in a real SQLite file, its show
on a test clock.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from manual_clock import ManualClock

from companion.cafe import Cafe, TableConfig
from companion.store import Store
from companion.table import TableError

PLAYERS = (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green"))


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Any]:
    """A game every seat of which the autopilot played to its end at once, the screens still
    on its first step (the test's clock stands still)."""
    cafe = Cafe(Store(tmp_path / "db.sqlite3"), [TableConfig("1")], pace="normal")
    try:
        t = cafe.tables["1"]
        for name, colour in PLAYERS:
            t.join(t.join_secret, name, colour)
        t.stage.clock = ManualClock()
        t.start("digital")
        for seat in [s.seat for s in t.seats]:
            t.skip_seat(seat)
        assert t.game.status == "finished"
        assert not t.stage.end_shown(t.game.id)
        yield t
    finally:
        cafe.close()
        cafe.store.close()


def show_the_end(table: Any) -> None:
    stage = table.stage
    for _ in range(10_000):
        if stage.end_shown(table.game.id):
            return
        stage.clock.advance(0.5)
        stage.tick()
    raise AssertionError("the end was never shown")


def test_a_phone_that_scans_before_the_end_is_shown_takes_the_freed_seat(table: Any) -> None:
    freed = table.seats[1].seat
    table.release_seat(freed)
    shown = table.stage.shown_game(table.game)
    assert shown.status == "playing"  # what the display shows: a free seat to scan for
    outcome = table.join(table.join_secret, "Dora", "yellow")
    assert outcome.result is not None and outcome.result["seat"] == freed
    assert len(table.seats) == 3
    taken = table.seat(freed)
    assert (taken.name, taken.colour, taken.state) == ("Dora", "yellow", "phone")
    # With every seat held, another phone is told the game runs (nothing changes).
    before = list(table.seats)
    with pytest.raises(TableError) as refused:
        table.join(table.join_secret, "Eli", "blue")
    assert refused.value.code == "game_running"
    assert table.seats == before


def test_no_seat_is_removed_or_given_up_before_the_end_is_shown(table: Any) -> None:
    seat = table.seats[0].seat
    before = list(table.seats)
    with pytest.raises(TableError) as removed:
        table.remove_seat(seat)
    assert removed.value.code == "bad_state"
    with pytest.raises(TableError) as left:
        table.leave(seat)
    assert left.value.code == "bad_state"
    assert table.seats == before
    # Once the screens have shown the end, the table is in its lobby's rules again.
    show_the_end(table)
    table.remove_seat(seat)
    assert seat not in [s.seat for s in table.seats]
