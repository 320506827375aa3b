"""The café's history tells people from companion players: results, leaderboard and CSV mark
the seats companion players played (and the leaderboard can leave them out); the CSV files
start with a UTF-8 byte-order mark; names keep their case in the host's game list."""

from __future__ import annotations

import csv
import io
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from live_server import Host, LiveServer, Peer, drain, play, seat_phones

from companion.cafe.history import History, games_csv, leaderboard_csv
from companion.store import Store
from companion.store.results import build_result


def _result(players: list[tuple[str, int, str | None]], winner: str) -> dict[str, Any]:
    return {
        "game_id": 1,
        "table": {"name": "1", "title": "Table 1"},
        "status": "finished",
        "started_at": "2026-11-24T10:00:00Z",
        "ended_at": "2026-11-24T11:00:00Z",
        "rounds_played": 7,
        "players": [
            {
                "seat": n.lower(),
                "name": n,
                "colour": "orange",
                "score": s,
                "track": s,
                "winner": n == winner,
                "companion": c,
            }
            for n, s, c in players
        ],
    }


@pytest.fixture
def store(tmp_path: Any) -> Iterator[Store]:
    """A café's store (the leaderboard's results are handed in by the tests)."""
    store = Store(tmp_path / "cafe.sqlite3")
    yield store
    store.close()


def _history(results: list[dict[str, Any]], store: Store) -> History:
    history = History(store)
    history.games = lambda *a, **k: list(reversed(results))  # type: ignore[method-assign]
    return history


def test_leaderboard_marks_companions_apart_and_can_leave_them_out(store: Store) -> None:
    results = [
        _result([("Jürgen", 30, None), ("Ana", 20, "strong"), ("Ben", 5, None)], "Jürgen"),
        # A person called Ana is not merged with the companion player of that name.
        _result([("Ana", 40, None), ("Ben", 25, "good"), ("Jürgen", 1, None)], "Ana"),
    ]
    board = _history(results, store).leaderboard()
    marks = {(r["name"], r["companion"]) for r in board}
    assert marks == {
        ("Jürgen", False),
        ("Ana", True),
        ("Ana", False),
        ("Ben", False),
        ("Ben", True),
    }
    companion_ana = next(r for r in board if r["name"] == "Ana" and r["companion"])
    assert companion_ana["games"] == 1 and companion_ana["wins"] == 0
    people = _history(results, store).leaderboard(people_only=True)
    assert people and not any(r["companion"] for r in people)
    assert {r["name"] for r in people} == {"Jürgen", "Ana", "Ben"}
    # The CSV says so too.
    rows = list(csv.DictReader(io.StringIO(leaderboard_csv(board).removeprefix("\ufeff"))))
    assert {(r["name"], r["companion"]) for r in rows} == {
        (n, "yes" if c else "no") for n, c in marks
    }


def test_csv_files_start_with_a_byte_order_mark_and_keep_umlauts(store: Store) -> None:
    results = [_result([("Jürgen", 30, None), ("Zoë", 20, "plain")], "Jürgen")]
    for text in (games_csv(results), leaderboard_csv(_history(results, store).leaderboard())):
        raw = text.encode("utf-8")
        assert raw.startswith(b"\xef\xbb\xbf"), "spreadsheets need the BOM to read UTF-8"
        assert raw.count(b"\xef\xbb\xbf") == 1
        rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
        assert {r["name"] for r in rows} == {"Jürgen", "Zoë"}
    games = list(csv.DictReader(io.StringIO(games_csv(results).removeprefix("\ufeff"))))
    assert {r["name"]: r["companion"] for r in games} == {"Jürgen": "", "Zoë": "plain"}


def test_result_document_marks_the_seats_companion_players_played() -> None:
    doc = {"players": ["ana", "bo", "cy"]}
    seats = [
        {"seat": "ana", "name": "Ana", "colour": "orange"},
        {"seat": "bo", "name": "Bo", "colour": "sky"},
        {"seat": "cy", "name": "Cy", "colour": "green"},
    ]
    result = build_result(
        table="1",
        title="Table 1",
        game_id=1,
        status="ended",
        created=0,
        ended=1,
        document=doc,
        seats=seats,
        logged=[
            (0, {"type": "sacrifice", "player": "ana", "card": 1}, "seat:ana"),
            (1, {"type": "sacrifice", "player": "bo", "card": 2}, "bot:bo:good"),
            (2, {"type": "sacrifice", "player": "cy", "card": 3}, "seat:cy"),
        ],
    )
    assert {p["name"]: p["companion"] for p in result["players"]} == {
        "Ana": None,
        "Bo": "good",
        "Cy": None,
    }


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A whole game of two people (names with capitals and an umlaut) and a companion."""
    live = LiveServer(tmp_path_factory.mktemp("data"), extra=["--board", "none"]).start()
    try:
        phones = seat_phones(live, "1", ["Jürgen Großmann", "Ana Lucía"])
        display = Peer(f"{live.ws_base}/t/1/ws/display")
        host = Host(live, "1")
        host.hello()
        assert host.act("add_bot", level="plain")["type"] == "ok"
        assert host.act("start", dice="digital")["type"] == "ok"
        play(phones, [display], host, timeout=600)
        drain([display, host, *phones], 0.2)
        bot = next(s for s in display.view["seats"] if s["companion"])
        yield live, host, bot
        for peer in [*phones, display, host]:
            peer.close()
    finally:
        live.stop()


def _wait_history(live: LiveServer, token: str) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        games = requests.get(
            f"{live.base}/admin/api/history", headers={"X-Admin-Token": token}, timeout=10
        ).json()["games"]
        if games:
            return games
        time.sleep(0.1)  # a poll of a condition with a deadline
    raise TimeoutError("the finished game never reached the history")


def test_live_leaderboard_and_csv_mark_the_companion(played: Any) -> None:
    live, _, bot = played
    token = live.admin_token()
    games = _wait_history(live, token)
    marks = {p["name"]: p["companion"] for p in games[0]["players"]}
    assert marks == {"Jürgen Großmann": None, "Ana Lucía": None, bot["name"]: "plain"}

    def board(**params: str) -> list[dict[str, Any]]:
        return requests.get(
            f"{live.base}/admin/api/leaderboard",
            params=params,
            headers={"X-Admin-Token": token},
            timeout=10,
        ).json()["players"]

    assert {r["name"]: r["companion"] for r in board()} == {
        "Jürgen Großmann": False,
        "Ana Lucía": False,
        bot["name"]: True,
    }
    assert {r["name"] for r in board(people_only="1")} == {"Jürgen Großmann", "Ana Lucía"}
    for kind in ("games", "leaderboard"):
        raw = requests.get(
            f"{live.base}/admin/export/{kind}.csv",
            params={"people_only": "1"},
            headers={"X-Admin-Token": token},
            timeout=10,
        ).content
        assert raw.startswith(b"\xef\xbb\xbf")
        assert "Jürgen Großmann" in raw.decode("utf-8-sig")
    lb = requests.get(
        f"{live.base}/admin/export/leaderboard.csv",
        params={"people_only": "1"},
        headers={"X-Admin-Token": token},
        timeout=10,
    ).content.decode("utf-8-sig")
    assert bot["name"] not in lb


def test_host_game_list_keeps_the_names_case(played: Any) -> None:
    _, host, bot = played
    listed = host.hello()["host"]["games"][0]["players"]
    assert listed == ["Jürgen Großmann", "Ana Lucía", bot["name"]]
