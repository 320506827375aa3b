"""The frame types (table/frame_types.py) say what PROTOCOL.md documents and what a live
server sends.

PROTOCOL.md 3.4 lists the server's frames (a JSON line each) and the view frame's fields (a
bullet each); the TypedDicts must have exactly those keys. Then a whole game is played on a
live server and every frame each phone, the display and the host received is held to its
audience's type, down to the engine view, the events and the show's beats.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, get_args, get_type_hints

from live_server import Host, LiveServer, Peer, play, seat_phones, settle
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


def test_a_whole_games_frames_have_their_audiences_types(server: LiveServer, table: str) -> None:
    phones = seat_phones(server, table, ["Ana", "Ben", "Cleo"])
    display = Peer(f"{server.ws_base}/t/{table}/ws/display")
    host = Host(server, table)
    host.hello()
    assert host.act("start", dice="digital")["type"] == "ok"
    play(phones, [display], host)
    settle(server, table, [display, host, *phones])
    assert display.view is not None and display.view["game"]["view"]["finished"]
    seen: set[str] = set()
    for role, peer in [("display", display), ("host", host), *(("seat", p) for p in phones)]:
        for n, frame in enumerate(peer.frames):
            _check_frame(frame, role, f"{role} frame {n}")
            seen.add(frame["type"])
    assert {"view", "ack", "ok"} <= seen
    # The game really went through the parts the types describe.
    beats = {b["kind"] for b in (display.view.get("show") or {}).get("beats", [])}
    assert display.view["story"] is not None and beats, beats
    kinds = {e["type"] for p in phones for f in p.frames for e in f.get("events", [])}
    assert {"sacrificed", "bid_placed", "ranking", "game_over"} <= kinds
