"""The display's own settings and what it must never cut: a language picker on the display
(kept in the table's settings; phones keep their own language), the default title in the
display's language and whole, and five players with 24-character names whole at 1280×720 in
German; the phone's join form says the limit and refuses a longer name with the reason."""

from __future__ import annotations

from typing import Any

import pytest
import requests
from live_server import Host, LiveServer

from companion.table import NAME_MAX
from tests.web.browser.layout import PHONE_SIZES, check, settle, sweep

TV = {"viewport": {"width": 1920, "height": 1080}}
SMALL_TV = {"viewport": {"width": 1280, "height": 720}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture
def server(shared_server: LiveServer) -> LiveServer:
    """This module's tests share one server, each on a table of its own (``table``)."""
    return shared_server


# Five names of exactly 24 characters (the longest allowed), one without a space.
NAMES = [
    "Maximiliane Grünewald-Ho",
    "Friedrich-Wilhelm Schulz",
    "Hildegard von Rosenstein",
    "Bartholomäus Kleinschmid",
    "Konstantinopelüberallxyz",
]
COLOURS = ["orange", "sky", "green", "yellow", "blue"]

TITLE = """() => { const e = document.getElementById('table-title');
  const r = e.getBoundingClientRect();
  return {text: e.textContent, cut: e.scrollWidth > e.clientWidth + 1,
          inside: r.left >= 0 && r.right <= innerWidth + 0.5}; }"""


def test_names_longer_than_the_limit_are_refused_with_the_reason(server, table) -> None:
    assert all(len(n) == NAME_MAX == 24 for n in NAMES)
    secret = server.join_secret(table)
    answer = requests.post(
        f"{server.local}/t/{table}/api/join",
        json={"secret": secret, "name": NAMES[0] + "x", "colour": "orange"},
        timeout=5,
    )
    assert answer.status_code == 400
    body = answer.json()
    assert body["error"] == "bad_name" and "25 characters" in body["reason"]
    assert "24" in body["reason"]
    seat = server.join(table, NAMES[0], "orange")
    assert seat["name"] == NAMES[0], "a name of 24 characters is kept whole"


def test_language_picker_on_the_display_and_the_title_whole(
    server, table, browser, artifacts
) -> None:
    display = browser.new_context(**TV).new_page()
    display.goto(f"{server.base}/t/{table}/")
    display.wait_for_function("window.__display?.frame()")
    assert display.evaluate(TITLE) == {"text": f"Table {table}", "cut": False, "inside": True}
    phone = browser.new_context(**PHONE, locale="en-GB").new_page()
    phone.goto(server.join_url(table))
    phone.wait_for_selector("#screen-join:not([hidden])")
    picker = display.locator("#display-lang")
    assert picker.evaluate("s => [...s.options].map(o => o.value)") == ["en", "de", "nl", "it"]
    picker.select_option("de")
    display.wait_for_function("document.documentElement.lang === 'de'")
    display.wait_for_function(
        f"document.getElementById('table-title').textContent === 'Tisch {table}'"
    )
    # Saved as the table's display setting: the host sees it, a reloaded display keeps it.
    host = Host(server, table)
    assert host.hello()["table"]["lang"] == "de"
    host.close()
    host_page = browser.new_context(**TV).new_page()
    host_page.goto(server.host_url(table))
    host_page.wait_for_function("document.getElementById('display-lang').value === 'de'")
    display.reload()
    display.wait_for_function("window.__display?.frame()")
    display.wait_for_function("document.documentElement.lang === 'de'")
    assert display.locator("#display-lang").input_value() == "de"
    # The phone keeps its own language.
    assert phone.evaluate("document.documentElement.lang") == "en"
    for lang, title in (("nl", f"Tafel {table}"), ("it", f"Tavolo {table}")):
        display.locator("#display-lang").select_option(lang)
        display.wait_for_function(
            "t => document.getElementById('table-title').textContent === t", arg=title
        )
    display.locator("#display-lang").select_option("de")
    display.wait_for_function("document.documentElement.lang === 'de'")
    for width, height in ((1920, 1080), (1280, 720)):
        display.set_viewport_size({"width": width, "height": height})
        settle(display)
        assert display.evaluate(TITLE) == {"text": f"Tisch {table}", "cut": False, "inside": True}
        assert check(display, "display") == []
        display.screenshot(path=str(artifacts / f"display-lang-de-{width}x{height}.png"))


def _seat_names(page: Any) -> list[dict[str, Any]]:
    return page.evaluate(
        """() => [...document.querySelectorAll('#seats .seat .chip-name')].map(e => ({
          text: e.textContent, cut: e.scrollWidth > e.clientWidth + 1
            || e.scrollHeight > e.clientHeight + 1, visible: e.checkVisibility()}))"""
    )


def test_five_long_names_whole_in_german_at_1280x720(server, table, browser, artifacts) -> None:
    for name, colour in zip(NAMES, COLOURS, strict=True):
        server.join(table, name, colour)
    host = Host(server, table)
    host.hello()
    assert host.act("set_language", lang="de")["type"] == "ok"
    display = browser.new_context(**SMALL_TV).new_page()
    display.goto(f"{server.base}/t/{table}/")
    display.wait_for_function("document.documentElement.lang === 'de'")
    display.wait_for_function("document.querySelectorAll('#seats .seat .chip-name').length === 5")
    lobby = _seat_names(display)
    assert [n["text"] for n in lobby] == NAMES
    assert not any(n["cut"] or not n["visible"] for n in lobby)
    problems = sweep(display, "display", "five-long-names-lobby", shots=artifacts)
    assert host.act("start", dice="digital")["type"] == "ok"
    display.wait_for_selector("body.in-game")
    display.wait_for_function("document.querySelectorAll('#seats .seat .chip-name').length === 5")
    playing = _seat_names(display)
    assert [n["text"] for n in playing] == NAMES
    assert not any(n["cut"] or not n["visible"] for n in playing)
    problems += sweep(display, "display", "five-long-names-game", shots=artifacts)
    assert problems == []
    # The host page shows them whole too.
    page = browser.new_context(**TV).new_page()
    page.goto(server.host_url(table))
    page.wait_for_function("window.__host?.frame()")
    text = page.locator("#host-seats").inner_text()
    assert all(n in text for n in NAMES)
    host.close()


def test_phone_join_form_says_the_limit_and_refuses_longer_names(server, table, browser, artifacts):
    phone = browser.new_context(**PHONE, locale="de-DE").new_page()
    phone.goto(server.join_url(table))
    phone.wait_for_selector("#screen-join:not([hidden])")
    hint = phone.locator("#name-hint")
    assert hint.is_visible() and hint.inner_text() == "Höchstens 24 Zeichen."
    assert phone.locator("#screen-join .table-name").inner_text() == f"Tisch {table}"
    long_name = NAMES[1] + "xy"
    phone.fill("input[name=name]", long_name)
    assert phone.input_value("input[name=name]") == long_name, "typing is never cut"
    phone.click("label.colour-option:has(input[value=orange])")
    phone.click("#join-form button[type=submit]")
    phone.wait_for_function("document.getElementById('join-error').textContent !== ''")
    error = phone.locator("#join-error").inner_text()
    assert "26" in error and "24" in error
    problems = sweep(phone, "phone", "join-name-too-long", PHONE_SIZES, shots=artifacts)
    assert problems == []
    phone.fill("input[name=name]", NAMES[1])
    phone.click("#join-form button[type=submit]")
    phone.wait_for_selector("#screen-lobby:not([hidden])")
    assert phone.locator("#screen-lobby").inner_text().count(NAMES[1]) >= 1
