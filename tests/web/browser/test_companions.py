"""Companion players and learning mode in a real browser: the host seats two strong companion
players and turns hints on; the display marks them and says hints are on; a pad's hint button
shows a suggestion with its reason in plain words; the companions play their moves."""

from __future__ import annotations

from tests.web.browser.conftest import PHONE
from tests.web.browser.pads import act, join

DISPLAY = {"viewport": {"width": 1920, "height": 1080}}


def test_host_adds_companions_and_a_pad_shows_a_hint(server, browser, artifacts):
    url = server.join_url()
    ana = browser.new_context(**PHONE).new_page()
    join(ana, url, "Ana", "orange")
    ben = browser.new_context(**PHONE).new_page()
    join(ben, url, "Ben", "sky")
    display = browser.new_context(**DISPLAY).new_page()
    display.goto(f"{server.base}/t/1/")
    host = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    host.goto(server.host_url())
    host.wait_for_selector("#host-bots .bot-picker")
    for _ in range(2):
        host.select_option("#host-bots select.bot-level", "strong")
        host.click("#host-bots button")
        host.wait_for_selector("#host-message >> text=Done.")
    host.wait_for_function("document.querySelectorAll('#host-seats li[data-seat]').length === 4")
    assert (
        host.locator("#host-seats .seat-kind").all_inner_texts().count("companion player · Strong")
        == 2
    )
    display.wait_for_function("document.querySelectorAll('#seats li.companion').length === 2")
    assert (
        display.locator("#seats li.companion .conn-text").first.inner_text()
        == "companion player · Strong"
    )
    assert display.locator("#seats li.companion .companion-mark").count() == 2
    assert display.locator("#hints-on").is_hidden()  # off by default

    host.select_option("#hints-level", "good")
    display.wait_for_selector("#hints-on:not([hidden])")
    assert "Hints are on" in display.locator("#hints-on").inner_text()
    host.click("#start")
    ana.wait_for_function("document.body.dataset.task === 'sacrifice'")
    ana.locator(".hint-button").tap()
    ana.wait_for_selector(".hint-reason")
    reason = ana.locator(".hint-reason").inner_text()
    assert reason.startswith("Sacrifice your") and "hint." not in reason
    assert ana.locator(".hint-move").inner_text().startswith("Suggestion:")
    assert ben.locator(".hint-reason").count() == 0  # only the asking pad sees it
    ana.screenshot(path=str(artifacts / "pad-hint.png"), full_page=True)

    # The companions answer by themselves: after both people act, bids are awaited from them.
    assert act(ana) == "sacrifice"
    assert act(ben) == "sacrifice"
    ana.wait_for_function("document.body.dataset.task === 'bid'", timeout=30_000)
    # The display has the same view (its frame may come a moment after the phone's).
    display.wait_for_function("window.__display?.frame()?.game?.view?.round === 1")
    display.screenshot(path=str(artifacts / "display-companions.png"))
