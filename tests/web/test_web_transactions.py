"""Every seat and host action is computed, committed, then applied: while the disk refuses
writes, each one is answered with a JSON error saying why and changes nothing, in memory or
on disk; once writes work again it goes through (issue 8, item 3).

The full disk is real for SQLite: the server's worker gets a file-size limit of one byte
(``RLIMIT_FSIZE`` set from outside with prlimit), so the kernel refuses every write to its
database files with EFBIG, as a full disk refuses them with ENOSPC. It needs no root (a tmpfs
or loop mount would) and can be lifted again without restarting the server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import requests
from live_server import Host, LiveServer, Phone, disk_full, drain, refused


def state(server: LiveServer, table: str = "1") -> dict[str, Any]:
    """What memory says (the display's view), without who is connected right now."""
    frame = requests.get(f"{server.local}/t/{table}/api/state", timeout=5).json()
    for seat in frame["seats"]:
        seat.pop("connected")
    frame.pop("board", None)
    return frame


def test_every_action_fails_whole_on_a_full_disk_and_works_after(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "data", extra=["--board", "none"]).start()
    try:
        host = Host(server, "1")
        host.hello()

        def host_act(kind: str, **fields: Any) -> None:
            """``kind`` refused whole on a full disk, then accepted."""
            before = state(server)
            with disk_full(server):
                answer = host.act(kind, **fields)
                assert refused(answer), (kind, answer)
                assert state(server) == before, kind
            assert host.act(kind, **fields)["type"] == "ok", kind

        # Joining (HTTP): a JSON error, not an HTML 500, and no seat appears.
        before = state(server)
        with disk_full(server):
            answer = server.join("1", "Ana", "orange")
            assert answer["status"] == 503 and refused(answer), answer
            assert state(server) == before
        seats = [
            server.join("1", n, c)
            for n, c in [("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green"), ("Dan", "yellow")]
        ]
        phones = [Phone(server, "1", s) for s in seats]
        for p in phones:
            p.hello()

        # A phone giving up its seat: no ok, it keeps the seat and its connection.
        dan = phones.pop()
        with disk_full(server):
            dan.send({"type": "leave", "token": dan.token, "id": "bye"})
            assert refused(dan.until(lambda f: f.get("id") == "bye"))
            assert [s["id"] for s in state(server)["seats"]] == ["ana", "ben", "cleo", "dan"]
        dan.send({"type": "leave", "token": dan.token, "id": "bye2"})
        assert dan.until(lambda f: f.get("id") == "bye2")["type"] == "ok"

        host_act("set_language", lang="de")
        host_act("rotate_join")
        host_act("set_track_colors", colors=["gold", "red"])
        host_act("set_dice", dice="table")
        extra = server.join("1", "Eva", "blue")
        host_act("remove_seat", seat=extra["seat"])
        host_act("start", dice="table")
        host_act("set_track_colors", colors=["red", "green", "gold"])  # logged, round 0

        # A phone's move: refused, then the same id goes through.
        drain(phones, 0.1)
        ana = phones[0]
        before = state(server)
        with disk_full(server):
            ana.command({"type": "sacrifice", "card": 0}, cmd_id="s1")
            assert refused(ana.until(lambda f: f.get("id") == "s1"))
            assert state(server) == before
        ana.command({"type": "sacrifice", "card": 0}, cmd_id="s1")
        assert ana.until(lambda f: f.get("id") == "s1")["type"] == "ack"
        for i, p in enumerate(phones[1:], 1):
            p.command({"type": "sacrifice", "card": i})
            assert p.until(lambda f: f["type"] in ("ack", "error"))["type"] == "ack"

        # The host's input from the real dice, and its undo.
        before = state(server)
        with disk_full(server):
            answer = host.command({"type": "harvest", "dice": [1, 2, 3]})
            assert refused(answer), answer
            assert state(server) == before
        assert host.command({"type": "harvest", "dice": [1, 2, 3]})["type"] == "ack"
        host_act("undo", **host.undo_fields())
        assert host.command({"type": "harvest", "dice": [4, 5, 6]})["type"] == "ack"

        host_act("skip_seat", seat="cleo")
        host_act("resume_seat", seat="cleo")
        host_act("release_seat", seat="ben")
        # The freed seat: a newcomer's join fails whole, then takes it.
        before = state(server)
        with disk_full(server):
            assert server.join("1", "Fay", "purple")["status"] == 503
            assert state(server) == before
        fay = server.join("1", "Fay", "purple")
        assert fay["status"] == 200 and fay["seat"] == "ben"
        host_act("set_dice", dice="digital")  # the dealer's draws commit with it
        host_act("end_game")
        host_act("new_game")

        # Memory and disk agree: a restart shows exactly what the last view showed.
        final = state(server)
        server.stop()
        server.start()
        assert state(server) == final
    finally:
        server.stop()
