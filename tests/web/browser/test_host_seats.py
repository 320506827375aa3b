"""The host page in Chromium: companion seats are not "offline", every seat action is explained
in the phone's words, undo refusals are plain words, companion players roll their own black
dice with real dice, and an ended game shows as ended without input forms. The display's
bonus dice window shows effective bids.

Ana and Ben are websocket phones; Xochi is a plain companion player seated in the lobby (she
sacrifices 0 and bids her lowest cards: S1 1+2 ... S6 11+12). Real dice: the host types them.
S1: Xochi 3 is lowest (the old man, R4.1). S3: Ana 4+11 = 15 first, she takes the die; Xochi
second builds a hut (R5.3). S4: Xochi 7+8-1+1 = 15, Ana 1+12 = 13, Ben 1+5 = 6: one six lifts
Ana to 1st, so she is asked (R3.2); she uses her die, then leaves, and the companion player
who takes her seat rolls it.
"""

from __future__ import annotations

import requests
from live_server import Host, Phone
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.browser.layout import sweep

ANA = {"1": [2, 9], "2": [3, 10], "3": [4, 11], "4": [1, 12], "5": [5, 6], "6": [7, 8]}
BEN = {"1": [3, 9], "2": [4, 10], "3": [2, 6], "4": [1, 5], "5": [7, 8], "6": [11, 12]}
DISPLAY = {"viewport": {"width": 1920, "height": 1080}}


def send(phone: Phone, command: dict) -> None:
    phone.sent_id = phone.command(command)
    ack_or_error = phone.until(
        lambda f: f["type"] in ("ack", "error") and f.get("id") == phone.sent_id
    )
    assert ack_or_error["type"] == "ack", ack_or_error


def pending_of(phone: Phone, kind: str) -> None:
    phone.until(
        lambda f: (
            f["type"] == "view"
            and any(e["type"] == kind for e in (f.get("you") or {}).get("pending", []))
        )
    )


def test_host_page_seats_undo_companion_dice_and_an_ended_game(server, browser, artifacts):
    phones = []
    for name, colour in (("Ana", "orange"), ("Ben", "sky")):
        phone = Phone(server, "1", server.join("1", name, colour))
        phone.hello()
        phones.append(phone)
    ana, ben = phones
    host = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    errors: list[str] = []
    host.on("pageerror", lambda e: errors.append(str(e)))
    host.goto(server.host_url())
    host.wait_for_selector("#host-bots .bot-picker")
    host.select_option("#host-bots select.bot-level", "plain")
    host.click("#host-bots button")
    host.wait_for_function("document.querySelectorAll('#host-seats li[data-seat]').length === 3")
    xochi = host.locator("#host-seats li[data-seat]").nth(2).get_attribute("data-seat")

    # A companion player needs no phone: its dot is not the red "offline" one.
    dot = host.locator(f"#host-seats li[data-seat='{xochi}'] [data-testid=seat-dot]")
    assert "companion" in dot.get_attribute("class") and "off" not in dot.get_attribute("class")

    host.check("input[name=dice][value=table]")
    host.wait_for_selector("#companion-dice:not([hidden])")
    assert "roll their own black dice digitally" in host.inner_text("#companion-dice-now")
    host.click("#start")
    for phone in phones:
        pending_of(phone, "sacrifice")
        send(phone, {"type": "sacrifice", "card": 0})

    # Each seat action in one line, in the words the phone will show.
    host.click("#host-seats li[data-seat=ana] [data-testid=seat-menu-open]")
    host.wait_for_selector("#host-seats li[data-seat=ana] [data-testid=seat-help]")
    help_ana = host.inner_text("#host-seats li[data-seat=ana] [data-testid=seat-help]")
    assert "Companion plays simply\n" in help_ana
    assert "Companion player takes over\n" in help_ana
    assert "Give seat to a new phone\nAna's phone is told the host removed it" in help_ana
    assert "(companion plays)" not in host.inner_text("#host-seats")

    forms = host.locator("#inputs form.host-input")
    host.wait_for_selector("#host-inputs:not([hidden]) form.host-input")
    for i, v in enumerate((1, 2, 3)):
        forms.nth(0).locator("select").nth(i).select_option(str(v))
    forms.nth(0).locator("button").click()
    host.wait_for_function("document.querySelectorAll('#inputs form.host-input').length === 1")
    cards = host.locator("#inputs form.host-input").first
    cards.locator("input").nth(0).fill("1")
    cards.locator("input").nth(1).fill("1")
    cards.locator("button").click()

    pending_of(ana, "bid")
    send(ana, {"type": "bid", "bids": ANA})
    send(ben, {"type": "bid", "bids": BEN})  # reveals and resolves S1 to S3

    # Undo is refused in plain words (it was a list of event codes).
    host.wait_for_selector("#undo[disabled]")
    try:
        host.wait_for_function("document.getElementById('undo-reason').textContent.includes('Ben')")
    except PlaywrightTimeout:  # say what the page showed instead (it once did not name Ben)
        shown = host.evaluate(
            "JSON.stringify({reason: document.getElementById('undo-reason').textContent,"
            " undo: window.__host?.frame()?.host?.undo, seq: window.__host?.frame()?.seq,"
            " status: window.__host?.frame()?.game?.status,"
            " socket: window.__host?.conn?.status, attempt: window.__host?.conn?.attempt})"
        )
        raise AssertionError(f"{shown}; page errors: {errors}") from None
    reason = host.inner_text("#undo-reason")
    assert "Cannot undo: the last move (Ben's bid) already showed or scored something" in reason
    assert "a station was ranked" in reason and "_" not in reason

    pending_of(ana, "city")
    send(ana, {"type": "city", "choice": "die"})
    pending_of(ana, "dice")
    display = browser.new_context(**DISPLAY).new_page()
    display.goto(f"{server.base}/t/1/")
    display.wait_for_selector("[data-testid=dice-window]")
    totals = {
        row.get_attribute("data-player"): row.locator("td.total").inner_text()
        for row in display.locator("[data-testid=dice-window] tbody tr").all()
    }
    assert totals == {xochi: "15", "ana": "13", "ben": "6"}
    assert "1 black die: could reach 1st" in display.inner_text(
        "[data-testid=dice-window] tr[data-player=ana]"
    )
    problems = sweep(display, "display", "display-dice-window", shots=artifacts)

    send(ana, {"type": "dice", "count": 1})
    host.wait_for_selector("#inputs form[data-kind=roll]")  # Ana's real die: typed in
    # Ana leaves; the companion player who takes her seat rolls her die on the server.
    host.click("#host-seats li[data-seat=ana] [data-testid=skip]")  # its menu is still open
    host.wait_for_selector("#inputs form[data-kind=roll]", state="detached")
    host.wait_for_function(
        "window.__host?.frame()?.game.view.players.ana.dice === 0"
        " || window.__host?.frame()?.game.view.phase !== 'roll'"
    )
    assert "Ana rolls" in host.inner_text("#host-log")  # rolled on the server, not typed
    dot = host.locator("#host-seats li[data-seat=ana] [data-testid=seat-dot]")
    assert "companion" in dot.get_attribute("class")
    host.wait_for_selector("#host-seats li[data-seat=ana] [data-testid=resume]")  # kept open
    assert "Give the seat back\n" in host.inner_text(
        "#host-seats li[data-seat=ana] [data-testid=seat-help]"
    )
    host.screenshot(path=str(artifacts / "host-seats-1280.png"), full_page=True)

    # End the game: ended, nothing to type in, no "Waiting for".
    host.once("dialog", lambda d: d.accept())
    host.click("#end-game")
    host.wait_for_selector("[data-testid=host-ended]")
    assert "ended by the host" in host.inner_text("[data-testid=host-ended]")
    assert host.locator("[data-testid=host-waiting]").count() == 0
    assert host.locator("#host-inputs").is_hidden()
    assert host.locator("#inputs form.host-input:visible").count() == 0
    host.screenshot(path=str(artifacts / "host-ended-1280.png"), full_page=True)
    host.set_viewport_size({"width": 390, "height": 844})
    host.screenshot(path=str(artifacts / "host-ended-390x844.png"), full_page=True)
    assert not problems, problems
    assert not errors, errors  # the host page threw nothing through the whole game


# A tap on a seat's menu opens it at once; the page learns it from the menu's toggle event, a
# moment later. A frame drawn in between drew the menu closed again under the host's finger
# (test_full_game.py's tap on "skip" then found it hidden, once in CI).
TAP_THEN_FRAME = """() => {
  const menu = () => document.querySelector('#host-seats li[data-seat] details.seat-menu');
  menu().querySelector('[data-testid=seat-menu-open]').click();
  window.__host.render();
  return menu().open;
}"""


def test_a_seat_menu_stays_as_tapped_when_a_frame_is_drawn_at_once(
    shared_server, table, browser
) -> None:
    shared_server.join(table, "Ana", "orange")
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(shared_server.host_url(table))
    page.wait_for_selector("#host-seats li[data-seat] [data-testid=seat-menu-open]")
    assert page.evaluate(TAP_THEN_FRAME) is True, "opened, then drawn closed by the frame"
    page.wait_for_function("!!document.querySelector('#host-seats details.seat-menu[open]')")
    assert page.evaluate(TAP_THEN_FRAME) is False, "closed, then drawn open by the frame"


SEAT_LIST = """(mark) => {
  const now = { skip: document.querySelector('#host-seats li[data-seat=ana] [data-testid=skip]'),
                level: document.querySelector('#host-seats li[data-seat=ana] select.bot-level') };
  if (mark) { window.__kept = now; window.__keptFrame = window.__host.frame(); return null; }
  return { skip: now.skip !== null && now.skip === window.__kept.skip,
           level: now.level !== null && now.level === window.__kept.level,
           chosen: now.level ? now.level.value : null,
           open: !!document.querySelector('#host-seats li[data-seat=ana] details[open]') };
}"""


def test_the_seat_list_stays_put_through_a_frame_and_its_buttons_answer(
    shared_server, table, browser
) -> None:
    """A frame that changes no seat leaves the host's seat list as it is, the same nodes (one
    listener answers its buttons: dom.js ``delegate``), so a tap never chases a button drawn
    again; the menu stays open, the level picked stays picked, and the button hands the seat to
    a companion player at that level."""
    for name, colour in (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green")):
        assert shared_server.join(table, name, colour)["status"] == 200
    host = Host(shared_server, table)
    host.hello()
    try:
        assert host.act("start", dice="digital")["type"] == "ok"
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.goto(shared_server.host_url(table))
        page.click("#host-seats li[data-seat=ana] [data-testid=seat-menu-open]")
        page.select_option("#host-seats li[data-seat=ana] select.bot-level", "good")
        page.evaluate(SEAT_LIST, True)
        assert host.act("set_pace", pace="quick")["type"] == "ok"  # a frame for every screen
        page.wait_for_function("() => window.__host.frame() !== window.__keptFrame")
        assert page.evaluate(SEAT_LIST, False) == {
            "skip": True,
            "level": True,
            "chosen": "good",
            "open": True,
        }
        page.click("#host-seats li[data-seat=ana] .bot-picker button")
        seats = host.until(
            lambda f: (
                f["type"] == "view" and any(s["id"] == "ana" and s["companion"] for s in f["seats"])
            )
        )["seats"]
        assert next(s for s in seats if s["id"] == "ana")["level"] == "good"
    finally:
        host.close()


def test_cards_typed_stay_typed_while_the_harvest_goes_in_and_the_language_changes(
    shared_server, table, browser
) -> None:
    """Real dice and cards: the host types an improvement card, then enters the harvest dice;
    the form that goes leaves the card typed in the form that stays (it was emptied), and so
    does a change of the page's language (the forms are drawn again in the new words)."""
    phones = []
    for name, colour in (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green")):
        phone = Phone(shared_server, table, shared_server.join(table, name, colour))
        phone.hello()
        phones.append(phone)
    host = Host(shared_server, table)
    host.hello()
    try:
        assert host.act("start", dice="table")["type"] == "ok"
        for phone in phones:
            pending_of(phone, "sacrifice")
            send(phone, {"type": "sacrifice", "card": 0})
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.goto(shared_server.host_url(table))
        forms = page.locator("#inputs form.host-input")
        page.wait_for_selector("#inputs form.host-input[data-kind=improvements]")
        cards = page.locator("#inputs form.host-input[data-kind=improvements] input")
        cards.nth(0).fill("12")
        harvest = page.locator("#inputs form.host-input[data-kind=harvest]")
        for i, v in enumerate((1, 2, 3)):
            harvest.locator("select").nth(i).select_option(str(v))
        harvest.locator("button").click()
        page.wait_for_function("document.querySelectorAll('#inputs form.host-input').length === 1")
        assert forms.count() == 1 and cards.nth(0).input_value() == "12"
        before = page.locator("#inputs form.host-input .label").inner_text()
        page.select_option("#lang", "de")
        page.wait_for_function(
            "(before) => document.documentElement.lang === 'de' && "
            "document.querySelector('#inputs form.host-input .label').textContent !== before",
            arg=before,
        )
        assert cards.nth(0).input_value() == "12"
    finally:
        host.close()
        for phone in phones:
            phone.close()


def test_a_change_made_while_offline_says_so_and_the_table_keeps_its_setting(
    shared_server, table, browser
) -> None:
    """The host's page sends its settings without an answer to wait for: offline (starting,
    reconnecting) the table never hears one. The page says so and shows the table's setting
    again; connected again, the same change goes through."""
    watcher = Host(shared_server, table)
    watcher.hello()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(shared_server.host_url(table))
        page.wait_for_selector("#conn-status[data-status=open]")
        before = page.locator("#pace").input_value()
        context.set_offline(True)
        page.wait_for_selector("#conn-status:not([data-status=open])")
        page.select_option("#pace", "relaxed")
        page.wait_for_function(
            "document.getElementById('host-message').textContent.startsWith('Not connected')"
        )
        context.set_offline(False)
        page.wait_for_selector("#conn-status[data-status=open]")
        # The table never heard it: its pace is as it was.
        state = requests.get(f"{shared_server.local}/t/{table}/api/state", timeout=5).json()
        assert state["show"]["pace"] == before != "relaxed"
        page.select_option("#pace", "relaxed")
        watcher.until(lambda f: f["type"] == "view" and f["show"]["pace"] == "relaxed")
    finally:
        watcher.close()
        context.close()
