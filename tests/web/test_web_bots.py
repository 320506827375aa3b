"""Companion players at a live table (issue 10): seated in the lobby, handed a seat and giving
it back, thinking outside the table, and learning-mode hints; real websocket clients against
a live ``companion serve``."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import requests
from live_server import Host, LiveServer, Peer, drain, play, seat_phones

from companion.engine import replay_document, view


def test_two_people_finish_a_game_with_two_strong_companions(
    server: LiveServer, table: str
) -> None:
    phones = seat_phones(server, table, ["Ana", "Ben"])
    display = Peer(f"{server.ws_base}/t/{table}/ws/display")
    display.until(lambda f: f["type"] == "view")
    host = Host(server, table)
    host.hello()
    assert host.act("start", dice="digital")["type"] == "error"  # R1.1: two are too few
    for _ in range(2):
        assert host.act("add_bot", level="strong")["type"] == "ok"
    seats = display.until(lambda f: f["type"] == "view" and len(f["seats"]) == 4)["seats"]
    bots = [s for s in seats if s["companion"]]
    assert [s["level"] for s in bots] == ["strong", "strong"]
    assert all(not s["companion"] and s["level"] is None for s in seats if s not in bots)
    assert len({s["colour"] for s in seats}) == 4
    assert host.act("start", dice="digital")["type"] == "ok"
    play(phones, [display], host, timeout=600)
    drain([display, host, *phones], 0.2)
    final = display.view["game"]["view"]
    assert final["finished"] and final["winners"]
    # Every companion command went through the engine, the store and the log.
    game_id = display.view["game"]["id"]
    doc = requests.get(
        f"{server.base}/t/{table}/games/{game_id}/log.json",
        params={"token": server.host_tokens[table]},
        timeout=5,
    ).json()
    state, _ = replay_document(doc)
    assert view(state, None)["track"] == final["track"]
    for bot in bots:
        moves = [c for c in doc["commands"] if c.get("player") == bot["id"]]
        kinds = {c["type"] for c in moves}
        assert {"sacrifice", "bid"} <= kinds
    # The log says which seats companion players played (SCENARIO.md meta).
    assert {p: s.get("companion") for p, s in doc["meta"]["seats"].items()} == {
        s["id"]: ("strong" if s in bots else None) for s in seats
    }
    assert host.act("new_game")["type"] == "ok"


def test_a_left_seat_goes_to_a_companion_and_comes_back(server: LiveServer, table: str) -> None:
    phones = seat_phones(server, table, ["Ana", "Ben", "Cleo", "Dan"])
    host = Host(server, table)
    host.hello()
    assert host.act("start", dice="digital")["type"] == "ok"
    play(phones, [], host, max_steps=8)  # the sacrifices and the first bids
    dan = phones[3]
    assert host.act("hand_to_bot", seat=dan.seat, level="bogus")["type"] == "error"
    assert host.act("hand_to_bot", seat=dan.seat, level="good")["type"] == "ok"
    # The seats broadcast comes before the host's ok.
    assert any(
        s["id"] == dan.seat and s["level"] == "good" and s["companion"] for s in host.view["seats"]
    )
    # Dan's phone may still watch, but the companion plays the seat now.
    drain([dan], 0.2)
    dan.command({"type": "dice", "count": 0})
    refused = dan.until(lambda f: f["type"] == "error")
    assert refused["code"] == "not_allowed"
    dan.errors.clear()
    play(phones[:3], [dan], host, max_steps=30)
    assert host.act("resume_seat", seat=dan.seat)["type"] == "ok"
    assert any(
        s["id"] == dan.seat and s["state"] == "phone" and not s["companion"]
        for s in host.view["seats"]
    )
    play(phones, [], host, timeout=300)
    drain([host, *phones], 0.2)
    assert phones[0].view["game"]["view"]["finished"]
    doc = requests.get(
        f"{server.base}/t/{table}/games/{phones[0].view['game']['id']}/log.json",
        params={"token": server.host_tokens[table]},
        timeout=5,
    ).json()
    replay_document(doc)
    assert any(c.get("player") == dan.seat for c in doc["commands"][-40:])
    assert doc["meta"]["seats"][dan.seat]["companion"] == "good"  # it played for a while
    assert "companion" not in doc["meta"]["seats"][phones[0].seat]


def test_lobby_companions_are_checked(server: LiveServer, table: str) -> None:
    seat_phones(server, table, ["Ana"])
    host = Host(server, table)
    host.hello()
    assert host.act("add_bot", level="wizard")["code"] == "bad_message"
    for _ in range(4):
        assert host.act("add_bot", level="good")["type"] == "ok"
    assert host.act("add_bot", level="good")["code"] == "table_full"
    seats = host.view["seats"]
    assert len(seats) == 5
    bot = next(s for s in seats if s["companion"])
    assert host.act("resume_seat", seat=bot["id"])["type"] == "error"  # nobody to give back to
    assert host.act("remove_seat", seat=bot["id"])["type"] == "ok"


def test_learning_mode_hints_only_to_the_asking_pad(server: LiveServer, table: str) -> None:
    phones = seat_phones(server, table, ["Ana", "Ben", "Cleo"])
    display = Peer(f"{server.ws_base}/t/{table}/ws/display")
    display.until(lambda f: f["type"] == "view")
    host = Host(server, table)
    host.hello()
    assert display.view["table"]["hints"] is None  # off by default
    assert host.act("start", dice="digital")["type"] == "ok"
    ana = phones[0]
    ana.until(lambda f: f["type"] == "view" and f["you"]["pending"])
    ana.send({"type": "hint", "token": ana.token, "id": "q1"})
    assert ana.until(lambda f: f.get("id") == "q1")["code"] == "hints_off"
    assert host.act("set_hints", level="maybe")["type"] == "error"
    assert host.act("set_hints", level="strong")["type"] == "ok"
    assert display.until(lambda f: f["type"] == "view" and f["table"]["hints"] == "strong")
    play(phones, [], host, max_steps=3)  # sacrifices; bids are awaited
    drain(phones, 0.2)
    ana.send({"type": "hint", "token": ana.token, "id": "q2"})
    answer = ana.until(lambda f: f.get("id") == "q2", timeout=60)
    assert answer["type"] == "hint", answer
    hint = answer["hint"]
    assert hint["reason"]["key"].startswith("hint.")
    game = ana.view["game"]["view"]
    assert hint["command"]["player"] == ana.seat
    assert {e["type"] for e in ana.view["you"]["pending"]} == {hint["command"]["type"]}
    if hint["command"]["type"] == "bid":  # the suggestion uses Ana's own free cards
        me = game["players"][ana.seat]
        free = list(me["deck"])
        for c in me["used"]:
            free.remove(c)
        for cards in hint["command"]["bids"].values():
            for c in cards:
                free.remove(c)
    ana.command(hint["command"])  # the engine takes it
    ana.until(lambda f: f["type"] == "ack")
    # Nobody else hears of it.
    drain([display, *phones[1:]], 0.2)
    for peer in (display, *phones[1:]):
        assert not any(f["type"] == "hint" for f in peer.frames)
    assert game["phase"] in ("bid", "sacrifice")


def test_companions_pick_up_after_a_power_cut(tmp_path) -> None:
    """kill -9 while companion players owe moves: after the restart they answer by themselves
    and the game runs to its end; a clean stop leaves no thinking process behind."""
    live = LiveServer(tmp_path / "data", tables=1).start()
    try:
        phones = seat_phones(live, "1", ["Ana", "Ben"])
        host = Host(live, "1")
        host.hello()
        for _ in range(2):
            assert host.act("add_bot", level="good")["type"] == "ok"
        assert host.act("start", dice="digital")["type"] == "ok"
        play(phones, [], host, max_steps=2)  # the people's sacrifices
        live.kill9()
        live.start()
        phones = [type(p)(live, "1", {"seat": p.seat, "token": p.token}) for p in phones]
        for p in phones:
            p.hello()
        play(phones, [], None, timeout=300)
        drain(phones, 0.2)
        assert phones[0].view["game"]["view"]["finished"]
        assert live.proc is not None
        family = _descendants(live.proc.pid)
        assert len(family) >= 2  # gunicorn's worker and the thinking process
        live.proc.send_signal(signal.SIGTERM)  # a clean stop, nothing killed by the test
        live.proc.wait(timeout=30)
        deadline = time.monotonic() + 15
        while _running(family) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _running(family)
    finally:
        live.stop()


def _running(pids: list[int]) -> list[int]:
    """Those of ``pids`` that still run (a zombie waiting to be reaped has stopped)."""
    out = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        if state != "Z":
            out.append(pid)
    return out


def _descendants(pid: int) -> list[int]:
    out = []
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        out.append(int(child))
        out.extend(_descendants(int(child)))
    return out
