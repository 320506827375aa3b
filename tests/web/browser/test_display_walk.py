"""The display's markers walk box by box when a station scores (the show's first moments of a
station beat), and come to rest on the score the server staged for that beat.

Three websocket phones play a round at the test pace "test:3"; Chromium shows the display at
1280x720. The page itself samples where each marker stands every 40 ms (a script in the
page, so no sample waits for the test), and the test reads the samples after the round.
The display draws the walk only when a marker reaches its next box; this checks that those
redraws still happen (a display that drew a station's result at once would fail it). Each
sample is 40 ms apart and a marker takes 0.12 s a box, so a busy page may miss a box, never
the whole walk of three.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from live_server import Host, LiveServer, policy, seat_phones

SAMPLER = r"""() => {
  window.__walks = [];
  setInterval(() => {
    const at = {};
    for (const m of document.querySelectorAll('#track .marker[data-player]')) {
      at[m.dataset.player] = Number(m.closest('[data-box]').dataset.box);
    }
    const b = window.__display.beat();
    window.__walks.push({ step: b.step, index: b.index, at });
  }, 40);
}"""


@pytest.fixture
def paced(tmp_path: Path):
    srv = LiveServer(tmp_path, extra=["--pace", "normal"])
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def _walks(samples: list[dict], player: str) -> list[list[int]]:
    """The boxes ``player``'s marker stood on during each beat (in order, each box once)."""
    beats: dict[tuple[int, int], list[int]] = {}
    for s in samples:
        box = s["at"].get(player)
        boxes = beats.setdefault((s["step"], s["index"]), [])
        if box is not None and (not boxes or boxes[-1] != box):
            boxes.append(box)
    return list(beats.values())


def test_markers_walk_box_by_box_and_rest_on_the_staged_score(paced: LiveServer, browser):
    phones = seat_phones(paced, "1", ["Ana", "Ben", "Cleo"])
    host = Host(paced, "1")
    host.hello()
    assert host.act("set_pace", pace="test:3")["type"] == "ok"
    display = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    display.goto(f"{paced.base}/t/1/")
    display.wait_for_function("() => window.__display?.beatLog")
    assert host.act("start", dice="digital")["type"] == "ok"
    display.evaluate(SAMPLER)

    # Round 1 played through (every question answered as soon as it is asked), until the
    # display shows round 2.
    deadline = time.monotonic() + 180
    while display.evaluate("window.__display.frame()?.game?.view?.round") != 2:
        assert time.monotonic() < deadline, "the display never reached round 2"
        for p in [*phones, host]:
            while p.poll(0.02) is not None:
                pass
        for p in phones:
            pending = p.view["you"]["pending"] if p.view else []
            if p.ready() and pending:
                p.command(policy(p.view, p.seat, pending[0]))
    # Its beats over, the display shows the step's own view (a wait on the page).
    display.wait_for_function("window.__display.beat().index === -1", timeout=60_000)
    samples = display.evaluate("window.__walks")
    scores = display.evaluate(
        "Object.fromEntries(Object.entries(window.__display.frame().game.view.players)"
        ".map(([p, c]) => [p, c.score]))"
    )

    long_moves = []
    for player in scores:
        for walk in _walks(samples, player):
            steps = [b - a for a, b in zip(walk, walk[1:], strict=False)]
            # Within a beat a marker walks one way (points won or lost), never to and fro.
            assert all(s > 0 for s in steps) or all(s < 0 for s in steps), (player, walk)
            if abs(walk[-1] - walk[0]) >= 3:
                long_moves.append((player, walk))
    # Some station gave 3 or more points in the round, and the walk was seen on its way: at
    # least one box between where it started and where it came to rest (0.12 s a box).
    assert long_moves, f"no marker moved 3 boxes in round 1: {scores}"
    assert any(len(run) >= 3 for _, run in long_moves), long_moves
    # Every marker rests where the server's view says (the walk ends on the staged score).
    last = samples[-1]["at"]
    assert last == scores, (last, scores)
