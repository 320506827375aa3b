"""Every phone is told what happened to it, over a live server with real websocket clients:
removed by the host, its own move undone, what a companion player did for it while it was
away (and nobody else's secrets), the standings when the host ended the game, and the bonus
dice window with every bid's parts and effective value (R3.3)."""

from __future__ import annotations

import json

from live_server import Host, LiveServer, Phone, play, seat_phones, settle

NAMES = ["Ana", "Ben", "Cleo"]


def started(server: LiveServer, table: str, dice: str = "table") -> tuple[list[Phone], Host]:
    phones = seat_phones(server, table, NAMES)
    host = Host(server, table)
    host.hello()
    assert host.act("start", dice=dice)["type"] == "ok"
    settle(server, table, [*phones, host])
    return phones, host


def test_a_released_phone_hears_the_host_removed_it(server: LiveServer, table: str) -> None:
    phones, host = started(server, table)
    cleo = phones[2]
    assert host.act("release_seat", seat="cleo")["type"] == "ok"
    removed = cleo.until(lambda f: f["type"] in ("removed", "taken_over"))
    assert removed == {"type": "removed", "by": "host"}
    # The others keep playing and hear nothing of the kind.
    for p in phones[:2]:
        p.poll(0.3)
        assert not any(f["type"] in ("removed", "taken_over") for f in p.frames)


def test_an_undone_move_is_told_to_its_own_phone_only(server: LiveServer, table: str) -> None:
    phones, host = started(server, table)
    play(phones, [], host, max_steps=3)  # sacrifices
    assert host.command({"type": "harvest", "dice": [2, 5, 6]})["type"] == "ack"
    assert host.command({"type": "improvements", "cards": [13, 10]})["type"] == "ack"
    settle(server, table, [*phones, host])
    ana = phones[0]
    bids = {str(s): [s, 13 - s] for s in range(1, 7)}
    ana.command({"type": "bid", "bids": bids})
    ana.until(lambda f: f["type"] == "ack")
    settle(server, table, [*phones, host])
    assert host.undo()["type"] == "ok"
    frame = ana.until(lambda f: f["type"] == "view" and f["reason"] == "undo")
    assert frame["notice"] == {
        "kind": "undone",
        "type": "bid",
        "stations": ["1", "2", "3", "4", "5", "6"],
    }
    assert frame["you"]["pending"] == [{"type": "bid", "player": "ana"}]
    settle(server, table, [*phones, host])
    for other in (*phones[1:], host):
        seen = [f for f in other.frames if f["type"] == "view" and f["reason"] == "undo"]
        assert len(seen) == 1 and "notice" not in seen[0]


def test_a_seat_given_back_hears_what_the_companion_did_for_it(
    server: LiveServer, table: str
) -> None:
    phones, host = started(server, table)
    play(phones, [], host, max_steps=3)
    assert host.command({"type": "harvest", "dice": [2, 5, 6]})["type"] == "ack"
    assert host.command({"type": "improvements", "cards": [13, 10]})["type"] == "ack"
    settle(server, table, [*phones, host])
    ben = phones[1]
    assert host.act("skip_seat", seat="ben")["type"] == "ok"  # the plain companion bids
    assert host.act("resume_seat", seat="ben")["type"] == "ok"
    settle(server, table, [*phones, host])
    # Handing a seat over and back changes no command (settle's number), only the seats: the
    # view that gives the seat back may still be on its way.
    back = ben.view_until(lambda f: f["seats"][1]["state"] == "phone")
    moves = back["you"]["companion_moves"]
    assert [m["type"] for m in moves] == ["bid"]
    assert moves[0]["bids"]["1"] == [0, 2]  # lowest free cards (ben sacrificed his 1)
    # Nobody else learns ben's bid: not in their frames, not in the host's or display's.
    for other in (phones[0], phones[2], host):
        assert other.frames
        for f in other.frames:
            if f["type"] == "view" and f.get("you"):
                assert f["you"]["companion_moves"] == []
            assert json.dumps(moves[0]["bids"]) not in json.dumps(f)


def test_an_ended_game_shows_the_standings(server: LiveServer, table: str) -> None:
    phones, host = started(server, table, dice="digital")
    play(phones, [], host, max_steps=12)
    settle(server, table, [*phones, host])
    scores = {p: s["score"] for p, s in phones[0].view["game"]["view"]["players"].items()}
    assert host.act("end_game")["type"] == "ok"
    for peer in phones:
        peer.until(lambda f: f["type"] == "view" and f["game"]["status"] == "ended")
    for frame in (*(p.view for p in phones), host.view):
        assert frame is not None and frame["game"]["status"] == "ended"
        standings = frame["game"]["standings"]
        assert {e["player"]: e["score"] for e in standings} == scores
        assert [e["score"] for e in standings] == sorted(scores.values(), reverse=True)
        assert standings[0]["place"] == 1
    # Host frames of an ended game ask for nothing to be typed in.
    assert host.view["host"]["inputs"] == []


def test_the_dice_window_shows_effective_bids(server: LiveServer, table: str) -> None:
    """R3.3: in the window every bid comes with its parts and its value before dice."""
    phones, host = started(server, table)
    play(phones, [], host, host_inputs=True, max_steps=40)
    windows = [
        f["game"]["view"]["dice_window"]
        for f in phones[0].frames
        if f["type"] == "view" and f["game"] and f["game"]["view"]["dice_window"]
    ]
    assert windows, "no bonus dice window opened"
    for window in windows:
        for b in window["bids"].values():
            assert b["base"] == b["cards_sum"] + b["huts"] + b["old_man"]
            assert b["cards_sum"] == sum(b["cards"])
