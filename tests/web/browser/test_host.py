"""Host controls in a real browser: track colours, table dice and cards typed in, undo, end
game, the game log download and a new game."""

from __future__ import annotations

import re
from typing import Any

import requests
from live_server import Host, LiveServer

from tests.web.browser.conftest import PHONE
from tests.web.browser.layout import sweep
from tests.web.browser.pads import act, join

DISPLAY = {"viewport": {"width": 1920, "height": 1080}}


def test_host_runs_a_table_with_real_dice(server, browser, artifacts):
    url = server.join_url()
    phones = []
    for name, colour in (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green")):
        page = browser.new_context(**PHONE).new_page()
        join(page, url, name, colour)
        phones.append(page)
    display = browser.new_context(**DISPLAY).new_page()
    display.goto(f"{server.base}/t/1/")
    host = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    host.goto(server.host_url())
    host.wait_for_selector("#start:not([disabled])")

    # Correct the track colours: box 0 gold (R2.3 mode of round 1 follows it).
    host.select_option("#track-boxes select[data-box='0']", "gold")
    host.click("#track-save")
    host.wait_for_selector("#host-message >> text=Done.")
    host.check("input[name=dice][value=table]")
    host.click("#start")
    for page in phones:
        page.wait_for_function("document.body.dataset.task === 'sacrifice'")

    # Undo a sacrifice (it revealed nothing): Ana is asked again.
    assert act(phones[0]) == "sacrifice"
    phones[0].wait_for_function("document.body.dataset.task === 'none'")
    host.wait_for_selector("#undo:not([disabled])")
    host.once("dialog", lambda d: d.accept())
    host.click("#undo")
    phones[0].wait_for_function("document.body.dataset.task === 'sacrifice'")
    for page in phones:
        assert act(page) == "sacrifice"

    # Real dice and cards: the host types them in.
    host.wait_for_selector("#host-inputs:not([hidden]) form.host-input")
    forms = host.locator("#inputs form.host-input")
    harvest = forms.nth(0)
    for i, v in enumerate((6, 5, 4)):
        harvest.locator("select").nth(i).select_option(str(v))
    harvest.locator("button").click()
    host.wait_for_function("document.querySelectorAll('#inputs form.host-input').length === 1")
    cards = host.locator("#inputs form.host-input").first
    cards.locator("input").nth(0).fill("13")
    cards.locator("input").nth(1).fill("10")
    cards.locator("button").click()
    host.screenshot(path=str(artifacts / "host-table-dice.png"), full_page=True)

    display.wait_for_function("window.__display?.frame()?.game?.view?.phase === 'bid'")
    view = display.evaluate("window.__display.frame().game.view")
    assert view["harvest"] == [6, 5, 4]
    assert sorted(view["improvements"]) == [10, 13]
    assert view["mode"] == "gold"
    assert display.locator("#mode").inner_text() == "Gold round"
    assert display.locator("#offer .dice-row .die").all_inner_texts() == ["6", "5", "4"]
    phones[0].wait_for_function("document.body.dataset.task === 'bid'")
    assert phones[0].locator("#task button.slot").count() == 2  # gold: one station, two cards

    # End the game: the display says so; the log can be downloaded; a new game opens the lobby.
    host.once("dialog", lambda d: d.accept())
    host.click("#end-game")
    display.wait_for_function("window.__display?.frame()?.game?.status === 'ended'")
    link = host.locator("#games a").first
    link.wait_for()
    log_url = link.get_attribute("href")
    doc = requests.get(server.local + log_url, timeout=5).json()
    assert doc["players"] == ["ana", "ben", "cleo"]
    assert any(c["type"] == "harvest" and c["dice"] == [6, 5, 4] for c in doc["commands"])
    host.once("dialog", lambda d: d.accept())
    host.click("#new-game")
    display.wait_for_function("window.__display?.frame()?.game === null")
    phones[1].wait_for_selector("#screen-lobby:not([hidden])")


def test_host_buttons_wait_for_the_page_to_be_ready(server, browser):
    """On a slow start (the catalogue still loading, no view yet) the host's buttons are
    disabled: a tap that no handler hears yet would be lost without a word. Only the table's
    first view enables "Start" (3-5 seats, R1.1)."""
    url = server.join_url()
    for name, colour in (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green")):
        join(browser.new_context(**PHONE).new_page(), url, name, colour)
    host = browser.new_context().new_page()
    held = []
    host.route("**/i18n/*.json", lambda route: held.append(route))  # answered later
    host.goto(server.host_url(), wait_until="domcontentloaded")
    host.wait_for_function("document.getElementById('start') !== null")
    for button in ("start", "undo", "end-game", "new-game", "show-next"):
        assert host.locator(f"#{button}").is_disabled(), button
    while not held:
        host.wait_for_timeout(50)
    for route in held:
        route.continue_()
    host.unroute("**/i18n/*.json")
    host.wait_for_selector("#start:not([disabled])")
    host.click("#start")
    host.wait_for_function("window.__host?.frame()?.game?.status === 'playing'")


def test_the_level_chosen_for_a_companion_stays_chosen_when_a_phone_joins(
    shared_server, table, browser
):
    """The host picks "plain", a phone joins before the tap on "Add": the frame that shows the
    new seat draws the picker again, and the companion still comes in at "plain" (the picker
    went back to its first level, and a plain companion came in as a strong one)."""
    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    host.goto(shared_server.host_url(table))
    host.wait_for_selector("#host-bots .bot-picker")
    host.select_option("#host-bots select.bot-level", "plain")
    joined = shared_server.join(table, "Ana", "orange")
    assert joined["status"] == 200, joined
    host.wait_for_function("window.__host?.frame()?.seats.length === 1")
    assert host.locator("#host-bots select.bot-level").input_value() == "plain"
    host.click("#host-bots button")
    host.wait_for_function("window.__host.frame().seats.some((s) => s.companion)")
    levels = host.evaluate(
        "window.__host.frame().seats.filter((s) => s.companion).map((s) => s.level)"
    )
    assert levels == ["plain"]


def test_settings_chosen_stay_ticked_while_a_frame_from_before_comes(shared_server, table, browser):
    """The host ticks "real dice" and unticks the LED board's drawing; before the table takes
    them, a phone joins and its frame (made with the old settings) arrives: the ticks stay as
    chosen (they went back until the answers came, and Playwright's check() saw a checkbox
    that did not change). The host's socket is routed through the test, which holds the two
    settings back until the phone's frame has been drawn."""
    held: list[Any] = []
    upstreams: list[Any] = []

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()
        upstreams.append(upstream)

        def to_server(message: str | bytes) -> None:
            if isinstance(message, str) and (
                '"set_dice"' in message or '"set_board_drawing"' in message
            ):
                held.append(message)
            else:
                upstream.send(message)

        ws.on_message(to_server)
        upstream.on_message(ws.send)

    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    host.route_web_socket(re.compile(r".*/ws/host$"), route)
    host.goto(shared_server.host_url(table))
    host.wait_for_selector("input[name=dice][value=table]")
    # The checkbox is in the page's markup: the page's script may not have run yet.
    host.wait_for_function("Boolean(window.__host?.frame())")
    host.check("input[name=dice][value=table]")
    host.uncheck("#board-drawing")
    assert len(held) == 2, "both settings are held back by the route"
    joined = shared_server.join(table, "Ana", "orange")
    assert joined["status"] == 200, joined
    host.wait_for_function("window.__host.frame().seats.length === 1")
    settings = host.evaluate("window.__host.frame().table")
    assert settings["dice"] == "digital" and settings["board_drawing"] is not False
    assert host.is_checked("input[name=dice][value=table]")
    assert not host.is_checked("#board-drawing")
    while held:
        upstreams[-1].send(held.pop(0))
    host.wait_for_function(
        "window.__host.frame().table.dice === 'table'"
        " && window.__host.frame().table.board_drawing === false"
    )
    assert host.is_checked("input[name=dice][value=table]")
    assert not host.is_checked("#board-drawing")


def test_a_game_over_at_the_table_but_still_shown_waits_for_nobody(tmp_path, browser, artifacts):
    """Companion players play the rest of a game at once; the screens follow it at the host's
    pace. The host's page then says the game is already over, offers no End game and names
    nobody the table waits for (it read "Waiting for: —" under that line)."""
    srv = LiveServer(tmp_path, host_name="table.lan", extra=["--pace", "quick"]).start()
    host = Host(srv, "1")
    try:
        host.hello()
        srv.join("1", "Ana", "orange")
        for name in ("Ben", "Cleo"):
            assert host.act("add_bot", level="plain", name=name)["type"] == "ok"
        assert host.act("start", dice="digital")["type"] == "ok"
        page = browser.new_context(**PHONE).new_page()
        page.goto(srv.host_url("1"))
        page.wait_for_selector("[data-testid=host-waiting]")
        assert host.act("hand_to_bot", seat="ana", level="plain")["type"] == "ok"
        page.wait_for_selector("[data-testid=host-over-shown]", timeout=60_000)
        assert page.evaluate("window.__host.frame().game.status") == "playing"
        assert page.locator("[data-testid=host-waiting]").count() == 0
        assert page.locator("#end-game").is_disabled()
        problems = sweep(page, "phone", "host-over-shown", shots=artifacts)
        assert not problems, "\n".join(problems)
    finally:
        host.close()
        srv.stop()
