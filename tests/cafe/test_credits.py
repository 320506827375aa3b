"""A seat's result credits who played it. On a live server: a companion player makes Jörg's
moves in round 2 and gives the seat back; Ana leaves after round 1 and a new phone takes her
seat as Bert in another colour. The stored result, the admin history (JSON and page), the
leaderboard (all and people only) and both CSV dialects say who held each seat when."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
import time
from typing import Any

import pytest
import requests
from live_server import Host, LiveServer, Peer, Phone, drain, policy, seat_phones
from waiting import wait_for

from .browser_check import with_chromium

DB = "companion.sqlite3"


def _round(peer: Peer) -> int:
    """The round the peer's latest view shows (-1 before the game's first view)."""
    game = peer.view["game"] if peer.view else None
    return int(game["view"]["round"]) if game else -1


def _awaited(peer: Peer) -> set[str]:
    return {e.get("player", "") for e in peer.view["game"]["view"]["pending"]}


def drive(
    phones: list[Phone],
    watchers: list[Peer],
    until: Any,
    moved: dict[str, set[int]],
    before: int | None = None,
    timeout: float = 240.0,
) -> None:
    """Answer what each phone's own view asks (live_server.policy) until ``until()`` holds,
    only in rounds before ``before`` when given; ``moved`` notes the rounds each seat's phone
    made a move in, by the person holding it (``who``; the round its view shows: a move
    answers what that view asks, so it is applied in that round)."""
    deadline = time.monotonic() + timeout
    peers = [*phones, *watchers]
    while time.monotonic() < deadline:
        drain(peers)
        if until():
            return
        acted = False
        for phone in phones:
            game = phone.view["game"] if phone.view else None
            if not phone.ready() or not game or game["status"] != "playing":
                continue
            if before is not None and _round(phone) >= before:
                continue
            pending = phone.view["you"]["pending"]
            if pending:
                who: str = phone.who  # type: ignore[attr-defined]
                moved.setdefault(who, set()).add(max(1, _round(phone)))
                phone.command(policy(phone.view, phone.seat, pending[0]))
                acted = True
        if not acted:
            for p in peers:
                p.poll(0.01)
        for phone in phones:
            assert not phone.errors, phone.errors
    raise TimeoutError("the game did not get there")


@pytest.fixture(scope="module")
def credits(tmp_path_factory: pytest.TempPathFactory) -> Any:
    data = tmp_path_factory.mktemp("data")
    live = LiveServer(data, extra=["--board", "none"]).start()
    peers: list[Peer] = []
    try:
        jorg, ana, cleo = seat_phones(live, "1", ["Jörg", "Ana", "Cleo"], first_colour=1)
        for phone, who in ((jorg, "Jörg"), (ana, "Ana"), (cleo, "Cleo")):
            phone.who = who  # type: ignore[attr-defined]
        host = Host(live, "1")
        host.hello()
        display = Peer(f"{live.ws_base}/t/1/ws/display")
        peers += [jorg, ana, cleo, host, display]
        assert host.act("start", dice="digital")["type"] == "ok"
        moved: dict[str, set[int]] = {}
        # Round 1 (and the sacrifices) from the three phones, up to round 2's first question.
        phones = [jorg, ana, cleo]

        drive(
            phones,
            [host, display],
            lambda: all(p.ready() and p.view["you"]["pending"] and _round(p) == 2 for p in phones),
            moved,
            before=2,
        )
        # The display's frame of that view comes on its own socket, maybe a moment later.
        wait_for(lambda: drain([display]) or _round(display) == 2, "the display in round 2")
        assert moved == {"Jörg": {1}, "Ana": {1}, "Cleo": {1}}
        # Jörg steps away: a companion player makes his moves.
        assert host.act("hand_to_bot", seat=jorg.seat, level="good")["type"] == "ok"
        # Ana leaves; a new phone takes her seat as Bert, in blue.
        assert host.act("release_seat", seat=ana.seat)["type"] == "ok"
        joined = live.join("1", "Bert", "blue")
        assert joined["status"] == 200 and joined["seat"] == ana.seat, joined
        bert = Phone(live, "1", joined)
        bert.who = "Bert"  # type: ignore[attr-defined]
        bert.hello()
        peers.append(bert)
        # Round 2: Bert moves; Cleo waits until only she is awaited, so the companion player
        # has made every move it can before Jörg takes his seat back.
        drive(
            [bert],
            [jorg, cleo, host, display],
            lambda: bert.ready() and _awaited(display) == {cleo.seat} and _round(display) == 2,
            moved,
        )
        assert host.act("resume_seat", seat=jorg.seat)["type"] == "ok"
        drive(
            [jorg, bert, cleo],
            [host, display],
            lambda: display.view["game"]["status"] != "playing",
            moved,
        )
        assert display.view["game"]["status"] == "finished"
        game_id = display.view["game"]["id"]
        yield live, game_id, moved, {"jorg": jorg.seat, "ana": ana.seat, "cleo": cleo.seat}
    finally:
        for p in peers:
            p.close()
        live.stop()


def _get(live: LiveServer, path: str, **params: str) -> requests.Response:
    return requests.get(
        f"{live.base}{path}",
        params=params,
        headers={"X-Admin-Token": live.admin_token()},
        timeout=10,
    )


def _history(live: LiveServer) -> list[dict[str, Any]]:
    return wait_for(lambda: _get(live, "/admin/api/history").json()["games"], "history", 30)


def _expected(rounds: int, moved: dict[str, set[int]], seats: dict[str, str]) -> dict:
    every = set(range(1, rounds + 1))
    jorg_rounds = sorted(every - {2} | moved["Jörg"])
    return {
        seats["jorg"]: [
            {"name": "Jörg", "colour": "sky", "companion": None, "rounds": jorg_rounds},
            {"name": "Jörg", "colour": "sky", "companion": "good", "rounds": [2]},
        ],
        seats["ana"]: [
            {"name": "Ana", "colour": "green", "companion": None, "rounds": [1]},
            {"name": "Bert", "colour": "blue", "companion": None, "rounds": sorted(every - {1})},
        ],
        seats["cleo"]: [
            {"name": "Cleo", "colour": "yellow", "companion": None, "rounds": sorted(every)}
        ],
    }


def test_the_result_lists_who_held_each_seat_and_credits_who_played_most(credits: Any) -> None:
    live, game_id, moved, seats = credits
    [result] = [g for g in _history(live) if g["game_id"] == game_id]
    rounds = result["rounds_played"]
    assert rounds >= 3, "the scenario needs a game of three rounds or more"
    # What the phones did, as the driver saw it: Ana moved only in round 1, Jörg's phone not in
    # round 2 before the companion player gave his seat back.
    assert moved["Ana"] == {1} and moved["Bert"] == set(range(2, rounds + 1))
    assert moved["Cleo"] == set(range(1, rounds + 1))
    assert set(range(3, rounds + 1)) <= moved["Jörg"] <= set(range(1, rounds + 1))
    players = {p["seat"]: p for p in result["players"]}
    assert {s: p["holders"] for s, p in players.items()} == _expected(rounds, moved, seats)
    # Credited to the holder of most rounds: Jörg himself, Bert (not Ana), Cleo.
    credited = {s: (p["name"], p["colour"], p["companion"]) for s, p in players.items()}
    assert credited == {
        seats["jorg"]: ("Jörg", "sky", None),
        seats["ana"]: ("Bert", "blue", None),
        seats["cleo"]: ("Cleo", "yellow", None),
    }
    # The stored result is the same document (the history reads it from the store), and the
    # store kept the phone that took Ana's seat over.
    db = sqlite3.connect(f"{(live.data / DB).resolve().as_uri()}?mode=ro", uri=True)
    try:
        stored = db.execute("SELECT result FROM results WHERE game_id = ?", (game_id,)).fetchone()
        takeovers = db.execute(
            "SELECT seat, name, colour FROM seat_takeovers WHERE game_id = ?", (game_id,)
        ).fetchall()
    finally:
        db.close()
    assert json.loads(stored[0]) == {
        k: v for k, v in result.items() if k not in ("log", "replay", "review")
    }
    assert takeovers == [(seats["ana"], "Bert", "blue")]


def test_leaderboard_credits_people_for_what_they_played(credits: Any) -> None:
    live, game_id, moved, seats = credits
    _history(live)
    rows = {
        (r["name"], r["companion"]): r
        for r in _get(live, "/admin/api/leaderboard").json()["players"]
    }
    assert set(rows) == {("Jörg", False), ("Bert", False), ("Cleo", False)}
    assert rows[("Jörg", False)]["helped"] == 1 and rows[("Bert", False)]["helped"] == 0
    people = _get(live, "/admin/api/leaderboard", people_only="1").json()["players"]
    assert {r["name"] for r in people} == {"Jörg", "Bert", "Cleo"}
    assert sum(r["games"] for r in people) == 3


def test_csv_lists_each_seats_holders_in_both_dialects(credits: Any) -> None:
    live, game_id, moved, seats = credits
    [result] = [g for g in _history(live) if g["game_id"] == game_id]
    rounds = result["rounds_played"]
    rest = f"2-{rounds}"
    jorg = sorted(set(range(1, rounds + 1)) - {2} | moved["Jörg"])
    jorg_text = "1-" + str(rounds) if jorg == list(range(1, rounds + 1)) else f"1,3-{rounds}"
    want = {
        "Jörg": f"Jörg (sky) rounds {jorg_text} | companion good as Jörg (sky) rounds 2",
        "Bert": f"Ana (green) rounds 1 | Bert (blue) rounds {rest}",
        "Cleo": f"Cleo (yellow) rounds 1-{rounds}",
    }
    for sep, delimiter in (("", ","), ("semicolon", ";")):
        params = {"sep": sep} if sep else {}
        raw = _get(live, "/admin/export/games.csv", **params).content
        assert raw.startswith(b"\xef\xbb\xbf") and raw.count(b"\xef\xbb\xbf") == 1
        text = raw.decode("utf-8-sig")
        header = text.splitlines()[0]
        assert header.split(delimiter)[0] == "game_id" and "holders" in header.split(delimiter)
        rows = list(csv.DictReader(io.StringIO(text), delimiter=delimiter))
        assert {r["name"]: r["holders"] for r in rows} == want
        assert {r["name"]: r["colour"] for r in rows} == {
            "Jörg": "sky",
            "Bert": "blue",
            "Cleo": "yellow",
        }
        assert all(r["companion"] == "" for r in rows)
        raw = _get(live, "/admin/export/leaderboard.csv", people_only="1", **params).content
        assert raw.startswith(b"\xef\xbb\xbf")
        board = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig")), delimiter=delimiter))
        assert {r["name"]: r["helped"] for r in board} == {"Jörg": "1", "Bert": "0", "Cleo": "0"}
        score = {p["name"]: p["score"] for p in result["players"]}
        for r in board:  # one game each: the mean is the score, with the dialect's decimal mark
            mark, other = (",", ".") if delimiter == ";" else (".", ",")
            assert mark in r["mean_score"] and other not in r["mean_score"]
            assert float(r["mean_score"].replace(",", ".")) == score[r["name"]]


def test_semicolon_csv_for_spreadsheets_with_a_decimal_comma(credits: Any) -> None:
    """``?sep=semicolon``: the same lines split on semicolons, decimals with a comma, the
    byte-order mark kept; a separator not offered is refused with its reason."""
    live, *_ = credits
    _history(live)
    for kind in ("games", "leaderboard"):
        comma = _get(live, f"/admin/export/{kind}.csv").content
        semi = _get(live, f"/admin/export/{kind}.csv", sep="semicolon")
        assert semi.status_code == 200
        raw = semi.content
        assert raw.startswith(b"\xef\xbb\xbf") and raw.count(b"\xef\xbb\xbf") == 1
        text = raw.decode("utf-8-sig")
        header = comma.decode("utf-8-sig").splitlines()[0]
        assert text.splitlines()[0] == header.replace(",", ";")
        rows = list(csv.reader(io.StringIO(text), delimiter=";"))
        want = list(csv.reader(io.StringIO(comma.decode("utf-8-sig"))))
        assert len(rows) == len(want) > 1
        for got, expected in zip(rows[1:], want[1:], strict=True):
            for cell, other in zip(got, expected, strict=True):
                if re.fullmatch(r"\d+\.\d+", other):  # a decimal: a comma as its mark
                    assert cell == other.replace(".", ",")
                else:
                    assert cell == other
        assert "semicolon" in semi.headers["Content-Disposition"]
        if kind == "leaderboard":
            assert any(re.fullmatch(r"\d+,\d+", c) for r in rows[1:] for c in r)
    bad = _get(live, "/admin/export/games.csv", sep="tab")
    assert bad.status_code == 400 and bad.json()["error"] == "bad_sep"
    assert "semicolon" in bad.json()["reason"]


def test_admin_page_shows_who_held_each_seat(credits: Any) -> None:
    live, game_id, moved, seats = credits
    [result] = [g for g in _history(live) if g["game_id"] == game_id]
    score = next(p["score"] for p in result["players"] if p["seat"] == seats["ana"])
    rounds = result["rounds_played"]
    token = live.admin_token()

    def check(page: Any) -> None:
        page.goto(f"{live.base}/admin?token={token}")
        page.wait_for_selector("body[data-loaded='1']")
        row = page.locator(f"#admin-history tr[data-game='{game_id}']")
        jorg = row.locator(f".who[data-seat='{seats['jorg']}']")
        # Jörg is credited as a person; the companion player's round is marked beside him.
        assert jorg.evaluate("e => e.classList.contains('companion')") is False
        assert jorg.locator(":scope > .companion-mark").count() == 0
        helper = jorg.locator(".holder.companion")
        assert helper.count() == 1 and helper.get_attribute("data-name") == "Jörg"
        assert helper.locator(".companion-mark").count() == 1
        bert = row.locator(f".who[data-seat='{seats['ana']}']")
        text = " ".join(bert.inner_text().replace("\u00a0", " ").split())
        assert text.startswith(f"Bert {score} (")
        assert text.endswith(f"Ana, rounds 1; Bert, rounds 2–{rounds})")
        # Each holder's dot in the colour they played in.
        dots = bert.locator(".holder .swatch").evaluate_all(
            "ds => ds.map(d => getComputedStyle(d).backgroundColor)"
        )
        assert dots == ["rgb(0, 158, 115)", "rgb(0, 114, 178)"]  # green, blue
        assert [h.get_attribute("data-name") for h in bert.locator(".holder").all()] == [
            "Ana",
            "Bert",
        ]
        cleo = row.locator(f".who[data-seat='{seats['cleo']}']")
        assert cleo.locator(".holder").count() == 0
        # The leaderboard with "people only" keeps Jörg.
        page.locator("#people-only").check()
        page.wait_for_function("document.querySelectorAll('#admin-leaderboard tr').length === 3")
        names = page.locator("#admin-leaderboard tr").evaluate_all(
            "rows => rows.map(r => r.dataset.name)"
        )
        assert sorted(names) == ["Bert", "Cleo", "Jörg"]
        href = page.locator("#export-games-semicolon").get_attribute("href")
        assert "sep=semicolon" in href and "token=" in href

    with_chromium(check)
