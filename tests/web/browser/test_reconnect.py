"""Phones sleep and Wi-Fi drops: the pad reconnects by itself and gets its whole view back,
tells "reconnecting", "opened on another device" and "table closed" apart, and the display
reloads into the same state. All against a live server process and real Chromium."""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from live_server import Host, Phone

from tests.web.browser.conftest import PHONE
from tests.web.browser.pads import act, describe, join, record, wait_task

DISPLAY = {"viewport": {"width": 1920, "height": 1080}}
PLAYERS = (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green"))


def seat_three(server, browser, table: str = "1"):
    url = server.join_url(table)
    phones = []
    for name, colour in PLAYERS:
        page = browser.new_context(**PHONE).new_page()
        join(page, url, name, colour)
        phones.append(page)
    host = browser.new_context().new_page()
    record(host)
    host.goto(server.host_url(table))
    host.wait_for_selector("#start:not([disabled])")
    host.click("#start")
    for page in phones:
        try:
            wait_task(page, "sacrifice")
        except AssertionError as exc:
            # Did the start reach the server, and the other phones? Their logs say.
            others = "\n".join(f"-- another phone:\n{describe(p)}" for p in phones if p is not page)
            raise AssertionError(f"{exc}\n-- the host page:\n{describe(host)}\n{others}") from None
    return phones, host


def conn_status(page) -> str:
    return page.evaluate("document.body.dataset.conn || ''")


def test_pad_comes_back_after_the_server_dies_and_restarts(server, browser, artifacts):
    phones, host = seat_three(server, browser)
    ana = phones[0]
    assert act(ana) == "sacrifice"
    ana.wait_for_function("document.body.dataset.task === 'none'")
    display = browser.new_context(**DISPLAY).new_page()
    display.goto(f"{server.base}/t/1/")
    display.wait_for_selector("#seats li.seat[data-seat=ana]")

    server.kill()  # a power cut, not a clean stop
    ana.wait_for_function("document.body.dataset.conn === 'reconnecting'")
    banner = ana.locator("#conn-banner")
    assert banner.is_visible()
    assert "reconnecting" in banner.inner_text().lower()
    ana.screenshot(path=str(artifacts / "phone-reconnecting.png"))

    server.start()
    ana.evaluate("window.dispatchEvent(new Event('online'))")  # as a phone does on Wi-Fi back
    ana.wait_for_function("document.body.dataset.conn === 'open'", timeout=30000)
    assert not ana.locator("#conn-banner").is_visible()
    # The whole view is back: Ana's sacrifice is remembered, the others' are still awaited.
    ana.wait_for_function("window.__pad?.frame()?.game")
    view = ana.evaluate("window.__pad.frame().game.view")
    assert view["players"]["ana"]["sacrifice"] == 0
    assert {e["player"] for e in view["pending"]} == {"ben", "cleo"}
    for page in phones[1:]:
        page.wait_for_function("document.body.dataset.conn === 'open'", timeout=30000)
        assert act(page) == "sacrifice"
    ana.wait_for_function("document.body.dataset.task === 'bid'")

    # The display reloads into the same state.
    display.reload()
    display.wait_for_function("window.__display?.frame()?.game?.view?.round === 1")
    assert "1" in display.locator("#round").inner_text()
    assert display.locator("#seats li.seat").count() == 3


def test_offline_phone_shows_reconnecting_and_recovers(server, browser):
    phones, _host = seat_three(server, browser)
    ben = phones[1]
    ctx = ben.context
    ctx.set_offline(True)
    # The browser's "offline" event gives the socket up at once (tests/js/connection.test.mjs;
    # the heartbeat's own 25 s is tested there too); the pad says so and keeps the game dimmed.
    ben.wait_for_function("document.body.dataset.conn === 'reconnecting'", timeout=60000)
    assert ben.locator("#conn-banner").is_visible()
    ctx.set_offline(False)
    ben.wait_for_function("document.body.dataset.conn === 'open'", timeout=30000)
    assert act(ben) == "sacrifice"
    ben.wait_for_function("document.body.dataset.task === 'none'")


def test_second_device_takes_the_seat_and_the_first_can_take_it_back(server, browser, artifacts):
    phones, _host = seat_three(server, browser)
    cleo = phones[2]
    stored = cleo.evaluate("JSON.stringify(localStorage)")
    other = browser.new_context(**PHONE).new_page()
    record(other)
    other.goto(f"{server.base}/t/1/seat")
    other.evaluate(
        "s => { for (const [k, v] of Object.entries(JSON.parse(s))) localStorage.setItem(k, v) }",
        stored,
    )
    other.reload()
    wait_task(other, "sacrifice")
    cleo.wait_for_selector("#screen-status[data-kind=replaced]:not([hidden])")
    assert cleo.locator("#take-back").is_visible()
    cleo.screenshot(path=str(artifacts / "phone-replaced.png"))
    cleo.locator("#take-back").tap()
    wait_task(cleo, "sacrifice")
    other.wait_for_selector("#screen-status[data-kind=replaced]:not([hidden])")


def test_table_closed_is_its_own_screen(server, browser, artifacts):
    phones, _host = seat_three(server, browser)
    ana = phones[0]
    server.interrupt()  # Ctrl-C: the server tells every page the table is closed (4410)
    ana.wait_for_function(
        "['closed', 'reconnecting'].includes(document.body.dataset.conn)", timeout=30000
    )
    ana.screenshot(path=str(artifacts / "phone-closed.png"))
    assert ana.evaluate("document.body.dataset.conn") == "closed", (
        "a clean server stop should reach the phone as 'table closed' (close code 4410)"
    )
    assert ana.locator("#screen-status[data-kind=closed]").is_visible()


def test_a_tap_on_a_socket_gone_deaf_goes_again_on_a_new_one_and_counts_once(server, browser):
    """The Wi-Fi drops just after a tap and the phone's OS keeps the socket open: the server
    got the command and acked it, the phone heard nothing. With a command waiting, the pad
    gives that socket up after a few seconds of silence (the connection's ack watch, not the
    heartbeat's 25 s), and the command goes again on a new socket with its id: acked, and
    stored once. Ben's socket is routed through the test (Playwright's route_web_socket), so
    it can go deaf while it stays open."""
    sockets: list[Any] = []
    deaf: list[Any] = []

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()
        sockets.append(ws)
        ws.on_message(upstream.send)
        upstream.on_message(lambda message: None if ws in deaf else ws.send(message))

    others = [
        Phone(server, "1", server.join("1", n, c))
        for n, c in (("Ana", "orange"), ("Cleo", "green"))
    ]
    for p in others:
        p.hello()
    ben = browser.new_context(**PHONE).new_page()
    ben.route_web_socket(re.compile(r".*/ws/seat$"), route)
    join(ben, server.join_url("1"), "Ben", "sky")
    host = Host(server, "1")
    host.hello()
    assert host.act("start", dice="digital")["type"] == "ok"
    wait_task(ben, "sacrifice")
    deaf.append(sockets[-1])  # from now on this socket delivers nothing to the page
    assert act(ben) == "sacrifice"
    ben.wait_for_function("window.__pad.conn.lastDrop !== null", timeout=20_000)
    assert ben.evaluate("window.__pad.conn.lastDrop") == "no_ack"
    # A new socket, the command again with its id: the ack comes, the pad asks nothing more.
    ben.wait_for_function(
        "document.body.dataset.task === 'none' && window.__pad.asking().sending === null",
        timeout=20_000,
    )
    assert len(sockets) >= 2
    for p in (*others, host):
        p.close()
    db = sqlite3.connect(server.data / "companion.sqlite3")
    try:
        sent = db.execute(
            "SELECT count(*) FROM commands WHERE source = 'seat:ben'"
            " AND json_extract(command, '$.type') = 'sacrifice'"
        ).fetchone()[0]
    finally:
        db.close()
    assert sent == 1
