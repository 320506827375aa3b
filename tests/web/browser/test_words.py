"""The right words on the phones, the host page, the admin and the replay, in Chromium.

Phone: names in the bids and dice tables wrap between words, never inside one (at 390x844 and
360x740); a new station's result scrolls the watching phone to its ranking; counted texts have
their singular ("1 die"); the seat given back from a companion player says so; the café's
"close stuck game" is named as the café's, not the host's; the game's replay asks for no
missing text. Host page: five seats' actions in one menu each (a short page), dialogs that
say what will happen, "Done." that fades. Display: the sound button's name is its text.

Scenario as in test_pad_news: Ana (Chromium, "Maximiliane-Alexandra") is played by a plain
companion player for her first bid (sacrifice 0, lowest cards), Jörg and Xochitl bid as
there: Ana wins S3 and takes the die (R5.3); at S4 a six would lift her, so she is asked
(R3.2) and holds 1 black die.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from live_server import Host, LiveServer, Peer, Phone, policy
from playwright.sync_api import Error as PlaywrightError

from tests.web.browser.conftest import PHONE
from tests.web.browser.layout import mid_word_breaks
from tests.web.browser.pads import join
from tests.web.browser.test_pad_news import BEN, CLEO, wait_task

SMALL_PHONE = {**PHONE, "viewport": {"width": 360, "height": 740}}


@pytest.fixture
def server(shared_server: LiveServer) -> LiveServer:
    """This module's tests share one server, each on a table of its own (``table``)."""
    return shared_server


# Characters of a name that moved to a new line although the one before is no break point.
# Where the first ranking shown while the phone only watches stands on the screen.
FIRST_RANKING = """() => {
  const look = () => {
    // A ranking: place, player, cards, modifiers, total (revealed cards alone have 3 columns).
    const el = [...document.querySelectorAll('#task .revealed')]
      .find((e) => e.querySelector('tbody tr')?.children.length === 5);
    if (el && document.body.dataset.task === 'none') {
      window.__firstRanking = {
        top: el.getBoundingClientRect().top,
        header: document.querySelector('.padbar').getBoundingClientRect().bottom,
        scrollY, most: document.documentElement.scrollHeight - innerHeight,
      };
    } else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""


def _shots(artifacts: Path) -> Path:
    """Screenshots of this module go to test-artifacts/words/."""
    folder = artifacts / "words"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _mid_word_breaks(page: Any, label: str) -> list[str]:
    page.wait_for_selector("#task table.mini .chip-name")
    names = "#task table.mini .chip-name, #who .chip-name"
    out = [f"{label}: {x}" for x in mid_word_breaks(page, names)]
    wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    if wide > 0:
        out.append(f"{label}: the page is {wide}px wider than the phone")
    return out


def _shows(page: Any, script: str, timeout: float = 8000) -> bool:
    """Whether ``script`` becomes true within ``timeout`` ms (polled, no fixed sleep)."""
    try:
        page.wait_for_function(script, timeout=timeout)
    except PlaywrightError:
        return False
    return True


def test_phone_words_names_ranking_scroll_seat_back_and_the_cafes_close(
    server: LiveServer, table: str, browser: Any, artifacts: Any
) -> None:
    """Each point is checked and listed (not stopped at), so one run names all that fail."""
    shots = _shots(artifacts)
    problems: list[str] = []
    ana = browser.new_context(**SMALL_PHONE).new_page()
    warnings: list[str] = []
    ana.on(
        "console", lambda m: warnings.append(m.text) if "missing translation" in m.text else None
    )
    join(ana, server.join_url(table), "Maximiliane-Alexandra", "orange")
    # Alone in the lobby: one player, in the singular.
    if not _shows(ana, "document.getElementById('screen-lobby').innerText.includes('(1 player ')"):
        problems.append(f"lobby: {ana.inner_text('#screen-lobby')!r}")
    others = []
    for name, colour in (("Jörg", "sky"), ("Xochitl", "green")):
        phone = Phone(server, table, server.join(table, name, colour))
        phone.hello()
        others.append(phone)
    jorg, xochitl = others
    host = Host(server, table)
    host.hello()
    assert host.act("start", dice="table")["type"] == "ok"
    wait_task(ana, "sacrifice")
    ana.locator("#task .hand .card-btn[data-card='0']").tap()
    ana.locator("#lock-in").tap()
    for phone in others:
        phone.command({"type": "sacrifice", "card": 0})
        phone.until(lambda f: f["type"] == "ack")
    assert host.command({"type": "harvest", "dice": [1, 2, 3]})["type"] == "ack"
    assert host.command({"type": "improvements", "cards": [1, 1]})["type"] == "ack"
    wait_task(ana, "bid")
    me = ana.evaluate("window.__pad.frame().you.seat")

    # The others bid first; she bids last with twelve taps, down at the lock-in bar.
    for phone, bids in ((jorg, BEN), (xochitl, CLEO)):
        phone.command({"type": "bid", "bids": bids})
        phone.until(lambda f: f["type"] == "ack")
    for card in range(1, 13):
        ana.locator(f"#deck .card-btn[data-card='{card}']").tap()
    ana.locator("#review").tap()
    ana.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert ana.evaluate("window.scrollY") > 0
    ana.evaluate(FIRST_RANKING)
    # The table's show at a pace a person reads: each station's result stays up a while.
    assert host.act("set_pace", pace="test:2")["type"] == "ok"
    ana.locator("#lock-in").tap()
    # The first result: the phone is scrolled to the ranking's top (taken on the first
    # animation frame that shows a ranking while she watches; the show moves on by itself).
    ana.wait_for_function("window.__firstRanking !== undefined")
    place = ana.evaluate("window.__firstRanking")
    # Right below the header, or as far as the page scrolls.
    at_top = place["header"] <= place["top"] <= place["header"] + 16
    if not (at_top or (place["header"] <= place["top"] and place["scrollY"] >= place["most"] - 1)):
        problems.append(f"the ranking does not start at the top of the screen: {place}")
    assert host.act("set_pace", pace="instant")["type"] == "ok"
    ana.screenshot(path=str(shots / "ranking-360x740.png"))
    problems += _mid_word_breaks(ana, "ranking 360x740")

    wait_task(ana, "city")
    ana.locator("button[data-choice='die']").tap()
    ana.locator("#lock-in").tap()
    wait_task(ana, "dice")
    row = ana.locator(f"[data-testid=dice-bids] tr[data-player='{me}']")
    if not re.search(r"\b1 die\b", row.inner_text()):
        problems.append(f"dice window row: {row.inner_text()!r}")
    problems += _mid_word_breaks(ana, "dice window 360x740")
    ana.screenshot(path=str(shots / "dice-window-360x740.png"), full_page=True)
    ana.set_viewport_size(PHONE["viewport"])
    ana.wait_for_function("document.documentElement.clientWidth >= 390")
    ana.evaluate("window.dispatchEvent(new Event('resize'))")
    problems += _mid_word_breaks(ana, "dice window 390x844")
    ana.screenshot(path=str(shots / "dice-window-390x844.png"), full_page=True)
    # The display sees this window open and, 40 ms later, closed (its frames held back by the
    # test and let through that fast, as when companion players answer at once): it must
    # not draw the window for that moment.
    problems += _window_flash(browser, server, table, lambda: _no_dice(ana))

    # A companion player takes her seat; the host gives it back: her phone says so.
    assert host.act("skip_seat", seat=me)["type"] == "ok"
    ana.wait_for_selector("[data-testid=auto-note]")
    assert ana.locator("[data-testid=seat-back]").count() == 0
    assert host.act("resume_seat", seat=me)["type"] == "ok"
    ana.wait_for_selector("[data-testid=auto-note]", state="detached")
    if not _shows(
        ana, "document.querySelector('[data-testid=seat-back]')?.innerText.includes('seat back')"
    ):
        problems.append("no 'you have your seat back' after the host gave the seat back")
    ana.screenshot(path=str(shots / "seat-back-390x844.png"))

    # The café closes the stuck game from its admin page: the phone names the café.
    token = server.admin_token()
    answer = requests.post(
        f"{server.local}/admin/api/tables/{table}/close",
        headers={"X-Admin-Token": token},
        timeout=5,
    )
    assert answer.status_code == 200, answer.text
    ana.wait_for_selector("[data-testid=standings]")
    said = ana.inner_text("#screen-final")
    if "café closed" not in said or "host ended" in said:
        problems.append(f"the café's close: {said!r}")
    ana.screenshot(path=str(shots / "cafe-closed-390x844.png"), full_page=True)
    problems += [f"phone console: {w}" for w in warnings]

    # Its replay asks for no text the catalogue lacks.
    game_id = ana.evaluate("window.__pad.frame().game.id")
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    missing: list[str] = []
    tv.on("console", lambda m: missing.append(m.text) if "missing translation" in m.text else None)
    tv.goto(f"{server.base}/admin/games/{game_id}/replay?token={token}")
    tv.wait_for_function("window.__display?.frame()?.replay")
    tv.wait_for_function("document.getElementById('replay-step').textContent.length > 0")
    tv.keyboard.press("ArrowRight")
    tv.wait_for_function("document.body.dataset.replayStep === '1'")
    problems += [f"replay console: {m}" for m in missing]
    assert not problems, "\n".join(problems)


# Remembers whether a dice window was ever put on the page (even for one frame).
WATCH_WINDOW = """() => {
  window.__windowDrawn = false;
  new MutationObserver(() => {
    if (document.querySelector('[data-testid=dice-window]')) window.__windowDrawn = true;
  }).observe(document.documentElement, {childList: true, subtree: true});
}"""


def _no_dice(ana: Any) -> None:
    ana.locator("button[data-count='0']").tap()
    ana.locator("#lock-in").tap()
    wait_task(ana, "none")


def _window_flash(browser: Any, server: LiveServer, table: str, close: Any) -> list[str]:
    """The display gets the table's real frames (a websocket display took them): the window
    open, then 40 ms later closed. Its own socket is held silent so only these two count."""
    watcher = Peer(f"{server.ws_base}/t/{table}/ws/display")
    opened = watcher.until(
        lambda f: (
            f["type"] == "view" and bool((f.get("game") or {}).get("view", {}).get("dice_window"))
        )
    )
    close()
    closed = watcher.until(
        lambda f: (
            f["type"] == "view" and not (f.get("game") or {}).get("view", {}).get("dice_window")
        )
    )
    watcher.close()
    # The page's own clock says how long the window was open: on a starved machine the 40 ms
    # timer can fire after the display's settle time (display.js WINDOW_SETTLE_MS, 300 ms),
    # and then drawing the window is right. Such a try says nothing and is made again.
    for _ in range(5):
        tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        tv.route_web_socket(re.compile(r"/ws/display"), lambda ws: None)  # connected, never told
        tv.goto(f"{server.base}/t/{table}/")
        tv.wait_for_function("window.__display && document.documentElement.lang === 'en'")
        tv.evaluate(WATCH_WINDOW)
        open_ms = tv.evaluate(
            """([opened, closed]) => new Promise((done) => {
              const at = performance.now();
              window.__display.inject(opened);
              setTimeout(() => {
                window.__display.inject(closed);
                done(performance.now() - at);
              }, 40);
            })""",
            [opened, closed],
        )
        tv.wait_for_function("window.__display?.frame()?.game.view.dice_window === null")
        tv.evaluate("new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")
        drawn = tv.evaluate("window.__windowDrawn")
        tv.context.close()
        if open_ms < 250:  # well inside the settle time
            return (
                [f"the display drew a dice window that was open for {open_ms:.0f} ms"]
                if drawn
                else []
            )
    raise AssertionError("the page never closed the window within 250 ms of opening it")


def _five_seats(server: LiveServer, table: str, n: int = 5) -> list[Phone]:
    phones: list[Phone] = []
    for name, colour in (
        ("Ana", "orange"),
        ("Ben", "sky"),
        ("Cleo", "green"),
        ("Dora", "purple"),
        ("Emil", "yellow"),
    )[:n]:
        phone = Phone(server, table, server.join(table, name, colour))
        phone.hello()
        phones.append(phone)
    return phones


HOST_VIEWPORTS = ({"width": 390, "height": 844}, {"width": 1280, "height": 900})


def test_host_page_menus_dialogs_and_done(
    server: LiveServer, table: str, browser: Any, artifacts: Any
) -> None:
    shots = _shots(artifacts)
    phones = _five_seats(server, table)
    host = browser.new_context(viewport=HOST_VIEWPORTS[0]).new_page()
    host.goto(server.host_url(table))
    host.wait_for_selector("#start:not([disabled])")
    host.click("#start")
    host.wait_for_function("window.__host?.frame()?.game?.status === 'playing'")
    host.wait_for_function("document.querySelectorAll('#host-seats li[data-seat]').length === 5")
    heights = {}
    for viewport in HOST_VIEWPORTS:
        host.set_viewport_size(viewport)
        host.wait_for_function(f"innerWidth === {viewport['width']}")
        heights[viewport["width"]] = host.evaluate("document.documentElement.scrollHeight")
        host.screenshot(path=str(shots / f"host-5-seats-{viewport['width']}.png"), full_page=True)
    print("host page height with 5 seats (px):", json.dumps(heights))
    # Each seat is one line: its name, its state and one menu (three buttons and their help
    # lines per seat made the page 2,571 px tall at phone width).
    seat_heights = host.evaluate(
        "[...document.querySelectorAll('#host-seats li[data-seat]')]"
        ".map((li) => li.getBoundingClientRect().height)"
    )
    assert max(seat_heights) <= 60, seat_heights
    assert host.locator("#host-seats [data-testid=skip]:visible").count() == 0
    host.set_viewport_size(HOST_VIEWPORTS[0])

    # The menu opens in place and stays open while frames come.
    host.click("#host-seats li[data-seat=ana] [data-testid=seat-menu-open]")
    host.wait_for_selector("#host-seats li[data-seat=ana] [data-testid=skip]:visible")
    assert "Ana's phone is told the host removed it" in host.inner_text(
        "#host-seats li[data-seat=ana] [data-testid=seat-help]"
    )
    host.screenshot(path=str(shots / "host-menu-open-390.png"), full_page=True)

    # Undo says what it takes back, on the button and in its dialog.
    phones[0].command({"type": "sacrifice", "card": 0})
    phones[0].until(lambda f: f["type"] == "ack")
    host.wait_for_selector("#undo:not([disabled])")
    host.wait_for_function("document.getElementById('undo').textContent.includes('Ana')")
    assert host.inner_text("#undo") == "Undo Ana's sacrifice"
    assert host.locator("#host-seats li[data-seat=ana] [data-testid=skip]").is_visible()
    dialogs: list[str] = []

    def answer(dialog: Any, accept: bool) -> None:
        dialogs.append(dialog.message)
        if accept:
            dialog.accept()
        else:
            dialog.dismiss()

    host.once("dialog", lambda d: answer(d, True))
    host.click("#undo")
    host.wait_for_function("document.getElementById('undo').disabled")
    assert dialogs[-1].startswith("Undo Ana's sacrifice?"), dialogs
    # "Done." is said, then fades away.
    host.wait_for_selector("#host-message >> text=Done.")
    host.wait_for_function("document.getElementById('host-message').textContent === ''")

    host.once("dialog", lambda d: answer(d, False))
    host.click("#host-seats li[data-seat=ana] [data-testid=release]")
    assert "Give Ana's seat to a new phone?" in dialogs[-1], dialogs
    host.once("dialog", lambda d: answer(d, False))
    host.click("#end-game")
    host.once("dialog", lambda d: answer(d, False))
    host.click("#rotate-join")
    assert len(dialogs) == 4, dialogs
    assert not any("Are you sure" in d for d in dialogs), dialogs
    assert "End this game now?" in dialogs[2] and "new join code" in dialogs[3], dialogs
    assert host.evaluate("window.__host.frame().game.status") == "playing"  # all dismissed


def test_display_sound_button_is_named_by_its_text(
    server: LiveServer, table: str, browser: Any
) -> None:
    """WCAG 2.5.3: the sound button reads "Sound: on" and is called that (it was called
    "Turn sound off" / "Sound off" while it read "Sound: on")."""
    display = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    display.goto(f"{server.base}/t/{table}/")
    display.wait_for_function("document.getElementById('sound-toggle').textContent.length > 0")
    for _ in range(2):
        button = display.locator("#sound-toggle")
        text = button.inner_text().strip()
        name = button.evaluate("b => b.getAttribute('aria-label') || b.textContent").strip()
        assert text.lower() in name.lower(), (text, name)
        assert display.get_by_role("button", name=text, exact=True).count() == 1
        button.click()
        display.wait_for_function(
            f"document.getElementById('sound-toggle').textContent !== {json.dumps(text)}"
        )


AXE = Path(__file__).resolve().parents[3] / "node_modules" / "axe-core" / "axe.min.js"
# axe-core's checks, with WCAG 2.5.3 (label-content-name-mismatch, off by default) turned on.
# One axe run, and whether a card began to turn (a frame came: the next beat) while it ran: a
# colour measured mid-fade is not what a person reads, so such a run is made again.
AXE_RUN = """async () => {
  let turned = false;
  const started = () => { turned = true; };
  document.addEventListener('animationstart', started, true);
  try {
    const rules = {'label-content-name-mismatch': {enabled: true}};
    const result = await axe.run(document, {rules});
    const still = document.getAnimations().some((a) =>
      a.playState === 'running' && a.effect.getComputedTiming().endTime !== Infinity);
    return {
      settled: !turned && !still,
      violations: result.violations.map(
        (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      ),
    };
  } finally {
    document.removeEventListener('animationstart', started, true);
  }
}"""


# Cards turning over fade in (0.6 s): their colours are checked once they have turned, as a
# person reads them. Endless animations (a waiting pulse) are not waited for.
TURNED = """() => document.getAnimations().every((a) =>
  a.playState !== 'running' || a.effect.getComputedTiming().endTime === Infinity)"""


def _axe(page: Any, label: str) -> list[str]:
    """What axe finds once the cards have turned, from a run during which none began to turn
    (a paced show puts the next beat up meanwhile; a real problem is found by every run)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    for _ in range(5):
        page.wait_for_function(TURNED)
        run = page.evaluate(AXE_RUN)
        if run["settled"]:
            break
    return [f"{label}: {v}" for v in run["violations"]]


def test_display_passes_axe_in_the_lobby_the_game_and_the_show(
    own_server: LiveServer, browser: Any
) -> None:
    """axe-core (node_modules, package.json) finds nothing on the display: in the lobby, in a
    game and while the show tells a reveal. The sound button reads "Sound: on" and is called
    that (it was called "Sound off": WCAG 2.5.3). On a server of its own: the one-table
    display with its simulated board."""
    server, table = own_server, "1"
    assert AXE.exists(), "axe-core is a dev dependency: run `make node_modules/.installed`"
    display = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    display.goto(f"{server.base}/t/{table}/")
    display.wait_for_function("document.getElementById('sound-toggle').textContent.length > 0")
    problems = _axe(display, "lobby")
    phones = _five_seats(server, table, 3)
    host = Host(server, table)
    host.hello()
    assert host.act("set_pace", pace="test:3")["type"] == "ok"
    assert host.act("start", dice="digital")["type"] == "ok"
    display.wait_for_function("window.__display?.frame()?.game?.status === 'playing'")
    display.wait_for_selector("#seats .seat")
    problems += _axe(display, "game")
    # The phones play (sacrifice, bids) until the display shows a station's result.
    deadline = time.monotonic() + 60
    showing = "document.querySelector('#reveal-panel:not([hidden]) .ranking') !== null"
    while not display.evaluate(showing):
        assert time.monotonic() < deadline, "the display never showed a result"
        for phone in phones:
            phone.poll(0.05)
            pending = (phone.view or {}).get("you", {}).get("pending") or []
            if phone.ready() and pending:
                phone.command(policy(phone.view, phone.seat, pending[0]))
    problems += _axe(display, "show")
    # On to the round's summary (every station a column): the headers never run together.
    display.set_viewport_size({"width": 1280, "height": 720})
    deadline = time.monotonic() + 120
    summary = (
        "document.querySelectorAll('[data-testid=round-summary] thead th.past-station').length"
    )
    while display.evaluate(summary) < 6:
        assert time.monotonic() < deadline, "the display never showed the round's summary"
        for phone in phones:
            phone.poll(0.05)
            pending = (phone.view or {}).get("you", {}).get("pending") or []
            if phone.ready() and pending:
                phone.command(policy(phone.view, phone.seat, pending[0]))
    run_together = display.evaluate(
        """() => [...document.querySelectorAll('[data-testid=round-summary] thead th.past-station')]
          .filter((th) => th.scrollWidth > th.clientWidth + 1).map((th) => th.textContent)"""
    )
    if run_together:
        problems.append(f"summary headers wider than their columns: {run_together}")
    # Its corner cell is no header without words (axe: empty-table-header).
    problems += _axe(display, "summary")
    assert not problems, "\n".join(problems)
