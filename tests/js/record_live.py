"""Record what one phone's pad folds from a live server (tests/js/padstate.test.mjs):
``companion serve`` on loopback, three phones and the host playing a round with undos: the
host takes back another seat's sacrifice and another seat's bid while Ana's answers are in
flight, then Ana's own bid once its view is up. Ana's socket is recorded in arrival order,
with her own commands marked where she sent them (``{"type": "sent", "id", "kind"}``, as
pad.js tells padstate.js). Only what the pad's decision reads is kept (type, id, seq, reason,
game id and status, her pending questions, whether a history came), so the file is small and
holds no token. The interleaving depends on timing: each run records one real order.

    .venv/bin/python tests/js/record_live.py   # writes tests/js/fixtures/live_undos.json
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "web"), str(HERE.parent.parent)]

from live_server import Host, LiveServer, Phone, seat_phones  # noqa: E402

OUT = HERE / "fixtures" / "live_undos.json"
PAIRS = {  # every hand is 1..12 once the 0 is sacrificed
    "ana": [(6, 12), (1, 2), (3, 4), (10, 11), (5, 7), (8, 9)],
    "ben": [(7, 11), (3, 4), (5, 6), (9, 10), (1, 2), (8, 12)],
    "cleo": [(8, 10), (5, 6), (1, 9), (4, 7), (11, 12), (2, 3)],
}


def keep(frame: dict[str, Any]) -> dict[str, Any]:
    """What padstate.js reads of a frame."""
    out: dict[str, Any] = {k: frame[k] for k in ("type", "id", "seq", "reason") if k in frame}
    if frame.get("type") == "view":
        game = frame.get("game") or {}
        out["game"] = {"id": game.get("id"), "status": game.get("status")} if game else None
        out["you"] = {"pending": (frame.get("you") or {}).get("pending", [])}
        if "history" in frame:
            out["history"] = []
    return out


def record() -> list[dict[str, Any]]:
    log: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as data:
        server = LiveServer(Path(data), tables=1).start()
        try:
            ana, ben, cleo = seat_phones(server, "1", ["Ana", "Ben", "Cleo"])
            host = Host(server, "1")
            host.hello()

            def pull(wait: float = 0.3) -> None:
                while (frame := ana.poll(wait)) is not None:
                    log.append(keep(frame))
                    wait = 0.05

            def answered(phone: Phone) -> None:
                """Wait for ``phone``'s command to be acknowledged (or refused)."""
                for _ in range(200):
                    if phone.outstanding is None:
                        return
                    phone.poll(0.05)
                raise TimeoutError(f"{phone.seat}'s command was never answered")

            def ana_sends(kind: str, command: dict[str, Any]) -> None:
                pull()
                cid = ana.command(command)
                log.append({"type": "sent", "id": cid, "kind": kind})

            assert host.act("start", dice="digital")["type"] == "ok"
            pull()
            ben.command({"type": "sacrifice", "card": 0})
            answered(ben)
            cleo.command({"type": "sacrifice", "card": 1})
            answered(cleo)
            pull()
            # The host takes back Cleo's sacrifice; Ana answers while its view is on its way.
            undo = host.undo_fields()
            ana_sends("sacrifice", {"type": "sacrifice", "card": 0})
            host.act("undo", **undo)
            pull()
            cleo.command({"type": "sacrifice", "card": 0})
            answered(cleo)
            pull()
            # Bids: Ben's, Cleo's, the host takes back Cleo's as Ana sends hers.
            for phone in (ben, cleo):
                phone.command({"type": "bid", "bids": bids(phone.seat)})
                answered(phone)
            pull()
            undo = host.undo_fields()
            ana_sends("bid", {"type": "bid", "bids": bids("ana")})
            host.act("undo", **undo)
            pull()
            # Then the host takes back Ana's own bid, once its view is up: she is asked again.
            assert host.act("undo", **host.undo_fields())["type"] == "ok"
            pull()
            ana_sends("bid", {"type": "bid", "bids": bids("ana")})
            pull()
            cleo.command({"type": "bid", "bids": bids("cleo")})
            answered(cleo)
            assert not cleo.errors, cleo.errors
            pull(1.0)
            # Whatever the stations ask of Ana next (dice, city), answered simply.
            for _ in range(12):
                pending = [p["type"] for p in (ana.view or {}).get("you", {}).get("pending", [])]
                if not pending or pending[0] not in ("dice", "city"):
                    break
                kind = pending[0]
                cmd = (
                    {"type": "dice", "count": 0}
                    if kind == "dice"
                    else {"type": "city", "choice": "die"}
                )
                ana_sends(kind, cmd)
                pull(1.0)
        finally:
            server.stop()
    return log


def bids(seat: str) -> dict[str, list[int]]:
    return {str(i + 1): list(pair) for i, pair in enumerate(PAIRS[seat])}


if __name__ == "__main__":
    OUT.parent.mkdir(parents=True, exist_ok=True)
    frames = record()
    OUT.write_text(json.dumps(frames, indent=0) + "\n", encoding="utf-8")
    print(f"{OUT}: {len(frames)} messages")
