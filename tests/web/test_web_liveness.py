"""The table never waits for a phone that shows no question, over a live server with real
websocket clients.

Acks and views count one sequence (``Game.seq``: places in the game's commands): the view
that shows a command's step has the ack's ``seq``, also after the host took a command back
(an undo frees a stored row number but not a place). Before, every ack after one undo was one
ahead of its view, and the pad's "already answered" guard hid the seat's next question of the
same kind for good (a frozen table). And the safety net: a phone that reports showing no
question while the table waits for its seat gets the whole view again.
"""

from __future__ import annotations

from typing import Any

import requests
from live_server import Host, LiveServer, Phone, seat_phones, settle
from waiting import wait_for

NAMES = ["Ana", "Ben", "Cleo"]


def started(server: LiveServer, table: str, dice: str = "table") -> tuple[list[Phone], Host]:
    phones = seat_phones(server, table, NAMES)
    host = Host(server, table)
    host.hello()
    assert host.act("start", dice=dice)["type"] == "ok"
    for peer in (*phones, host):
        if not (peer.view and peer.view.get("game")):
            peer.until(lambda f: f["type"] == "view" and f.get("game") is not None)
    settle(server, table, [*phones, host])
    return phones, host


def state_seq(server: LiveServer, table: str) -> int:
    return int(requests.get(f"{server.local}/t/{table}/api/state", timeout=5).json()["seq"])


def ack_of(phone: Phone, cmd_id: str) -> dict[str, Any]:
    return phone.until(lambda f: f["type"] == "ack" and f.get("id") == cmd_id)


def test_after_an_undo_an_ack_and_the_view_of_its_step_carry_one_number(
    server: LiveServer, table: str
) -> None:
    phones, host = started(server, table)
    ana, ben, cleo = phones
    first = ack_of(ana, ana.command({"type": "sacrifice", "card": 0}))
    settle(server, table, [*phones, host])
    assert first["seq"] == state_seq(server, table)
    assert host.undo()["type"] == "ok"
    settle(server, table, [*phones, host])
    # Each sacrifice after the undo: its ack's number is the number of the view that shows it.
    for phone, card in ((ana, 1), (ben, 2), (cleo, 3)):
        ack = ack_of(phone, phone.command({"type": "sacrifice", "card": card}))
        settle(server, table, [*phones, host])
        assert ack["seq"] == state_seq(server, table)
        assert ack["seq"] == phone.view["seq"]
        # A retry of the same id is acknowledged with the same number.
        phone.send(
            {
                "type": "command",
                "token": phone.token,
                "id": phone.outstanding or f"{phone.seat}-{phone.counter}",
                "command": {"type": "sacrifice", "card": card},
            }
        )
        again = phone.until(lambda f: f["type"] == "ack" and f.get("retry"))
        assert again["seq"] == ack["seq"]


def test_a_phone_that_shows_no_question_while_awaited_gets_its_view_again(
    server: LiveServer, table: str
) -> None:
    phones, host = started(server, table)
    ana = phones[0]
    view = ana.view
    assert view is not None and view["you"]["pending"] == [{"type": "sacrifice", "player": "ana"}]
    before = sum(1 for f in ana.frames if f["type"] == "view")
    # The phone says it shows nothing at the view the table waits on.
    ana.send({"type": "showing", "token": ana.token, "seq": view["seq"], "asks": []})
    again = ana.until(lambda f: f["type"] == "view" and f.get("reason") == "resend")
    assert again["you"]["pending"] == [{"type": "sacrifice", "player": "ana"}]
    assert "history" in again  # the whole view: every guard on the pad starts anew
    assert sum(1 for f in ana.frames if f["type"] == "view") == before + 1
    # A phone that shows the question, or reports an older view, is left alone.
    ana.send({"type": "showing", "token": ana.token, "seq": view["seq"], "asks": ["sacrifice"]})
    ana.send({"type": "showing", "token": ana.token, "seq": view["seq"] - 1, "asks": []})
    ana.send({"type": "ping", "token": ana.token, "id": "p1"})
    ana.until(lambda f: f["type"] == "pong")
    assert sum(1 for f in ana.frames if f["type"] == "view") == before + 1
    # The host page names the phone the table waits for, and what it shows.
    host.send({"type": "ping", "token": host.token, "id": "hp"})
    frame = wait_for(
        lambda: (
            next(
                (
                    f
                    for f in reversed(host.frames)
                    if f["type"] == "view" and (f.get("host") or {}).get("waiting")
                ),
                None,
            )
            or (host.poll(0.2) and None)
        ),
        what="a host frame naming the awaited phones",
    )
    waiting = {w["seat"]: w for w in frame["host"]["waiting"]}
    assert set(waiting) == {"ana", "ben", "cleo"}
    assert waiting["ana"]["name"] == "Ana" and waiting["ana"]["connected"] is True


def test_a_bad_showing_report_is_refused_with_a_reason(server: LiveServer, table: str) -> None:
    phones, _host = started(server, table)
    ana = phones[0]
    ana.send({"type": "showing", "token": ana.token, "seq": "x", "asks": "all"})
    error = ana.until(lambda f: f["type"] == "error")
    assert error["code"] == "bad_message" and "showing" in error["reason"]


def test_a_phone_held_by_the_beats_is_looked_at_again_when_they_end(
    server: LiveServer, table: str
) -> None:
    """A pad that says the show's beats hold its questions and then says nothing more (its
    timer lost, its page busy) is not trusted for ever: when the beats end the server looks
    again, on its own clock, and sends the whole view to the seat the table waits for."""
    phones, host = started(server, table)
    assert host.act("set_pace", pace="test:1.5")["type"] == "ok"
    for phone in phones:
        ack_of(phone, phone.command({"type": "sacrifice", "card": 0}))
    assert host.command({"type": "harvest", "dice": [1, 2, 3]})["type"] == "ack"
    assert host.command({"type": "improvements", "cards": [5, 9]})["type"] == "ack"
    for phone in phones:  # every hand is 1..12 after the 0 went
        pairs = PAIRS[phone.seat]
        ack_of(
            phone,
            phone.command(
                {"type": "bid", "bids": {str(i + 1): list(p) for i, p in enumerate(pairs)}}
            ),
        )
    # The stations come up: a step whose beats hold the seat's next question.
    by_seat = {p.seat: p for p in phones}

    def held_question(f: dict[str, Any]) -> bool:
        show = f.get("show") or {}
        return (
            f["type"] == "view"
            and bool((f.get("you") or {}).get("pending"))
            and float(show.get("hold") or 0) > float(show.get("elapsed") or 0) + 0.3
        )

    phone, view = wait_for(
        lambda: next(
            ((p, f) for p in phones for f in [p.poll(0.05)] if f is not None and held_question(f)),
            None,
        ),
        what="a view whose beats hold a seat's question",
    )
    assert phone is by_seat[phone.seat]
    before = sum(1 for f in phone.frames if f["type"] == "view")
    phone.send(
        {"type": "showing", "token": phone.token, "seq": view["seq"], "asks": [], "held": True}
    )
    again = phone.until(lambda f: f["type"] == "view" and f.get("reason") == "resend", timeout=15)
    assert again["you"]["pending"] == view["you"]["pending"]
    assert sum(1 for f in phone.frames if f["type"] == "view") == before + 1


PAIRS = {
    "ana": [(6, 12), (1, 2), (3, 4), (10, 11), (5, 7), (8, 9)],
    "ben": [(7, 11), (3, 4), (5, 6), (9, 10), (1, 2), (8, 12)],
    "cleo": [(8, 10), (5, 6), (1, 9), (4, 7), (11, 12), (2, 3)],
}
