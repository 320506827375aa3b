"""The join page says why a name cannot be used, in the phone's language: a name that shows
nothing, one with a line separator, one mixing look-alike scripts (Chromium, the real page)."""

from __future__ import annotations

import json

import pytest
from live_server import LiveServer

from tests.web.browser.conftest import ROOT

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LOCALES = {"en": "en-GB", "de": "de-DE", "nl": "nl-NL", "it": "it-IT"}
CASES = [
    ("\u3164", "name_invisible"),  # a Hangul filler: draws nothing
    ("Ana\u2028Ben", "name_characters"),  # a line separator
    ("\u0410na", "name_lookalike"),  # a Cyrillic "А" in a Latin word
]


@pytest.fixture
def server(shared_server: LiveServer) -> LiveServer:
    """This module's tests share one server, each on a table of its own (``table``)."""
    return shared_server


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_join_page_says_why_a_name_is_refused(server, table, browser, lang: str) -> None:
    texts = json.loads((ROOT / "companion/web/i18n" / f"{lang}.json").read_text("utf-8"))
    phone = browser.new_context(**PHONE, locale=LOCALES[lang]).new_page()
    phone.goto(server.join_url(table))
    phone.wait_for_selector("#screen-join:not([hidden])")
    phone.click("label.colour-option:has(input[value=orange])")
    for name, code in CASES:
        phone.fill("input[name=name]", name)
        phone.click("#join-form button[type=submit]")
        want = texts[f"pad.err.{code}"]
        phone.wait_for_function(
            "want => document.getElementById('join-error').textContent === want", arg=want
        )
    assert phone.locator("#screen-join").is_visible(), "no seat was taken"
