"""A whole round at a table of three phones, driven through real Chromium."""

from __future__ import annotations

import time

from tests.web.browser.pads import act, join

DISPLAY = {"viewport": {"width": 1920, "height": 1080}}


def test_three_phones_play_a_round(server, browser, artifacts):
    from tests.web.browser.conftest import PHONE

    display_ctx = browser.new_context(**DISPLAY)
    display = display_ctx.new_page()
    display.goto(f"{server.base}/t/1/")
    display.wait_for_selector("#join-panel img.qr")
    url = server.join_url()
    phones = []
    for name, colour in (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green")):
        ctx = browser.new_context(**PHONE)
        page = ctx.new_page()
        join(page, url, name, colour)
        phones.append(page)
    display.wait_for_function("document.querySelectorAll('#seats li.seat:not(.free)').length === 3")
    display.screenshot(path=str(artifacts / "display-lobby.png"))
    phones[0].screenshot(path=str(artifacts / "phone-lobby.png"))

    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    host.goto(server.host_url())
    host.wait_for_selector("#start:not([disabled])")
    host.click("#start")
    phones[0].wait_for_function("document.body.dataset.task === 'sacrifice'")
    phones[0].screenshot(path=str(artifacts / "phone-sacrifice.png"))
    shots = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        did = False
        for i, page in enumerate(phones):
            kind = page.evaluate("document.body.dataset.task || ''")
            if kind and kind not in shots and i == 0:
                page.screenshot(path=str(artifacts / f"phone-{kind}.png"), full_page=True)
                shots.add(kind)
            if act(page):
                did = True
        rnd = display.evaluate("window.__display.frame()?.game?.view?.round || 0")
        if rnd >= 2:
            break
        if not did:
            time.sleep(0.2)
    display.screenshot(path=str(artifacts / "display-round2.png"))
    assert rnd >= 2
