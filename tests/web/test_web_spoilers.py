"""Nothing readable runs ahead of the screens, and no race hands a move or a seat to the
wrong party (DESIGN.md "The show", PROTOCOL.md 3.1, 3.2).

A live ``companion serve`` with a paced show: the companion players (and the plain
autopilot) answer on the committed game at once, so the store runs far ahead of what the
display, the phones and the host have been shown. Every reader — a phone's replay link, the
host's log download and results, the café admin's logs, replays, reviews and history, a
learning-mode hint — must answer from what the screens show.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from live_server import Host, LiveServer, Peer, Phone, policy
from waiting import wait_for

SLOW = "test:20"  # seconds a beat stays up: far longer than any check below


@pytest.fixture
def paced(tmp_path: Path) -> Any:
    server = LiveServer(tmp_path / "data", tables=1, extra=["--pace", "normal"]).start()
    try:
        yield server
    finally:
        server.stop()


def stored(server: LiveServer, sql: str, *args: Any) -> Any:
    """One value from the server's own SQLite file, read-only (what the store knows)."""
    db = sqlite3.connect(f"file:{server.data / 'companion.sqlite3'}?mode=ro", uri=True)
    try:
        return db.execute(sql, args).fetchone()[0]
    finally:
        db.close()


def readers(server: LiveServer, game_id: int, ana: dict[str, Any]) -> dict[str, Any]:
    """What every reader of a game that is over answers about ``game_id`` now."""
    host = server.host_token
    admin = {"X-Admin-Token": server.admin_token()}
    base = server.local

    def get(path: str, **kw: Any) -> requests.Response:
        return requests.get(base + path, timeout=10, **kw)

    history = get("/admin/api/history", headers=admin).json()["games"]
    results = get("/t/1/api/results", params={"token": host}).json()["games"]
    return {
        "phone_replay": get(
            f"/t/1/games/{game_id}/replay",
            params={"seat": ana["seat"], "token": ana["token"], "step": 5},
        ).status_code,
        "host_replay": get(f"/t/1/games/{game_id}/replay", params={"token": host}).status_code,
        "host_log": get(f"/t/1/games/{game_id}/log.json", params={"token": host}).status_code,
        "host_results": [g["game_id"] for g in results],
        "admin_log": get(f"/admin/games/{game_id}/log.json", headers=admin).status_code,
        "admin_replay": get(f"/admin/games/{game_id}/replay", headers=admin).status_code,
        "admin_review": get(f"/admin/api/games/{game_id}/review", headers=admin).status_code,
        "admin_history": [g["game_id"] for g in history],
        "state": get("/t/1/api/state").json()["game"]["status"],
    }


def test_a_game_over_in_the_store_is_still_played_until_its_end_is_shown(
    paced: LiveServer,
) -> None:
    """Break 10: the end was readable ~54 s before the screens showed it."""
    server = paced
    ana = server.join("1", "Ana", "orange")
    assert ana["status"] == 200
    host = Host(server, "1")
    host.hello()
    for _ in range(2):
        assert host.act("add_bot", level="plain")["type"] == "ok"
    assert host.act("set_pace", pace=SLOW)["type"] == "ok"
    display = Peer(f"{server.ws_base}/t/1/ws/display")
    display.until(lambda f: f["type"] == "view")
    assert host.act("start", dice="digital")["type"] == "ok"
    game_id = host.view["game"]["id"]
    # Ana is skipped: the plain autopilot plays all three seats on the committed game at once.
    assert host.act("skip_seat", seat=ana["seat"])["type"] == "ok"
    wait_for(
        lambda: stored(server, "SELECT status FROM games WHERE id = ?", game_id) == "finished",
        what="the store finishing the game ahead of the show",
    )
    ahead = readers(server, game_id, ana)
    assert ahead == {
        "phone_replay": 404,
        "host_replay": 404,
        "host_log": 409,
        "host_results": [],
        "admin_log": 404,
        "admin_replay": 404,
        "admin_review": 404,
        "admin_history": [],
        "state": "playing",
    }, ahead

    # The host walks the show on beat by beat until the last step is up: the screens now say
    # "finished", but its final-scoring lines and the winner (R7) are still to come.
    def last_step_up() -> bool:
        assert host.act("show_next")["type"] == "ok"
        while display.poll(0.05) is not None:
            pass
        game = display.view["game"] if display.view else None
        return bool(game and game["status"] == "finished")

    wait_for(last_step_up, timeout=120, what="the last step on the display")
    final = display.view["show"]
    assert final["more"] is False and [b["kind"] for b in final["beats"]][-1] == "winner"
    during = readers(server, game_id, ana)
    assert during["phone_replay"] == 404 and during["host_log"] == 409, during
    assert during["admin_history"] == [] and during["host_results"] == [], during

    # The last beats end (the host's "next" ends each one early): now every reader opens it.
    nexts = 0

    def end_shown() -> bool:
        nonlocal nexts
        assert host.act("show_next")["type"] == "ok"
        nexts += 1
        return readers(server, game_id, ana)["phone_replay"] == 200

    wait_for(end_shown, timeout=60, what="the replay once the end is shown")
    # No more "next"s than the last step has beats: the end opened when its beats were over.
    assert nexts <= len(final["beats"]), (nexts, final["beats"])
    after = readers(server, game_id, ana)
    assert after["host_replay"] == after["host_log"] == after["admin_log"] == 200, after
    assert after["admin_replay"] == 200, after
    assert after["host_results"] == [game_id] and after["admin_history"] == [game_id], after
    display.close()
    host.close()


def behind_ana(server: LiveServer, hints: bool = False) -> tuple[Host, Phone, dict[str, Any]]:
    """Ana's phone and two plain companion seats at a slow pace: Ana answers what her pad
    asks until a step with beats is up and the committed game has gone on past it (the
    companion seats answered on the true state). Returns the host, her phone and the view
    her screen shows then."""
    ana_seat = server.join("1", "Ana", "orange")
    host = Host(server, "1")
    host.hello()
    for _ in range(2):
        assert host.act("add_bot", level="plain")["type"] == "ok"
    if hints:
        assert host.act("set_hints", level="good")["type"] == "ok"
    assert host.act("set_pace", pace=SLOW)["type"] == "ok"
    ana = Phone(server, "1", ana_seat)
    ana.hello()
    assert host.act("start", dice="digital")["type"] == "ok"
    game_id = host.view["game"]["id"]

    def committed() -> int:
        return int(
            stored(
                server,
                "SELECT COUNT(*) FROM commands WHERE game_id = ? AND undone = 0",
                game_id,
            )
        )

    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, "the game did not run ahead of Ana's pad"
        ana.poll(0.1)
        view = ana.view
        assert view is not None and not ana.errors, ana.errors
        settled = ana.outstanding is None and not ana.stale  # her screen has her last move
        if settled and (view["show"] or {}).get("hold", 0) > 0 and committed() > view["seq"]:
            break
        pending = view["you"]["pending"]
        if ana.ready() and pending:
            ana.command(policy(view, ana.seat, pending[0]))
        elif ana.outstanding is None and (ana.stale or not pending) and committed() > view["seq"]:
            assert host.act("show_next")["type"] == "ok"  # on to the step that shows it
    while ana.poll(0.3) is not None:  # her pad has every frame sent so far
        pass
    assert committed() > ana.view["seq"]
    return host, ana, ana.view


def test_a_hint_answers_the_view_the_pad_shows(paced: LiveServer) -> None:
    """Break 11: a hint told of a step the pad had not shown yet."""
    host, ana, shown = behind_ana(paced, hints=True)
    answers = []
    for k in range(3):
        ana.send({"type": "hint", "token": ana.token, "id": f"q{k}"})
        answers.append(ana.until(lambda f, k=k: f["type"] == "hint" and f["id"] == f"q{k}"))
    for answer in answers:
        # The hint answers the step on Ana's screen (no step she has not seen)...
        assert answer["seq"] == ana.view["seq"] == shown["seq"], (answer, ana.view["seq"])
        hint = answer["hint"]
        pending = shown["you"]["pending"]
        # ...and only what that screen asks of her (nothing while it asks nothing).
        if not pending:
            assert hint is None, hint
        else:
            assert hint is not None and hint["command"]["type"] == pending[0]["type"], (
                hint,
                pending,
                shown["game"]["view"]["pending"],
                shown["show"],
            )
    ana.close()
    host.close()


def test_a_move_the_screens_do_not_ask_is_refused_naming_nothing(paced: LiveServer) -> None:
    """While the show is behind, the engine's answer to a probe would tell of the committed
    step ahead (a tie to decide, a window): a phone may only answer what its screen asks."""
    host, ana, shown = behind_ana(paced)
    asked = {e["type"] for e in shown["you"]["pending"]}
    probes = [
        {"type": "sacrifice", "card": 0},
        {"type": "bid", "bids": {"1": [0]}},
        {"type": "dice", "count": 0},
        {"type": "city", "choice": "die"},
        {"type": "pyramid", "first": "ana"},
    ]
    answers = []
    for probe in probes:
        if probe["type"] in asked:
            continue
        cmd_id = ana.command(probe)
        answers.append(ana.until(lambda f, i=cmd_id: f.get("id") == i))
    assert len(answers) >= 4
    for answer in answers:
        assert answer["type"] == "error" and answer["code"] == "illegal", answer
        assert answer["reason"] == "the screens do not ask this now; answer what they show"
    while ana.poll(0.3) is not None:
        pass
    assert ana.view["seq"] == shown["seq"]  # nothing of it moved the game on
    ana.close()
    host.close()


def test_a_late_hello_from_an_older_socket_never_takes_the_seat(paced: LiveServer) -> None:
    """Break 12: the last hello won, whatever the connections' age."""
    server = paced
    seat = server.join("1", "Ana", "orange")
    older = Phone(server, "1", seat)  # socket A opens (and says nothing yet)
    newer = Phone(server, "1", seat)  # socket B opens later
    assert newer.hello()["you"]["seat"] == "ana"
    older.send({"type": "hello", "seat": seat["seat"], "token": seat["token"]})
    refused = older.until(lambda f: f["type"] == "error")
    assert refused["code"] == "superseded" and "newer" in refused["reason"]
    wait_for(lambda: older.poll(0.2) is None and older.closed, what="the older socket closed")
    assert older.ws.close_reason == 4409
    assert not [f for f in older.frames if f["type"] == "view"]  # it never held the seat
    # B keeps the seat, untold, and answers as the seat's phone.
    newer.send({"type": "ping", "token": seat["token"], "t": 7})
    assert newer.until(lambda f: f["type"] == "pong")["t"] == 7
    assert not [f for f in newer.frames if f["type"] in ("taken_over", "removed")]
    assert not newer.closed

    def ana_connected() -> bool:
        state = requests.get(f"{server.local}/t/1/api/state", timeout=5).json()
        return next(s for s in state["seats"] if s["id"] == "ana")["connected"]

    assert ana_connected()
    # A newer socket still takes the seat over, as before (a reload, another device).
    newest = Phone(server, "1", seat)
    assert newest.hello()["you"]["seat"] == "ana"
    assert newer.until(lambda f: f["type"] == "taken_over")
    wait_for(ana_connected, what="the newest socket holding the seat")
    newest.close()
    wait_for(lambda: not ana_connected(), what="the seat disconnected once its socket closed")
    newer.close()


def test_undo_names_the_move_it_takes_back(paced: LiveServer) -> None:
    """Break 13: the host's undo took back a move that came in between."""
    server = paced
    seats = [server.join("1", n, c) for n, c in (("Ana", "orange"), ("Ben", "sky"))]
    host = Host(server, "1")
    host.hello()
    assert host.act("add_bot", level="plain")["type"] == "ok"  # answers at once
    assert host.act("set_pace", pace=SLOW)["type"] == "ok"
    ana, ben = (Phone(server, "1", s) for s in seats)
    ana.hello()
    ben.hello()
    assert host.act("start", dice="table")["type"] == "ok"
    game_id = host.view["game"]["id"]
    ben.command({"type": "sacrifice", "card": 3})
    assert ben.until(lambda f: f["type"] == "ack")
    offered = host.undo_fields()  # the host's screen: "undo Ben's sacrifice"
    undo = host.view["host"]["undo"]
    assert undo["possible"] and undo["params"] == {"command": "sacrifice", "player": "ben"}

    # Ana's sacrifice arrives before the host's undo.
    ana.command({"type": "sacrifice", "card": 5})
    assert ana.until(lambda f: f["type"] == "ack")

    def moves() -> list[tuple[int, str, int]]:
        db = sqlite3.connect(f"file:{server.data / 'companion.sqlite3'}?mode=ro", uri=True)
        try:
            return db.execute(
                "SELECT n, source, undone FROM commands WHERE game_id = ? ORDER BY n", (game_id,)
            ).fetchall()
        finally:
            db.close()

    before = moves()
    refused = host.act("undo", **offered)
    assert refused["type"] == "error" and refused["code"] == "undo_moved", refused
    assert offered == {"game": game_id, "n": undo["n"]}  # what the host's screen named
    assert f"move {offered['n']}" in refused["reason"] and "nothing was undone" in refused["reason"]
    assert moves() == before  # on disk
    state = requests.get(f"{server.local}/t/1/api/state", timeout=5).json()
    waiting = [e for e in state["game"]["view"]["pending"] if e["type"] == "sacrifice"]
    assert waiting == [], waiting  # in memory: both sacrifices stand
    # An undo that names nothing, or names it wrongly, changes nothing either.
    for fields in ({}, {"game": game_id}, {"game": game_id, "n": True}, {"game": "x", "n": 1}):
        answer = host.act("undo", **fields)
        assert answer["code"] == "bad_message" and "names the move" in answer["reason"], answer
    assert moves() == before
    while ana.poll(0.3) is not None:
        pass
    assert not [f for f in ana.frames if f.get("notice")], "Ana was told she was undone"

    # The move the host's screen now offers is Ana's: that undo goes through.
    again = host.undo_fields()
    assert host.view["host"]["undo"]["params"]["player"] == "ana"
    assert host.act("undo", **again)["type"] == "ok"
    assert [m for m in moves() if m[2]] == [(again["n"], "seat:ana", 1)]
    frame = ana.until(lambda f: f["type"] == "view" and f.get("notice"))
    assert frame["notice"]["type"] == "sacrifice"
    for peer in (ana, ben, host):
        peer.close()
