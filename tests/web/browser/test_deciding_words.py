"""The display words first's city choice as what it is: a choice, not a tie (R5.3, R3.4).

A real game on a live server: three websocket phones, the host types the dice in, the display
page in Debian's Chromium. Round 1 is red; ben is lowest at S1 (the old man, -1 from S2 on,
R4.1) and bids 11+12 at S3 (the city): 22. On one table ana and cleo bid 13 there: ben is
first alone, and while he chooses the display must not call it a tie. On the other ana bids
10+12 = 22 too: the tie at the top is real (R3.4 settles it), and it is named.
"""

from __future__ import annotations

from live_server import Host, LiveServer, seat_phones

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


def deciding_words(server: LiveServer, browser, table: str, ana: dict) -> str:
    """Play ``table`` to ben's city choice and return the display's words while he decides."""
    phones = seat_phones(server, table, ["Ana", "Ben", "Cleo"])
    host = Host(server, table)
    host.hello()
    # The step that reveals S1-S3 holds each station's result 6 s: S3's words are up for 6 s
    # (the page is read at every animation frame until they come), then the phone asks.
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
        p.command({"type": "bid", "bids": bids})
        p.until(lambda f: f["type"] == "ack")
    # The S3 beat is the step's last station: its spotlight says who decides next.
    handle = display.wait_for_function(SPOTLIGHT_WORDS, timeout=90_000)
    words = str(handle.json_value())
    for p in (*phones, host):
        p.close()
    display.context.close()
    return words


def test_first_alone_chooses_without_a_tie(tmp_path, browser) -> None:
    server = LiveServer(tmp_path, host_name="table.lan", tables=2).start()
    try:
        alone = deciding_words(server, browser, "1", EVEN)
        tied = deciding_words(server, browser, "2", ANA_TIE)
    finally:
        server.stop()
    # ben 22 against 13 and 13: first alone, a choice and no tie.
    assert alone == "Ben came first and now chooses on their phone: a hut or the black die."
    assert "tie" not in alone.lower() and "equal" not in alone.lower()
    # ana 22 too: equal bids at the top, one of them decides.
    assert tied.startswith("Equal bids at the top, settled for ")
