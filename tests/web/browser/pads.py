"""Helpers that act like a player on the phone page (taps only, as a person would)."""

from __future__ import annotations

from playwright.sync_api import Page


def join(page: Page, url: str, name: str, colour: str) -> None:
    page.goto(url)
    page.wait_for_selector("#screen-join:not([hidden])")
    page.fill("input[name=name]", name)
    page.click(f"label.colour-option:has(input[value={colour}])")
    page.click("#join-form button[type=submit]")
    page.wait_for_selector("#screen-lobby:not([hidden])")


def task(page: Page) -> str:
    return page.evaluate("document.body.dataset.task || ''")


def act(page: Page) -> str | None:
    """Do what the pad asks (if anything) the simple way; returns what was done."""
    if page.locator("#screen-game").is_hidden():
        return None
    if page.locator(".sending").count():
        return None
    kind = task(page)
    if kind == "sacrifice":
        page.locator("#task .hand .card-btn").first.tap()
        page.locator("#lock-in").tap()
    elif kind == "bid":
        while page.locator("#review").is_disabled():
            page.locator("#deck .card-btn:not([disabled])").first.tap()
        page.locator("#review").tap()
        page.locator("#lock-in").tap()
    elif kind == "dice":
        page.locator("button[data-count='0']").tap()
        page.locator("#lock-in").tap()
    elif kind == "city":
        page.locator("button[data-choice='hut']").tap()
        page.locator("#lock-in").tap()
    elif kind == "pyramid":
        page.locator("button[data-first]").first.tap()
        page.locator("#lock-in").tap()
    else:
        return None
    return kind
