"""The table's LED board follows the game: every committed command reaches the (simulated)
board as the picture of the public view, and pulling the board out mid-game loses nothing."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from waiting import wait_for

from companion.board.follow import TableBoard, idle_view
from companion.engine import DEFAULT_PROFILE, view
from companion.leds import assign_colours, load_layout, render
from companion.leds.vision import screen_hex
from companion.players.random_games import random_command
from companion.store import Store
from companion.table import Table

LAYOUT = load_layout()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    store = Store(tmp_path / "db.sqlite3")
    t = Table("1", store)
    for name, colour in (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green")):
        t.join(t.join_secret, name, colour)
    try:
        yield t
    finally:
        store.close()


@pytest.fixture
def board(table: Table) -> Iterator[TableBoard]:
    b = TableBoard(table, "sim").start()
    try:
        yield b
    finally:
        b.close()


def expected_picture(table: Table) -> bytes:
    state = table.game.state
    chosen = {s.seat: s.colour for s in table.seats}
    colours = assign_colours(list(state["players"]), chosen, LAYOUT.player_colours)
    # Three players never share a box beyond its three LEDs and stay on the first lap here,
    # so the picture does not depend on the time.
    return render(view(state, None), LAYOUT, colours, 0.0, [])


def play(table: Table, rng: random.Random, commands: int) -> None:
    for n in range(commands):
        state = table.game.state
        if state["finished"]:
            return
        mine = [e for e in state["pending"] if "player" in e]
        cmd = random_command({**state, "pending": mine}, rng)
        table.submit("seat:" + cmd["player"], f"c{rng.random()}-{n}", cmd)


def test_the_board_shows_the_public_view_after_every_step(table: Table, board: TableBoard) -> None:
    table.start("digital")
    rng = random.Random(5)
    for _ in range(6):
        play(table, rng, 4)
        assert max(p["score"] for p in table.game.state["players"].values()) < LAYOUT.boxes
        want = expected_picture(table)
        assert wait_for(lambda w=want: board.service.simulated_pixels() == w)


def test_the_display_gets_the_board_status_with_the_simulated_leds(
    table: Table, board: TableBoard
) -> None:
    table.start("digital")
    play(table, random.Random(2), 8)
    want = expected_picture(table)

    def shown() -> bool:
        status = table.board_status or {}
        pixels = status.get("pixels") or []
        # The display gets the screen colours the lit LEDs stand for (cap and light undone).
        return pixels == screen_hex(want, LAYOUT.brightness_cap)

    assert wait_for(shown)
    status = table.board_status
    assert status["mode"] == "simulated" and status["connected"] is True
    assert status["layout"]["led_count"] == LAYOUT.led_count
    assert len(status["layout"]["track"]) == LAYOUT.boxes
    # Nothing in the status changes by itself (no counters), so no frame per second.
    assert set(status["link"]) <= {"state", "port", "firmware", "version", "last_error"}


def test_unplugging_mid_game_loses_nothing_and_the_picture_comes_back(
    table: Table, board: TableBoard
) -> None:
    table.start("digital")
    rng = random.Random(9)
    play(table, rng, 6)
    assert wait_for(lambda: board.service.simulated_pixels() == expected_picture(table))
    board.service.unplug()
    assert wait_for(lambda: not (table.board_status or {}).get("connected", True))
    seq_before = table.game.seq
    play(table, rng, 10)  # the game goes on without the board
    assert table.game.seq > seq_before
    board.service.replug()
    want = expected_picture(table)
    assert wait_for(lambda: board.service.simulated_pixels() == want)
    assert wait_for(lambda: (table.board_status or {}).get("connected") is True)


def test_a_new_game_clears_the_board_back_to_the_empty_track(
    table: Table, board: TableBoard
) -> None:
    table.start("digital")
    play(table, random.Random(4), 6)
    assert wait_for(lambda: board.service.simulated_pixels() == expected_picture(table))
    table.end_game()
    table.new_game()
    assert table.game is None
    empty = render(
        idle_view(DEFAULT_PROFILE["track_colors"], DEFAULT_PROFILE["pyramid_rows"]),
        LAYOUT,
        {},
        0.0,
        [],
    )
    assert any(empty)  # the empty track still shows its dimmed box colours
    assert wait_for(lambda: board.service.simulated_pixels() == empty)


def test_board_status_goes_to_the_display_alone(table: Table) -> None:
    """A new board status is a ``board`` frame to each display, the status alone (no view:
    its pictures change many times a step); the host's and the phones' pages draw no board
    and get nothing."""
    from flask import Flask

    from companion.web.connections import Connection
    from companion.web.hub import Hub
    from companion.web.pages import bp as pages_bp
    from companion.web.sockets import bp as sockets_bp

    class Recorder(Connection):
        def __init__(self, role: str, seat: str | None = None) -> None:
            super().__init__(role, seat)
            self.frames: list[dict] = []

        def _send(self, text: str) -> None:
            import json

            self.frames.append(json.loads(text))

    app = Flask(__name__)
    app.register_blueprint(pages_bp)
    app.register_blueprint(sockets_bp)
    hub = Hub(table, app.url_map.bind("localhost"), "http://127.0.0.1:1")
    display, host = Recorder("display"), Recorder("host")
    phone = Recorder("seat", table.seats[0].seat)
    for conn in (display, host, phone):
        hub.attach(conn)
    for conn in (display, host, phone):
        conn.frames.clear()  # the hellos and the seats' news
    status = {"mode": "simulated", "connected": True, "detail": "simulated"}
    table.set_board_status(status)  # type: ignore[arg-type]
    assert display.frames == [{"type": "board", "board": status}]
    assert host.frames == [] and phone.frames == []
    table.set_board_status(dict(status))  # type: ignore[arg-type]
    assert len(display.frames) == 1  # the same status again: nothing
