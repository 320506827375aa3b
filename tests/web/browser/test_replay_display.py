"""A finished game replayed on the display from the café admin, in Chromium: it opens at the
first step, jumps to a round and to a station, keeps the companion player's ⚙ mark, and at
every step the log and the player cards agree (the whole game walked step by step)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live_server import Host, LiveServer, Peer, drain, play, seat_phones

from tests.web.browser.conftest import PHONE
from tests.web.browser.layout import PHONE_SIZES, check, settle, sweep

TV = {"viewport": {"width": 1920, "height": 1080}}

# The cards of the shown step against the log's newest line (empty when they agree).
AGREEMENT = """() => {
  const f = window.__display.frame();
  const ev = (f.history || []).at(-1);
  if (!ev) return [];
  const out = [];
  const card = ev.player && document.querySelector(`#seats .seat[data-seat="${ev.player}"]`);
  const newest = document.querySelector('#log li');
  if (newest && newest.dataset.type !== ev.type) out.push(`log shows ${newest.dataset.type}`);
  const status = card?.querySelector('.bid-status');
  const stats = card ? [...card.querySelectorAll('.stat')].map(s => s.textContent) : [];
  switch (ev.type) {
    case 'bid_placed': case 'sacrificed': case 'dice_decided':
      if (status && status.classList.contains('waiting'))
        out.push(`${ev.type} ${ev.player} but the card says ${status.textContent}`);
      break;
    case 'scored':
      if (card.querySelector('.seat-score').textContent !== String(ev.score))
        out.push(`${ev.player} scored to ${ev.score}, card shows `
          + card.querySelector('.seat-score').textContent);
      break;
    case 'hut':
      if (!stats[0].endsWith(` ${ev.huts}`)) out.push(`${ev.player} huts ${ev.huts}: ${stats[0]}`);
      break;
    case 'die':
      if (!stats[1].endsWith(` ${ev.dice}`)) out.push(`${ev.player} dice ${ev.dice}: ${stats[1]}`);
      break;
    case 'figure':
      if (!card.querySelector('.badge.figure')) out.push(`${ev.player} has no figure badge`);
      break;
    case 'old_man':
      if (!card.querySelector('.badge.oldman')) out.push(`${ev.player} has no old man badge`);
      break;
  }
  return out;
}"""


@pytest.fixture(scope="module")
def finished(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[LiveServer, int, str, tuple[str, str]]]:
    """A whole game of two people and a plain companion player, over: the server, the game,
    the companion's seat, and the first person's seat and token (what a review link carries)."""
    live = LiveServer(Path(tmp_path_factory.mktemp("data")), host_name="table.lan").start()
    try:
        phones = seat_phones(live, "1", ["Ana", "Ben"])
        display = Peer(f"{live.ws_base}/t/1/ws/display")
        host = Host(live, "1")
        host.hello()
        assert host.act("add_bot", level="plain")["type"] == "ok"
        assert host.act("start", dice="digital")["type"] == "ok"
        play(phones, [display], host, timeout=600)
        drain([display, host, *phones], 0.2)
        assert display.view["game"]["view"]["finished"]
        bot = next(s["id"] for s in display.view["seats"] if s["companion"])
        game_id = display.view["game"]["id"]
        for peer in [*phones, display, host]:
            peer.close()
        yield live, game_id, bot, (phones[0].seat, phones[0].token)
    finally:
        live.stop()


def _open(browser: Any, finished: Any) -> Any:
    live, game_id, *_ = finished
    page = browser.new_context(**TV).new_page()
    page.goto(f"{live.base}/admin/games/{game_id}/replay?token={live.admin_token()}")
    page.wait_for_function("window.__display?.frame()?.replay")
    return page


def _at(page: Any, step: int) -> None:
    page.wait_for_function(
        "n => window.__display?.frame()?.replay?.step === n"
        " && document.body.dataset.replayStep === String(n)",
        arg=step,
    )


def test_replay_opens_at_the_first_step_with_companion_marks(browser, finished, artifacts):
    _, _, bot, _ = finished
    page = _open(browser, finished)
    _at(page, 0)
    assert page.evaluate("window.__display.frame().game.view.round") == 0
    assert page.locator("#final-panel").is_hidden()
    marks = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('#seats .seat')].map("
        "s => [s.dataset.seat, s.querySelector('.companion-mark')?.textContent || '']))"
    )
    assert marks[bot] == "⚙"
    assert [m for s, m in marks.items() if s != bot] == ["", ""]
    assert check(page, "display") == []
    page.screenshot(path=str(artifacts / "replay-first-step.png"))


def test_replay_jumps_to_a_round_and_a_station(browser, finished, artifacts):
    page = _open(browser, finished)
    _at(page, 0)
    rounds = page.evaluate(
        "() => [...document.querySelectorAll('#replay-round option')].map("
        "o => [o.dataset.round || null, Number(o.value)])"
    )
    assert rounds[0] == [None, 0]
    assert [r for r, _ in rounds[1:]] == [str(n) for n in range(1, len(rounds))]
    assert len(rounds) >= 4
    step = dict(rounds)["3"]
    page.locator("#replay-round").select_option(str(step))
    _at(page, step)
    assert page.evaluate("window.__display.frame().game.view.round") == 3
    assert page.locator("#replay-round").input_value() == str(step)
    stations = page.evaluate(
        "() => [...document.querySelectorAll('#replay-station option[data-station]')].map("
        "o => [Number(o.dataset.station), Number(o.value)])"
    )
    assert stations and all(s > step for _, s in stations)
    assert [s for s, _ in stations] == sorted(s for s, _ in stations)
    station, at = stations[1] if len(stations) > 1 else stations[0]
    page.locator("#replay-station").select_option(str(at))
    _at(page, at)
    frame = page.evaluate("window.__display.frame()")
    named = frame["history"][-1].get("station") or frame["game"]["view"]["station"]
    assert named == station and frame["game"]["view"]["round"] == 3
    # The step bar's lists fit beside the title at both TV sizes.
    for width, height in ((1920, 1080), (1280, 720)):
        page.set_viewport_size({"width": width, "height": height})
        settle(page)  # the resize's render, and the frame after it that fits what was dropped
        assert check(page, "display") == []
        page.screenshot(path=str(artifacts / f"replay-round-3-{width}x{height}.png"))


def test_log_and_cards_agree_at_every_step_of_the_replay(browser, finished):
    page = _open(browser, finished)
    _at(page, 0)
    steps = int(page.evaluate("document.body.dataset.steps"))
    problems: list[str] = []
    kinds: set[str] = set()
    for step in range(steps):
        if step:
            page.keyboard.press("ArrowRight")
            _at(page, step)
        problems += [f"step {step}: {p}" for p in page.evaluate(AGREEMENT)]
        kinds.add(page.evaluate("(window.__display.frame().history || []).at(-1)?.type || ''"))
    assert problems == []
    # The walk met every kind of event the cards speak of.
    assert {"bid_placed", "sacrificed", "scored", "figure", "old_man"} <= kinds


def test_replay_language_stays_on_the_replay_page(browser, finished):
    page = _open(browser, finished)
    _at(page, 0)
    page.locator("#display-lang").select_option("de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    page.keyboard.press("ArrowRight")
    _at(page, 1)
    page.keyboard.press("ArrowRight")
    _at(page, 2)
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.locator("#table-title").inner_text() == "Tisch 1"


# Where the step bar (top, bottom) and the round's centre (top) are on the screen.
LANDED = """() => { const bar = document.getElementById('replay-bar').getBoundingClientRect();
  return {bar: [Math.round(bar.top), Math.round(bar.bottom)],
          centre: Math.round(document.querySelector('.col-center').getBoundingClientRect().top)};
}"""


def test_a_phone_opens_the_replay_in_its_language_laid_out_for_a_phone(
    browser, finished, artifacts
):
    """A phone's review links to a moment of the replay with the seat's token and the phone's
    language: on the phone the replay reads as a phone page (one column that scrolls, a
    phone's type and 44 px controls) in that language, landing on the moment under a step bar
    that stays at the top, through the rounds to the final scoring. It was the TV's layout
    shrunk to the phone's width, its text 6 px, in the table's language."""
    live, game_id, _, (seat, token) = finished
    page = browser.new_context(**PHONE, locale="en-GB").new_page()
    page.goto(f"{live.base}/t/1/games/{game_id}/replay?seat={seat}&token={token}&step=9&lang=de")
    _at(page, 9)
    assert page.evaluate("document.documentElement.lang") == "de"
    # It lands on the moment: the round's centre just under the step bar, which stays at the
    # top of the page as it scrolls (one tap from the next step).
    page.wait_for_function("window.scrollY > 0")
    landed = page.evaluate(LANDED)
    assert landed["bar"][0] == 0 and 0 <= landed["centre"] - landed["bar"][1] <= 40, landed
    rounds = page.evaluate(
        "() => [...document.querySelectorAll('#replay-round option[data-round]')].map("
        "o => Number(o.value))"
    )
    problems = sweep(page, "phone", "replay-step-9", PHONE_SIZES, shots=artifacts)
    # The page's own controls, as a thumb uses them: the next step, each round's start, and
    # each station of the round shown.
    page.locator("#replay-forward").tap()
    _at(page, 10)
    assert page.evaluate(LANDED)["bar"][0] == 0, "the step bar scrolled away"
    # Only the opening lands: a step never moves the page under the reader's thumb.
    page.evaluate("window.scrollTo(0, 0)")
    page.locator("#replay-back").tap()
    _at(page, 9)
    settle(page)  # a jump would come with the step's next animation frame
    assert page.evaluate("window.scrollY") == 0, "a step scrolled the page"
    problems += [f"step 10: {p}" for p in check(page, "phone")]
    for n, at in enumerate(rounds, start=1):
        page.locator("#replay-round").select_option(str(at))
        _at(page, at)
        problems += sweep(page, "phone", f"replay-round-{n}", PHONE_SIZES)
        if n == 2:
            stations = page.evaluate(
                "() => [...document.querySelectorAll('#replay-station option[data-station]')]"
                ".map(o => Number(o.value))"
            )
            for station in stations:
                page.locator("#replay-station").select_option(str(station))
                _at(page, station)
                settle(page)
                problems += [f"round 2, step {station}: {p}" for p in check(page, "phone")]
    # The end: the final scoring, one card a player, and the winner.
    page.locator("#replay-last").tap()
    steps = int(page.evaluate("document.body.dataset.steps"))
    _at(page, steps - 1)
    page.wait_for_function(
        "document.querySelector('[data-testid=final-scoring]')?.dataset.crowned === 'true'",
        timeout=60_000,
    )
    players = len(page.evaluate("window.__display.frame().seats"))
    assert page.locator("#final .final-card").count() == players
    assert page.locator("#final .final-card.winner").count() >= 1
    problems += sweep(page, "phone", "replay-final", PHONE_SIZES, shots=artifacts)
    # On its side the phone keeps its type; a TV whose browser counts 960 × 540 pixels keeps
    # the TV's layout (it never scrolls).
    problems += sweep(page, "phone", "replay-final-landscape", [(844, 390)], shots=artifacts)
    page.set_viewport_size({"width": 960, "height": 540})
    settle(page)
    tv = page.evaluate(
        "() => ({size: parseFloat(getComputedStyle(document.body).fontSize),"
        " scrolls: document.documentElement.scrollHeight > innerHeight + 1})"
    )
    assert tv["size"] == pytest.approx(0.013 * 960, abs=0.05) and not tv["scrolls"], tv
    assert page.evaluate("document.documentElement.lang") == "de"
    assert problems == []


def test_admin_leaderboard_marks_the_companion_and_leaves_it_out(browser, finished, artifacts):
    live, _, bot, _ = finished
    page = browser.new_context(**TV).new_page()
    page.goto(f"{live.base}/admin?token={live.admin_token()}")
    page.wait_for_selector("body[data-loaded='1']")
    rows = page.locator("#admin-leaderboard tr")
    if rows.count() < 3:  # the result is recorded by its own thread: reload until it is there
        page.wait_for_function(
            "() => fetch('/admin/api/leaderboard', {headers: {'X-Admin-Token':"
            " new URLSearchParams(location.search).get('token')}})"
            ".then(r => r.json()).then(b => b.players.length === 3)"
        )
        page.reload()
        page.wait_for_selector("body[data-loaded='1']")
    marks = page.evaluate(
        "() => [...document.querySelectorAll('#admin-leaderboard tr')].map(r => [r.dataset.name,"
        " r.dataset.companion, r.querySelector('.companion-mark')?.textContent || ''])"
    )
    companions = [m for m in marks if m[1] == "1"]
    assert len(marks) == 3 and len(companions) == 1 and companions[0][2].strip() == "⚙"
    assert {m[0] for m in marks if m[1] == "0"} == {"Ana", "Ben"}
    page.screenshot(path=str(artifacts / "admin-leaderboard-companion.png"), full_page=True)
    page.locator("#people-only").check()
    page.wait_for_function("document.querySelectorAll('#admin-leaderboard tr').length === 2")
    names = page.evaluate(
        "() => [...document.querySelectorAll('#admin-leaderboard tr')].map(r => r.dataset.name)"
    )
    assert sorted(names) == ["Ana", "Ben"]
    assert "people_only=1" in page.locator("#export-leaderboard").get_attribute("href")
    assert bot not in names
