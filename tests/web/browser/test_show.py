"""The show in the pages: a display and a phone sampled through a round's reveal.

Debian's Chromium shows the display (1280x720) and one player's phone (390x844); two more
players answer over websockets. Every ~0.5 s both pages are read (and photographed into
test-artifacts/show/): each station's result comes up in the display's spotlight in its turn,
with every bid and every tie's reason; the phone never offers the next bid while the
display still shows a result; the display plays its sounds at the beats.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from live_server import Host, LiveServer, Phone, policy

from . import pads
from .conftest import ARTIFACTS, PHONE

PACE = 3.0  # seconds a station's result stays up (the test pace "test:3")
SAMPLE = 0.5


@pytest.fixture
def paced(tmp_path: Path):
    srv = LiveServer(tmp_path, host_name="table.lan", extra=["--pace", "normal"])
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


READ_DISPLAY = r"""() => {
  const spot = document.getElementById('spotlight');
  const shown = spot && !spot.hidden;
  const ranking = shown ? spot.querySelector('.ranking[data-station]') : null;
  return {
    shown,
    kind: shown ? spot.dataset.kind : null,
    station: ranking ? Number(ranking.dataset.station) : null,
    rows: ranking ? ranking.querySelectorAll('tbody tr').length : 0,
    ties: ranking ? ranking.querySelectorAll('.ties li').length : 0,
    countdown: document.getElementById('show-countdown')?.hidden === false,
    round: window.__display.frame()?.game?.view?.round || 0,
    label: Number((document.getElementById('round')?.textContent.match(/\d+/) || [0])[0]),
    sounds: window.__sounds || [],
  };
}"""


def test_display_and_phone_keep_the_beat_through_a_reveal(paced: LiveServer, browser) -> None:
    out = ARTIFACTS / "show"
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.png"):
        old.unlink()
    phone_page = browser.new_context(**PHONE).new_page()
    pads.join(phone_page, paced.join_url("1"), "Ana", "orange")
    phones = []
    for name, colour in (("Ben", "sky"), ("Cleo", "green")):
        seat = paced.join("1", name, colour)
        phone = Phone(paced, "1", seat)
        phone.hello()
        phones.append(phone)
    host = Host(paced, "1")
    host.hello()
    assert host.act("set_pace", pace=f"test:{PACE}")["type"] == "ok"
    display = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    display.goto(f"{paced.base}/t/1/")
    # The page binds its test handle after loading its language (an await): wait for it.
    display.wait_for_function("() => window.__display?.beatLog")
    assert host.act("start", dice="digital")["type"] == "ok"

    samples: list[tuple[float, dict[str, Any], str]] = []
    waits: list[list[Any]] = []  # the phone's "waiting for" line, and its "you next" headline
    deadline = time.monotonic() + 240
    next_sample = 0.0
    n = 0
    shot = None
    while time.monotonic() < deadline:
        tapped = pads.act(phone_page)
        if not tapped:
            # Nothing to tap: wait for the table to move (a frame on a socket), at most until
            # the next sample. Looking again at once kept three processes busy for nothing.
            phones[0].poll(max(0.0, min(0.1, next_sample - time.monotonic())))
        for p in phones:
            while p.poll(0) is not None:
                pass
            pending = p.view["you"]["pending"] if p.view else []
            if p.ready() and pending:
                p.command(policy(p.view, p.seat, pending[0]))
        now = time.monotonic()
        if now >= next_sample:
            next_sample = now + SAMPLE
            seen = display.evaluate(READ_DISPLAY)
            task = pads.task(phone_page)
            samples.append((now, seen, task))
            waits.append(
                phone_page.evaluate(
                    "() => [document.querySelector('[data-testid=waiting-for]')?.textContent"
                    " || '', document.querySelector('[data-testid=you-next]') !== null]"
                )
            )
            # A picture of both screens whenever what they show changed (a beat, a question).
            moment = (seen["round"], seen["kind"], seen["station"], seen["countdown"], task)
            if moment != shot:
                shot, n = moment, n + 1
                display.screenshot(path=str(out / f"{n:03d}-display.png"))
                phone_page.screenshot(path=str(out / f"{n:03d}-phone.png"))
            # Two rounds watched: the first round's reveal and its summary are through.
            if seen["round"] >= 3 or (seen["round"] == 2 and task == "bid" and not seen["shown"]):
                break
    for p in phones:
        p.close()

    stations = [s for _, s, _ in samples if s["kind"] == "station"]
    assert stations, "the display never showed a station's result"
    # The title's round is the round of the result in the spotlight: stations come in order
    # within a round, and the next round's number never shows over the last one's results.
    order = [(s["label"], s["station"]) for s in stations]
    assert order == sorted(order), order
    # Every bid and every tie of the station is on screen (3 players: 3 rows).
    assert all(s["rows"] == 3 for s in stations), stations
    assert all(s["countdown"] for s in stations)
    # Every beat of every step came up on the display, in order and none skipped: the
    # display's own record of the beats it drew (the step's beats, 0, 1, 2 ...). How long each
    # is up is the page's clock (tests/js/beat_clock.test.mjs, on a test clock) and the
    # server's hold (tests/table/test_stage_holds.py): no wall-clock gap is compared here.
    beats = display.evaluate("window.__display.beatLog()")
    steps: dict[int, list[int]] = {}
    for b in beats:
        if b["index"] >= 0:
            steps.setdefault(b["step"], []).append(b["index"])
    for step, indices in steps.items():
        assert indices == list(range(indices[0], indices[0] + len(indices))), (step, beats)
    shown = [b for b in beats if b["kind"] == "station"]
    assert len(shown) >= 4 and len({(b["step"], b["index"]) for b in shown}) == len(shown), beats
    # The phone asks nothing (no bid, dice, tie's decision or sacrifice) while the display
    # shows a result (two samples in a row less than a second apart: the two pages' own
    # timers may differ by a tick).
    asks = {"sacrifice", "bid", "dice", "city", "pyramid"}
    for (t1, a, ta), (t2, b, tb) in zip(samples, samples[1:], strict=False):
        if t2 - t1 < 1.0:
            assert not (a["shown"] and b["shown"] and ta in asks and tb in asks), (a, b, ta)
    # Ana's phone never says the table waits for Ana: while a result holds her question it
    # says her decision comes next ("Waiting for Ana" on her own phone read as a frozen table).
    assert not [w for w, _ in waits if "Ana" in w], waits
    assert any(mine for _, mine in waits), "the phone never said its decision comes next"
    # The moments have their sounds (generated, no files).
    sounds = samples[-1][1]["sounds"]
    assert "bids_in" in sounds and ("reveal" in sounds or "tie" in sounds), sounds
