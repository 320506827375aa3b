"""Helpers that act like a player on the phone page (taps only, as a person would)."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

LOG_KEY = "_chocolatl_log"


def record(page: Page) -> None:
    """Keep what the page's sockets carried and what its console said, so a pad that does
    not show what a test waits for can tell why (``wait_task``)."""
    log: list[str] = []
    setattr(page, LOG_KEY, log)

    def on_socket(ws: Any) -> None:
        log.append(f"ws open {ws.url}")
        ws.on("framereceived", lambda payload: log.append(f"<- {_short(payload)}"))
        ws.on("framesent", lambda payload: log.append(f"-> {_short(payload)}"))
        ws.on("socketerror", lambda error: log.append(f"ws error {error}"))
        ws.on("close", lambda _ws: log.append(f"ws closed {ws.url}"))

    page.on("websocket", on_socket)
    page.on("console", lambda msg: log.append(f"console {msg.type}: {msg.text}"))
    page.on("pageerror", lambda exc: log.append(f"page error: {exc}"))


def _short(payload: Any) -> str:
    text = payload if isinstance(payload, str) else repr(payload)
    text = re.sub(r'"token":\s*"[^"]*"', '"token":"…"', text)
    try:
        frame = json.loads(text)
    except ValueError:
        return text[:300]
    if not isinstance(frame, dict) or frame.get("type") != "view":
        return text[:300]
    game = frame.get("game") or {}
    you = frame.get("you") or {}
    return json.dumps(
        {
            "type": "view",
            "seq": frame.get("seq"),
            "reason": frame.get("reason"),
            "game": game.get("id"),
            "status": game.get("status"),
            "pending": you.get("pending"),
            "history": "history" in frame,
            "bytes": len(text),
        }
    )


def wait_task(page: Page, kind: str, timeout: float = 30000) -> None:
    """Wait until the pad asks ``kind``; on timeout say what the pad showed and received."""
    try:
        page.wait_for_function(
            f"document.body.dataset.task === {json.dumps(kind)}", timeout=timeout
        )
    except PlaywrightError as exc:
        raise AssertionError(f"the pad never asked {kind!r}:\n{describe(page)}") from exc


def describe(page: Page) -> str:
    """The pad's state and the last frames it got (for a failure message)."""
    try:
        state = page.evaluate(
            """() => ({
              task: document.body.dataset.task, conn: document.body.dataset.conn,
              visibility: document.visibilityState,
              screens: [...document.querySelectorAll('section.screen')]
                .filter((s) => !s.hidden).map((s) => s.id + ':' + (s.dataset.kind || '')),
              seq: window.__pad?.frame()?.seq, game: window.__pad?.frame()?.game?.id ?? null,
              pending: window.__pad?.frame()?.you?.pending,
              ws: window.__pad?.conn?.ws?.readyState, status: window.__pad?.conn?.status,
              outbox: window.__pad?.conn?.outbox?.size,
              moment: window.__pad?.moment?.(),
            })"""
        )
    except PlaywrightError as exc:
        state = f"(page did not answer: {exc})"
    log = getattr(page, LOG_KEY, None)
    tail = "\n".join(log[-40:]) if log else "(not recorded: call record(page) before goto)"
    return f"state: {json.dumps(state)}\nlast of {len(log or [])} log lines:\n{tail}"


def join(page: Page, url: str, name: str, colour: str) -> None:
    if not hasattr(page, LOG_KEY):
        record(page)
    page.goto(url)
    page.wait_for_selector("#screen-join:not([hidden])")
    page.fill("input[name=name]", name)
    page.click(f"label.colour-option:has(input[value={colour}])")
    page.click("#join-form button[type=submit]")
    page.wait_for_selector("#screen-lobby:not([hidden])")


# What the pad asks now: nothing while its game screen is not shown or a command is on its
# way (its "sending" state), else the task it shows.
ASKED = """() => {
  const game = document.getElementById('screen-game');
  if (!game || !game.checkVisibility() || document.querySelector('.sending')) return '';
  return document.body.dataset.task || '';
}"""


def task(page: Page) -> str:
    return page.evaluate("document.body.dataset.task || ''")


def act(page: Page, asked: str | None = None) -> str | None:
    """Do what the pad asks (if anything) the simple way; returns what was done.

    `asked` is what the caller already read with ASKED, so that what it recorded and what is
    done come from one look (read twice, the pad could move on in between)."""
    # One look at the page, not three: tests call this in their loops many times a second,
    # and each call into the page costs Chromium (5 % of a core a phone at three a look).
    kind = page.evaluate(ASKED) if asked is None else asked
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
