"""Smaller things people ran into at the table (issue 7), each through the real pages:
a latecomer hears at once that no seat is free, the host's dice source can change during a
game, typed dice start empty, the card fields say what is valid, the status does not repeat
itself, the host log numbers the newest entry highest, the favicon exists."""

from __future__ import annotations

import re

import requests

from tests.web.browser.conftest import PHONE
from tests.web.browser.tapping import HostPage, join_by_taps, tid

PLAYERS = (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green"))


def _table(server, table: str, browser, dice: str):
    url = server.join_url(table)
    phones = []
    for name, colour in PLAYERS:
        page = browser.new_context(**PHONE).new_page()
        join_by_taps(page, url, name, colour)
        phones.append(page)
    host = HostPage(browser.new_context(viewport={"width": 1280, "height": 900}).new_page())
    host.page.goto(server.host_url(table))
    host.page.wait_for_selector(tid("start") + ":not([disabled])")
    host.start(dice)
    return url, phones, host


def test_latecomer_is_told_before_the_form_and_can_take_a_freed_seat(shared_server, table, browser):
    url, phones, host = _table(shared_server, table, browser, "digital")
    late = browser.new_context(**PHONE).new_page()
    late.goto(url)
    note = late.locator(tid("join-note"))
    note.wait_for()
    assert "no seat is free" in note.inner_text()
    assert late.locator("#join-form").is_hidden()  # nothing to fill in for nothing
    # The host frees Cleo's seat: the next visit offers it by name.
    host.page.once("dialog", lambda d: d.accept())
    host.page.locator(f".host-seats li[data-seat=cleo] {tid('seat-menu-open')}").click()
    host.page.locator(f".host-seats li[data-seat=cleo] {tid('release')}").click()
    phones[2].wait_for_selector("#screen-status:not([hidden])")
    late.reload()
    late.wait_for_function("document.getElementById('join-note').textContent.includes('Cleo')")
    assert late.locator("#join-form").is_visible()
    late.locator(tid("join-name")).fill("Dora")
    late.locator(tid("join-colour", "[data-value=purple]")).tap()
    late.locator(tid("join-submit")).tap()
    late.wait_for_selector("#screen-game:not([hidden])")


def test_host_dice_switch_in_game_empty_typed_dice_and_plain_status(shared_server, table, browser):
    _url, phones, host = _table(shared_server, table, browser, "table")
    page = host.page
    for p in phones:
        p.wait_for_function("document.body.dataset.task === 'sacrifice'")
        p.locator(tid("choice", "[data-kind=sacrifice]")).first.tap()
        p.locator(tid("lock-in")).tap()
    harvest = page.locator(tid("host-input", "[data-kind=harvest]"))
    harvest.wait_for()
    # Typed dice start empty: the form cannot be sent before all three are chosen.
    assert harvest.locator("select").evaluate_all("els => els.map(e => e.value)") == ["", "", ""]
    assert harvest.evaluate("f => f.checkValidity()") is False
    waiting = page.locator(tid("host-waiting")).inner_text()
    assert "harvest" in waiting and not re.search(r"Waiting for\W+Waiting", waiting, re.I)
    for i, v in enumerate((6, 4, 2)):
        harvest.locator("select").nth(i).select_option(str(v))
    harvest.locator("button[type=submit]").click()
    cards = page.locator(tid("host-input", "[data-kind=improvements]"))
    cards.wait_for()
    hint = cards.locator(".range-hint").inner_text()
    assert "0" in hint and "99" in hint  # what the engine accepts (R1.5 cards typed in)
    # Switch to digital dice during the game: the companion draws the cards at once.
    assert page.locator(tid("dice-digital")).is_visible()
    page.locator(tid("dice-digital")).check()
    page.wait_for_function("window.__host?.frame()?.game?.dice === 'digital'")
    phones[0].wait_for_function("document.body.dataset.task === 'bid'")
    assert page.locator(tid("host-input")).count() == 0
    # The log numbers the newest entry highest.
    numbers = [int(x.rstrip(".")) for x in page.locator("#host-log .log-no").all_inner_texts()]
    assert numbers == sorted(numbers, reverse=True) and numbers[0] == len(numbers)
    # A player who keeps the first place at the pyramid (R5.4) "places first", never
    # "Ana lets Ana place first"; letting the other go first still names both.
    texts = page.evaluate("""async () => {
        const src = document.querySelector('script[type=module]').src;
        const m = await import(new URL('format.js', src).href);
        return [m.eventText({type: 'pyramid_order', player: 'ana', first: 'ana'}),
                m.eventText({type: 'pyramid_order', player: 'ana', first: 'ben'})];
    }""")
    assert texts == ["Ana places first.", "Ana lets Ben place first."]
    # A favicon, so browsers do not log a 404 on every page.
    icon = page.locator("link[rel=icon]").get_attribute("href")
    assert requests.get(shared_server.local + icon, timeout=5).ok
