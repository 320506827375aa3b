"""Nobody is asked what cannot matter, over a live server with real websocket clients (R3.2,
R5.4; DESIGN.md "Nobody is asked what cannot matter").

Five phones, the host types the dice in (harvest 1, 2, 3; face-up cards 5 and 9), every
sacrifice is 0. Round 1 is red; the bids are tests/engine/test_asks_that_matter.py's ROUND1:
dora wins the city (11+12) and takes its die (R5.3). At S4 dora bids 8 and is 4th: a six
would lift her to 3rd (14 > cleo's 11) but not near ben's 19, and third places no cube
(R5.4), so the table answers "no dice" for her. ana (21) leads ben (19) by less than 3: one
cube each, and both land in the bottom row, so the order is not asked either. At S5 one die
could lift dora to 2nd (17 > ana's 12: 4 points in round 1, R5.5): she is asked there, and
her phone's frame says why she was not asked at S4.
"""

from __future__ import annotations

from typing import Any

from live_server import Host, LiveServer, Peer, Phone, seat_phones, settle

NAMES = ["Ana", "Ben", "Cleo", "Dora", "Eve"]
PAIRS = {
    "ana": [(6, 12), (1, 2), (3, 4), (10, 11), (5, 7), (8, 9)],
    "ben": [(7, 11), (3, 4), (5, 6), (9, 10), (1, 2), (8, 12)],
    "cleo": [(8, 10), (5, 6), (1, 9), (4, 7), (11, 12), (2, 3)],
    "dora": [(5, 9), (8, 10), (11, 12), (2, 6), (4, 7), (1, 3)],
    "eve": [(1, 2), (11, 12), (9, 10), (3, 4), (5, 6), (7, 8)],
}


def bids(seat: str) -> dict[str, list[int]]:
    return {str(s + 1): list(pair) for s, pair in enumerate(PAIRS[seat])}


def asked_dice_at(phone: Phone, station: int) -> bool:
    """Whether any frame this phone got asked its seat for bonus dice at ``station``."""
    for f in phone.frames:
        if f["type"] != "view" or not f.get("game"):
            continue
        window = f["game"]["view"].get("dice_window") or {}
        if (
            window.get("station") == station
            and {"type": "dice", "player": phone.seat} in f["you"]["pending"]
        ):
            return True
    return False


def test_a_holder_is_not_asked_what_cannot_matter_and_its_phone_says_why(
    server: LiveServer, table: str
) -> None:
    phones = seat_phones(server, table, NAMES)
    by_seat = {p.seat: p for p in phones}
    assert sorted(by_seat) == sorted(PAIRS)
    host = Host(server, table)
    host.hello()
    display = Peer(f"{server.ws_base}/t/{table}/ws/display")
    # A short pace: the display is shown every step, the table's own answers included.
    assert host.act("set_pace", pace="test:0.2")["type"] == "ok"
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
            f["type"] == "view" and f["you"]["pending"][:1] == [{"type": "city", "player": "dora"}]
        )
    )
    dora.command({"type": "city", "choice": "die"})
    dora.until(lambda f: f["type"] == "ack")

    # The table went on to S5, where dora's die can matter: she is asked there.
    def at_s5(f: dict[str, Any]) -> bool:
        return (
            f["type"] == "view"
            and f["you"]["pending"] == [{"type": "dice", "player": "dora"}]
            and f["game"]["view"]["dice_window"]["station"] == 5
        )

    frame = dora.until(at_s5)
    settle(server, table, [*phones, host])
    assert not asked_dice_at(dora, 4)
    # Her phone's frame says why S4 was not asked: the table's "no dice", her place there.
    assert frame["you"]["not_asked"] == [{"station": 4, "place": 4, "kind": "dice"}]
    assert frame["game"]["view"]["players"]["dora"]["dice"] == 1  # R3.2: the die stays hers
    # ana was not asked the pyramid's order (R5.4: both cubes in the bottom row) and is told.
    ana = by_seat["ana"].view
    assert ana is not None
    assert ana["you"]["not_asked"] == [{"station": 4, "place": 1, "kind": "pyramid"}]
    assert not any(
        {"type": "pyramid", "player": "ana"} in f["you"]["pending"]
        for f in by_seat["ana"].frames
        if f["type"] == "view" and "you" in f
    )
    cubes = [c for c in frame["game"]["view"]["pyramid"][0] if c is not None]
    assert cubes == ["ana", "ben"]  # first's cube first, then second's (R5.4)
    # The display shows the cubes as placed by the table, not as ana's decision.
    settle(server, table, [display])

    def decisions(f: dict[str, Any]) -> list[dict[str, Any]]:
        beats = (f.get("show") or {}).get("beats") or []
        return [b for b in beats if b["kind"] == "decision"]

    shown = {(b["station"], b.get("asked")) for f in display.frames for b in decisions(f)}
    assert shown == {(3, None), (4, False)}  # dora chose at the city; S4 nobody was asked
    # While S4's ranking is up its cubes are on their way (the table's answer is the next
    # step): the beat says so, never "this station gave nothing" (show.announce_decision).
    s4 = [
        b
        for f in display.frames
        for b in (f.get("show") or {}).get("beats") or []
        if b["kind"] == "station" and b["station"] == 4 and not b["effects"]
    ]
    assert s4, "the display was never shown S4's ranking"
    assert all(b.get("next") == {"type": "pyramid", "player": "ana", "asked": False} for b in s4), (
        s4
    )
    # Nobody else is told anything of the kind.
    for seat in ("ben", "cleo", "eve"):
        view = by_seat[seat].view
        assert view is not None and view["you"]["not_asked"] == []
    for p in (*phones, host, display):
        p.close()
