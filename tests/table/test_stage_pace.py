"""A pace change goes on from the beat up now (DESIGN.md "The show", ``show.rebased``).

A real table in a real SQLite file, its show on a test clock. The host may change the pace at
any moment of a step: the screens stay on the beat they show, and a step whose beats are over
stays over. Before, the stage counted the time already spent on the step in the new pace: a
quick step already read became held again for most of a normal beat, so the phone that was
asking its question hid it again (seen in a chaos run: "the table waits for giulietta but the
phone shows no question"), and a slower pace took the screens back a station.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from manual_clock import ManualClock

from companion.cafe import Cafe, TableConfig
from companion.players import autopilot
from companion.store import Store
from companion.table import show


@pytest.fixture
def table(tmp_path: Path) -> Any:
    cafe = Cafe(Store(tmp_path / "db.sqlite3"), [TableConfig("1")], pace="normal")
    try:
        t = cafe.tables["1"]
        for name, colour in (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green")):
            t.join(t.join_secret, name, colour)
        t.set_pace("quick")
        t.stage.clock = ManualClock()
        t.start("digital")
        yield t
    finally:
        cafe.close()
        cafe.store.close()


def up_to_a_step_of_stations(table: Any) -> dict[str, Any]:
    """Answer what the screens ask until a step of two stations or more is just up; its show
    block (the clock stands at its start)."""
    stage, clock = table.stage, table.stage.clock
    for n in range(400):
        info = stage.info()
        if info["elapsed"] == 0 and sum(b["kind"] == "station" for b in info["beats"]) >= 2:
            return info
        with table.lock:
            shown = stage.shown_game(table.game).state
        waiting = [e["player"] for e in shown["pending"] if "player" in e]
        if waiting and stage.behind() == 0 and not stage.holding():
            table.submit(f"seat:{waiting[0]}", f"c{n}", autopilot.move(shown, waiting[0]))
        else:
            clock.advance(info["hold"] - info["elapsed"] if info["beats"] else 0.5)
        stage.tick()
    raise AssertionError("no step put up two stations at once")


def test_a_slower_pace_keeps_the_beat_up_now(table: Any) -> None:
    stage, clock = table.stage, table.stage.clock
    info = up_to_a_step_of_stations(table)
    quick = show.pace_seconds("quick")
    clock.advance(quick * 1.5)  # half way through the second station
    stage.tick()
    assert show.beat_at(info["beats"], stage.info()["elapsed"]) == 1
    table.set_pace("normal")
    after = stage.info()
    normal = show.pace_seconds("normal")
    # The same station, as far into it: not the first station again.
    assert show.beat_at(after["beats"], after["elapsed"]) == 1
    assert after["elapsed"] == pytest.approx(normal * 1.5)
    assert stage.hold_left() == pytest.approx(after["hold"] - normal * 1.5)


def test_a_step_already_read_is_not_held_again_by_a_slower_pace(table: Any) -> None:
    stage, clock = table.stage, table.stage.clock
    info = up_to_a_step_of_stations(table)
    clock.advance(info["hold"] + 0.5)  # every station read: the phones ask
    stage.tick()
    assert not stage.holding()
    for pace in ("normal", "relaxed", "test:60"):
        table.set_pace(pace)
        assert not stage.holding(), pace
        assert stage.hold_left() == 0
        after = stage.info()
        assert after["elapsed"] >= after["hold"]
    # A faster pace after that leaves it over too, and the next step comes at once.
    table.set_pace("quick")
    assert not stage.holding()


def test_a_faster_pace_goes_on_from_the_beat_up_now(table: Any) -> None:
    stage, clock = table.stage, table.stage.clock
    table.set_pace("relaxed")
    info = up_to_a_step_of_stations(table)
    relaxed = show.pace_seconds("relaxed")
    clock.advance(relaxed * 1.25)  # a quarter into the second station
    stage.tick()
    table.set_pace("quick")
    after = stage.info()
    assert show.beat_at(after["beats"], after["elapsed"]) == 1
    assert after["elapsed"] == pytest.approx(show.pace_seconds("quick") * 1.25)
    assert len(after["beats"]) == len(info["beats"])
