"""Every game that is over gets its review, on a live server with real websocket clients:
progress frames first, then each phone its own part; stored with the game (a restart shows
it again without computing it anew); the café admin's history shows it, and an older game
without one is reviewed on request.

The review budget is kept tiny through ``COMPANION_REVIEW_BUDGET`` (README, "Game review").
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from live_server import Host, LiveServer, Peer, drain, play, seat_phones
from waiting import wait_for

BUDGET = "0.3"  # seconds of the reference machine for a whole game: a quick, rough review


@pytest.fixture
def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("COMPANION_REVIEW_BUDGET", BUDGET)
    server = LiveServer(tmp_path / "data", tables=2, extra=["--board", "none"]).start()
    try:
        yield server
    finally:
        server.stop()


def reviews(peer: Peer) -> list[dict[str, Any]]:
    return [f["review"] for f in peer.frames if f["type"] == "view" and "review" in f]


def test_a_game_ended_after_a_round_is_reviewed_for_each_phone_and_kept(live: Any) -> None:
    phones = seat_phones(live, "1", ["Ana", "Ben", "Cleo"])
    display = Peer(f"{live.ws_base}/t/1/ws/display")
    host = Host(live, "1")
    host.hello()
    assert host.act("start", dice="digital")["type"] == "ok"
    play(phones, [display], host, max_steps=12)  # the sacrifices and a round of bids
    drain([display, *phones], 0.2)
    # While the game runs nobody gets a review (it would tell what was bid).
    assert not any(reviews(p) for p in [display, *phones])
    assert host.act("end_game")["type"] == "ok"
    game_id = display.view["game"]["id"]

    # The display sees the progress, then the review is ready.
    display.until(lambda f: f.get("review", {}).get("state") == "ready", timeout=120)
    shown = reviews(display)
    assert shown[0]["state"] == "working"
    percents = [r["progress"] for r in shown if r["state"] == "working"]
    assert percents == sorted(percents) and len(set(percents)) >= 2, percents
    assert "mine" not in shown[-1]  # the display has no seat: the summary numbers only
    assert {p["seat"] for p in shown[-1]["players"]} == {p.seat for p in phones}

    # Each phone gets its own costliest decisions, nobody else's.
    token = live.admin_token()
    stored = requests.get(
        f"{live.base}/admin/api/games/{game_id}/review",
        headers={"X-Admin-Token": token},
        timeout=10,
    ).json()
    assert stored["state"] == "ready"
    document = stored["review"]
    for phone in phones:
        ready = phone.until(lambda f: f.get("review", {}).get("state") == "ready", timeout=60)
        review = ready["review"]
        mine = review["mine"]
        assert mine["seat"] == phone.seat
        expected = document["players"][phone.seat]
        assert mine["mean_loss"] == expected["mean_loss"]
        assert [(w["round"], w["loss"], w["made"]) for w in mine["worst"]] == [
            (d["round"], d["loss"], d["made"]) for d in expected["worst"]
        ]
        assert len(mine["worst"]) <= 3
        for w in mine["worst"]:
            assert set(w["reasons"]) == {"en", "de", "nl", "it"}
            assert isinstance(w["replay_step"], int)
        # Only the summary numbers of the others, never their decisions.
        for frame in phone.frames:
            if "review" in frame and "mine" in frame["review"]:
                assert frame["review"]["mine"]["seat"] == phone.seat
            for p in frame.get("review", {}).get("players", []):
                assert set(p) == {"seat", "name", "mean_loss", "decisions", "labels"}

    # The replay at a decision's moment opens with the phone's own seat token, not without.
    ana = phones[0]
    step = next(
        (w["replay_step"] for w in reviews(ana)[-1]["mine"]["worst"]),
        1,
    )
    url = f"{live.base}/t/1/games/{game_id}/replay"
    page = requests.get(url, params={"seat": ana.seat, "token": ana.token, "step": step})
    assert page.status_code == 200 and f'data-start-step="{step}"' in page.text
    wrong = requests.get(url, params={"seat": ana.seat, "token": "nope", "step": step})
    assert wrong.status_code == 403

    # The admin's history shows the review (once the café has recorded the result).
    def history_row() -> dict[str, Any] | None:
        games = requests.get(
            f"{live.base}/admin/api/history", headers={"X-Admin-Token": token}, timeout=10
        ).json()["games"]
        return next((g for g in games if g["game_id"] == game_id), None)

    row = wait_for(history_row, "the game in the history", 120)
    assert row["review"]["state"] == "ready"
    created = stored["created"]
    for peer in [display, host, *phones]:
        peer.close()

    # Stored: a restarted server shows it again at once, without computing it anew.
    live.stop()
    live.start()
    display = Peer(f"{live.ws_base}/t/1/ws/display")
    hello = display.until(lambda f: f["type"] == "view")
    assert hello["review"]["state"] == "ready"
    again = requests.get(
        f"{live.base}/admin/api/games/{game_id}/review",
        headers={"X-Admin-Token": live.admin_token()},
        timeout=10,
    ).json()
    assert again["created"] == created and again["review"] == document
    display.close()


def test_an_older_game_without_a_review_is_reviewed_on_request(live: Any) -> None:
    """A game over before reviews existed (its review deleted here through the store, the
    way a café upgraded from version 1 has none) is reviewed when the admin asks."""
    phones = seat_phones(live, "2", ["Dev", "Eli", "Fay"])
    host = Host(live, "2")
    host.hello()
    assert host.act("start", dice="digital")["type"] == "ok"
    play(phones, [], host, max_steps=6)
    assert host.act("end_game")["type"] == "ok"
    game_id = phones[0].view["game"]["id"]
    token = live.admin_token()
    headers = {"X-Admin-Token": token}
    review_url = f"{live.base}/admin/api/games/{game_id}/review"
    wait_for(
        lambda: (
            requests.get(review_url, headers=headers, timeout=10).json().get("state") == "ready"
        ),
        "the first review",
        120,
    )
    assert host.act("new_game")["type"] == "ok"  # the table moves on: back to the lobby
    for peer in [host, *phones]:
        peer.close()
    live.stop()
    db = sqlite3.connect(live.data / "companion.sqlite3")
    with db:
        db.execute("DELETE FROM reviews WHERE game_id = ?", (game_id,))
        # As in a café upgraded from version 1: games over before its reviews began (the
        # migration's ``reviews_since``) are reviewed on request only.
        db.execute(
            "UPDATE cafe_meta SET value = ? WHERE key = 'reviews_since'", (repr(time.time()),)
        )
    db.close()
    live.start()
    headers = {"X-Admin-Token": live.admin_token()}

    def history_row() -> dict[str, Any] | None:
        games = requests.get(f"{live.base}/admin/api/history", headers=headers, timeout=10)
        return next((g for g in games.json()["games"] if g["game_id"] == game_id), None)

    row = wait_for(history_row, "the game in the history", 120)
    assert row["review"] is None
    assert (
        requests.post(review_url, headers={"X-Admin-Token": "wrong"}, timeout=10).status_code == 403
    )
    asked = requests.post(review_url, headers=headers, timeout=10)
    assert asked.status_code in (200, 202), asked.text
    done = wait_for(
        lambda: (
            (r := requests.get(review_url, headers=headers, timeout=10).json()).get("state")
            == "ready"
            and r
        ),
        "the review asked for",
        120,
    )
    assert set(done["review"]["players"]) == {p.seat for p in phones}
    assert (
        requests.post(f"{live.base}/admin/api/games/999999/review", headers=headers).status_code
        == 404
    )


def older_shape(document: dict[str, Any]) -> dict[str, Any]:
    """A review as the release before the margin and the common mix stored it: no method,
    no mix, no plain mean or kinds per player, no own points per decision."""
    old = {k: v for k, v in document.items() if k not in ("method", "mix")}
    old["players"] = {
        p: {k: v for k, v in pr.items() if k not in ("raw_mean_loss", "by_kind")}
        for p, pr in document["players"].items()
    }
    old["decisions"] = [
        {k: v for k, v in d.items() if k != "points_loss"} for d in document["decisions"]
    ]
    return old


def test_a_review_stored_by_the_older_method_is_shown_as_such(live: Any) -> None:
    """A café upgraded with reviews in its store: they keep their numbers (never computed
    again) and the display, the phones and the admin are told they were rated by the older
    method; a review made now is not marked."""
    phones = seat_phones(live, "1", ["Ana", "Ben", "Cleo"])
    host = Host(live, "1")
    host.hello()
    assert host.act("start", dice="digital")["type"] == "ok"
    play(phones, [], host, max_steps=8)
    assert host.act("end_game")["type"] == "ok"
    ready = phones[0].until(lambda f: f.get("review", {}).get("state") == "ready", timeout=120)
    assert ready["review"]["older"] is False
    game_id = phones[0].view["game"]["id"]
    review_url = f"{live.base}/admin/api/games/{game_id}/review"
    body = requests.get(review_url, headers={"X-Admin-Token": live.admin_token()}, timeout=10)
    assert body.json()["older"] is False
    for peer in [host, *phones]:
        peer.close()
    live.stop()
    db = sqlite3.connect(live.data / "companion.sqlite3")
    with db:
        (text,) = db.execute(
            "SELECT document FROM reviews WHERE game_id = ?", (game_id,)
        ).fetchone()
        old = older_shape(json.loads(text))
        db.execute("UPDATE reviews SET document = ? WHERE game_id = ?", (json.dumps(old), game_id))
    db.close()

    live.start()
    display = Peer(f"{live.ws_base}/t/1/ws/display")
    hello = display.until(lambda f: f["type"] == "view" and "review" in f)
    assert hello["review"]["state"] == "ready" and hello["review"]["older"] is True
    shown = {p["seat"]: p["mean_loss"] for p in hello["review"]["players"]}
    assert shown == {p: pr["mean_loss"] for p, pr in old["players"].items()}
    body = requests.get(review_url, headers={"X-Admin-Token": live.admin_token()}, timeout=10)
    assert body.json()["older"] is True
    assert body.json()["review"]["players"].keys() == old["players"].keys()
    assert "method" not in body.json()["review"]  # kept as stored, not rated anew
    display.close()
