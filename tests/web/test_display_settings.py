"""The display's own settings at a live table: its language picker sends ``set_language`` over
``ws/display`` (kept in the table's settings, a bad language refused and nothing changed), and
the host's ``set_board_drawing`` shows or hides the LED board's drawing."""

from __future__ import annotations

from live_server import Host, LiveServer, Peer


def test_the_display_chooses_its_language(server: LiveServer, table: str) -> None:
    display = Peer(f"{server.ws_base}/t/{table}/ws/display")
    first = display.until(lambda f: f["type"] == "view")
    assert first["table"]["lang"] == "en"
    display.send({"type": "set_language", "lang": "xx"})
    error = display.until(lambda f: f["type"] == "error")
    assert error["code"] == "bad_message" and "en, de, nl, it" in error["reason"]
    display.send({"type": "start"})
    assert display.until(lambda f: f["type"] == "error")["code"] == "unknown_type"
    host = Host(server, table)
    assert host.hello()["table"]["lang"] == "en", "a refused language changes nothing"
    display.send({"type": "set_language", "lang": "nl"})
    assert display.until(lambda f: f["type"] == "view")["table"]["lang"] == "nl"
    # The host's page and a new display see the same setting.
    assert host.until(lambda f: f["type"] == "view")["table"]["lang"] == "nl"
    again = Peer(f"{server.ws_base}/t/{table}/ws/display")
    assert again.until(lambda f: f["type"] == "view")["table"]["lang"] == "nl"
    for peer in (display, again, host):
        peer.close()


def test_the_host_hides_the_board_drawing(server: LiveServer, table: str) -> None:
    display = Peer(f"{server.ws_base}/t/{table}/ws/display")
    assert display.until(lambda f: f["type"] == "view")["table"]["board_drawing"] is True
    host = Host(server, table)
    host.hello()
    refused = host.act("set_board_drawing", shown="off")
    assert refused["code"] == "bad_message" and "true or false" in refused["reason"]
    assert host.act("set_board_drawing", shown=False)["type"] == "ok"
    assert display.until(lambda f: f["type"] == "view")["table"]["board_drawing"] is False
    later = Peer(f"{server.ws_base}/t/{table}/ws/display")
    assert later.until(lambda f: f["type"] == "view")["table"]["board_drawing"] is False
    assert host.act("set_board_drawing", shown=True)["type"] == "ok"
    assert display.until(lambda f: f["type"] == "view")["table"]["board_drawing"] is True
    for peer in (display, later, host):
        peer.close()
