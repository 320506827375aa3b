"""The bid pad's steps, its languages, the keep-awake fallback and the display's language."""

from __future__ import annotations

from typing import Any

import pytest
from live_server import LiveServer

from companion.web.i18n import LANGUAGES
from tests.web.browser.conftest import ARTIFACTS, PHONE
from tests.web.browser.layout import check, sweep
from tests.web.browser.pads import act, wait_task
from tests.web.browser.test_reconnect import seat_three

DISPLAY = {"viewport": {"width": 1920, "height": 1080}}


@pytest.fixture
def server(shared_server: LiveServer) -> LiveServer:
    """This module's tests share one server, each on a table of its own (``table``)."""
    return shared_server


def test_pad_language_follows_the_browser_and_the_switch_is_remembered(server, table, browser):
    page = browser.new_context(**PHONE, locale="de-DE").new_page()
    page.goto(server.join_url(table))
    page.wait_for_selector("#screen-join:not([hidden])")
    assert page.locator("#join-form button[type=submit]").inner_text() == "Platz nehmen"
    assert page.evaluate("document.documentElement.lang") == "de"
    page.select_option("#lang", "it")
    page.wait_for_function("document.documentElement.lang === 'it'")
    assert page.locator("#join-form button[type=submit]").inner_text() == "Prendi posto"
    page.reload()
    page.wait_for_selector("#screen-join:not([hidden])")
    assert page.locator("#join-form button[type=submit]").inner_text() == "Prendi posto"


def test_display_uses_the_language_the_host_chooses(server, table, browser):
    display = browser.new_context(**DISPLAY, locale="en-GB").new_page()
    display.goto(f"{server.base}/t/{table}/")
    display.wait_for_selector(".players-panel h2")
    assert display.locator(".players-panel h2").inner_text().lower() == "players"
    host = browser.new_context().new_page()
    host.goto(server.host_url(table))
    host.wait_for_selector("#conn-status[data-status=open]")  # the page is connected
    host.select_option("#display-lang", "nl")
    display.wait_for_function("document.documentElement.lang === 'nl'")
    assert display.locator(".players-panel h2").inner_text().lower() == "spelers"


def test_keep_awake_uses_the_video_fallback_over_plain_http(server, table, browser):
    """table.lan over http is not a secure context: no Wake Lock API, so the pad plays the
    muted inline keep-awake clip while it asks something, and stops it afterwards. The video
    meets Chromium's rule for holding the screen on with a muted video (Blink's VideoWakeLock:
    more than 75 % of it on screen, more than a fifth of the viewport), yet is never seen and
    never takes a tap."""
    phones, _host = seat_three(server, browser, table)
    ana = phones[0]
    assert ana.evaluate("window.isSecureContext") is False
    assert ana.evaluate("window.__keepAwake.technique()") == "video"
    ana.locator("#task .hand .card-btn").first.tap()  # a tap, as browsers may want one
    ana.wait_for_function("window.__keepAwake.isAwake()")
    video = "document.querySelector('video.keep-awake-video')"
    assert ana.evaluate(f"{video}.muted") is True
    # The clip really plays (it loads and its time runs), from the page's own files.
    ana.wait_for_function(f"{video}.currentTime > 1.5", timeout=15_000)
    assert ana.evaluate(f"{video}.currentSrc").endswith("/static/media/keep-awake.webm")
    seen = ana.evaluate(
        f"""() => new Promise((done) => {{
            const v = {video};
            new IntersectionObserver((entries, io) => {{
                const e = entries[entries.length - 1];
                const root = e.rootBounds.width * e.rootBounds.height;
                const area = e.intersectionRect.width * e.intersectionRect.height;
                io.disconnect();
                const card = document.querySelector('#task .hand .card-btn');
                const r = card.getBoundingClientRect();
                const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                done({{ratio: e.intersectionRatio, share: area / root,
                       opacity: Number(getComputedStyle(v).opacity),
                       pointer: getComputedStyle(v).pointerEvents,
                       tapGoesTo: hit.closest('.card-btn') === card}});
            }}).observe(v);
        }})"""
    )
    assert seen["ratio"] > 0.75 and seen["share"] > 0.2, seen
    assert seen["opacity"] <= 0.01 and seen["pointer"] == "none" and seen["tapGoesTo"], seen
    ana.locator("#lock-in").tap()
    ana.wait_for_function("document.body.dataset.task === 'none'")
    ana.wait_for_function("!window.__keepAwake.isAwake()")


def test_bid_review_lock_in_and_used_cards(server, table, browser, artifacts):
    phones, _host = seat_three(server, browser, table)
    display = browser.new_context(**DISPLAY).new_page()
    display.goto(f"{server.base}/t/{table}/")
    for page in phones:
        assert act(page) == "sacrifice"
    ana = phones[0]
    ana.wait_for_function("document.body.dataset.task === 'bid'")
    # Red round (box 0 is red, R2.3): twelve slots, two per station.
    assert ana.locator("#task button.slot").count() == 12
    ana.locator("#deck .card-btn[data-card='7']").tap()
    first = ana.locator("#task button.slot[data-slot='0']")
    assert first.inner_text() == "7"
    assert ana.locator("#deck .card-btn[data-card='7']").is_disabled()
    first.tap()  # tapping a filled slot empties it
    assert first.inner_text() == ""
    assert not ana.locator("#deck .card-btn[data-card='7']").is_disabled()
    assert ana.locator("#review").is_disabled()
    for card in range(1, 13):
        ana.locator(f"#deck .card-btn[data-card='{card}']").tap()
    ana.locator("#review").tap()
    ana.wait_for_selector(".stations.reviewing")
    ana.screenshot(path=str(artifacts / "phone-review.png"), full_page=True)
    # Station 1 got the first two cards tapped.
    assert ana.locator(".station-row[data-station='1'] .slot").all_inner_texts() == ["1", "2"]
    ana.locator("#lock-in").tap()
    ana.wait_for_function("document.body.dataset.task === 'none'")
    # Every card of the deck is now used this round and shown greyed out, once the view with
    # the bid comes (the ack that puts the question away comes first, PROTOCOL.md).
    ana.wait_for_function("document.querySelectorAll('#deck .card-btn.used').length === 12")
    # The display knows that Ana has bid, never what.
    display.wait_for_selector("#seats li[data-seat=ana] .bid-status.done")
    assert display.locator("#seats li[data-seat=ben] .bid-status.waiting").count() == 1
    view = display.evaluate("window.__display.frame().game.view")
    assert view["players"]["ana"]["bids"] is None
    display.screenshot(path=str(artifacts / "display-bidding.png"))


def test_the_bid_screen_fits_both_phone_sizes_in_every_language(server, table, browser):
    """The bid screen's words change length with the language: each language's screen fits
    at 390x844 and 360x740, before and after the review, with its two buttons beside each
    other (Dutch "Alles leegmaken" and "Controleren" stood one above the other at 360 px, and
    the tray covered a button's height more of the stations); words that do not fit side by
    side put one button above the other instead of running past the screen's edge."""
    phones, _host = seat_three(server, browser, table)
    for page in phones:
        assert act(page) == "sacrifice"
    ana = phones[0]
    wait_task(ana, "bid")

    def one_row_check(page: Any) -> list[str]:
        clear, review = (page.locator(f"#{b}").bounding_box() for b in ("clear", "review"))
        if clear and review and abs(clear["y"] - review["y"]) > 1:
            return [f"the tray's buttons stand one above the other: {clear}, {review}"]
        return []

    def every_language(label: str, one_row: bool = False) -> list[str]:
        problems = []
        for lang in LANGUAGES:
            ana.select_option("#lang", lang)
            ana.wait_for_function(f"document.documentElement.lang === '{lang}'")
            also = one_row_check if one_row else None
            problems += sweep(ana, "phone", f"{label}-{lang}", shots=ARTIFACTS, also=also)
        return problems

    problems = every_language("bid", one_row=True)
    # A longer word than any catalogue has: one button above the other, inside the screen.
    ana.set_viewport_size({"width": 360, "height": 740})
    ana.evaluate("document.getElementById('clear').textContent = 'Allesleegmakennu'")
    clear, review = (ana.locator(f"#{b}").bounding_box() for b in ("clear", "review"))
    assert clear and review and review["y"] >= clear["y"] + clear["height"], (clear, review)
    problems += [f"long words @360x740: {p}" for p in check(ana, "phone")]
    ana.select_option("#lang", "en")  # the page's own words again
    ana.wait_for_function("document.documentElement.lang === 'en'")
    ana.set_viewport_size(PHONE["viewport"])
    while ana.locator("#review").is_disabled():
        ana.locator("#deck .card-btn:not([disabled])").first.tap()
    ana.locator("#review").tap()
    ana.wait_for_selector("#lock-in")
    problems += every_language("bid-review")
    assert problems == [], "\n".join(problems)
