"""``kill -9`` right after acknowledgements loses nothing (issue items 7 and 10).

The server runs as ``python -m companion serve`` with a temporary ``--data`` directory. The
phones play, the server is killed with SIGKILL straight after an ``ack`` arrives, restarted on
the same data, and the phones reconnect with their stored tokens. At the end, the game log
holds every acknowledged command at its acknowledged position, and every view any phone ever
received (before and after the kills) is the view of that log's prefix.
"""

from __future__ import annotations

import re

import requests
from live_server import (
    Host,
    LiveServer,
    Peer,
    Phone,
    next_to_move_or_over,
    play,
    policy,
    reconnect,
    seat_phones,
    settle,
)

from companion.engine import apply, new_game, view

NAMES = ["Ana", "Ben", "Cleo"]


def test_kill_9_after_acks_loses_nothing(tmp_path) -> None:
    data = tmp_path / "data"
    server = LiveServer(data, tables=1, extra=["--dice", "digital"]).start()
    all_phones: list[Phone] = []
    acked: list[tuple[int, dict]] = []
    try:
        table = "1"
        phones = seat_phones(server, table, NAMES)
        all_phones += phones
        host = Host(server, table)
        host.hello()
        assert host.act("start", dice="digital")["type"] == "ok"
        game_id = host.view["game"]["id"]
        for steps in (3, 5, 4, 6):
            play(phones, [], None, max_steps=steps)
            phone = next_to_move_or_over(phones)
            if phone is None:  # a deal that ended the game early (R6.3): no move left to cut
                break
            # One more command; the moment its ack arrives the power goes.
            command = policy(phone.view, phone.seat, phone.view["you"]["pending"][0])
            phone.command(command)
            ack = phone.until(lambda f: f["type"] in ("ack", "error"))
            assert ack["type"] == "ack"
            server.kill9()
            acked.append((ack["seq"], {**command, "player": phone.seat}))
            server = LiveServer(data, tables=1).start()
            phones = reconnect(server, table, phones)
            all_phones += phones
            restarted = phones[0].view
            assert restarted["game"]["id"] == game_id
            assert restarted["seq"] >= ack["seq"]
            # The acknowledged command is in force: that seat is not asked for it again.
            me = next(p for p in phones if p.seat == acked[-1][1]["player"])
            pending = me.view["you"]["pending"]
            assert command not in [policy(me.view, me.seat, e) for e in pending]
        assert len(acked) >= 3, "the game ended before the third power cut"
        host = Host(server, table)
        host.hello()
        play(phones, [], host)
        settle(server, table, [host, *phones])
        assert host.view["game"]["view"]["finished"]
        doc = requests.get(
            f"{server.base}/t/{table}/games/{game_id}/log.json",
            params={"token": server.host_tokens[table]},
            timeout=5,
        ).json()
    finally:
        for p in all_phones:
            p.close()
        server.stop()
    # Every acknowledged command sits where its ack said.
    for seq, command in acked:
        assert doc["commands"][seq - 1] == command
    # Every view frame ever received equals the view of the log's prefix of that length.
    states = [new_game(doc["players"], doc["stack"], doc["profile"])]
    for c in doc["commands"]:
        states.append(apply(states[-1], c)[0])
    checked = 0
    for p in all_phones:
        for frame in p.frames:
            if frame["type"] == "view" and frame["game"]:
                assert frame["game"]["view"] == view(states[frame["seq"]], p.seat)
                checked += 1
    assert checked > 50


def test_a_game_the_cafe_closed_is_still_the_cafes_after_kill_9(tmp_path) -> None:
    """The admin closes a stuck game, then the power goes: back up, the phones, the display
    and the host still say the café closed it (``game.ended_by``), not the host."""
    data = tmp_path / "data"
    server = LiveServer(data, tables=1).start()
    peers: list = []
    try:
        phones = seat_phones(server, "1", NAMES)
        peers += phones
        host = Host(server, "1")
        host.hello()
        peers.append(host)
        assert host.act("start", dice="digital")["type"] == "ok"
        token = re.search(r"Café admin:\s+\S+/admin\?token=(\S+)", server.log())
        assert token, "the admin link is printed at start-up"
        closed = requests.post(
            f"{server.base}/admin/api/tables/1/close",
            headers={"X-Admin-Token": token.group(1)},
            timeout=10,
        )
        assert closed.status_code == 200, closed.text
        for p in peers:
            p.view_until(lambda v: (v["game"] or {}).get("status") == "ended")
            assert p.view["game"]["ended_by"] == "cafe"
        server.kill9()
        server = LiveServer(data, tables=1).start()
        phones = reconnect(server, "1", phones)
        peers += phones
        host = Host(server, "1")
        host.hello()
        display = Peer(f"{server.ws_base}/t/1/ws/display")
        peers += [host, display]
        display.view_until(lambda v: v["game"] is not None)
        for p in [*phones, host, display]:
            assert p.view["game"]["status"] == "ended"
            assert p.view["game"]["ended_by"] == "cafe", p.view["game"]
    finally:
        for p in peers:
            p.close()
        server.stop()
