"""Tokens, takeover, origins, malformed/oversized/too many messages, reconnect, retries
(issue items 5, 6 and 10) against a live server with real websocket clients; the join API's
answers through the app in this process."""

from __future__ import annotations

import json

import pytest
import requests
import simple_websocket
from flask.testing import FlaskClient
from in_process import join
from live_server import Host, LiveServer, Peer, Phone, play, seat_phones, settle

NAMES = ["Ana", "Ben", "Cleo"]


def _started(server: LiveServer, table: str, dice: str = "digital") -> tuple[list[Phone], Host]:
    phones = seat_phones(server, table, NAMES)
    host = Host(server, table)
    host.hello()
    assert host.act("start", dice=dice)["type"] == "ok"
    settle(server, table, [*phones])
    return phones, host


def test_seat_token_has_at_least_128_random_bits(app_client: FlaskClient) -> None:
    a = join(app_client, "1", "Ana", "orange")
    b = join(app_client, "1", "Ben", "sky")
    assert a["status"] == 200 and a["seat"] == "ana"
    # token_urlsafe(32): 43 base64 characters = 256 bits; two tokens never repeat.
    assert len(a["token"]) >= 22 and a["token"] != b["token"]


def test_join_refusals_name_the_reason(app_client: FlaskClient) -> None:
    assert join(app_client, "1", "Ana", "orange", secret="wrong")["error"] == "bad_secret"
    assert join(app_client, "1", "Ana", "pink")["error"] == "bad_colour"
    assert join(app_client, "1", "   ", "orange")["error"] == "bad_name"
    assert join(app_client, "1", "Ana", "orange")["status"] == 200
    taken = join(app_client, "1", "Ann", "orange")
    assert taken["status"] == 409 and taken["error"] == "colour_taken"
    for name, colour in [("B", "sky"), ("C", "green"), ("D", "yellow"), ("E", "blue")]:
        assert join(app_client, "1", name, colour)["status"] == 200
    full = join(app_client, "1", "F", "purple")
    assert full["status"] == 409 and full["error"] == "table_full" and full["reason"]
    bad = app_client.post("/t/1/api/join", data="nope")
    assert bad.status_code == 400 and bad.get_json()["error"] == "bad_json"


def test_wrong_token_is_refused_and_closed(server: LiveServer, table: str) -> None:
    seat = server.join(table, "Ana", "orange")
    phone = Phone(server, table, {**seat, "token": seat["token"][:-2] + "xx"})
    phone.send({"type": "hello", "seat": "ana", "token": phone.token})
    err = phone.until(lambda f: f["type"] == "error")
    assert err["code"] == "bad_token" and "token" in err["reason"]
    with pytest.raises(ConnectionError):
        phone.until(lambda f: False, timeout=5)
    assert phone.ws.close_reason == 4401
    # A valid hello followed by a message with another token: refused and closed too.
    good = Phone(server, table, seat)
    good.hello()
    good.send({"type": "ping", "token": "not-mine", "t": 1})
    assert good.until(lambda f: f["type"] == "error")["code"] == "bad_token"
    # Messages before hello are refused with a reason.
    early = Phone(server, table, seat)
    early.send({"type": "ping", "token": seat["token"]})
    assert early.until(lambda f: f["type"] == "error")["code"] == "not_hello"


def test_second_device_takes_over_the_seat(server: LiveServer, table: str) -> None:
    phones, host = _started(server, table)
    old = phones[0]
    seat = {"seat": old.seat, "token": old.token}
    new = Phone(server, table, seat)
    view = new.hello()
    assert view["you"]["seat"] == "ana" and view["you"]["pending"]
    assert old.until(lambda f: f["type"] == "taken_over")
    with pytest.raises(ConnectionError):
        old.until(lambda f: False, timeout=5)
    assert old.ws.close_reason == 4409
    # The new device plays the seat.
    new.command({"type": "sacrifice", "card": 4})
    assert new.until(lambda f: f["type"] in ("ack", "error"))["type"] == "ack"


def test_foreign_origin_is_refused_same_origin_allowed(server: LiveServer, table: str) -> None:
    with pytest.raises(simple_websocket.ConnectionError):
        Peer(f"{server.ws_base}/t/{table}/ws/display", origin="http://evil.example")
    with pytest.raises(simple_websocket.ConnectionError):
        Peer(f"{server.ws_base}/t/{table}/ws/seat", origin="http://127.0.0.1:1")
    ok = Peer(f"{server.ws_base}/t/{table}/ws/display", origin=server.base)
    assert ok.until(lambda f: f["type"] == "view")["table"]["name"] == table


def test_malformed_oversized_and_too_many_messages(server: LiveServer, table: str) -> None:
    phones, host = _started(server, table)
    phone = phones[0]
    cases = [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        (json.dumps({"type": "dance", "token": phone.token}), "unknown_type"),
        (
            json.dumps({"type": "command", "token": phone.token, "command": {"type": "bid"}}),
            "bad_message",
        ),
        (
            json.dumps(
                {
                    "type": "command",
                    "token": phone.token,
                    "id": "x1",
                    "command": {"type": "harvest", "dice": [1, 2, 3]},
                }
            ),
            "not_allowed",
        ),
        (
            json.dumps(
                {
                    "type": "command",
                    "token": phone.token,
                    "id": "x2",
                    "command": {"type": "sacrifice", "player": "ben", "card": 1},
                }
            ),
            "not_allowed",
        ),
        (
            json.dumps(
                {
                    "type": "command",
                    "token": phone.token,
                    "id": "x3",
                    "command": {"type": "sacrifice", "card": 99},
                }
            ),
            "illegal",
        ),
        (json.dumps({"type": "ping", "token": phone.token, "pad": "x" * 5000}), "too_large"),
    ]
    for raw, code in cases:
        phone.send(raw)
        err = phone.until(lambda f: f["type"] == "error")
        assert err["code"] == code, (raw[:60], err)
        assert err["reason"]
    # Nothing of that changed the game.
    assert phone.view["seq"] == 0 and phone.view["you"]["pending"]
    # More than the allowed burst: the surplus is dropped with rate_limited.
    for i in range(80):
        phone.send({"type": "ping", "token": phone.token, "t": i})
    codes = []
    for _ in range(80):
        f = phone.until(lambda f: f["type"] in ("pong", "error"))
        codes.append(f.get("code", "pong"))
    assert "rate_limited" in codes and "pong" in codes
    # Far over the frame limit: the socket itself is closed (1009).
    big = Phone(server, table, {"seat": phones[1].seat, "token": phones[1].token})
    big.hello()
    big.send("x" * 70000)
    with pytest.raises(ConnectionError):
        big.until(lambda f: False, timeout=5)
    assert big.ws.close_reason == 1009


def test_retry_of_a_command_id_applies_once(server: LiveServer, table: str) -> None:
    phones, host = _started(server, table)
    phone = phones[0]
    phone.command({"type": "sacrifice", "card": 3}, cmd_id="same")
    first = phone.until(lambda f: f["type"] == "ack")
    phone.command({"type": "sacrifice", "card": 3}, cmd_id="same")
    again = phone.until(lambda f: f["type"] in ("ack", "error"))
    assert again["type"] == "ack" and again["seq"] == first["seq"] and again["retry"]
    settle(server, table, [phone, host])
    assert host.view["seq"] == 1


def test_reconnect_in_the_middle_of_a_bid(server: LiveServer, table: str) -> None:
    phones, host = _started(server, table)
    play(phones, [], host, max_steps=3)  # sacrifices; the dealer sets up round 1
    settle(server, table, [*phones, host])
    assert phones[0].view["game"]["view"]["phase"] == "bid"
    a, b, c = phones
    # Ana bids, then Ben's phone sleeps before his bid.
    from live_server import policy

    a.command(policy(a.view, a.seat, a.view["you"]["pending"][0]))
    a.until(lambda f: f["type"] == "ack")
    b.close()
    host.until(
        lambda f: (
            f["type"] == "view" and not next(s for s in f["seats"] if s["id"] == "ben")["connected"]
        )
    )
    # Ben comes back with his token: the whole view, his pending bid and who has bid.
    b2 = Phone(server, table, {"seat": b.seat, "token": b.token})
    view = b2.hello()
    game = view["game"]["view"]
    assert view["you"]["pending"] == [{"type": "bid", "player": "ben"}]
    assert game["bid_status"] == {"ana": True, "ben": False, "cleo": False}
    assert game["players"]["ben"]["deck"] and game["players"]["ana"]["bids"] is None
    assert view["history"] and view["history"][0]["type"] == "round_started"
    # And he carries on; the game finishes.
    play([a, b2, c], [], host)
    settle(server, table, [host])
    assert host.view["game"]["view"]["finished"]


def test_display_reload_gets_the_same_state(server: LiveServer, table: str) -> None:
    phones, host = _started(server, table)
    play(phones, [], host, max_steps=9)
    settle(server, table, [*phones, host])
    d1 = Peer(f"{server.ws_base}/t/{table}/ws/display")
    v1 = d1.until(lambda f: f["type"] == "view")
    d1.close()
    d2 = Peer(f"{server.ws_base}/t/{table}/ws/display")
    v2 = d2.until(lambda f: f["type"] == "view")
    assert v1["game"] == v2["game"] and v1["history"] == v2["history"]
    assert v2["game"]["view"] == host.view["game"]["view"]
    api = requests.get(f"{server.base}/t/{table}/api/state", timeout=5).json()
    assert api["game"] == v2["game"]
