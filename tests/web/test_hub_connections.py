"""A table's hub and its connections, in process: what a closed connection leaves behind."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from companion.store import Store
from companion.table import Table
from companion.web.connections import Connection
from companion.web.hub import Hub
from companion.web.pages import bp as pages_bp
from companion.web.sockets import bp as sockets_bp


class Quiet(Connection):
    def _send(self, text: str) -> None:
        pass


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Hub]:
    store = Store(tmp_path / "db.sqlite3")
    table = Table("1", store)
    for name, colour in (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green")):
        table.join(table.join_secret, name, colour)
    app = Flask(__name__)
    app.register_blueprint(pages_bp)
    app.register_blueprint(sockets_bp)
    try:
        yield Hub(table, app.url_map.bind("localhost"), "http://127.0.0.1:1")
    finally:
        store.close()


def _look_again_timers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("look-again-") and t.is_alive()]


def test_a_closed_phone_leaves_no_look_again_timer(hub: Hub) -> None:
    """A phone that said the beats hold it is looked at again when they end (a timer); if it
    closes first, the timer goes with it: a café's phones come and go all evening."""
    phone = Quiet("seat", hub.table.seats[0].seat)
    assert hub.attach(phone)
    hub._look_again(phone, 60.0)
    assert len(_look_again_timers()) == 1
    hub.detach(phone)
    assert phone.recheck is None
    for timer in _look_again_timers():
        timer.join(timeout=5)
    assert _look_again_timers() == []
