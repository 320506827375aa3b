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

# Installed before a page's scripts run: counts the AudioContexts the page makes, keeps the
# states the last one went through, and notes the show's beat ("step:beat") the page was on
# when it recorded each tune in window.__sounds.
HOOKS = """(() => {
  window.__audioContexts = 0;
  window.__soundBeats = [];
  let played = [];
  Object.defineProperty(window, '__sounds', {
    get: () => played,
    set: (v) => {
      const beat = (window.__pad || window.__display)?.beatKey?.() ?? null;
      for (let i = played.length; i < v.length; i += 1) window.__soundBeats.push(beat);
      played = v;
    },
  });
  const Real = window.AudioContext;
  if (!Real) return;
  window.AudioContext = class extends Real {
    constructor(...args) {
      super(...args);
      window.__audioContexts += 1;
      window.__audio = this;
      window.__audioStates = [this.state];
      this.addEventListener('statechange', () => window.__audioStates.push(this.state));
    }
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
                    label: document.querySelector('[data-testid=pad-sound]').ariaLabel,
                    note: document.querySelector('[data-testid=sound-note]').hidden ? null
                      : document.querySelector('[data-testid=sound-note]').innerText.trim(),
                    stored: localStorage.getItem('chocolatl.pad.sound') })"""
    )


def drive(phone: Phone) -> None:
    """A player over a websocket answers what it is asked (plainly, see ``policy``)."""
    while phone.poll(0) is not None:
        pass
    pending = phone.view["you"]["pending"] if phone.view else []
    if phone.ready() and pending:
        phone.command(policy(phone.view, phone.seat, pending[0]))


def round_of(page: Page) -> int:
    return page.evaluate("window.__pad.frame()?.game?.view?.round || 0")


def over(page: Page) -> bool:
    return page.evaluate("(window.__pad.frame()?.game?.status || 'playing') !== 'playing'")


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
        assert (s["label"], s["note"]) == ("Sound on this phone", None), s
    # Ben turns it on: the tap makes the AudioContext (browsers allow audio from a tap) and
    # a blip and a line say so.
    ben.locator(TOGGLE).tap()
    ben.wait_for_function("window.__pad?.sound().on")
    s = state(ben)
    assert (s["made"], s["pressed"]) == (1, "true"), s
    assert s["note"] == "Sound on: your turn, the reveal, the winner", s
    assert s["context"] in ("running", "suspended"), s  # headless may have no audio device
    assert sounds(ben) == ["sound_on"]

    host = Host(paced, "1")
    host.hello()
    assert host.act("set_pace", pace=f"test:{PACE}")["type"] == "ok"
    display_context = browser.new_context(viewport={"width": 1280, "height": 720})
    display_context.add_init_script(HOOKS)
    display = display_context.new_page()
    display.goto(f"{paced.base}/t/1/")
    display.wait_for_function("window.__display?.frame()")
    assert host.act("start", dice="digital")["type"] == "ok"

    # Asked to sacrifice: "your turn" at once, before anything is tapped. Once everyone has
    # sacrificed, asked to bid: "your turn" again (no show in between: sacrifices stay hidden).
    pads.wait_task(ben, "sacrifice")
    ben.wait_for_function("(window.__sounds || []).includes('your_turn')", timeout=5000)
    assert sounds(ben) == ["sound_on", "your_turn"]
    pads.wait_task(ana, "sacrifice")
    asked = [pads.act(ben), pads.act(ana)]
    assert asked == ["sacrifice", "sacrifice"]
    asked.pop()  # Ana's
    deadline = time.monotonic() + 30
    while pads.task(ben) != "bid" and time.monotonic() < deadline:
        drive(cleo)
        time.sleep(0.05)
    pads.wait_task(ben, "bid", timeout=1000)
    ben.wait_for_function("window.__sounds.filter((x) => x === 'your_turn').length === 2")
    assert sounds(ben) == ["sound_on", "your_turn", "your_turn"]

    # Play on: every phone answers what it is asked.
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        # Round 1's show is through once round 2 asks Ben to bid (the bid waits for the show),
        # or, in a game that ended in round 1 (R6.3), once both screens named the winner.
        if round_of(ben) >= 2 and pads.task(ben) == "bid":
            break
        if over(ben) and "winner" in sounds(display) and "winner" in sounds(ben):
            break
        tapped = pads.act(ana)
        did = pads.act(ben)
        if did:
            asked.append(did)
            if did == "bid" and round_of(ben) >= 2:
                break  # the show ended between the look above and the taps
        if not (tapped or did):
            # Nothing to tap: wait for the table to move (a frame on Cleo's socket), at most
            # 0.1 s (a beat's end moves the pages without one). Looking again at once kept
            # three processes busy reading unchanged pages.
            cleo.poll(0.1)
        drive(cleo)
    else:
        raise AssertionError(
            f"round 1's show never ended (round {round_of(ben)}; Ben heard {sounds(ben)}, "
            f"the display {sounds(display)}):\n{pads.describe(ben)}"
        )
    cleo.close()

    ben_tunes, shown = sounds(ben), sounds(display)
    # Ana never turned the sound on: nothing played, no AudioContext was made.
    assert sounds(ana) == [] and state(ana)["made"] == 0 and state(ana)["context"] is None
    # Each question Ben answered was announced once (a round-2 bid may be asked, not answered).
    assert asked[:2] == ["sacrifice", "bid"], asked
    assert len(asked) <= ben_tunes.count("your_turn") <= len(asked) + 1, (ben_tunes, asked)
    # The show's moments on Ben's phone are the display's, in the same order ...
    moments = [(i, x) for i, x in enumerate(ben_tunes) if x not in PHONE_ONLY]
    assert [x for _, x in moments] == shown, (ben_tunes, shown)
    assert "bids_in" in shown and ({"reveal", "tie"} & set(shown)), shown
    # ... and on the same beat: each played while the phone was on the beat the display
    # played it on (both pages follow the server's beats; no clock is compared).
    ben_beats, shown_beats = (p.evaluate("window.__soundBeats") for p in (ben, display))
    assert None not in shown_beats, shown_beats
    assert [ben_beats[i] for i, _ in moments] == shown_beats, (ben_beats, shown_beats, shown)

    # Between tunes the audio sleeps (a running context keeps the audio output busy: 2 % of a
    # core all game long): once the last tone is over, suspended; the next tune woke it again.
    for page in (ben, display):
        page.wait_for_function("window.__audio?.state !== 'running'", timeout=5000)
        states = page.evaluate("window.__audioStates")
        if "running" in states:  # (a machine without an audio device never runs it)
            assert states.count("running") >= 2 and states[-1] == "suspended", states

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
    ben.wait_for_function("window.__pad && !window.__pad.sound().on")
    s = state(ben)
    assert '"on":false' in s["stored"] and s["note"] == "Sound off on this phone", s


LABELS = {
    "en": ("Sound on this phone", "Sound on: your turn, the reveal, the winner"),
    "de": ("Ton auf diesem Handy", "Ton an: du bist dran, die Aufdeckung, der Sieg"),
    "nl": ("Geluid op deze telefoon", "Geluid aan: jouw beurt, het omdraaien, de winnaar"),
    "it": ("Audio su questo telefono", "Audio attivo: tocca a te, la rivelazione, il vincitore"),
}


@pytest.mark.parametrize("lang", sorted(LABELS))
def test_sound_toggle_is_labelled_and_fits_the_join_and_lobby_screens(
    shared_server: LiveServer, table: str, browser, lang: str
) -> None:
    page = phone(browser, locale=lang)
    page.goto(shared_server.join_url(table))
    page.wait_for_selector("#screen-join:not([hidden])")
    toggle = page.locator(TOGGLE)
    label, said = LABELS[lang]
    assert (toggle.get_attribute("aria-label"), toggle.get_attribute("title")) == (label, label)
    box = toggle.bounding_box()
    assert box and box["width"] >= 44 and box["height"] >= 44, box
    problems = sweep(page, "phone", f"join-{lang}", shots=shots())
    # A long name beside the toggle and the language choice, the toggle just turned on (its
    # line showing): nothing scrolls sideways or gets too small.
    page.fill("input[name=name]", "Bartholomew-Maximilian")
    page.click("label.colour-option:has(input[value=orange])")
    page.click("#join-form button[type=submit]")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    toggle.tap()
    page.wait_for_function("window.__pad?.sound().on")
    assert page.locator("[data-testid=sound-note]").inner_text().strip() == said
    problems += sweep(page, "phone", f"lobby-on-{lang}", shots=shots())
    assert not problems, problems
