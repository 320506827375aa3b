"""A café day, bounded (issue 8, "Done when"), against one live ``companion serve``.

Six tables play real games from real phones that keep falling asleep and waking up, while
hostile clients hold half-sent requests open, send a deeply nested message, try a foreign
Origin and guess join secrets; the disk fills up for a while; somebody starts a second server
on the same data directory. Throughout, a newcomer is served; at the end the worker's threads
and memory are where they were after warm-up, and a ``kill -9`` and restart shows every
acknowledged command and seat. Each guarantee has its own focused test (soak, slow clients,
transactions, hardening, recovery); this one shows they hold together.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
import requests
import simple_websocket
from live_server import (
    HALF_HEAD,
    SLOW_BODY,
    Host,
    LiveServer,
    Peer,
    Phone,
    disk_full,
    drain,
    ended,
    free_port,
    next_to_move,
    play,
    policy,
    reconnect,
    refused,
    seat_phones,
    serve_once,
    settled_status,
    slow_client,
)
from waiting import wait_for

TABLES = [str(t) for t in range(1, 7)]
NAMES = ["Ana", "Ben", "Cleo"]
GUESSER = "127.0.0.10"  # wrong join secrets come from their own address (throttled per address)


def _api_state(server: LiveServer, table: str) -> dict[str, Any]:
    return requests.get(f"{server.local}/t/{table}/api/state", timeout=30).json()


def _seats(server: LiveServer, table: str) -> list[tuple[str, str]]:
    return [(s["id"], s["name"]) for s in _api_state(server, table)["seats"]]


def _guess(port: int, table: str, secret: str) -> int:
    """A join attempt with ``secret`` from GUESSER; the HTTP status it got."""
    body = json.dumps({"secret": secret, "name": "Eve", "colour": "orange"}).encode()
    with socket.socket() as s:
        s.settimeout(30)
        s.bind((GUESSER, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(
            f"POST /t/{table}/api/join HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            "Connection: close\r\n\r\n".encode()
            + body
        )
        head = b""
        while b"\r\n" not in head:
            chunk = s.recv(256)
            assert chunk, head
            head += chunk
        return int(head.split()[1])


class Cafe:
    """The tables' phones (current and all that ever connected), hosts, and which command
    each ack acknowledged in which game."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.phones: dict[str, list[Phone]] = {}
        self.every: dict[str, list[Phone]] = {}
        self.hosts: dict[str, Host] = {}
        self.games: dict[str, list[int]] = {}
        self.acked: dict[int, list[tuple[int, dict[str, Any]]]] = {}  # game id -> (seq, cmd)
        self.booked: dict[int, int] = {}  # id(phone) -> frames already booked
        self.naps = 0

    def open(self) -> None:
        for t in TABLES:
            self.phones[t] = seat_phones(self.server, t, NAMES)
            self.every[t] = list(self.phones[t])
            host = Host(self.server, t)
            host.hello()
            self.hosts[t] = host
            self.games[t] = []
            self._start(t)

    def _start(self, t: str) -> None:
        assert self.hosts[t].act("start", dice="digital")["type"] == "ok"
        game_id = _api_state(self.server, t)["game"]["id"]
        self.games[t].append(game_id)
        self.acked[game_id] = []
        # Each phone is on the new game before anyone plays or sleeps: a phone still on the
        # last game's view would count it as over (no step played) or wake to "another" game.
        for phone in self.phones[t]:
            if ((phone.view or {}).get("game") or {}).get("id") != game_id:
                phone.until(
                    lambda f, g=game_id: f["type"] == "view" and (f["game"] or {}).get("id") == g
                )

    def book(self, t: str) -> None:
        """File the acks received so far under the table's current game."""
        game = self.acked[self.games[t][-1]]
        for p in self.every[t]:
            frames = p.frames[self.booked.get(id(p), 0) :]
            self.booked[id(p)] = len(p.frames)
            game += [
                (f["seq"], {**p.sent[f["id"]], "player": p.seat})
                for f in frames
                if f["type"] == "ack"
            ]

    def playing(self, t: str) -> None:
        """A finished game is followed by the next one, with the same seats."""
        game = _api_state(self.server, t)["game"]
        if game["status"] != "playing":
            wait_for(
                lambda: all(p.ready() for p in self.phones[t]) or drain(self.phones[t], 0.05),
                timeout=60,
                what=f"table {t} settled",
            )
            self.book(t)
            assert self.hosts[t].act("new_game")["type"] == "ok"
            self._start(t)

    def round(self, steps: int = 3) -> None:
        """Every table plays ``steps`` commands, then one of its phones sleeps and wakes, and
        a display looks in (each closed connection once leaked a thread)."""
        for t in TABLES:
            self.playing(t)
            screen = Peer(f"{self.server.ws_base}/t/{t}/ws/display")
            assert screen.until(lambda f: f["type"] == "view")["table"]["name"] == t
            screen.close()
            drain([self.hosts[t]])
            play(self.phones[t], [], max_steps=steps, timeout=60)
            i = self.naps % len(self.phones[t])
            sleeper = self.phones[t][i]
            sleeper.close()
            (awake,) = reconnect(self.server, t, [sleeper])
            # It wakes to the same game, at least as far on as it fell asleep.
            assert awake.view["game"]["id"] == sleeper.view["game"]["id"]
            assert awake.view["seq"] >= sleeper.view["seq"]
            self.phones[t][i] = awake
            self.every[t].append(awake)
        self.naps += 1

    def close(self) -> None:
        for t in self.every:
            for p in self.every[t]:
                p.close()
        for h in self.hosts.values():
            h.close()


def test_cafe_day(tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = LiveServer(data, tables=len(TABLES), extra=["--board", "none"]).start()
    cafe = Cafe(server)
    hostile: list[socket.socket] = []
    try:
        cafe.open()
        for _ in range(3):
            cafe.round()  # warm up: pools, caches, first games and reconnects
        start = settled_status(server, lambda s: True)

        # Hostile clients: 120 requests cut short, from six addresses, held open.
        for i in range(120):
            hostile.append(
                slow_client(server.port, f"127.0.0.{2 + i % 6}", HALF_HEAD if i % 2 else SLOW_BODY)
            )
        assert sum(not ended(s) for s in hostile) == len(hostile)
        # A newcomer while the hostile clients are held: a fresh display, the pad, and a
        # released seat taken over mid-game (Cleo went home) with a move played.
        newcomer_display = Peer(f"{server.ws_base}/t/1/ws/display")
        assert newcomer_display.until(lambda f: f["type"] == "view")["table"]["name"] == "1"
        newcomer_display.close()
        assert requests.get(f"{server.local}/t/1/", timeout=30).status_code == 200
        cafe.playing("1")
        phones = cafe.phones["1"]
        wait_for(lambda: all(p.ready() for p in phones) or drain(phones, 0.05), timeout=60)
        cleo = phones[2]
        assert cafe.hosts["1"].act("release_seat", seat=cleo.seat)["type"] == "ok"
        cleo.close()
        secret = server.join_secret("1")
        assert requests.get(f"{server.local}/t/1/join/{secret}", timeout=30).status_code == 200
        seat = server.join("1", "Fay", "purple", secret=secret)
        assert seat["status"] == 200 and seat["seat"] == cleo.seat, seat
        fay = Phone(server, "1", seat)
        fay.counter = 1000  # her own command ids, not the previous holder's
        assert fay.hello()["you"]["seat"] == cleo.seat
        phones[2] = fay
        cafe.every["1"].append(fay)
        mover = next_to_move(phones)
        mover.command(policy(mover.view, mover.seat, mover.view["you"]["pending"][0]))
        assert mover.until(lambda f: f["type"] in ("ack", "error"))["type"] == "ack"
        # ... and all of that while most hostile connections were still held open.
        assert sum(not ended(s) for s in hostile) >= len(hostile) // 2

        # Thousands of nested brackets (up to the 4 kB message limit, and beyond it): an
        # error frame each, and the display lives on.
        display = Peer(f"{server.ws_base}/t/2/ws/display")
        display.send("[" * 4000)
        assert display.until(lambda f: f["type"] == "error")["code"] == "bad_json"
        display.send("[" * 5000)
        assert display.until(lambda f: f["type"] == "error")["code"] == "too_large"
        display.send({"type": "ping", "t": 3})
        assert display.until(lambda f: f["type"] == "pong")["t"] == 3
        display.close()
        # A page elsewhere opening a websocket to us is refused.
        with pytest.raises(simple_websocket.ConnectionError):
            Peer(f"{server.ws_base}/t/3/ws/display", origin="http://evil.example")
        # Guessing the join secret: answered, then throttled for that address only.
        codes = [_guess(server.port, "4", f"guess{i}") for i in range(14)]
        assert codes[0] == 403 and codes[-1] == 429, codes
        for _ in range(4):
            cafe.round()

        # A full disk for a while: every table's next move is refused whole, then goes
        # through with the same id once there is room again.
        waiting: dict[str, tuple[Phone, dict[str, Any], str]] = {}
        for t in TABLES:
            cafe.playing(t)
        with disk_full(server):
            for t in TABLES:
                phone = next_to_move(cafe.phones[t])
                seq = _api_state(server, t)["seq"]
                command = policy(phone.view, phone.seat, phone.view["you"]["pending"][0])
                cmd_id = f"full-{t}"
                phone.command(command, cmd_id=cmd_id)
                assert refused(phone.until(lambda f, i=cmd_id: f.get("id") == i))
                phone.errors.clear()
                assert _api_state(server, t)["seq"] == seq
                waiting[t] = (phone, command, cmd_id)
            answer = cafe.hosts["5"].act("set_language", lang="de")
            assert refused(answer), answer
        for phone, command, cmd_id in waiting.values():
            phone.command(command, cmd_id=cmd_id)
            ack = phone.until(lambda f, i=cmd_id: f.get("id") == i)
            assert ack["type"] == "ack" and not ack.get("retry"), ack
        for _ in range(2):
            cafe.round()

        # A second server on the same data directory, started by mistake.
        second = serve_once(data, free_port())
        assert second.returncode == 2, second
        assert str(data.resolve()) in second.stderr and "Traceback" not in second.stderr
        for _ in range(3):
            cafe.round()

        # Threads and memory are back where they were after warm-up.
        for s in hostile:
            s.close()
        hostile.clear()

        def flat(s: dict[str, int]) -> bool:
            return (
                s["threads"] <= start["threads"] + 10 and s["rss_kb"] <= start["rss_kb"] + 30 * 1024
            )

        end = settled_status(server, flat, timeout=30)
        assert flat(end), (start, end)

        # Power cut: every acknowledged command and every seat survives.
        before: dict[str, Any] = {}
        for t in TABLES:
            phones = cafe.phones[t]
            wait_for(
                lambda ps=phones: all(p.ready() for p in ps) or drain(ps, 0.05),
                timeout=60,
                what=f"table {t} settled",
            )
            cafe.book(t)
            before[t] = (_api_state(server, t)["seq"], _seats(server, t))
        cafe.close()
        server.kill9()
        server.start()
        for t in TABLES:
            seq, seats = before[t]
            assert _api_state(server, t)["seq"] == seq, t
            assert _seats(server, t) == seats, t
            # The phones' tokens still hold their seats.
            for p in reconnect(server, t, cafe.phones[t]):
                assert p.view["seq"] == seq
                p.close()
            # Each acknowledged command sits in its game's log where its ack said (a log is
            # handed out once its game is over: it holds the secret bids).
            if _api_state(server, t)["game"]["status"] == "playing":
                host = Host(server, t)
                host.hello()
                assert host.act("end_game")["type"] == "ok"
                host.close()
            for game_id in cafe.games[t]:
                log = requests.get(
                    f"{server.local}/t/{t}/games/{game_id}/log.json",
                    params={"token": server.host_tokens[t]},
                    timeout=30,
                ).json()
                acked = cafe.acked[game_id]
                assert acked and max(at for at, _ in acked) <= len(log["commands"]), (t, log)
                for at, command in acked:
                    assert log["commands"][at - 1] == command, (t, game_id, at)
        assert sum(len(a) for a in cafe.acked.values()) > 100
    finally:
        for s in hostile:
            s.close()
        cafe.close()
        server.stop()
