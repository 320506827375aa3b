"""The display's top bar never leaves the screen, at any width, in any language.

First the live bar of a game with hints on, connected, in each language (chosen on the
display's own picker). Then the most the bar ever holds, fed to the display through its own
frame path once the server is gone (so it says it is reconnecting): a long table title, the
last round of a gold round, the hints badge, the show's countdown, the board's status; and,
once the game is over, the review's status. Each time the bar is given every width from 700
to 1,700 pixels two pixels at a time (the page's own resize path squeezes it): every item must
stay inside the bar. A bar measured by its scrollWidth (which leaves out its end padding)
left "Connected" one pixel past the right edge of a 1280x720 TV. The real viewports are
swept too (layout.py)."""

from __future__ import annotations

import copy
from typing import Any

from live_server import Host, LiveServer, Peer, seat_phones
from playwright.sync_api import Error as PlaywrightError

from companion.web.i18n import LANGUAGES

from .conftest import ARTIFACTS
from .layout import sweep

NAMES = ["Maximiliana Eberhard", "Tomasz Wiśniewski-Ko", "Giulietta Castellani"]
TITLE = "Café Xocolatl, am Fenster"
LANGS = list(LANGUAGES)
WIDTHS = [700, 1700]

# Every width in one page call: the bar is given the width, the page's resize path runs
# (render, then fitHeader), and every item of the bar is measured against the bar's inside.
BAR_AT_EVERY_WIDTH = """([lo, hi]) => {
  const bar = document.querySelector('.topbar');
  const problems = [];
  for (let w = lo; w <= hi; w += 2) {
    bar.style.width = w + 'px';
    window.dispatchEvent(new Event('resize'));
    const box = bar.getBoundingClientRect();
    const inside = box.right - parseFloat(getComputedStyle(bar).paddingRight);
    for (const el of bar.children) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || getComputedStyle(el).display === 'none') continue;
      if (r.right > inside + 0.5) {
        problems.push(`${w}px: ${el.id || el.className} ends at ${r.right.toFixed(1)}, ` +
                      `the bar's inside at ${inside.toFixed(1)} (${bar.className})`);
      }
    }
  }
  bar.style.width = '';
  window.dispatchEvent(new Event('resize'));
  return problems;
}"""


INLINE_CATALOGUES = """async (codes) => {
  for (const code of codes) {
    const words = await (await fetch(`/i18n/${code}.json`)).text();
    const script = document.createElement('script');
    script.type = 'application/json';
    script.id = `i18n-${code}`;
    script.textContent = words;
    document.head.append(script);
  }
}"""


def test_the_top_bar_stays_inside_at_every_width_in_every_language(tmp_path, browser) -> None:
    server = LiveServer(tmp_path, host_name="table.lan").start()
    peers: list[Peer] = []
    try:
        host = Host(server, "1")
        host.hello()
        peers.append(host)
        peers += seat_phones(server, "1", NAMES)
        assert host.act("start", dice="digital")["type"] == "ok"
        page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        page.goto(f"{server.base}/t/1/")
        page.wait_for_function("() => window.__display?.frame()?.game")
        assert host.act("set_hints", level="good")["type"] == "ok"
        live: list[str] = []
        for lang in LANGS:
            page.select_option("[data-testid=display-lang]", lang)
            page.wait_for_function(
                "(l) => window.__display?.frame()?.table.lang === l && "
                "document.documentElement.lang === l && "
                "document.getElementById('conn-status').dataset.status === 'open' && "
                "!document.getElementById('hints-on').hidden",
                arg=lang,
            )
            live += [f"{lang}-live: {p}" for p in page.evaluate(BAR_AT_EVERY_WIDTH, WIDTHS)[:5]]
        base = page.evaluate("window.__display.frame()")
        # Every language's words in the page (the page reads a catalogue given inline first):
        # the frames below are the test's alone once the server is gone.
        page.evaluate(INLINE_CATALOGUES, LANGS)
    finally:
        for p in peers:
            p.close()
        server.stop()
    problems = live + look_at_the_bar(page, base)
    assert not problems, "\n".join(problems)


def look_at_the_bar(page: Any, base: dict[str, Any]) -> list[str]:
    """Every state and language, at every width of the bar and at the TV's sizes."""

    def frame(lang: str, step: int, over: bool) -> dict[str, Any]:
        f = copy.deepcopy(base)
        f["reason"] = "command"
        f["seq"] = base["seq"] + step
        f["events"] = []
        f["table"] = {**f["table"], "lang": lang, "hints": "good", "title": TITLE}
        view = f["game"]["view"]
        view.update(round=7, mode="gold", last_round=True, last_round_reason="end_score")
        beats = [{"kind": "last_round", "reason": "end_score", "seconds": 9999}]
        if over:
            view.update(finished=True, phase="finished", winners=[view["seats"][0]])
            f["game"] = {**f["game"], "status": "ended"}
            beats = []
        f["show"] = {**f["show"], "beats": beats, "elapsed": 0.2, "hold": 9999, "more": True}
        f["show"]["step"] = f["seq"]
        return f

    shots = ARTIFACTS / "display-header"
    shots.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    step = 0
    for lang in LANGS:
        for over in (False, True):
            step += 1
            page.evaluate("(f) => window.__display.inject(f)", frame(lang, step, over))
            page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
            label = f"{lang}-{'over' if over else 'last-round'}"
            if not over:  # what the bar holds in the last round, counting down
                assert page.locator("[data-testid=last-round]").is_visible(), label
                assert page.locator("#hints-on").is_visible(), label
                assert page.locator("[data-testid=countdown]").is_visible(), label
            found = page.evaluate(BAR_AT_EVERY_WIDTH, WIDTHS)
            problems += [f"{label}: {p}" for p in found[:5]]
            problems += sweep(page, "display", f"header-{label}", shots=shots)
    return problems


# Whether every item of the top bar ends inside it.
BAR_INSIDE = """() => {
  const bar = document.querySelector('.topbar');
  const inside = bar.getBoundingClientRect().right - parseFloat(getComputedStyle(bar).paddingRight);
  return [...bar.children].every((el) => el.getBoundingClientRect().right <= inside + 0.5);
}"""


def test_an_item_that_grows_between_frames_has_the_bar_fitted_again(tmp_path, browser) -> None:
    """The bar is fitted when one of its items changes width, not only when a frame comes: the
    sound button's words change after a language's render (and the bar is fitted again only
    when a width changed, so a missed change would stay until the next frame)."""
    server = LiveServer(tmp_path, host_name="table.lan").start()
    peers: list[Peer] = []
    try:
        host = Host(server, "1")
        host.hello()
        peers.append(host)
        peers += seat_phones(server, "1", NAMES)
        assert host.act("start", dice="digital")["type"] == "ok"
        page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        page.goto(f"{server.base}/t/1/")
        page.wait_for_function("() => window.__display?.frame()?.game")
        page.wait_for_function(BAR_INSIDE)
        before = page.get_attribute(".topbar", "class")
        assert "squeeze-wrap" not in (before or "")
        # Between frames (no countdown runs at the instant pace): the button's words grow. A
        # frame that happens to come in the second after fits the bar anyway, so the change is
        # made again (longer) until a second passes without a frame.
        for attempt in range(5):
            page.evaluate("window.__f0 = window.__display.frame()")
            page.evaluate(
                "(n) => document.getElementById('sound-toggle').textContent = "
                "'Sound: on, loud and clear '.repeat(n)",
                4 + attempt,
            )
            try:
                page.wait_for_function(
                    f"(before) => ({BAR_INSIDE})()"
                    " && document.querySelector('.topbar').className !== before",
                    arg=before,
                    timeout=1_000,
                )
                fitted = True
            except PlaywrightError:
                fitted = False
            if page.evaluate("window.__display.frame() === window.__f0"):
                break
        else:
            raise AssertionError("a frame came after every change: nothing was shown")
        assert fitted, "the bar was not fitted again until a frame came"
    finally:
        for p in peers:
            p.close()
        server.stop()
