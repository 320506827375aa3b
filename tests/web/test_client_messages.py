"""What clients send (PROTOCOL.md 3.1-3.3), read as unchecked JSON objects: a field of the wrong
JSON type is refused with its reason and changes nothing, on each socket; the checks at the
edge are tried directly too."""

from __future__ import annotations

from types import MappingProxyType

import pytest
from live_server import Host, LiveServer, Peer, Phone

from companion.table import TableError, policy
from companion.web.guard import Refused, command_request, message_type, pong
from companion.web.sockets import _language, _showing


def test_a_message_type_is_read_only_when_it_is_text() -> None:
    assert message_type({"type": "hello", "seat": 3}) == "hello"
    for msg in ({"type": 7}, {"type": None}, {}):
        with pytest.raises(Refused) as refused:
            message_type(msg)
        assert refused.value.code == "bad_message"


@pytest.mark.parametrize("command", ["bid", ["bid"], {"type": 5}, {"bids": {}}, None])
def test_a_command_that_is_no_object_with_a_type_is_refused(command: object) -> None:
    with pytest.raises(Refused) as refused:
        command_request({"type": "command", "id": "c1", "command": command})
    assert (refused.value.code, refused.value.reason) == (
        "bad_message",
        "command must be an object with a type",
    )


def test_a_checked_command_request_keeps_the_command_as_sent() -> None:
    command = {"type": "sacrifice", "card": 7}
    request = command_request({"type": "command", "id": "c1", "token": "t", "command": command})
    assert request == {"type": "command", "id": "c1", "token": "t", "command": command}


@pytest.mark.parametrize("t", [True, "5", [5], 2**60])
def test_a_ping_whose_t_is_no_plain_number_is_refused(t: object) -> None:
    with pytest.raises(Refused):
        pong({"type": "ping", "t": t})
    assert pong({"type": "ping"}) == {"type": "pong", "t": None}


@pytest.mark.parametrize("lang", [["de"], 5, None, {"de": 1}, "xx"])
def test_a_language_that_is_none_of_ours_is_refused(lang: object) -> None:
    with pytest.raises(TableError) as refused:
        _language(lang)
    assert refused.value.code == "bad_message"
    assert _language("de") == "de"


@pytest.mark.parametrize(
    "fields",
    [
        {"seq": "4", "asks": []},
        {"seq": True, "asks": []},
        {"seq": 4, "asks": "dice"},
        {"seq": 4, "asks": [["dice"]]},
        {"seq": 4, "asks": ["dice"], "held": "no"},
    ],
)
def test_a_malformed_showing_report_is_refused(fields: dict[str, object]) -> None:
    with pytest.raises(Refused) as refused:
        _showing({"type": "showing", **fields})
    assert refused.value.code == "bad_message"
    assert _showing({"type": "showing", "seq": 4, "asks": ["dice"]}) == (
        4,
        frozenset({"dice"}),
        False,
    )


def test_a_seat_command_is_filled_in_for_its_seat_and_the_sent_one_kept() -> None:
    sent = MappingProxyType({"type": "bid", "bids": {}})
    assert policy.command_for("seat:ana", sent, "digital") == {
        "type": "bid",
        "bids": {},
        "player": "ana",
    }
    assert dict(sent) == {"type": "bid", "bids": {}}
    assert policy.command_for("host", {"type": "harvest", "dice": [1]}, "digital") == {
        "type": "harvest",
        "dice": [1],
    }
    with pytest.raises(TableError) as refused:
        policy.command_for("seat:ana", {"type": "bid", "player": ["ana"]}, "digital")
    assert refused.value.code == "not_allowed"


def test_fields_of_the_wrong_type_are_refused_on_every_socket(
    server: LiveServer, table: str
) -> None:
    # A seat's hello whose seat is no text: not a valid seat token, closed.
    stranger = Peer(f"{server.ws_base}/t/{table}/ws/seat")
    stranger.send({"type": "hello", "seat": ["ana"], "token": "x"})
    assert stranger.until(lambda f: f["type"] == "error")["code"] == "bad_token"
    with pytest.raises(ConnectionError):
        stranger.until(lambda f: False, timeout=5)
    assert stranger.ws.close_reason == 4401

    phone = Phone(server, table, server.join(table, "Ana", "sky"))
    seq = phone.hello()["seq"]
    while phone.poll(0.5) is not None:  # the view that tells the phone is connected
        pass
    assert phone.view is not None
    seats = phone.view["seats"]
    phone.send({"type": "command", "token": phone.token, "id": "c1", "command": "bid"})
    error = phone.until(lambda f: f["type"] == "error")
    assert (error["code"], error["id"]) == ("bad_message", "c1")
    phone.send({"type": "showing", "token": phone.token, "seq": "1", "asks": []})
    assert phone.until(lambda f: f["type"] == "error")["code"] == "bad_message"
    phone.send({"type": "ping", "token": phone.token, "t": 4})
    assert phone.until(lambda f: f["type"] == "pong") == {"type": "pong", "t": 4}

    display = Peer(f"{server.ws_base}/t/{table}/ws/display")
    display.send({"type": "set_language", "lang": ["de"], "id": "l1"})
    error = display.until(lambda f: f["type"] == "error")
    assert (error["code"], error["id"]) == ("bad_message", "l1")

    host = Host(server, table)
    host.hello()
    error = host.act("set_language", lang=5)
    assert (error["type"], error["code"]) == ("error", "bad_message")
    error = host.act("skip_seat", seat={"id": "ana"})
    assert (error["type"], error["code"]) == ("error", "bad_message")
    # Nothing of that changed the table: its step, language and seats as they were.
    display.send({"type": "ping", "t": 1})
    assert display.until(lambda f: f["type"] == "pong") == {"type": "pong", "t": 1}
    while phone.poll(0.5) is not None:
        pass
    assert phone.view is not None and phone.view["seq"] == seq
    assert phone.view["table"]["lang"] == "en"
    assert phone.view["seats"] == seats
    for peer in (phone, display, host):
        peer.close()
