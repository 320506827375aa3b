"""Host controls behind the host token (issue item 4), over a live server."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
import requests
from live_server import ROOT, Host, LiveServer, Peer, Phone, play, policy, seat_phones, settle
from waiting import wait_for

NAMES = ["Ana", "Ben", "Cleo", "Dan"]


def test_host_token_guards_host_actions(server: LiveServer, table: str) -> None:
    intruder = Host(server, table, token="guess")
    intruder.send({"type": "hello", "token": "guess"})
    assert intruder.until(lambda f: f["type"] == "error")["code"] == "bad_token"
    with pytest.raises(ConnectionError):
        intruder.until(lambda f: False, timeout=5)
    page = requests.get(f"{server.base}/t/{table}/host", params={"token": "guess"}, timeout=5)
    assert page.status_code == 403
    log = requests.get(f"{server.base}/t/{table}/games/1/log.json", timeout=5)
    assert log.status_code == 403 and log.json()["error"] == "bad_token"


def test_start_needs_three_to_five_seats(server: LiveServer, table: str) -> None:
    host = Host(server, table)
    host.hello()
    seat_phones(server, table, NAMES[:2])
    refused = host.act("start", dice="digital")
    assert refused["type"] == "error" and refused["code"] == "bad_state"
    assert "3 to 5" in refused["reason"]
    seat_phones(server, table, NAMES[2:3], first_colour=2)
    assert host.act("start", dice="digital")["type"] == "ok"
    again = host.act("start", dice="digital")
    assert again["type"] == "error" and again["code"] == "bad_state"


def test_undo_only_while_nothing_was_revealed(server: LiveServer, table: str) -> None:
    phones = seat_phones(server, table, NAMES[:3])
    host = Host(server, table)
    host.hello()
    assert host.act("start", dice="table")["type"] == "ok"
    a = phones[0]
    settle(server, table, phones)
    a.command({"type": "sacrifice", "card": 7})
    a.until(lambda f: f["type"] == "ack")
    settle(server, table, [host])
    assert host.view["host"]["undo"]["possible"]
    named = host.undo_fields()
    assert host.act("undo", **named)["type"] == "ok"
    view = a.until(lambda f: f["type"] == "view" and f["reason"] == "undo")
    assert view["seq"] == 0 and view["you"]["pending"] == [{"type": "sacrifice", "player": "ana"}]
    assert view["game"]["view"]["players"]["ana"]["sacrifice"] is None
    # Nothing left to undo: the host's view offers none, and the undone move is no longer
    # there to take back again.
    offered = host.view["host"]["undo"]
    assert not offered["possible"] and offered["key"] == "undo.nothing" and offered["n"] is None
    assert host.act("undo", **named)["code"] == "undo_moved"
    # Sacrifices, then a typo in the harvest dice can be undone and typed again.
    play(phones, [], host, max_steps=3)
    assert host.command({"type": "harvest", "dice": [1, 1, 1]})["type"] == "ack"
    assert host.undo()["type"] == "ok"
    assert host.command({"type": "harvest", "dice": [2, 5, 6]})["type"] == "ack"
    assert host.command({"type": "improvements", "cards": [13, 10]})["type"] == "ack"
    settle(server, table, phones)
    # The last bid of the red round reveals station 1: that cannot be undone (R3.1).
    for p in phones:
        p.command(policy(p.view, p.seat, p.view["you"]["pending"][0]))
        p.until(lambda f: f["type"] == "ack")
    refused = host.undo()
    assert refused["type"] == "error" and refused["code"] == "cannot_undo"
    assert "revealed" in refused["reason"]


def test_dealer_draws_cannot_be_undone(server: LiveServer, table: str) -> None:
    phones = seat_phones(server, table, NAMES[:3])
    host = Host(server, table)
    host.hello()
    assert host.act("start", dice="digital")["type"] == "ok"
    play(phones, [], host, max_steps=3)  # the last sacrifice makes the dealer deal
    refused = host.undo()
    assert refused["code"] == "cannot_undo" and "dice or cards" in refused["reason"]


def test_skip_and_replace_a_player_who_left(server: LiveServer, table: str) -> None:
    phones = seat_phones(server, table, NAMES[:4])
    host = Host(server, table)
    host.hello()
    assert host.act("start", dice="digital")["type"] == "ok"
    play(phones, [], host, max_steps=6)
    dan = phones[3]
    dan.close()
    # Dan left: the companion plays for him.
    assert host.act("skip_seat", seat="dan")["type"] == "ok"
    play(phones[:3], [], host, max_steps=8)
    settle(server, table, [host])
    assert next(s for s in host.view["seats"] if s["id"] == "dan")["state"] == "auto"
    # Eva takes over Dan's seat with a new phone; Dan's token is dead.
    assert host.act("release_seat", seat="dan")["type"] == "ok"
    eva = server.join(table, "Eva", "blue")
    assert eva["status"] == 200 and eva["seat"] == "dan" and eva["name"] == "Eva"
    stale = Phone(server, table, {"seat": "dan", "token": dan.token})
    stale.send({"type": "hello", "seat": "dan", "token": dan.token})
    assert stale.until(lambda f: f["type"] == "error")["code"] == "bad_token"
    new = Phone(server, table, eva)
    assert new.hello()["you"]["name"] == "Eva"
    play([*phones[:3], new], [], host)
    settle(server, table, [host])
    assert host.view["game"]["view"]["finished"]
    auto = [
        e
        for f in host.frames
        if f["type"] == "view"
        for e in f["events"]
        if e.get("player") == "dan" and e["type"] == "bid_placed"
    ]
    assert auto  # dan's seat kept bidding while skipped and after the takeover


def test_end_game_log_download_and_replay(server: LiveServer, table: str, tmp_path) -> None:
    phones = seat_phones(server, table, NAMES[:3])
    host = Host(server, table)
    host.hello()
    assert host.act("start", dice="digital")["type"] == "ok"
    settle(server, table, [host, *phones])
    game_id = host.view["game"]["id"]
    url = f"{server.base}/t/{table}/games/{game_id}/log.json"
    token = server.host_tokens[table]
    # A running game's log would give away its sacrifices and bids: refused.
    early = requests.get(url, params={"token": token}, timeout=5)
    assert early.status_code == 409 and "unrevealed" in early.json()["reason"]
    play(phones, [], host, max_steps=20)
    settle(server, table, [host, *phones])
    early = requests.get(url, params={"token": token}, timeout=5)
    seen = host.view["game"]["view"]
    # A deal may end the game within 20 moves (R6.3: a score of 40 makes the round the last).
    over = "finished"  # what the list of games says of it below
    if host.view["game"]["status"] == "playing":
        assert early.status_code == 409 and "unrevealed" in early.json()["reason"]
        assert host.act("end_game")["type"] == "ok"
        over = "ended"
    doc = requests.get(url, params={"token": token}, timeout=5)
    assert doc.status_code == 200 and "attachment" in doc.headers["Content-Disposition"]
    log = doc.json()
    assert set(log) == {"players", "stack", "profile", "commands", "meta"}
    # meta (SCENARIO.md): the table, the date and the seats' names and colours.
    assert log["meta"]["table"] == table and log["meta"]["date"].endswith("Z")
    assert {s: v["name"] for s, v in log["meta"]["seats"].items()} == {
        "ana": "Ana",
        "ben": "Ben",
        "cleo": "Cleo",
    }
    assert sorted(log["stack"]) == sorted(log["players"]) == ["ana", "ben", "cleo"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    out = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    state = json.loads(out.stdout)
    assert state["track"] == seen["track"] and state["round"] == seen["round"]
    assert state["pyramid"] == seen["pyramid"]
    # A new game at the same table with the same seats.
    assert host.act("new_game")["type"] == "ok"
    lobby = host.view  # the views go out before the ok
    assert lobby["reason"] == "game"
    assert lobby["game"] is None and [s["id"] for s in lobby["seats"]] == ["ana", "ben", "cleo"]
    assert host.act("start", dice="digital")["type"] == "ok"
    listed = {g["id"]: g["status"] for g in host.view["host"]["games"]}
    assert listed.get(game_id) == over, listed
    assert host.view["game"]["id"] != game_id


def test_rotate_join_secret_and_language(server: LiveServer, table: str) -> None:
    host = Host(server, table)
    host.hello()
    old = server.join_secret(table)
    assert host.act("rotate_join")["type"] == "ok"
    assert server.join(table, "Ana", "orange", secret=old)["error"] == "bad_secret"
    assert server.join(table, "Ana", "orange")["status"] == 200
    assert requests.get(f"{server.base}/t/{table}/join/{old}", timeout=5).status_code == 403
    assert host.act("set_language", lang="de")["type"] == "ok"
    assert host.act("set_language", lang="xx")["code"] == "bad_message"
    assert (
        requests.get(f"{server.base}/api/tables", timeout=5).json()["tables"][int(table) - 1][
            "lang"
        ]
        == "de"
    )
    bad_colours = host.act("set_track_colors", colors=["red", "blue"])
    assert bad_colours["code"] == "bad_message" and "track_colors" in bad_colours["reason"]


def test_a_new_game_gives_skipped_seats_back_to_their_phones(
    server: LiveServer, table: str
) -> None:
    """A player the companion played for in one game is asked again in the next: after
    "New game" a skipped seat is a phone seat again (the host skips again whoever left)."""
    host = Host(server, table)
    host.hello()
    seat_phones(server, table, ["Ana", "Ben", "Cleo"])
    assert host.act("start", dice="digital")["type"] == "ok"
    assert host.act("skip_seat", seat="cleo")["type"] == "ok"
    assert {s["id"]: s["state"] for s in host.view["seats"]}["cleo"] == "auto"
    assert host.act("end_game")["type"] == "ok"
    assert host.act("new_game")["type"] == "ok"
    assert {s["id"]: s["state"] for s in host.view["seats"]} == {
        "ana": "phone",
        "ben": "phone",
        "cleo": "phone",
    }
    assert host.act("start", dice="digital")["type"] == "ok"
    # Cleo's phone is asked for its sacrifice again; the companion does not answer for it
    # (the views go out before the ok, so host.view is the started game).
    pending = {e["player"] for e in host.view["game"]["view"]["pending"]}
    assert pending == {"ana", "ben", "cleo"}


def test_end_game_is_not_offered_for_a_game_over_that_the_screens_still_show(tmp_path) -> None:
    """Companion players alone play the rest of a game at once; the screens follow it at the
    host's pace, so it is shown as playing long after it is over. End game is then not offered (the
    table would refuse it: there is nothing left to end), while the shown status stays."""
    srv = LiveServer(tmp_path, extra=["--pace", "quick"]).start()
    host = Host(srv, "1")
    try:
        host.hello()
        srv.join("1", "Ana", "orange")  # a person's seat: the game waits for Ana's moves
        for name in ("Ben", "Cleo"):
            assert host.act("add_bot", level="plain", name=name)["type"] == "ok"
        assert host.act("start", dice="digital")["type"] == "ok"
        playing = host.view_until(lambda f: f["game"] is not None)
        assert playing["game"]["status"] == "playing" and playing["host"]["can_end"]
        # Ana leaves her seat to a companion player: the three play the rest at once.
        assert host.act("hand_to_bot", seat="ana", level="plain")["type"] == "ok"
        over = host.view_until(
            lambda f: (
                f["game"] is not None
                and f["game"]["status"] == "playing"
                and not f["host"]["can_end"]
            ),
            timeout=120,
        )
        assert not over["game"]["view"].get("finished")  # the screens are not at the end yet
        refused = host.act("end_game")
        assert refused["type"] == "error" and refused["code"] == "no_game", refused
    finally:
        host.close()
        srv.stop()


def test_the_admins_list_counts_each_screens_socket_while_it_is_open(
    server: LiveServer, table: str
) -> None:
    """The café admin's list counts a table's open sockets by kind of screen: one for the
    display, the host's page and each phone; a seat opened on another device is still one
    socket (the newer takes it over), and a closed screen's socket leaves the count."""
    assert server.sockets(table) == {"display": 0, "host": 0, "seat": 0}
    seat = server.join(table, "Ana", "orange")
    display = Peer(f"{server.ws_base}/t/{table}/ws/display")
    display.until(lambda f: f["type"] == "view")
    host = Host(server, table)
    host.hello()
    phone = Phone(server, table, seat)
    phone.hello()
    want = {"display": 1, "host": 1, "seat": 1}
    wait_for(lambda: server.sockets(table) == want, timeout=10, what=f"sockets {want}")
    again = Phone(server, table, seat)  # the same seat opened on another device
    again.hello()
    phone.until(lambda f: f["type"] == "taken_over")
    wait_for(
        lambda: server.sockets(table) == want, timeout=10, what=f"sockets {want} after the takeover"
    )
    for peer in (again, display, phone):
        peer.close()
    want = {"display": 0, "host": 1, "seat": 0}
    wait_for(lambda: server.sockets(table) == want, timeout=10, what=f"sockets {want} once closed")
    host.close()


def _numbered_log(frames: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """The host page's log as it numbers it (hostview.followLog, without dropping the oldest):
    a frame with history replaces it, numbered on from ``history_from``."""
    log: dict[int, dict[str, Any]] = {}
    before = 0  # how many of the game's events come before the log's first line
    for f in frames:
        if f["type"] != "view":
            continue
        if "history" in f:
            before, log = f["history_from"], {}
        for e in f.get("history", []) + f["events"]:
            log[before + len(log) + 1] = e
    return log


def test_a_host_page_reloaded_mid_game_numbers_its_log_on_from_the_games_start(
    server: LiveServer, table: str
) -> None:
    """The host's log numbers its lines from the game's start. A page reloaded in round 2 (or
    after an undo) gets the round so far as history: its first line is not "1." again."""
    phones = seat_phones(server, table, NAMES[:3])
    host = Host(server, table)
    host.hello()
    assert host.act("start", dice="digital")["type"] == "ok"
    while not (host.view and host.view["game"] and host.view["game"]["view"]["round"] >= 2):
        play(phones, [], max_steps=1)
        host.poll(0.05)
    play(phones, [], max_steps=1)  # a move of round 2: the host may take it back
    settle(server, table, [*phones, host])
    watched = _numbered_log(host.frames)
    assert min(watched) == 1 and len(watched) > 20
    host.close()
    reloaded = Host(server, table)
    hello = reloaded.hello()
    assert hello["history_from"] > 0  # round 1 is not in the history
    assert _numbered_log([hello]) == {n: e for n, e in watched.items() if n > hello["history_from"]}
    # After an undo, the numbers go on from the same place.
    seen = len(reloaded.frames)
    assert reloaded.undo()["type"] == "ok"

    def history_after_undo() -> dict[str, Any] | None:
        reloaded.poll(0.1)
        return next(
            (f for f in reloaded.frames[seen:] if f["type"] == "view" and "history" in f), None
        )

    undone = wait_for(history_after_undo, "the view with history after the undo")
    assert undone["history_from"] == hello["history_from"]
    assert len(undone["history"]) < len(hello["history"])
