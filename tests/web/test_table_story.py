"""A table tells the story of its game once, when the game is over: never while it is played,
the same as its stored log tells, and again the same after a restart (a real SQLite file)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import companion.table.model as model
from companion.engine.story import game_story
from companion.players.random_games import random_command
from companion.store import Store
from companion.table import Table
from companion.table.frames import Links, render

LINKS = Links(paths={}, join="http://table.lan/j/x", log=lambda game_id: f"/log/{game_id}")
AUDIENCES = [("display", None), ("host", None), ("seat", "ana")]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store(tmp_path / "db.sqlite3")
    try:
        yield s
    finally:
        s.close()


def frames(table: Table) -> dict[Any, dict[str, Any]]:
    return render(table.snapshot(), LINKS, AUDIENCES, "command", [], False, set())


def test_the_story_is_told_once_when_the_game_is_over(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    told: list[int] = []

    def counting(document: dict[str, Any]) -> Any:
        told.append(len(document["commands"]))
        return game_story(document)

    monkeypatch.setattr(model, "game_story", counting)
    table = Table("1", store)
    for name, colour in (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green")):
        table.join(table.join_secret, name, colour)
    table.start("digital")
    rng = random.Random(11)
    n = 0
    while not table.game.state["finished"]:
        state = table.game.state
        mine = [e for e in state["pending"] if "player" in e]
        cmd = random_command({**state, "pending": mine}, rng)
        table.submit("seat:" + cmd["player"], f"c{n}", cmd)
        n += 1
        if n % 25 == 0 and not table.game.state["finished"]:
            # Frames while the game is played carry no story (the deal is random: the
            # 25th command may be the last one, and then they do).
            assert all(f.get("story") is None for f in frames(table).values())
    assert told == []  # never during the game
    first = frames(table)
    second = frames(table)
    assert len(told) == 1  # once per game end, however many frames follow
    story = first[("display", None)]["story"]
    assert story is not None and story["finished"]
    assert second[("host", None)]["story"] is story
    assert "story" not in first[("seat", "ana")]  # phones never get it
    # The same story as the game's stored log (SCENARIO.md) tells.
    document = table.log_document(table.game.id)
    assert game_story(document) == story
    # After a restart the table tells it again from the store, the same.
    again = Table("1", store)
    assert again.game is not None and again.game.status == "finished"
    assert again.game.story() == story
    # A new game: back in the lobby, no story.
    table.new_game()
    assert frames(table)[("display", None)]["story"] is None
