"""The café admin behind the token printed at start-up, on a live server with real games:
tables with their state and actions, history with logs (with ``meta``) and replays, the
leaderboard over a period, CSV exports, the retention limit, and the pages in Chromium."""

from __future__ import annotations

import csv
import io
import random
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import requests
from live_server import Host, LiveServer, Peer, play, seat_phones
from waiting import wait_for

from companion.cafe.history import History, leaderboard_csv
from companion.cafe.outbox import Outbox
from companion.engine import replay_document
from companion.players.random_games import random_document
from companion.store import Store

from .browser_check import with_chromium


def get(live: LiveServer, path: str, token: str, **params: Any) -> requests.Response:
    return requests.get(
        f"{live.base}{path}", params=params, headers={"X-Admin-Token": token}, timeout=10
    )


@pytest.fixture(scope="module")
def cafe(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Two tables: table 1 played a whole game, table 2 has a game running."""
    live = LiveServer(
        tmp_path_factory.mktemp("data"),
        tables=2,
        extra=["--board", "none", "--retention-days", "400"],
    ).start()
    try:
        phones = seat_phones(live, "1", ["Ana", "Ben", "Cleo"])
        display = Peer(f"{live.ws_base}/t/1/ws/display")
        host = Host(live, "1")
        host.hello()
        assert host.act("start", dice="digital")["type"] == "ok"
        # A track-colour correction before round 1 is logged as the table's own command (R2.3):
        # results, logs and replays fold it into the profile.
        colours = ["gold", "green", "red"]
        assert host.act("set_track_colors", colors=colours)["type"] == "ok"
        play(phones, [display], host)
        final = phones[0].view["game"]["view"]
        assert final["profile"]["track_colors"] == colours
        others = seat_phones(live, "2", ["Dev", "Eli", "ana"])
        host2 = Host(live, "2")
        host2.hello()
        assert host2.act("start", dice="digital")["type"] == "ok"
        yield live, final, [p.seat for p in phones], others
        for peer in [*phones, display, host, *others, host2]:
            peer.close()
    finally:
        live.stop()


def test_admin_needs_the_printed_token(cafe: Any) -> None:
    live, *_ = cafe
    for path in (
        "/admin",
        "/admin/api/tables",
        "/admin/api/history",
        "/admin/api/leaderboard",
        "/admin/export/games.csv",
    ):
        r = get(live, path, "wrong")
        assert r.status_code == 403 and r.json()["error"] == "bad_token", path
    host_token = live.host_tokens["1"]
    assert get(live, "/admin/api/tables", host_token).status_code == 403, "a host is no admin"
    assert get(live, "/admin", live.admin_token()).status_code == 200


def test_history_lists_the_finished_game_with_log_and_meta(cafe: Any) -> None:
    live, final, seats, _ = cafe
    token = live.admin_token()
    games = wait_for(
        lambda: get(live, "/admin/api/history", token).json()["games"],
        "the finished game in the history",
        30,
    )
    g = games[0]
    assert g["status"] == "finished" and g["table"]["name"] == "1"
    assert [p["name"] for p in g["players"]] == ["Ana", "Ben", "Cleo"]
    assert {p["seat"]: p["score"] for p in g["players"]} == {
        s: final["players"][s]["final"]["total"] for s in seats
    }
    assert [p["seat"] for p in g["players"] if p["winner"]] == final["winners"]
    log = requests.get(f"{live.base}{g['log']}", timeout=10)
    assert log.status_code == 200
    doc = log.json()
    assert doc["meta"]["table"] == "1" and doc["meta"]["date"].endswith("Z")
    assert doc["meta"]["seats"][seats[0]] == {"name": "Ana", "colour": "orange"}
    assert doc["profile"]["track_colors"] == ["gold", "green", "red"]
    assert all(c["type"] != "track_colors" for c in doc["commands"])
    state, _ = replay_document(doc)  # replay ignores meta and reaches the same end
    assert state["winners"] == final["winners"]
    # The running game of table 2 is not in the history and its log is not handed out.
    assert all(x["table"]["name"] == "1" for x in games)
    running = get(live, "/admin/api/tables", token).json()["tables"][1]["game_id"]
    assert get(live, f"/admin/games/{running}/log.json", token).status_code == 404


def test_game_ids_no_game_can_have_answer_404(cafe: Any) -> None:
    """An id past SQLite's 64-bit integers names no game: 404 like any unknown id, not a
    server error (the database refuses to bind it)."""
    live, *_ = cafe
    token = live.admin_token()
    for gid in ("99999999999999999999999", str(2**63), "123456"):
        for path in (f"/admin/games/{gid}/log.json", f"/admin/games/{gid}/replay"):
            assert get(live, path, token).status_code == 404, path


def test_leaderboard_and_csv_over_a_period(cafe: Any) -> None:
    live, final, seats, _ = cafe
    token = live.admin_token()
    wait_for(lambda: get(live, "/admin/api/history", token).json()["games"], "history", 30)
    today = datetime.now(UTC).strftime("%Y-%m-%d")
    board = get(live, "/admin/api/leaderboard", token, **{"from": today, "to": today}).json()
    rows = {r["name"]: r for r in board["players"]}
    assert set(rows) == {"Ana", "Ben", "Cleo"}
    for name, seat in zip(["Ana", "Ben", "Cleo"], seats, strict=True):
        total = final["players"][seat]["final"]["total"]
        won = seat in final["winners"]
        assert rows[name] == {
            "name": name,
            "companion": False,
            "games": 1,
            "wins": int(won),
            "win_share": float(won),
            "mean_score": float(total),
            "best_score": total,
            "helped": 0,  # no companion player made a move for them
        }
    old = (datetime.now(UTC) - timedelta(days=30)).strftime("%Y-%m-%d")
    earlier = get(live, "/admin/api/leaderboard", token, **{"from": old, "to": old}).json()
    assert earlier["players"] == []
    bad = get(live, "/admin/api/leaderboard", token, **{"from": "22/11/2026"})
    assert bad.status_code == 400 and "date like" in bad.json()["reason"]
    text = get(live, "/admin/export/games.csv", token).content.decode("utf-8-sig")
    lines = list(csv.DictReader(io.StringIO(text)))
    assert [r["name"] for r in lines] == ["Ana", "Ben", "Cleo"]
    assert all(r["status"] == "finished" for r in lines)
    lb_text = get(live, "/admin/export/leaderboard.csv", token).content.decode("utf-8-sig")
    lb = list(csv.DictReader(io.StringIO(lb_text)))
    assert {r["name"] for r in lb} == {"Ana", "Ben", "Cleo"}


def test_tables_overview_and_actions(cafe: Any) -> None:
    live, _, _, others = cafe
    token = live.admin_token()
    overview = get(live, "/admin/api/tables", token).json()
    assert overview["retention_days"] == 400
    tables = {t["name"]: t for t in overview["tables"]}
    assert tables["1"]["status"] == "finished" and tables["2"]["status"] == "playing"
    assert [s["name"] for s in tables["2"]["seats"]] == ["Dev", "Eli", "ana"]
    assert all(s["connected"] for s in tables["2"]["seats"])
    assert tables["2"]["seconds_since_command"] is not None
    assert tables["2"]["host_url"] == f"/t/2/host?token={live.host_tokens['2']}"
    # Rotate table 2's join secret: the old QR code no longer seats anyone.
    old_secret = live.join_secret("2")
    r = requests.post(
        f"{live.base}/admin/api/tables/2/rotate", headers={"X-Admin-Token": token}, timeout=10
    )
    assert r.status_code == 200
    assert live.join_secret("2") != old_secret
    assert live.join("2", "Fay", "blue", secret=old_secret)["status"] == 403
    # Close the stuck game: the phones see it end, the history gets it as "ended".
    bad = requests.post(
        f"{live.base}/admin/api/tables/2/close", headers={"X-Admin-Token": "nope"}, timeout=10
    )
    assert bad.status_code == 403
    r = requests.post(
        f"{live.base}/admin/api/tables/2/close", headers={"X-Admin-Token": token}, timeout=10
    )
    assert r.status_code == 200
    others[0].until(lambda f: f["type"] == "view" and (f["game"] or {}).get("status") == "ended")
    again = requests.post(
        f"{live.base}/admin/api/tables/2/close", headers={"X-Admin-Token": token}, timeout=10
    )
    assert again.status_code == 409 and again.json()["error"] == "no_game"
    ended = wait_for(
        lambda: [
            g
            for g in get(live, "/admin/api/history", token).json()["games"]
            if g["status"] == "ended"
        ],
        "the closed game in the history",
        30,
    )
    assert ended[0]["table"]["name"] == "2" and ended[0]["winners"] == []


def test_admin_page_and_replay_in_chromium(cafe: Any) -> None:
    live, final, _, _ = cafe
    token = live.admin_token()
    wait_for(lambda: get(live, "/admin/api/history", token).json()["games"], "history", 30)

    def check(page: Any) -> None:
        page.goto(f"{live.base}/admin?token={token}")
        page.wait_for_selector("body[data-loaded='1']")
        assert page.locator("#admin-tables tr").count() == 2
        finished = page.locator("#admin-history tr[data-status='finished']")
        assert finished.count() == 1
        assert page.locator("#admin-leaderboard tr").count() >= 3
        with page.context.expect_page() as popup:
            finished.locator("a.replay").click()
        replay = popup.value
        replay.wait_for_selector("body.in-game")
        replay.wait_for_function("document.body.dataset.replayStep !== undefined")
        last = int(replay.evaluate("document.body.dataset.steps")) - 1
        # A replay opens at its first step (nothing of the end is shown).
        replay.wait_for_function("document.body.dataset.replayStep === '0'")
        replay.wait_for_function(
            "!document.querySelector('#final-panel') || "
            "document.querySelector('#final-panel').hidden"
        )
        replay.locator("#replay-last").click()
        replay.wait_for_selector("#final-panel:not([hidden])")
        replay.locator("#replay-first").click()
        replay.wait_for_function("document.body.dataset.replayStep === '0'")
        for _ in range(3):
            replay.keyboard.press("ArrowRight")
        replay.wait_for_function("document.body.dataset.replayStep === '3'")
        replay.locator("#replay-back").click()
        replay.wait_for_function("document.body.dataset.replayStep === '2'")
        replay.locator("#replay-last").click()
        replay.wait_for_function(f"document.body.dataset.replayStep === '{last}'")
        replay.wait_for_selector("#final-panel:not([hidden])")

    with_chromium(check)


def test_retention_deletes_old_games_only(tmp_path: Path) -> None:
    db = tmp_path / "companion.sqlite3"
    store = Store(db)
    store.create_table("1", "j", "h", {"dice": "digital"})
    ids = []
    for seed in (1, 2):
        doc = random_document(random.Random(seed), 3)
        gid = store.create_game(
            "1",
            {"players": doc["players"], "stack": doc["stack"]},
            [{"seat": p, "name": p.title(), "colour": "sky"} for p in doc["players"]],
            [[], []],
            "digital",
        )
        store.append(gid, 0, [(c, "t", None) for c in doc["commands"]], "finished")
        ids.append(gid)
    store.set_current_game("1", None)
    now = [time.time()]
    outbox = Outbox(db, clock=lambda: now[0])
    outbox.reconcile()
    # The first game ended 40 days ago.
    store.commit([("UPDATE results SET ended = ended - 40 * 86400 WHERE game_id = ?", (ids[0],))])
    assert outbox.prune(30, store.delete_games) == 1
    assert store.game(ids[0]) is None and store.commands(ids[0]) == []
    assert store.game(ids[1]) is not None
    assert [g["game_id"] for g in History(outbox.store).games()] == [ids[1]]
    assert outbox.prune(30, store.delete_games) == 0
    outbox.close()
    store.close()


def test_leaderboard_groups_names_and_csv_never_starts_a_formula(tmp_path: Path) -> None:
    def result(names_scores: list[tuple[str, int]], winner: str) -> dict:
        return {
            "status": "finished",
            "players": [{"name": n, "score": s, "winner": n == winner} for n, s in names_scores],
        }

    results = [
        result([("Ana", 30), ("ben", 20), ("=cmd", 5)], "Ana"),
        result([("ana ", 10), ("Ben", 25), ("=cmd", 1)], "Ben"),
    ]
    store = Store(tmp_path / "cafe.sqlite3")
    rows = History(store)
    rows.games = lambda *a, **k: list(reversed(results))  # type: ignore[method-assign]
    board = {r["name"]: r for r in rows.leaderboard()}
    assert board["ana "]["games"] == 2 and board["ana "]["wins"] == 1
    assert board["ana "]["mean_score"] == 20.0 and board["ana "]["best_score"] == 30
    assert board["Ben"]["win_share"] == 0.5
    assert "'=cmd" in leaderboard_csv(list(board.values()))
    store.close()


def test_replay_frames_step_event_by_event_without_spoilers() -> None:
    """One frame per event; the view changes only with a command's last event, and every
    frame holds only what the live display may show (R-secrecy: visible_events for nobody)."""
    from companion.engine import apply, new_game, view, visible_events
    from companion.table.replay_frames import replay_frames
    from companion.table.staging import at_beat

    doc = random_document(random.Random(4), 3)
    seats = [
        {"seat": p, "name": p.title(), "colour": c}
        for p, c in zip(doc["players"], ["orange", "sky", "green"], strict=True)
    ]
    frames = replay_frames(
        table="1",
        title="T",
        lang="en",
        game_id=9,
        document=doc,
        seats=seats,
        commands=doc["commands"],
        status="finished",
    )
    state = new_game(doc["players"], doc["stack"])
    expected_views = [view(state, None)]
    for command in doc["commands"]:
        before = view(state, None)
        state, events = apply(state, command)
        after = view(state, None)
        # Mid-command steps: the view as the live show stages it with the events so far told.
        told = visible_events(events, None)
        partial = [at_beat(before, after, told, j + 1) for j in range(len(events) - 1)]
        expected_views += [*partial, after] if events else [after]
    assert [f["game"]["view"] for f in frames] == expected_views
    assert frames[-1]["game"]["status"] == "finished"
    assert frames[-1]["game"]["view"]["winners"] == state["winners"]
    assert all(f["game"]["status"] == "playing" for f in frames[:-1])
    for f in frames:
        assert f["history"] == visible_events(f["history"], None)
        assert f["you"] is None and f["board"] is None
