"""The display words first's city choice as what it is: a choice, not a tie (R5.3, R3.4).

A real game on a live server: three websocket phones, the host types the dice in, the display
page in Debian's Chromium. Round 1 is red; ben is lowest at S1 (the old man, -1 from S2 on,
R4.1) and bids 11+12 at S3 (the city): 22. On one table ana and cleo bid 13 there: ben is
first alone, and while he chooses the display must not call it a tie. On the other ana bids
10+12 = 22 too: the tie at the top is real (R3.4 settles it), and it is named.
"""

from __future__ import annotations

from typing import Any

from live_server import Host, LiveServer, seat_phones

from .conftest import ARTIFACTS

EVEN = {str(s): [s, 13 - s] for s in range(1, 7)}
BEN = {"1": [1, 2], "2": [3, 4], "3": [11, 12], "4": [5, 6], "5": [7, 8], "6": [9, 10]}
# ana 10+12 at S3: 22, like ben's 23 with the old man he took at S1 (R4.1).
ANA_TIE = {"1": [3, 4], "2": [1, 2], "3": [10, 12], "4": [5, 6], "5": [7, 8], "6": [9, 11]}
SPOTLIGHT_WORDS = """() => {
  const spot = document.getElementById('spotlight');
  const none = spot && !spot.hidden && spot.dataset.kind === 'station'
    ? spot.querySelector('.effects.none') : null;
  return none ? none.textContent : null;
}"""
KEEP_WORDS = (
    "() => { const read = "
    + SPOTLIGHT_WORDS
    + "; const timer = setInterval(() => { const w = read();"
    " if (w) { window.__words = w; clearInterval(timer); } }, 50); }"
)


def to_the_choice(server: LiveServer, browser, table: str, ana: dict) -> tuple[Any, list[Any]]:
    """Play ``table`` to the step that puts up ben's city choice: its display and sockets."""
    phones = seat_phones(server, table, ["Ana", "Ben", "Cleo"])
    host = Host(server, table)
    host.hello()
    # The step that reveals S1-S3 holds each station's result 6 s: S3's words are up for 6 s
    # (the page keeps the first it shows: KEEP_WORDS), then the phone asks.
    assert host.act("set_pace", pace="test:6")["type"] == "ok"
    display = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    display.goto(f"{server.base}/t/{table}/")
    display.wait_for_function("() => window.__display?.beatLog")
    assert host.act("start", dice="table")["type"] == "ok"
    for p in phones:
        p.command({"type": "sacrifice", "card": 0})
        p.until(lambda f: f["type"] == "ack")
    assert host.command({"type": "harvest", "dice": [1, 2, 3]})["type"] == "ack"
    assert host.command({"type": "improvements", "cards": [5, 9]})["type"] == "ack"
    for p, bids in zip(phones, (ana, BEN, EVEN), strict=True):
        if p is phones[-1]:
            # The page keeps the first words of the S3 beat itself (read every 50 ms), so they
            # are caught while this test sets the next table up.
            display.evaluate(KEEP_WORDS)
        p.command({"type": "bid", "bids": bids})
        p.until(lambda f: f["type"] == "ack")
    return display, [*phones, host]


def deciding_words(display: Any, peers: list[Any]) -> str:
    """The display's words while ben decides (the S3 beat is the step's last station: its
    spotlight says who decides next)."""
    handle = display.wait_for_function("() => window.__words || null", timeout=90_000)
    words = str(handle.json_value())
    for p in peers:
        p.close()
    display.context.close()
    return words


def test_first_alone_chooses_without_a_tie(tmp_path, browser) -> None:
    server = LiveServer(tmp_path, host_name="table.lan", tables=2).start()
    try:
        # Both tables played to their step first, so their shows run side by side.
        first = to_the_choice(server, browser, "1", EVEN)
        second = to_the_choice(server, browser, "2", ANA_TIE)
        alone = deciding_words(*first)
        tied = deciding_words(*second)
    finally:
        server.stop()
    # ben 22 against 13 and 13: first alone, a choice and no tie.
    assert alone == "Ben came first and now chooses on their phone: a hut or the black die."
    assert "tie" not in alone.lower() and "equal" not in alone.lower()
    # ana 22 too: equal bids at the top, one of them decides.
    assert tied.startswith("Equal bids at the top, settled for ")


S4_WORDS = """() => {
  const spot = document.getElementById('spotlight');
  if (!spot || spot.hidden || spot.dataset.kind !== 'station') return null;
  if (!spot.querySelector('.ranking[data-station="4"]')) return null;
  return spot.querySelector('.effects')?.textContent || null;
}"""


def test_the_pyramid_placed_by_the_table_is_announced_not_called_nothing(tmp_path, browser) -> None:
    """tests/web/test_web_not_asked.py's game: at S4 ana and ben each get a cube, both for the
    bottom row, so the table places them (R5.4). Its answer is the next step: while S4's
    ranking is up the display says the cubes come, not that the station gave nothing."""
    from test_web_not_asked import NAMES, bids

    server = LiveServer(tmp_path, host_name="table.lan").start()
    try:
        phones = seat_phones(server, "1", NAMES)
        by_seat = {p.seat: p for p in phones}
        host = Host(server, "1")
        host.hello()
        assert host.act("set_pace", pace="test:3")["type"] == "ok"
        display = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
        display.goto(f"{server.base}/t/1/")
        display.wait_for_function("() => window.__display?.beatLog")
        assert host.act("start", dice="table")["type"] == "ok"
        for p in phones:
            p.command({"type": "sacrifice", "card": 0})
            p.until(lambda f: f["type"] == "ack")
        assert host.command({"type": "harvest", "dice": [1, 2, 3]})["type"] == "ack"
        assert host.command({"type": "improvements", "cards": [5, 9]})["type"] == "ack"
        for seat, p in by_seat.items():
            p.command({"type": "bid", "bids": bids(seat)})
            p.until(lambda f: f["type"] == "ack")
        dora = by_seat["dora"]
        dora.until(
            lambda f: (
                f["type"] == "view"
                and f["you"]["pending"][:1] == [{"type": "city", "player": "dora"}]
            ),
            timeout=90,
        )
        dora.command({"type": "city", "choice": "die"})
        dora.until(lambda f: f["type"] == "ack")
        words = str(display.wait_for_function(S4_WORDS, timeout=90_000).json_value())
        display.screenshot(path=str(ARTIFACTS / "display-pyramid-by-the-table.png"))
        # The next beat is the table's placing, with the cubes (show.decided_by_table).
        placed = display.wait_for_function(
            "() => { const s = document.getElementById('spotlight');"
            " return s && !s.hidden && s.dataset.kind === 'decision' ? s.textContent : null; }",
            timeout=30_000,
        )
        placed_words = str(placed.json_value())
        for p in (*phones, host):
            p.close()
    finally:
        server.stop()
    assert "the table places them next" in words, words
    assert "gave nothing" not in words
    assert "placed by the table" in placed_words and "Ana" in placed_words, placed_words
