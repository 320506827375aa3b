"""A café day's small failures, each tried from outside against a live ``companion serve``
(issue 8): leaked writer threads, parser crashes, the leave answer, Origin and Host checks,
guessing secrets, start-up errors and a second server on the same data directory. Plain HTTP
checks run through the app in this process and start-up errors through ``companion serve``
run as a function."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest
import requests
import simple_websocket
from flask.testing import FlaskClient
from in_process import PORT, serve_in_process
from live_server import Host, LiveServer, Peer, Phone, free_port, seat_phones, serve_once

from companion.web.services import cafe_of


def _display(server: LiveServer, table: str) -> Peer:
    peer = Peer(f"{server.ws_base}/t/{table}/ws/display")
    peer.until(lambda f: f["type"] == "view")
    return peer


@pytest.mark.parametrize("kind", ["display", "seat"])
def test_deep_nesting_and_huge_numbers_get_an_error_and_the_handler_lives(
    server: LiveServer, table: str, kind: str
) -> None:
    """2,000 nested ``[`` (RecursionError in the parser) and a ping with ``t`` = 2**70
    (unserialisable) each get an error frame; the same connection still answers pings."""
    token: dict[str, str] = {}
    if kind == "display":
        peer: Peer = _display(server, table)
    else:
        peer = Phone(server, table, server.join(table, "Ben", "sky"))
        peer.hello()
        token = {"token": peer.token}
    peer.send("[" * 2000)
    assert peer.until(lambda f: f["type"] == "error")["code"] == "bad_json"
    peer.send(json.dumps({"type": "ping", "t": 2**70, **token}))
    assert peer.until(lambda f: f["type"] in ("error", "pong"))["type"] == "error"
    peer.send({"type": "ping", "t": 7, **token})
    assert peer.until(lambda f: f["type"] == "pong") == {"type": "pong", "t": 7}
    peer.close()


def test_leave_during_a_game_is_refused_without_an_ok(server: LiveServer, table: str) -> None:
    phones = seat_phones(server, table, ["Ana", "Ben", "Cleo"])
    host = Host(server, table)
    host.hello()
    assert host.act("start")["type"] == "ok"
    phone = phones[0]
    phone.send({"type": "leave", "token": phone.token, "id": "bye"})
    answer = phone.until(lambda f: f.get("id") == "bye")
    assert answer["type"] == "error" and answer["code"] == "bad_state"
    phone.send({"type": "ping", "token": phone.token, "t": 1})
    phone.until(lambda f: f["type"] == "pong")
    assert [f for f in phone.frames if f.get("id") == "bye"] == [answer]


def test_leave_in_the_lobby_answers_ok_then_closes(server: LiveServer, table: str) -> None:
    phone = Phone(server, table, server.join(table, "Ana", "orange"))
    phone.hello()
    phone.send({"type": "leave", "token": phone.token, "id": "bye"})
    assert phone.until(lambda f: f.get("id") == "bye")["type"] == "ok"
    with pytest.raises(ConnectionError):
        phone.until(lambda f: False, timeout=10)


def test_a_command_with_an_unknown_key_is_refused_and_never_stored(
    server: LiveServer, table: str
) -> None:
    """SCENARIO.md "Commands", PROTOCOL.md 3.1: a phone's sacrifice with a junk key (or a
    command message with one) gets an error frame naming the key; nothing of it is kept, so
    the game's log download has no trace of it, and the exact command is then accepted."""
    phones = seat_phones(server, table, ["Ana", "Ben", "Cleo"])
    host = Host(server, table)
    host.hello()
    assert host.act("start")["type"] == "ok"
    phone = phones[0]
    junk = "junk-" + "x" * 3000
    phone.command({"type": "sacrifice", "card": 7, "note": junk}, "c1")
    refusal = phone.until(lambda f: f.get("id") == "c1")
    assert refusal["type"] == "error" and refusal["code"] == "bad_message"
    assert "'note'" in refusal["reason"] and "sacrifice" in refusal["reason"]
    phone.send(
        {
            "type": "command",
            "token": phone.token,
            "id": "c2",
            "command": {"type": "sacrifice", "card": 7},
            "memo": junk,
        }
    )
    refusal = phone.until(lambda f: f.get("id") == "c2")
    assert refusal["type"] == "error" and "'memo'" in refusal["reason"]
    phone.command({"type": "sacrifice", "card": 7}, "c3")
    assert phone.until(lambda f: f.get("id") == "c3")["type"] == "ack"
    game_id = host.view_until(lambda f: f["game"])["game"]["id"]
    assert host.act("end_game")["type"] == "ok"  # a running game's log is not given out
    text = requests.get(
        f"{server.base}/t/{table}/games/{game_id}/log.json",
        params={"token": server.host_tokens[table]},
        timeout=5,
    ).text
    assert "junk-" not in text and "note" not in text and "memo" not in text
    log = json.loads(text)
    assert log["commands"] == [{"type": "sacrifice", "player": phone.seat, "card": 7}]
    for p in phones:
        p.close()
    host.close()


def test_origin_scheme_must_match(server: LiveServer, table: str) -> None:
    same = f"http://127.0.0.1:{server.port}"
    Peer(f"{server.ws_base}/t/{table}/ws/display", origin=same).close()
    with pytest.raises(simple_websocket.ConnectionError):
        Peer(f"{server.ws_base}/t/{table}/ws/display", origin=f"https://127.0.0.1:{server.port}")


def test_host_header_must_name_this_machine(app_client: FlaskClient) -> None:
    """DNS rebinding: a foreign name in ``Host`` gets no state (with the join URL)."""
    url = "/t/1/api/state"
    ok = app_client.get(url, base_url=f"http://127.0.0.1:{PORT}")
    assert ok.status_code == 200 and ok.get_json()["table"]["urls"]["join"]
    for host in (f"evil.example:{PORT}", "evil.example", f"0.0.0.0:{PORT}"):
        bad = app_client.get(url, base_url=f"http://{host}")
        assert bad.request.host == host
        assert bad.status_code == 403 and "join" not in bad.text, host
    assert app_client.get(url, base_url=f"http://localhost:{PORT}").status_code == 200


def test_a_game_id_past_sqlite_integers_is_no_game(app_client: FlaskClient) -> None:
    """The host's log download of an id no game can have answers 404 no_game, not a server
    error (SQLite cannot bind an integer past 64 bits)."""
    token = cafe_of(app_client.application).get("1").host_token
    for gid in ("99999999999999999999999", str(2**63), "424242"):
        answer = app_client.get(
            f"/t/1/games/{gid}/log.json",
            query_string={"token": token},
            base_url=f"http://127.0.0.1:{PORT}",
        )
        assert answer.status_code == 404 and answer.get_json()["error"] == "no_game", gid


def test_websocket_upgrade_with_a_foreign_host_is_refused(server: LiveServer, table: str) -> None:
    """DNS rebinding over the websocket upgrade (sent by hand: the client library sets its
    own Host)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(
            f"GET /t/{table}/ws/display HTTP/1.1\r\nHost: evil.example:{server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n".encode()
        )
        assert s.recv(100).startswith(b"HTTP/1.1 403"), "upgrade with a foreign Host"


def test_second_server_on_the_same_data_exits_naming_the_first(tmp_path: Path) -> None:
    """One server per data directory; also: --allow-host names, and guesses are throttled."""
    data = tmp_path / "data"
    live = LiveServer(data, extra=["--allow-host", "cafe.lan"]).start()
    try:
        second = serve_once(data, free_port())
        assert second.returncode == 2, second
        assert str(data.resolve()) in second.stderr and f"PID {live.proc.pid}" in second.stderr
        assert "Traceback" not in second.stderr
        # The first one still serves, under its allowed extra name too.
        state = requests.get(
            f"{live.base}/t/1/api/state", headers={"Host": f"cafe.lan:{live.port}"}, timeout=5
        )
        assert state.ok

        # Guessing the join secret: a few wrong ones are answered, then every attempt from
        # this address is refused unchecked for a while, even the right secret.
        secret = live.join_secret("1")
        codes = [live.join("1", "Eve", "orange", secret=f"guess{i}")["status"] for i in range(14)]
        assert codes[0] == 403 and codes[-1] == 429, codes
        assert live.join("1", "Ana", "orange", secret=secret)["status"] == 429
        page = requests.get(f"{live.base}/t/1/host?token={live.host_tokens['1']}", timeout=5)
        assert page.status_code == 429 and int(page.headers["Retry-After"]) >= 1
        host = Host(live, "1")
        host.send({"type": "hello", "token": host.token})
        assert host.until(lambda f: f["type"] == "error")["code"] == "too_many_guesses"
    finally:
        live.stop()
    # Once it stopped, the directory is free again (the lock is not a stale file).
    again = LiveServer(data).start()
    again.stop()


@pytest.mark.parametrize("problem", ["corrupt", "data_is_file", "db_is_dir"])
def test_database_problems_at_start_are_one_sentence_and_exit_2(
    tmp_path: Path,
    problem: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = tmp_path / "data"
    if problem == "data_is_file":
        data.write_text("not a directory")
    else:
        data.mkdir()
        if problem == "corrupt":
            (data / "companion.sqlite3").write_bytes(os.urandom(8192))
        else:
            (data / "companion.sqlite3").mkdir()
    # Run as the function behind ``companion serve``: an escaping exception fails the test.
    code, stderr = serve_in_process(
        monkeypatch,
        capsys,
        "--host",
        "127.0.0.1",
        "--port",
        str(PORT),
        "--data",
        str(data),
        "--board",
        "none",
    )
    assert code == 2, stderr
    assert "Traceback" not in stderr and stderr.startswith("companion serve: ")
    assert len(stderr.strip().splitlines()) == 1, stderr
    expected = {
        "corrupt": "not a SQLite database",
        "data_is_file": "is a file",
        "db_is_dir": "cannot use the database",
    }[problem]
    assert expected in stderr, stderr


def test_a_game_id_beyond_sqlite_integers_is_not_found(app_client: FlaskClient) -> None:
    """A log URL with a huge game id is a 404 like any unknown game, not a server error."""
    token = app_client.application.extensions["cafe"].get("1").host_token
    for gid in ("99999999999999999999999", "9223372036854775808", "12345"):
        answer = app_client.get(f"/t/1/games/{gid}/log.json?token={token}")
        assert answer.status_code == 404, (gid, answer.status_code)
        assert answer.get_json()["error"] == "no_game"
