"""The frame types (table/frame_types.py) say what PROTOCOL.md documents and what a live
server sends.

PROTOCOL.md 3.4 lists the server's frames (a JSON line each) and the view frame's fields (a
bullet each); the TypedDicts must have exactly those keys. Then a whole game is played on a
live server and every frame each phone, the display and the host received is held to its
audience's type, down to the engine view, the events and the show's beats. The game is played
so that every frame kind comes up (all but ``table_closed``, which only a server's stop
sends: test_web_shutdown.py holds it to its type): a removed and a taken-over phone, a
heartbeat, a hint, a refused and a retried command, an undone move's notice and a seat given
back's, a step staged beat by beat, and the game's ready review.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, get_args, get_type_hints

from live_server import Host, LiveServer, Peer, Phone, play, policy, seat_phones, settle
from shapes import check, check_typeddict

from companion.table import frame_types as ft

PROTOCOL = Path(__file__).resolve().parents[2] / "companion" / "web" / "PROTOCOL.md"

# Every frame but the view, by its type tag.
OTHER_FRAMES: dict[str, Any] = {
    "ack": ft.AckFrame,
    "error": ft.ErrorFrame,
    "ok": ft.OkFrame,
    "taken_over": ft.TakenOverFrame,
    "removed": ft.RemovedFrame,
    "table_closed": ft.TableClosedFrame,
    "pong": ft.PongFrame,
    "hint": ft.HintFrame,
    "board": ft.BoardFrame,
}
VIEW_FRAMES = {"seat": ft.SeatFrame, "display": ft.DisplayFrame, "host": ft.HostFrame}


def _section(text: str, title: str) -> str:
    start = text.index(title)
    end = text.index("\n## ", start)
    return text[start:end]


def documented_frames(text: str | None = None) -> tuple[dict[str, set[str]], set[str], set[str]]:
    """From PROTOCOL.md 3.4: each example frame's keys by type, the view frame's bulleted
    fields, and the reasons a view frame may give."""
    text = PROTOCOL.read_text(encoding="utf-8") if text is None else text
    section = _section(text, "### 3.4 Server -> client frames")
    block = section.split("```json", 1)[1].split("```", 1)[0]
    block = block.replace("{...}", "{}").replace("[...]", "[]")
    decoder = json.JSONDecoder()
    frames: dict[str, set[str]] = {}
    i = 0
    while (i := block.find("{", i)) != -1:
        frame, i = decoder.raw_decode(block, i)
        frames[frame["type"]] = set(frame)
    fields = set(re.findall(r"^- `(\w+)`", section, flags=re.MULTILINE))
    said = section[section.index("`reason`:") + 10 : section.index("ended a beat)") + 14]
    reasons = set(re.findall(r"`(\w+)`", re.sub(r"\([^)]*\)", "", said)))
    return frames, fields, reasons


def keys(hint: Any) -> set[str]:
    return set(get_type_hints(hint))


def test_protocol_and_types_name_the_same_keys() -> None:
    frames, fields, reasons = documented_frames()
    assert "view" in frames and len(frames) >= 7, frames  # the block was read
    view_keys = set().union(*(keys(t) for t in VIEW_FRAMES.values()))
    assert frames["view"] | fields == view_keys
    for kind, documented in frames.items():
        if kind != "view":
            assert documented == keys(OTHER_FRAMES[kind]), kind
    assert reasons == set(get_args(ft.Reason))


def test_a_field_documented_but_not_typed_is_found() -> None:
    """The comparison can fail: one more bullet in 3.4 is a key no frame type has."""
    text = PROTOCOL.read_text(encoding="utf-8")
    bullet = "- `board`:"
    assert bullet in text
    frames, fields, _ = documented_frames(text.replace(bullet, "- `surprise`: new.\n" + bullet))
    view_keys = set().union(*(keys(t) for t in VIEW_FRAMES.values()))
    assert "surprise" in fields and frames["view"] | fields != view_keys


def _check_frame(frame: dict[str, Any], role: str, where: str) -> None:
    if frame["type"] == "view":
        check_typeddict(frame, VIEW_FRAMES[role], where)
    else:
        check(frame, OTHER_FRAMES[frame["type"]], where)


def _wait(peer: Peer, what: str, pred: Callable[[dict[str, Any]], bool], timeout: float) -> None:
    """Until ``peer``'s latest view satisfies ``pred`` (it may have already)."""
    deadline = time.monotonic() + timeout
    while peer.view is None or not pred(peer.view):
        if time.monotonic() > deadline:
            raise TimeoutError(f"no view with {what}; last frames: {peer.frames[-2:]}"[:2000])
        peer.poll(0.2)


def _review_ready(view: dict[str, Any]) -> bool:
    return (view.get("review") or {}).get("state") == "ready"


def _lobby(server: LiveServer, table: str, phones: list[Phone], host: Host) -> list[Phone]:
    """The lobby's rarer frames: a phone the host removes hears ``removed``, a seat opened on
    a second device ``taken_over`` (``phones[0]`` becomes the new device), a heartbeat
    ``pong``. Returns the phones that were sent away."""
    (dan,) = seat_phones(server, table, ["Dan"], first_colour=3)
    assert host.act("remove_seat", seat=dan.seat)["type"] == "ok"
    assert dan.until(lambda f: f["type"] == "removed")
    old = phones[0]
    phones[0] = Phone(server, table, {"seat": old.seat, "token": old.token})
    phones[0].hello()
    assert old.until(lambda f: f["type"] == "taken_over")
    ben = phones[1]
    ben.send({"type": "ping", "token": ben.token, "t": 7})
    assert ben.until(lambda f: f["type"] == "pong")["t"] == 7
    return [dan, old]


def _first_move(phones: list[Phone], host: Host) -> None:
    """The game's first move, with the frames around it: a learning-mode ``hint``, an
    ``error`` for a refused command, the ``ack`` of a retried command id (``retry``), and the
    ``notice`` Ana's view carries when the host undoes her move."""
    ana = phones[0]
    _wait(ana, "a question for Ana", lambda v: bool((v["you"] or {}).get("pending")), 15)
    ana.send({"type": "hint", "token": ana.token, "id": "q1"})
    hint = ana.until(lambda f: f.get("id") == "q1", timeout=60)
    assert hint["type"] == "hint" and hint["hint"] is not None, hint
    bad = {"type": "sacrifice", "card": 99}
    ana.send({"type": "command", "token": ana.token, "id": "bad-1", "command": bad})
    assert ana.until(lambda f: f.get("id") == "bad-1")["code"] == "illegal"
    move = policy(ana.view, ana.seat, ana.view["you"]["pending"][0])
    cmd_id = ana.command(move)
    first = ana.until(lambda f: f.get("id") == cmd_id)
    assert first["type"] == "ack" and "retry" not in first, first
    ana.command(move, cmd_id=cmd_id)
    again = ana.until(lambda f: f.get("id") == cmd_id)
    assert again == {**first, "retry": True}, again
    assert host.undo()["type"] == "ok"
    undone = ana.until(lambda f: f["type"] == "view" and "notice" in f)
    assert undone["notice"]["kind"] == "undone" and undone["notice"]["type"] == "sacrifice"


def _give_back(phone: Phone, host: Host) -> None:
    """The host lets the companion play a seat and gives it back: the ``resumed`` notice in
    that phone's view."""
    assert host.act("skip_seat", seat=phone.seat)["type"] == "ok"
    assert host.act("resume_seat", seat=phone.seat)["type"] == "ok"
    back = phone.until(lambda f: f["type"] == "view" and "notice" in f)
    assert back["notice"] == {"kind": "resumed"}, back["notice"]


def _staged_step(phones: list[Phone], peers: list[Peer], host: Host) -> None:
    """A step told beat by beat (``game.staged`` in its frames): at a slow pace the phones
    answer what they are asked until a step with beats is up, then the show goes on at once."""
    assert host.act("set_pace", pace="test:30")["type"] == "ok"
    deadline = time.monotonic() + 30
    while not any(p.view and p.view["game"] and "staged" in p.view["game"] for p in peers):
        assert time.monotonic() < deadline, "no step was staged"
        for phone in phones:
            if phone.ready() and phone.view["you"]["pending"]:
                phone.command(policy(phone.view, phone.seat, phone.view["you"]["pending"][0]))
        for p in peers:
            p.poll(0.01)
    assert host.act("set_pace", pace="instant")["type"] == "ok"


def test_a_whole_games_frames_have_their_audiences_types(server: LiveServer, table: str) -> None:
    """A whole game with every kind of server frame in it: each frame each peer received
    (phones, the display, the host, and the phones sent away) has its audience's type."""
    phones = seat_phones(server, table, ["Ana", "Ben", "Cleo"])
    display = Peer(f"{server.ws_base}/t/{table}/ws/display")
    host = Host(server, table)
    host.hello()
    gone = _lobby(server, table, phones, host)
    assert host.act("set_hints", level="good")["type"] == "ok"
    assert host.act("start", dice="digital")["type"] == "ok"
    _first_move(phones, host)
    _give_back(phones[2], host)
    _staged_step(phones, [display, host, *phones], host)
    play(phones, [display], host)
    settle(server, table, [display, host, *phones])
    assert display.view is not None and display.view["game"]["view"]["finished"]
    # The game over is reviewed (in the companion players' pool): each screen shows it.
    for peer in [display, host, *phones]:
        _wait(peer, "the ready review", _review_ready, 60)
    peers = [("display", display), ("host", host), *(("seat", p) for p in [*phones, *gone])]
    seen: set[str] = set()
    for role, peer in peers:
        for n, frame in enumerate(peer.frames):
            _check_frame(frame, role, f"{role} frame {n}")
            seen.add(frame["type"])
    assert seen == {"view", *OTHER_FRAMES} - {"table_closed"}, seen
    # The frames really held the parts the types describe.
    views = [(role, f) for role, p in peers for f in p.frames if f["type"] == "view"]
    assert any(f["type"] == "ack" and f.get("retry") for f in phones[0].frames)
    notices = {f["notice"]["kind"] for r, f in views if r == "seat" and "notice" in f}
    assert notices == {"undone", "resumed"}, notices
    assert any(f["host"] and f["host"]["waiting"] for r, f in views if r == "host")
    assert any(f["game"] and "staged" in f["game"] for _, f in views)
    for role, peer in [("display", display), ("host", host), *(("seat", p) for p in phones)]:
        review = peer.view["review"]
        assert "older" in review and len(review["players"]) == len(phones), review
        assert ("mine" in review) == (role == "seat"), review
    beats = {b["kind"] for b in (display.view.get("show") or {}).get("beats", [])}
    assert display.view["story"] is not None and beats, beats
    kinds = {e["type"] for p in phones for f in p.frames for e in f.get("events", [])}
    assert {"sacrificed", "bid_placed", "ranking", "game_over"} <= kinds
