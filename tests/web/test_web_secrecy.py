"""No frame carries another seat's unrevealed bid, sacrifice or dice decision (issue item 5).

Every frame each phone, the display and the host receive through whole games is recorded and
checked against the rules of what may be known when (R1.2, R2.4-R2.6, R3.1, R3.2).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from live_server import Host, LiveServer, Peer, play, seat_phones, settle

NAMES = ["Ana", "Ben", "Cleo", "Dan", "Eva"]
# Event fields that are private to the event's player until revealed.
PRIVATE_FIELDS = {"sacrificed": "card", "bid_placed": "bids", "dice_decided": "count"}


def _events(frame: dict[str, Any]) -> list[dict[str, Any]]:
    return frame.get("events", []) + frame.get("history", [])


def check_frame(
    frame: dict[str, Any], me: str | None, others_tokens: list[str], host_token: str | None
) -> None:
    text = json.dumps(frame)
    for token in others_tokens:
        assert token not in text, "another seat's token leaked"
    if host_token is not None:
        assert host_token not in text, "the host token leaked to a seat"
    for e in _events(frame):
        field = PRIVATE_FIELDS.get(e["type"])
        if field and e.get("player") != me:
            assert field not in e, f"{e['type']} of {e['player']} shows {field} to {me}"
    if frame["type"] != "view" or not frame.get("game"):
        return
    game = frame["game"]["view"]
    finished = game["finished"]
    for p, ps in game["players"].items():
        if p == me:
            continue
        assert ps["bids"] is None and ps["used"] is None, f"{p}'s bids shown to {me}"
        if not finished:
            assert ps["sacrifice"] is None and ps["deck"] is None, f"{p}'s sacrifice to {me}"
            proj = (game.get("projection") or {}).get(p) or {}
            assert proj.get("sacrifice") is None and proj.get("sacrifice_bonus") is None
    window = game.get("dice_window")
    if window and game["phase"] == "dice":
        assert set(window["choices"]) <= {me}, f"dice decisions shown to {me} too early"
    revealed = set(game["revealed"])
    if game["phase"] == "bid":
        step = game["step"]
        if step in ("all", "first"):
            assert not revealed, "cards revealed before every bid was in"
        elif step == "second":
            # Only the first cards are public: one card per station per player (R2.5).
            assert all(len(c) == 1 for s in game["revealed"].values() for c in s.values())
        else:
            assert all(int(s) < step for s in revealed), "a gold station shown too early"


@pytest.mark.parametrize("players, dice", [(5, "digital"), (3, "table")])
def test_no_frame_carries_another_seats_secret(
    server: LiveServer, table: str, players: int, dice: str
) -> None:
    phones = seat_phones(server, table, NAMES[:players])
    display = Peer(f"{server.ws_base}/t/{table}/ws/display")
    host = Host(server, table)
    host.hello()
    assert host.act("start", dice=dice)["type"] == "ok"
    play(phones, [display], host, host_inputs=dice == "table")
    settle(server, table, [display, host, *phones])
    assert display.view["game"]["view"]["finished"]
    tokens = {p.seat: p.token for p in phones}
    frames_checked = 0
    for phone in phones:
        others = [t for s, t in tokens.items() if s != phone.seat]
        for frame in phone.frames:
            check_frame(frame, phone.seat, others, server.host_tokens[table])
            frames_checked += 1
    for peer in (display, host):
        for frame in peer.frames:
            check_frame(frame, None, list(tokens.values()), None)
            frames_checked += 1
    # The game really had secrets in flight: bids were placed and later revealed.
    kinds = {e["type"] for f in display.frames for e in _events(f)}
    assert {"sacrificed", "bid_placed", "revealed", "dice_decided"} <= kinds
    assert frames_checked > 100
    # Once the game is over everyone may see the sacrifices (R7).
    final = phones[0].view["game"]["view"]["players"]
    assert all(ps["sacrifice"] is not None for ps in final.values())
