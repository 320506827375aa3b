"""The table answers what nobody needs to be asked, and tells each seat its own news: a real
Table on a real SQLite store, commands through ``submit`` as the sockets send them.

Round 1 is red and played with real (table) dice, the host typing harvest 1, 2, 3 and the
face-up cards 1 and 1. Everybody sacrifices 0. ana and cleo bid 1+12, 2+11, ... (13 each);
ben bids S1 5+6 (lowest: the old man, R4.1), S2 7+8 and S3 9+10 (first: he takes the city's
die, R5.3), S4 1+2 and S5 3+4 (with the old man 2 and 6: a six still leaves him below 13),
S6 11+12 (22: out of everybody's reach).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.engine.bonusdice import nothing_to_decide
from companion.store import Store
from companion.table import Table
from companion.table.dealer import NO_CHOICE, NO_DICE
from companion.table.news import companion_moves, not_asked
from companion.table.undo import UNDO_EN, UNDO_WHAT, UNDO_WHAT_EN, UndoCheck, undo_check

EVEN = {str(s): [s, 13 - s] for s in range(1, 7)}
BEN = {"1": [5, 6], "2": [7, 8], "3": [9, 10], "4": [1, 2], "5": [3, 4], "6": [11, 12]}


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


_ids = iter(range(10_000))


def seat(t: Table, player: str, command: dict) -> None:
    t.submit(f"seat:{player}", f"c{next(_ids)}", command)


def host(t: Table, command: dict) -> None:
    t.submit("host", f"h{next(_ids)}", command)


def to_station_4(t: Table) -> None:
    """Round 1 up to ben's city choice (he was first at S3)."""
    t.start("table")
    for p in ("ana", "ben", "cleo"):
        seat(t, p, {"type": "sacrifice", "card": 0})
    host(t, {"type": "harvest", "dice": [1, 2, 3]})
    host(t, {"type": "improvements", "cards": [1, 1]})
    for p, bids in (("ana", EVEN), ("ben", BEN), ("cleo", EVEN)):
        seat(t, p, {"type": "bid", "bids": bids})
    assert t.game is not None and t.game.state["pending"] == [{"type": "city", "player": "ben"}]
    seat(t, "ben", {"type": "city", "choice": "die"})


def test_a_holder_whose_place_no_roll_changes_is_answered_no_dice(table: Table) -> None:
    """R3.2, R3.4: at S4 ben holds the die but bids 2 (+6 = 8 < 13): the table answers "no
    dice" for him in the same step, logged with its own source (not ben's, not a companion's),
    and the host cannot undo it as if it were ben's move."""
    to_station_4(table)
    g = table.game
    assert g is not None
    answers = [(c, s) for _, c, s, _ in g.commands if c["type"] == "dice"]
    assert answers[0] == ({"type": "dice", "player": "ben", "count": 0}, NO_DICE)
    assert g.state["players"]["ben"]["dice"] == 1  # kept (R3.2: only used dice leave)
    assert g.state["phase"] != "dice"
    # his pad says why he was not asked
    assert not_asked(g, "ben")[0] == {"station": 4, "place": 3, "kind": "dice"}
    # ana and cleo are within 3 at S4 (13, one of them +1 for the city's hut): one cube each,
    # both in the bottom row, so the first of them is not asked the order either (R5.4)
    first = next(c["first"] for _, c, _, _ in g.commands if c["type"] == "pyramid")
    assert not_asked(g, first) == [{"station": 4, "place": 1, "kind": "pyramid"}]
    if g.commands[-1][2] == NO_DICE:
        assert undo_check(g).key == "undo.no_dice"
    # Stored like every command: a restart replays the same answer.
    again = Table("1", table.store)
    assert again.game is not None and again.game.state == g.state
    assert [c[2] for c in again.game.commands] == [c[2] for c in g.commands]


def test_a_holder_whose_dice_can_matter_is_asked(table: Table) -> None:
    """R3.2: with ben's S4 bid 4+12 (15 against 13 and 14) his first place is settled, but one
    die could make his lead 3 (R5.4): the table waits for him."""
    table.start("table")
    for p in ("ana", "ben", "cleo"):
        seat(table, p, {"type": "sacrifice", "card": 0})
    host(table, {"type": "harvest", "dice": [1, 2, 3]})
    host(table, {"type": "improvements", "cards": [1, 1]})
    ahead = {**BEN, "4": [4, 12], "5": [1, 11], "6": [2, 3]}
    for p, bids in (("ana", EVEN), ("ben", ahead), ("cleo", EVEN)):
        seat(table, p, {"type": "bid", "bids": bids})
    seat(table, "ben", {"type": "city", "choice": "die"})
    g = table.game
    assert g is not None
    assert g.state["pending"] == [{"type": "dice", "player": "ben"}]
    assert not nothing_to_decide(g.state, "ben")
    assert not any(s == NO_DICE for _, _, s, _ in g.commands)
    # Without dice he leads by one: one cube each, both in the bottom row, so the table
    # places his first without asking (R5.4); then S5 asks him (one die could make him 1st).
    seat(table, "ben", {"type": "dice", "count": 0})
    assert g.commands[-1][1:3] == ({"type": "pyramid", "player": "ben", "first": "ben"}, NO_CHOICE)
    assert g.state["pending"] == [{"type": "dice", "player": "ben"}] and g.state["station"] == 5
    assert undo_check(g).key == "undo.no_choice"  # the host cannot undo the table's answer


def test_companion_players_roll_their_own_dice_with_table_dice(table: Table) -> None:
    """R3.2 with real dice: ben decides to use his die at S4, then the host lets a companion
    take his seat. The companion's die is rolled on the server (source dealer), unless the
    host chose to type companion dice in too."""
    table.start("table")
    for p in ("ana", "ben", "cleo"):
        seat(table, p, {"type": "sacrifice", "card": 0})
    host(table, {"type": "harvest", "dice": [1, 2, 3]})
    host(table, {"type": "improvements", "cards": [1, 1]})
    ahead = {**BEN, "4": [4, 12], "5": [1, 11], "6": [2, 3]}
    for p, bids in (("ana", EVEN), ("ben", ahead), ("cleo", EVEN)):
        seat(table, p, {"type": "bid", "bids": bids})
    seat(table, "ben", {"type": "city", "choice": "die"})
    seat(table, "ben", {"type": "dice", "count": 1})
    g = table.game
    assert g is not None and g.state["pending"] == [{"type": "roll", "player": "ben"}]
    table.set_companion_dice("host")
    table.skip_seat("ben")
    assert g.state["pending"] == [{"type": "roll", "player": "ben"}]  # the host types it
    table.set_companion_dice("digital")
    rolls = [(c, s) for _, c, s, _ in g.commands if c["type"] == "roll"]
    assert len(rolls) == 1 and rolls[0][1] == "dealer" and rolls[0][0]["player"] == "ben"
    assert len(rolls[0][0]["values"]) == 1 and 1 <= rolls[0][0]["values"][0] <= 6
    assert table.settings["companion_dice"] == "digital"
    with pytest.raises(ValueError, match="companion dice"):
        table.set_companion_dice("phones")
    assert table.settings["companion_dice"] == "digital"


def test_companion_moves_are_told_to_their_seat_only(table: Table) -> None:
    """The phone that gets its seat back learns what a companion player did for it this
    round (its own moves: R2.4 bids are secret to everybody else)."""
    table.start("table")
    for p in ("ana", "ben", "cleo"):
        seat(table, p, {"type": "sacrifice", "card": 0})
    host(table, {"type": "harvest", "dice": [1, 2, 3]})
    host(table, {"type": "improvements", "cards": [1, 1]})
    seat(table, "ana", {"type": "bid", "bids": EVEN})
    table.skip_seat("ben")  # the plain companion bids for ben at once
    g = table.game
    assert g is not None
    moves = companion_moves(g, "ben")
    assert [m["type"] for m in moves] == ["bid"]
    assert moves[0]["bids"]["1"] == [1, 2]  # the plain companion's lowest free cards
    assert companion_moves(g, "ana") == [] and companion_moves(g, "cleo") == []
    table.resume_seat("ben")
    assert companion_moves(g, "ben") == moves  # still his news until his phone plays


def test_undo_words_cover_every_key_the_frames_can_send() -> None:
    """The host page words the undo answer from catalogue keys: every key and category the
    table can send exists in English, and the English reason names no event codes."""
    english = json.loads((Path(__file__).parents[2] / "companion/web/i18n/en.json").read_text())
    assert set(UNDO_EN) <= set(english)
    assert {f"undo.what.{w}" for w in UNDO_WHAT_EN} <= set(english)
    assert set(UNDO_WHAT.values()) <= set(UNDO_WHAT_EN)
    text = UndoCheck(
        False, "undo.revealed", {"command": "bid", "player": "ben", "what": ["ranked", "scored"]}
    ).text
    assert text == (
        "the last move (ben's bid) has already revealed or scored something: "
        "a station was ranked, points were scored"
    )
    assert "_" not in text
