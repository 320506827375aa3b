"""A finished game's replay played on its own, in Chromium, as the live show put it up: the
page is sampled every 50 ms by a recorder in the page while it plays at the test pace
"test:1.5" (DESIGN.md "The show").

- Steps advance without a click; every beat of each step comes up in order (each station's
  result, its whole ranking, in the display's spotlight; how long is the page's beat clock,
  tested on a test clock), markers walk and the reveal sounds play, as live.
- Pause (the space bar) stops the steps and holds the beat that is up; Play goes on.
- A step by hand pauses the play; the end of the game stops it, after the final lines, and
  the game's story comes up once the winner's moment has been, as live.
- The step bar with Play and the pace fits at 1920x1080 and 1280x720 mid-play.
"""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from tests.web.browser.layout import check, settle
from tests.web.browser.test_replay_display import _at, finished  # noqa: F401

from .conftest import ARTIFACTS

PACE = 1.5  # seconds a station's result stays up ("test:1.5")
TV = {"viewport": {"width": 1920, "height": 1080}}

# Every 50 ms: the step, whether it plays, and what the display's spotlight shows.
RECORD = """() => {
  window.__rec = [];
  setInterval(() => {
    const spot = document.getElementById('spotlight');
    const shown = Boolean(spot && !spot.hidden);
    const ranking = shown ? spot.querySelector('.ranking[data-station]') : null;
    const show = window.__display.frame()?.show;
    window.__rec.push({
      t: performance.now() / 1000,
      step: Number(document.body.dataset.replayStep),
      playing: document.body.dataset.replayPlaying === '1',
      kind: shown ? spot.dataset.kind : null,
      station: ranking ? Number(ranking.dataset.station) : null,
      rows: ranking ? ranking.querySelectorAll('tbody tr').length : 0,
      show: show ? show.step : null,
      pace: show ? show.pace : null,
      walking: document.querySelectorAll('.marker.walking').length,
    });
  }, 50);
}"""

NOW = "() => performance.now() / 1000"


def _open(browser: Any, finished: Any) -> Any:  # noqa: F811 - the imported fixture
    live, game_id, *_ = finished
    page = browser.new_context(**TV).new_page()
    token = live.admin_token()
    page.goto(f"{live.base}/admin/games/{game_id}/replay?token={token}&pace=test:{PACE}")
    page.wait_for_function("window.__display?.frame()?.replay")
    _at(page, 0)
    page.evaluate(RECORD)
    return page


def _round(page: Any, n: int) -> int:
    step = page.evaluate(
        "n => Number(document.querySelector(`#replay-round option[data-round='${n}']`).value)",
        n,
    )
    page.locator("#replay-round").select_option(str(step))
    _at(page, step)
    return int(step)


def _spells(rec: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each station's result as it stood in the spotlight: from the first sample that showed
    it to the last."""
    spells: list[dict[str, Any]] = []
    for s in rec:
        key = (s["show"], s["station"]) if s["kind"] == "station" else None
        if key is None:
            continue
        if spells and spells[-1]["key"] == key and s["t"] - spells[-1]["end"] < 0.3:
            spells[-1]["end"] = s["t"]
            spells[-1]["rows"] = min(spells[-1]["rows"], s["rows"])
        else:
            spells.append({"key": key, "start": s["t"], "end": s["t"], "rows": s["rows"]})
    return spells


def _wait_span(page: Any, since: float, seconds: float) -> list[dict[str, Any]]:
    """The samples from ``since`` on, once they span ``seconds``."""
    page.wait_for_function(
        "([since, span]) => window.__rec.some(s => s.t >= since + span)",
        arg=[since, seconds],
        timeout=60_000,
    )
    return [s for s in page.evaluate("window.__rec") if s["t"] >= since]


def test_replay_plays_with_the_live_pace_pauses_and_goes_on(browser, finished) -> None:  # noqa: F811
    out = ARTIFACTS / "replay-play"
    out.mkdir(parents=True, exist_ok=True)
    page = _open(browser, finished)
    start = _round(page, 2)
    assert page.evaluate("document.body.dataset.replayPlaying") == "0"
    assert page.locator("#replay-pace").input_value() == f"test:{PACE}"
    began = page.evaluate(NOW)
    page.locator("#replay-play").click()
    # Played on its own until two stations' results have come and gone.
    page.wait_for_function(
        "since => window.__rec.filter(s => s.t >= since && s.kind === 'station')"
        ".map(s => s.show + ':' + s.station).filter((k, i, a) => a.indexOf(k) === i).length >= 3",
        arg=began,
        timeout=120_000,
    )
    rec = [s for s in page.evaluate("window.__rec") if s["t"] >= began]
    # From the sample that first shows it playing (the click itself can take longer than a
    # few samples on a loaded machine), it plays on by itself.
    playing = [i for i, s in enumerate(rec) if s["playing"]]
    assert playing, "the replay never played"
    assert all(s["playing"] for s in rec[playing[0] :]), "the replay stopped by itself"
    steps = [s["step"] for s in rec]
    assert steps == sorted(steps) and len(set(steps)) >= 4 and steps[0] >= start
    shows = [s for s in rec if s["show"] is not None]
    assert shows and {s["pace"] for s in shows} == {f"test:{PACE}"}
    spells = _spells(rec)
    done = spells[:-1]  # the last one may still be up
    assert len(done) >= 2
    for spell in done:
        assert spell["rows"] >= 3, spell  # the station's whole ranking (R3.3: every row)
    # Every beat of every step played came up, in order and none skipped: the display's own
    # record of the beats it drew. How long each is up is the page's clock, checked on a test
    # clock (tests/js/beat_clock.test.mjs) with the frames' beats at this pace (above); the
    # 50 ms sampler's spells are no measure of it on a loaded machine (it once saw a 1.5 s
    # result in one sample).
    beats = [b for b in page.evaluate("window.__display.beatLog()") if b["at"] >= began * 1000]
    played: dict[int, list[int]] = {}
    for b in beats:
        if b["index"] >= 0:
            played.setdefault(b["step"], []).append(b["index"])
    for step, indices in played.items():
        assert indices == list(range(indices[0], indices[0] + len(indices))), (step, beats)
    drawn = {(b["step"], b["station"]) for b in beats if b["kind"] == "station"}
    assert {spell["key"] for spell in done} <= drawn, (done, beats)
    assert any(s["walking"] for s in rec), "markers walk to their new boxes"
    sounds = page.evaluate("window.__sounds || []")
    # The reveal sounds as live: the cards turning, then each further station of the step
    # (the stations watched may all come from one step: one "bids in").
    assert sounds.count("bids_in") >= 1 and set(sounds) <= {"bids_in", "reveal", "tie"}, sounds
    assert len(sounds) >= len(done), (sounds, done)

    # Mid-play, at both TV sizes: the step bar and the spotlight fit.
    for width, height in ((1920, 1080), (1280, 720)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(
            "() => !document.getElementById('spotlight').hidden"
            " && document.getElementById('spotlight').dataset.kind === 'station'",
            timeout=60_000,
        )
        settle(page)
        assert check(page, "display") == []
        page.screenshot(path=str(out / f"replay-playing-{width}x{height}.png"))
    # The bar's words in every language fit the smaller TV too (the page's own language).
    for lang in ("de", "nl", "it", "en"):
        page.locator("#display-lang").select_option(lang)
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        settle(page)
        assert page.locator("#replay-play").inner_text() != "", lang
        assert check(page, "display") == [], lang
        if lang != "en":
            page.screenshot(path=str(out / f"replay-playing-1280x720-{lang}.png"))
    page.set_viewport_size({"width": 1920, "height": 1080})

    # Pause with the space bar while a station's result is up: nothing moves on, and the
    # result stays in the spotlight well past its pace. On a busy machine the key may land
    # after the station's beat: whatever it froze stays frozen, and the play goes on to try
    # again at the next station.
    for _attempt in range(3):
        page.wait_for_function(
            "() => { const s = window.__rec.at(-1); return s.kind === 'station'"
            " && window.__display?.beat()?.into < 0.5; }",
            timeout=60_000,
        )
        page.keyboard.press(" ")
        page.wait_for_function("document.body.dataset.replayPlaying === '0'")
        page.wait_for_function("() => window.__display?.frame()?.show?.paused === true")
        paused_at = page.evaluate(NOW)
        held = _wait_span(page, paused_at, 3 * PACE)
        assert len({s["step"] for s in held}) == 1, held
        assert len({(s["kind"], s["station"]) for s in held}) == 1, held
        if held[0]["kind"] in ("station", "decision"):
            break
        page.keyboard.press(" ")
        page.wait_for_function("document.body.dataset.replayPlaying === '1'")
    else:
        raise AssertionError(f"three pauses at a station froze no station's result: {held[0]}")
    page.screenshot(path=str(out / "replay-paused.png"))

    # Play again: the held result runs out and the steps go on without a click.
    step = held[-1]["step"]
    page.locator("#replay-play").click()
    page.wait_for_function(
        "n => Number(document.body.dataset.replayStep) > n + 1", arg=step, timeout=60_000
    )
    assert page.evaluate("document.body.dataset.replayPlaying") == "1"

    # A step by hand pauses the play (a play step already on its way may come first: the
    # step by hand is the one the display settles on).
    before = page.evaluate("document.body.dataset.replayStep")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.body.dataset.replayPlaying === '0'")
    page.wait_for_function(
        "b => document.body.dataset.replayStep !== b"
        " && window.__display?.frame()?.replay.step === Number(document.body.dataset.replayStep)",
        arg=before,
    )
    stepped = page.evaluate("() => window.__display.frame().replay.step")
    _at(page, stepped)
    after = _wait_span(page, page.evaluate(NOW), 2 * PACE)
    assert {s["step"] for s in after} == {stepped}


def test_replay_play_stops_at_the_end_after_the_final_lines(browser, finished) -> None:  # noqa: F811
    page = _open(browser, finished)
    steps = int(page.evaluate("document.body.dataset.steps"))
    rounds = page.evaluate("document.querySelectorAll('#replay-round option[data-round]').length")
    _round(page, rounds)
    page.keyboard.press(" ")
    page.wait_for_function("document.body.dataset.replayPlaying === '1'")
    page.wait_for_function(
        "n => document.body.dataset.replayStep === String(n)"
        " && document.body.dataset.replayPlaying === '0'",
        arg=steps - 1,
        timeout=180_000,
    )
    # The final scoring came line by line and the winner last, each on its beat (R7).
    kinds = [b["kind"] for b in page.evaluate("window.__display.beatLog()") if b["kind"]]
    finals = [k for k in kinds if k in ("final_line", "winner")]
    players = len(page.evaluate("window.__display.frame().seats"))
    assert finals == ["final_line"] * players + ["winner"]
    # Stopped: the last step stays.
    ended = _wait_span(page, page.evaluate(NOW), 2 * PACE)
    assert {s["step"] for s in ended} == {steps - 1}
    assert not any(s["playing"] for s in ended)
    # Then the game's story comes up, once the winner's moment has been, as on the live
    # display (show.STORY_AFTER: 20 s after the winner's beat began, whatever the pace).
    assert page.locator("#story-panel").is_hidden()
    page.wait_for_selector("#story-panel:not([hidden])", timeout=60_000)
    assert not page.locator("#final-panel").is_visible()  # the story covers the screen
    # Play at the end starts from the beginning (the story goes with the end).
    page.locator("#replay-play").click()
    page.wait_for_selector("#story-panel", state="hidden")
    page.wait_for_function(
        "() => { const n = Number(document.body.dataset.replayStep); return n > 0 && n < 10; }",
        timeout=60_000,
    )
    page.keyboard.press(" ")
    page.wait_for_function("document.body.dataset.replayPlaying === '0'")


# What the checks read: the page's step (shown, asked for), whether it plays, the server's
# step in the display's last frame, its show block, the language and the step bar's words.
STATE = """() => {
  const f = window.__display?.frame();
  return {
    shown: Number(document.body.dataset.replayStep),
    playing: document.body.dataset.replayPlaying === '1',
    server: f?.replay?.step ?? null,
    hold: f?.show ? f.show.hold - f.show.elapsed : 0,
    lang: document.documentElement.lang,
    label: document.getElementById('replay-step').textContent,
  };
}"""
SIZES = [(1280, 720), (1920, 1080), (390, 844), (360, 740), (844, 390)]
# Held in a hand, the page is a phone's (display.css): its step bar stays at the top.
HANDHELD = "() => getComputedStyle(document.getElementById('replay-bar')).position === 'sticky'"


def test_replay_controls_pressed_in_any_order(browser, finished) -> None:  # noqa: F811
    """The replay's controls as people press them, in any order and at any moment: steps,
    the ends, a round or a station from the lists, play and pause, the pace, the language,
    and the screen turned or swapped (a TV, a phone upright or on its side). After every
    press: a replay that is not playing shows the step it was asked for and stays there
    (nothing plays on by itself), with the bar saying so; one that plays moves on within its
    step's hold, or stops at the end; the language is the one chosen; and the page passes the
    layout checker as the screen it is on (a phone's page where held in a hand)."""
    rng = random.Random(7)
    page = _open(browser, finished)
    steps = int(page.evaluate("document.body.dataset.steps"))
    lang = page.evaluate("document.documentElement.lang")
    problems: list[str] = []
    log: list[str] = []

    def press(what: str, shown: int) -> int | None:
        """Press ``what`` on a page showing step ``shown``; returns the step asked for, where
        the press asks for one."""
        nonlocal lang
        log.append(what)
        ends = {"first": 0, "last": steps - 1}
        if what in ("first", "back", "forward", "last", "play"):
            page.locator(f"#replay-{what}").click()
            moved = {"back": max(0, shown - 1), "forward": min(steps - 1, shown + 1)}
            return {**ends, **moved}.get(what)
        if what == "space":
            page.keyboard.press(" ")
        elif what in ("round", "station"):
            values = page.evaluate(
                "id => [...document.querySelectorAll(`#${id} option:not([disabled])`)]"
                ".map(o => o.value)",
                f"replay-{what}",
            )
            if not values:
                return shown
            value = rng.choice(values)
            log[-1] = f"{what} at {value}"
            page.locator(f"#replay-{what}").select_option(value)
            return int(value)
        elif what == "pace":
            page.locator("#replay-pace").select_option(rng.choice(["quick", f"test:{PACE}"]))
        elif what == "lang":
            lang = rng.choice(["en", "de", "nl", "it"])
            page.locator("#display-lang").select_option(lang)
        elif what == "size":
            w, hgt = rng.choice(SIZES)
            log[-1] = f"size {w}x{hgt}"
            page.set_viewport_size({"width": w, "height": hgt})
        return None if what == "space" else shown

    def wait(condition: str, arg: Any, seconds: float, what: str) -> None:
        try:
            page.wait_for_function(condition, arg=arg, timeout=int(seconds * 1000))
        except PlaywrightError as exc:
            raise AssertionError(f"{what}: {page.evaluate(STATE)}\n{log}") from exc

    state = page.evaluate(STATE)
    for n in range(40):
        what = rng.choice(
            ["forward"] * 4
            + ["back", "first", "last", "play", "play", "space", "round", "station"]
            + ["pace", "lang", "size"]
        )
        asked = press(what, state["shown"])
        where = f"press {n} ({', '.join(log[-4:])})"
        target = page.evaluate("window.__replay.target()")
        if asked is not None and not state["playing"] and target != asked:
            problems.append(f"{where}: asked for step {target}, the press means {asked}")
        if page.evaluate("document.body.dataset.replayPlaying") != "1":
            # Not playing: the step asked for comes, on the page and on the server.
            wait(
                "n => { const f = window.__display?.frame();"
                " return Number(document.body.dataset.replayStep) === n"
                " && f?.replay?.step === n; }",
                target,
                10,
                f"{where}: never showed step {target}",
            )
        state = page.evaluate(STATE)
        if state["playing"]:
            # It moves on within the step's hold (or stops at the end).
            wait(
                "start => { const s = document.body.dataset;"
                " return s.replayPlaying !== '1' || Number(s.replayStep) !== start; }",
                state["shown"],
                max(0.0, state["hold"]) + 8,
                f"{where}: playing, but stuck",
            )
            if rng.random() < 0.6:
                press("space", state["shown"])  # pause it, to look
        wait(
            "() => { const s = document.body.dataset; const f = window.__display?.frame();"
            " return s.replayPlaying === '1' || (window.__replay.asking() === 0"
            " && f?.replay?.step === Number(s.replayStep)); }",
            None,
            10,
            f"{where}: the page and the server disagree",
        )
        state = page.evaluate(STATE)
        if not state["playing"]:
            # Stopped or paused: it stays on its step, and the bar says which.
            page.wait_for_timeout(300)
            again = page.evaluate(STATE)
            if (again["shown"], again["server"]) != (state["shown"], state["server"]):
                problems.append(f"{where}: moved on its own from {state} to {again}")
            if str(state["shown"]) not in state["label"]:
                problems.append(f"{where}: the bar says {state['label']!r} at {state['shown']}")
        if state["lang"] != lang:
            problems.append(f"{where}: the page speaks {state['lang']}, chosen {lang}")
        settle(page)
        kind = "phone" if page.evaluate(HANDHELD) else "display"
        problems += [f"{where} as a {kind}: {p}" for p in check(page, kind)]
        state = page.evaluate(STATE)
    assert problems == [], "\n".join(problems[:20])
