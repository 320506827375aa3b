"""Who ended a game early is kept with it (``games.ended_by``, schema version 5): after a
restart the screens still say the café closed a game its admin closed, not the host."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cafe import Cafe, TableConfig
from companion.store import Store
from companion.table import frames
from companion.table.frames import Links

LINKS = Links(paths={}, join="http://table.lan/j/x", log=lambda game_id: f"/log/{game_id}")
PLAYERS = (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green"))


def _cafe(db: Path) -> Cafe:
    return Cafe(Store(db), [TableConfig("1")], pace="instant")


def _close(cafe: Cafe) -> None:
    cafe.close()
    cafe.store.close()


def _ended_by(cafe: Cafe) -> dict[str, object]:
    """What the display and each seat's phone are told about the game's end."""
    table = cafe.tables["1"]
    snap = table.snapshot()
    told: dict[str, object] = {}
    for audience in [("display", None)] + [("seat", s.seat) for s in snap.seats]:
        game = frames.hello(snap, LINKS, audience, set())["game"]
        assert game is not None and game["status"] == "ended"
        told[audience[1] or "display"] = game.get("ended_by")
    return told


@pytest.mark.parametrize("by", ["cafe", "host"])
def test_who_ended_the_game_is_named_the_same_after_a_restart(tmp_path: Path, by: str) -> None:
    db = tmp_path / "companion.sqlite3"
    cafe = _cafe(db)
    try:
        table = cafe.tables["1"]
        for name, colour in PLAYERS:
            table.join(table.join_secret, name, colour)
        table.start("digital")
        table.end_game(by=by)
        before = _ended_by(cafe)
        game_id = table.game.id
    finally:
        _close(cafe)
    assert set(before.values()) == {by}

    cafe = _cafe(db)  # the server starts again on the same file
    try:
        assert cafe.tables["1"].game.id == game_id
        assert _ended_by(cafe) == before
    finally:
        _close(cafe)


def test_a_game_that_went_back_to_playing_forgets_who_ended_it(tmp_path: Path) -> None:
    """Only an ended game names who ended it; the column follows the status."""
    store = Store(tmp_path / "companion.sqlite3")
    try:
        store.create_table("1", "j", "h", {})
        gid = store.create_game("1", {"players": ["a", "b", "c"]}, [], [], "digital")
        store.set_game_status(gid, "ended", "cafe")
        game = store.game(gid)
        assert game is not None and (game.status, game.ended_by) == ("ended", "cafe")
        store.set_game_status(gid, "playing", "cafe")
        game = store.game(gid)
        assert game is not None and (game.status, game.ended_by) == ("playing", None)
    finally:
        store.close()
