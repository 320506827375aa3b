"""The show keeps one beat on every screen (DESIGN.md "The show", docs/RULES.md R3, R6, R7).

A live ``companion serve`` plays whole games with a short test pace while the test samples
what the display, the phones and the host receive, in the order they receive it:

- the display gets every step in order, each saying the seconds it holds (its stations times
  the pace) and carrying every station's full ranking (bids with their parts, ties);
- no phone is asked a decision in a step the display is not sent;
- "last round" is on the display in a step before the one that asks the last round's first
  bid, the end reason is in the finished view, the final-scoring lines and the winner hold
  their beats;
- after ``kill -9`` mid-show, the restarted server shows the step it was on with the time
  already spent on it counted, then goes on.

The seconds themselves (a step stays up its hold, never less; a restart shows the rest of
the step) are checked on the stage's own clock in tests/table/test_stage_holds.py, where a
late frame on a busy machine cannot blur them.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from typing import Any

import requests
from live_server import Host, LiveServer, Peer, Phone, policy, reconnect, seat_phones

from companion.table import show, staging

NAMES = ["Ana", "Ben", "Cleo"]
PACE = 0.8  # seconds a station's result stays up (the test pace, "test:0.8")


class Recorded:
    """Wraps a peer: every frame it receives is kept, in the order it came. With ``reader``
    a thread of its own receives the frames, so none waits on a busy test loop."""

    def __init__(self, peer: Peer, reader: bool = False) -> None:
        self.peer = peer
        self.log: list[dict[str, Any]] = []
        self._reader: threading.Thread | None = None
        if reader:
            self._reader = threading.Thread(target=self._read, daemon=True)
            self._reader.start()

    def _read(self) -> None:
        while not self.peer.closed:
            frame = self.peer.poll(0.05)
            if frame is not None:
                self.log.append(frame)

    def poll(self, timeout: float = 0.0) -> dict[str, Any] | None:
        if self._reader is not None:  # its own thread receives
            return None
        frame = self.peer.poll(timeout)
        if frame is not None:
            self.log.append(frame)
        return frame

    def views(self) -> list[tuple[float, dict[str, Any]]]:
        return [f for f in list(self.log) if f["type"] == "view"]


def drain(recorded: list[Recorded], timeout: float = 0.0) -> None:
    for c in recorded:
        while c.poll(timeout) is not None:
            pass


def drive(phones: list[Phone], recorded: list[Recorded], until: Any, timeout: float = 180) -> None:
    """Answer whatever each phone's latest view asks (nothing else) until ``until()``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        drain(recorded)
        if until():
            return
        acted = False
        for phone in phones:
            pending = phone.view["you"]["pending"] if phone.view else []
            if phone.ready() and pending:
                phone.command(policy(phone.view, phone.seat, pending[0]))
                acted = True
        if not acted:
            for c in recorded:
                c.poll(0.01)
        for phone in phones:
            assert not phone.errors, phone.errors
    raise TimeoutError("the game did not get there")


def new_steps(display: Recorded) -> list[tuple[int, dict[str, Any]]]:
    """(step, frame) of every display frame that put a new step up."""
    out: list[tuple[int, dict[str, Any]]] = []
    for f in display.views():
        step = (f.get("show") or {}).get("step", f["seq"])
        if not out or step > out[-1][0]:
            out.append((step, f))
    return out


def started(
    tmp_path: Any, reader: bool = False
) -> tuple[LiveServer, Host, Recorded, list[Phone], list[Recorded]]:
    server = LiveServer(tmp_path / "data", tables=1, extra=["--pace", "normal"]).start()
    phones = seat_phones(server, "1", NAMES)
    host = Host(server, "1")
    host.hello()
    assert host.act("set_pace", pace=f"test:{PACE}")["type"] == "ok"
    peer = Peer(f"{server.ws_base}/t/1/ws/display")
    peer.until(lambda f: f["type"] == "view")
    display = Recorded(peer, reader)
    assert host.act("start", dice="digital")["type"] == "ok"
    recorded = [display, *(Recorded(p) for p in phones), Recorded(host)]
    return server, host, display, phones, recorded


def test_one_beat_on_every_screen_through_a_whole_game(tmp_path: Any) -> None:
    server, host, display, phones, recorded = started(tmp_path, reader=True)
    try:
        drive(
            phones,
            recorded,
            lambda: bool(
                display.peer.view
                and display.peer.view["game"]
                and display.peer.view["game"]["view"]["finished"]
            ),
            timeout=300,
        )
        # The last step (final scoring) holds its beats: a line per player (R7), the winner.
        final = display.peer.view
        assert final["show"]["hold"] >= PACE * (len(NAMES) + 1), final["show"]
    finally:
        for c in recorded:
            c.peer.close()
        server.stop()

    steps = new_steps(display)
    ranked = 0
    # The display goes through the steps in order (no undo here: it never goes back), each
    # step saying the seconds it holds.
    arrived = [(f.get("show") or {}).get("step", f["seq"]) for f in display.views()]
    assert arrived == sorted(arrived)
    for _step, frame in steps[:-1]:
        events = frame["events"]
        rankings = [e for e in events if e["type"] == "ranking"]
        # The full result: every bid with its parts, the order, the reason for every tie.
        for r in rankings:
            assert r["entries"] and all(
                {"player", "cards", "total", "place"} <= set(e) for e in r["entries"]
            ), r
            assert "ties" in r and "order" in r, r
        assert show.hold(events, f"test:{PACE}") == frame["show"]["hold"]
        ranked += len(rankings)
    assert ranked >= 12  # at least two rounds of six stations were watched

    # Each step comes with the board at each of its beats, staged on the server
    # (companion/table/staging.py): a station's beat shows that station, with cubes and
    # scores between the view before the step and the view after it.
    staged_steps = 0
    for _step, frame in steps:
        beats, game = frame["show"]["beats"], frame["game"]
        if not beats or "staged" not in game:
            continue
        staged_steps += 1
        after = game["view"]
        assert len(game["staged"]["beats"]) == len(beats)
        before = staging.patch(after, game["staged"]["before"])
        for b, changes in zip(beats, game["staged"]["beats"], strict=True):
            at = staging.patch(after, changes)
            if b["kind"] == "station":
                assert at["station"] == b["station"], (
                    b["untold"],
                    [e["type"] for e in frame["events"]],
                    frame["reason"],
                    at["station"],
                )
            for p, card in at["players"].items():
                low, high = sorted(
                    (before["players"][p]["cubes_used"], after["players"][p]["cubes_used"])
                )
                assert low <= card["cubes_used"] <= high, (p, b, card)
    assert staged_steps >= 5

    # No phone is asked for a decision in a step the display is not sent (the same frame goes
    # to every screen at once; the phone holds the question until the step's beats end).
    shown = {step for step, _ in steps}
    for c in recorded[1:-1]:
        for f in c.views():
            if f["you"]["pending"]:
                assert f["show"]["step"] in shown, (f["show"]["step"], sorted(shown)[-5:])

    # "Last round" is on the display as soon as it is known (R6.3), as a beat of its own;
    # when the round count makes it (R2.1), before the last round's first bid is asked.
    view_of = [(f["game"]["view"], f) for f in display.views() if f["game"]]
    end = view_of[-1][0]
    frame = next(f for v, f in view_of if v["last_round"])
    assert "last_round" in [b["kind"] for b in frame["show"]["beats"]], frame["show"]
    if end["last_round_reason"] == "max_rounds":
        first_bid = min(
            f["show"]["step"]
            for c in recorded[1:-1]
            for f in c.views()
            if f["game"]
            and f["game"]["view"]["round"] == end["round"]
            and any(e["type"] == "bid" for e in f["you"]["pending"])
        )
        assert frame["show"]["step"] <= first_bid, (frame["show"]["step"], first_bid)
    # The end's reason is in the finished view (R6.3), the winners are named (R7).
    assert end["finished"] and end["last_round_reason"] in ("max_rounds", "end_score", "cubes")
    assert end["winners"]


def test_kill_9_mid_show_resumes_the_step_it_was_on(tmp_path: Any) -> None:
    server, host, display, phones, recorded = started(tmp_path)
    # A long pace, so the show is surely mid-step when the power goes.
    assert host.act("set_pace", pace="test:4")["type"] == "ok"
    data = server.data
    try:

        def revealing() -> bool:
            f = display.peer.view
            return bool(f and any(e["type"] == "ranking" for e in f["events"]))

        drive(phones, recorded, revealing)
        frame = display.peer.view
        step, hold = frame["show"]["step"], frame["show"]["hold"]
        assert hold >= 4
        server.kill9()
        for c in recorded:
            c.peer.close()
        server = LiveServer(data, tables=1, extra=["--pace", "normal"]).start()
        again = Recorded(Peer(f"{server.ws_base}/t/1/ws/display"))
        hello = again.peer.until(lambda f: f["type"] == "view")
        # The same step, with the time already spent on it counted.
        assert hello["show"]["step"] == step, (hello["show"], step)
        assert hello["seq"] == step
        assert 0 < hello["show"]["elapsed"] < hold
        phones = reconnect(server, "1", phones)
        for p in phones:  # no phone is asked ahead of the display
            assert p.view["show"]["step"] == step
        # The phones answer what this step asks (if anything) once its rest is shown, and the
        # show goes on (the seconds: tests/table/test_stage_holds.py).
        watched = [again, *(Recorded(p) for p in phones)]
        drive(phones, watched, lambda: again.peer.view["show"]["step"] > step, timeout=hold + 30)
        again.peer.close()
    finally:
        for p in phones:
            p.close()
        server.stop()


def test_host_next_moves_on_sooner(tmp_path: Any) -> None:
    server, host, display, phones, recorded = started(tmp_path)
    assert host.act("set_pace", pace="test:30")["type"] == "ok"
    try:

        def revealing() -> bool:
            f = display.peer.view
            return bool(f and any(e["type"] == "ranking" for e in f["events"]))

        drive(phones, recorded, revealing)
        step = display.peer.view["show"]["step"]
        beats = len(display.peer.view["show"]["beats"])
        # The phones answer what this step asks (dice, a tie's decision): acknowledged at
        # once, while the show holds on this step.
        drive(
            phones,
            recorded,
            lambda: all(
                p.outstanding is None
                and (not p.view["you"]["pending"] or p.acked_seq > p.view["seq"])
                for p in phones
            ),
        )
        assert display.peer.view["show"]["step"] == step
        for _ in range(beats):
            assert host.act("show_next")["type"] == "ok"
        # Well before the 30 s a beat: the next step is up (once the phones answer what the
        # beats held, a tie's decision at the city when the deal made one).
        drive(phones, recorded, lambda: display.peer.view["show"]["step"] > step, timeout=10)
        assert display.peer.view["show"]["step"] > step
        assert host.act("set_pace", pace="sluggish")["type"] == "error"
    finally:
        for c in recorded:
            c.peer.close()
        server.stop()


def test_cafe_lists_say_what_the_screens_show(tmp_path: Any) -> None:
    """Three companion players race ahead on the true state; the café's table list and the
    admin's overview give the round the display shows, not the newest one."""
    server = LiveServer(tmp_path / "data", tables=1, extra=["--pace", "normal"]).start()
    try:
        host = Host(server, "1")
        host.hello()
        for _ in range(3):
            assert host.act("add_bot", level="plain")["type"] == "ok"
        assert host.act("set_pace", pace="test:20")["type"] == "ok"
        display = Peer(f"{server.ws_base}/t/1/ws/display")
        display.until(lambda f: f["type"] == "view")
        assert host.act("start", dice="digital")["type"] == "ok"
        shown = display.until(
            lambda f: f["type"] == "view" and bool(f["game"]) and f["show"]["hold"] > 0,
            timeout=60,
        )
        token = re.search(r"Café admin:\s+\S+/admin\?token=(\S+)", server.log())
        assert token, "the admin link is printed at start-up"

        def lists() -> tuple[int, int, int]:
            cafe = requests.get(f"{server.base}/api/tables", timeout=5).json()["tables"][0]
            admin = requests.get(
                f"{server.base}/admin/api/tables",
                headers={"X-Admin-Token": token.group(1)},
                timeout=5,
            ).json()["tables"][0]
            state = requests.get(f"{server.base}/t/1/api/state", timeout=5).json()
            return cafe["round"], admin["round"], state["game"]["view"]["round"]

        # The companion players play the whole game on the true state (their moves are
        # committed) while the show holds the first result for 20 s a beat.
        deadline = time.monotonic() + 60
        status = "playing"
        while status == "playing" and time.monotonic() < deadline:
            db = sqlite3.connect(f"file:{server.data / 'companion.sqlite3'}?mode=ro", uri=True)
            try:
                (status,) = db.execute(
                    "SELECT status FROM games WHERE id = ?", (shown["game"]["id"],)
                ).fetchone()
            finally:
                db.close()
            time.sleep(0.1)
        assert status == "finished", "the companion players did not finish ahead of the show"
        cafe_round, admin_round, display_round = lists()
        assert cafe_round == admin_round == display_round == shown["game"]["view"]["round"] == 1
        cafe = requests.get(f"{server.base}/api/tables", timeout=5).json()["tables"][0]
        assert cafe["status"] == "playing"  # the end is not told before the screens tell it
        display.close()
    finally:
        server.stop()
