"""The phone's own sound: silent unless its player turns it on, then the player's moments.

Two players on Debian's Chromium (390x844), a third over a websocket, a display at 1280x720,
a paced show ("test:2"). Ana leaves the sound as it comes (off): nothing plays and no
AudioContext is ever made (counted by wrapping the browser's constructor before the page
loads). Ben turns it on: the tap makes the AudioContext, the pad plays "your turn" when it
newly asks him something, and the display's moments (bids in, each station's result or tie)
on the same beats as the display. The choice survives a reload. The header with the toggle
fits both phone sizes (layout checker, screenshots in test-artifacts/pad-sound/).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from live_server import Host, LiveServer, Phone, policy
from playwright.sync_api import Page

from . import pads
from .conftest import ARTIFACTS, PHONE
from .layout import sweep

PACE = 2.0  # seconds a station's result stays up
TOGGLE = "[data-testid=pad-sound]"
PHONE_ONLY = {"your_turn", "sound_on"}  # the tunes only a phone plays

# Installed before a page's scripts run: counts the AudioContexts the page makes, and stamps
# each tune the page records in window.__sounds with the wall clock (shared by all pages).
HOOKS = """(() => {
  window.__audioContexts = 0;
  window.__soundTimes = [];
  let played = [];
  Object.defineProperty(window, '__sounds', {
    get: () => played,
    set: (v) => {
      for (let i = played.length; i < v.length; i += 1) window.__soundTimes.push(Date.now());
      played = v;
    },
  });
  const Real = window.AudioContext;
  if (!Real) return;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); window.__audioContexts += 1; }
  };
  window.webkitAudioContext = window.AudioContext;
})()"""


@pytest.fixture
def paced(tmp_path: Path):
    srv = LiveServer(tmp_path, host_name="table.lan", extra=["--pace", "normal"])
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def shots() -> Path:
    out = ARTIFACTS / "pad-sound"
    out.mkdir(parents=True, exist_ok=True)
    return out


def phone(browser, locale: str = "en-GB") -> Page:
    context = browser.new_context(**PHONE, locale=locale)
    context.add_init_script(HOOKS)
    return context.new_page()


def sounds(page: Page) -> list[str]:
    return page.evaluate("window.__sounds || []")


def state(page: Page) -> dict[str, Any]:
    return page.evaluate(
        """() => ({ ...window.__pad.sound(), made: window.__audioContexts,
                    pressed: document.querySelector('[data-testid=pad-sound]').ariaPressed,
                    label: document.querySelector('[data-testid=pad-sound]').innerText.trim(),
                    stored: localStorage.getItem('chocolatl.pad.sound') })"""
    )


def test_phone_sound_is_off_by_default_and_plays_the_players_moments_when_on(
    paced: LiveServer, browser
) -> None:
    url = paced.join_url("1")
    ana, ben = phone(browser), phone(browser)
    pads.join(ana, url, "Ana", "orange")
    pads.join(ben, url, "Ben", "sky")
    cleo = Phone(paced, "1", paced.join("1", "Cleo", "green"))
    cleo.hello()

    # Off by default, on every phone: no tune and no AudioContext.
    for page in (ana, ben):
        s = state(page)
        assert (s["on"], s["context"], s["made"], s["pressed"]) == (False, None, 0, "false"), s
        assert s["label"] == "Sound: off", s
    # Ben turns it on: the tap makes the AudioContext (browsers allow audio from a tap) and
    # a blip says so.
    ben.locator(TOGGLE).tap()
    ben.wait_for_function("window.__pad.sound().on")
    s = state(ben)
    assert (s["made"], s["pressed"], s["label"]) == (1, "true", "Sound: on"), s
    assert s["context"] in ("running", "suspended"), s  # headless may have no audio device
    assert sounds(ben) == ["sound_on"]

    host = Host(paced, "1")
    host.hello()
    assert host.act("set_pace", pace=f"test:{PACE}")["type"] == "ok"
    display_context = browser.new_context(viewport={"width": 1280, "height": 720})
    display_context.add_init_script(HOOKS)
    display = display_context.new_page()
    display.goto(f"{paced.base}/t/1/")
    display.wait_for_function("window.__display && window.__display.frame()")
    assert host.act("start", dice="digital")["type"] == "ok"

    # Asked to sacrifice: "your turn" at once, before anything is tapped.
    pads.wait_task(ben, "sacrifice")
    ben.wait_for_function("(window.__sounds || []).includes('your_turn')", timeout=5000)
    assert sounds(ben) == ["sound_on", "your_turn"]

    # Play the round: every phone answers what it is asked.
    asked_at: list[str] = []
    last_task = "sacrifice"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        task = pads.task(ben)
        if task != last_task and task not in ("", "none"):
            asked_at.append(task)
        last_task = task
        # Round 1's show is through: round 2 asks Ben to bid, or (a game that ended in round
        # 1, R6.3) the winner has been named on both screens.
        game = ben.evaluate("window.__pad.frame()?.game")
        if game["view"].get("round", 0) >= 2 and task == "bid":
            break
        if game["status"] != "playing" and "winner" in sounds(display) and "winner" in sounds(ben):
            break
        pads.act(ana)
        pads.act(ben)
        while cleo.poll(0) is not None:
            pass
        pending = cleo.view["you"]["pending"] if cleo.view else []
        if cleo.ready() and pending:
            cleo.command(policy(cleo.view, cleo.seat, pending[0]))
    else:
        raise AssertionError(f"round 1's show never ended:\n{pads.describe(ben)}")
    cleo.close()

    ben_tunes, shown = sounds(ben), sounds(display)
    # Ana never turned the sound on: nothing played, no AudioContext was made.
    assert sounds(ana) == [] and state(ana)["made"] == 0 and state(ana)["context"] is None
    # Every new question was announced on Ben's phone (sacrifice, bid, any dice, the next bid).
    assert asked_at, "Ben was never asked anything after the sacrifice"
    assert ben_tunes.count("your_turn") >= 1 + len(asked_at), (ben_tunes, asked_at)
    # The show's moments on Ben's phone are the display's, in the same order ...
    moments = [(i, x) for i, x in enumerate(ben_tunes) if x not in PHONE_ONLY]
    assert [x for _, x in moments] == shown, (ben_tunes, shown)
    assert "bids_in" in shown and ({"reveal", "tie"} & set(shown)), shown
    # ... and on the same beat: each within half a second of the display's (the phone looks
    # at the beat every 0.25 s, the display every 0.1 s; beats are 2 s apart).
    ben_times, shown_times = (p.evaluate("window.__soundTimes") for p in (ben, display))
    for k, (i, tune) in enumerate(moments):
        gap = abs(ben_times[i] - shown_times[k]) / 1000
        assert gap < 0.5, (tune, gap, ben_tunes, shown)

    # The header with the toggle fits both phone sizes, on and off.
    problems = sweep(ben, "phone", "after-round-1-sound-on", shots=shots())
    problems += sweep(ana, "phone", "after-round-1-sound-off", shots=shots())
    assert not problems, problems

    # Remembered per phone: after a reload Ben's is still on, Ana's still off.
    for page, on in ((ben, True), (ana, False)):
        page.reload()
        page.wait_for_selector("#screen-game:not([hidden]), #screen-final:not([hidden])")
        s = state(page)
        assert (s["on"], s["pressed"]) == (on, "true" if on else "false"), s
    assert state(ana)["made"] == 0
    # Turned off again: remembered too, and no tune plays any more.
    ben.locator(TOGGLE).tap()
    ben.wait_for_function("!window.__pad.sound().on")
    assert '"on":false' in state(ben)["stored"]


@pytest.mark.parametrize("lang", ["en", "de", "nl", "it"])
def test_sound_toggle_is_labelled_and_fits_the_join_and_lobby_screens(
    server: LiveServer, browser, lang: str
) -> None:
    page = phone(browser, locale=lang)
    page.goto(server.join_url())
    page.wait_for_selector("#screen-join:not([hidden])")
    toggle = page.locator(TOGGLE)
    labels = {"en": "Sound: off", "de": "Ton: aus", "nl": "Geluid: uit", "it": "Audio: no"}
    assert toggle.inner_text().strip() == labels[lang]
    box = toggle.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44, box
    problems = sweep(page, "phone", f"join-{lang}", shots=shots())
    page.fill("input[name=name]", "Bartholomew-Maximilian")
    page.click("label.colour-option:has(input[value=orange])")
    page.click("#join-form button[type=submit]")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    toggle.tap()
    page.wait_for_function("window.__pad.sound().on")
    problems += sweep(page, "phone", f"lobby-on-{lang}", shots=shots())
    assert not problems, problems
