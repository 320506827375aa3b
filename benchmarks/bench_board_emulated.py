"""The LED board's speed on the real firmware: MicroPython v1.28.0 (rp2, RPI_PICO) running
firmware/micropython/ in an emulated RP2040 (rp2040js, tests/firmware/rp2040/). Every figure
is EMULATED time: cycle counts at 125 MHz, taken from the emulator's own clock, so they do not
depend on how busy this machine is. The emulator gives flash zero wait states; a real Pico
runs from XIP flash through a 16 KB cache and is slower (hardware/FIRMWARE.md "Speed").

    .venv/bin/python benchmarks/bench_board_emulated.py [--pictures 200] [--seed 3]

Measures, over the emulated USB CDC port:
- first byte of a PICTURE -> last byte of its ACK, for the `game_picture_largest` vector (the
  largest PICTURE frame of 500 pictures of real 5-player games) and for a run of real game
  pictures sent back to back (stop-and-wait, the host's policy), goal <= 10 ms;
- pictures per second sustained over that run (each picture's strip write included), goal >= 30;
- PING -> STATUS round trip on an idle board, goal <= 2 ms, and right after a picture;
- the board's heap (gc.mem_alloc / mem_free through PING 01) before and after the run;
- boot: power-on to the VERSION announcement.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "firmware"))

import emulator as em  # noqa: E402

from companion.board import protocol as p  # noqa: E402

T = p.MessageType


class Host:
    def __init__(self, board: em.EmulatedBoard) -> None:
        self.board = board
        self.seq = 0

    def next_seq(self) -> int:
        self.seq = self.seq % 255 + 1
        return self.seq

    def timed(self, wire: bytes) -> tuple[p.Frame, float, int]:
        """Sends one frame; (answer, first byte -> last answer byte in emulated ms, cycle of
        the answer's last byte)."""
        board = self.board
        start = len(board.received)
        at = board.write(wire)
        (answer,) = em.wait_replies(board, start, 1)
        end = board.received.find(b"\xc0", board.received.find(b"\xc0", start) + 1)
        done = board.cycle_of_in(end)
        return answer, em.ms(done - board.cycle_of_out(at)), done

    def request(self, mtype: int, payload: bytes = b"") -> tuple[p.Frame, float, int]:
        seq = self.next_seq()
        answer, took, done = self.timed(p.encode(mtype, seq, payload))
        assert isinstance(answer, p.Frame) and answer.seq == seq, answer
        return answer, took, done


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(ordered):.2f} ms, p99 {p99:.2f} ms, max {ordered[-1]:.2f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pictures", type=int, default=200)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    reason = em.missing()
    if reason:
        print(f"cannot run the emulated board: {reason}", file=sys.stderr)
        return 1
    vectors = {
        v["name"]: v
        for v in json.loads((ROOT / "hardware/protocol_vectors.json").read_text())["vectors"]
    }
    largest = p.Decoder().feed(bytes.fromhex(vectors["game_picture_largest"]["hex"]))[0]
    pictures = em.game_pictures(args.seed, 5, args.pictures)
    wall = time.monotonic()
    patch = em.firmware_flash_patch()
    with em.EmulatedBoard(patch) as board:
        board.event("usb")
        em.wait_replies(board, 0, 1)
        boot_ms = em.ms(board.cycle_of_in(0))
        host = Host(board)
        host.request(T.HELLO, p.hello_payload())
        host.request(T.CONFIG, p.config_payload(1.0, 3000))
        heap0 = p.parse_status(host.request(T.PING, b"\x01")[0].payload)

        idle_ping = []
        for _ in range(20):
            idle_ping.append(host.request(T.PING)[1])
            time.sleep(0.05)  # let the board idle (about 10 ms emulated)

        big = []
        big_wire = len(bytes.fromhex(vectors["game_picture_largest"]["hex"]))
        for _ in range(10):
            answer, took, done = host.request(T.PICTURE, largest.payload)
            assert answer.type == T.ACK
            big.append(took)
            # the next one goes to an idle board: after this picture's strip write
            board.event("leds", 0, match=lambda e, done=done: e["cycle"] >= done - em.HZ // 100)
            time.sleep(0.02)

        run, wire = [], []
        first_cycle = None
        last_done = 0
        for picture in pictures:
            payload = p.picture_payload(picture)
            seq = host.next_seq()
            frame = p.encode(T.PICTURE, seq, payload)
            wire.append(len(frame))
            start = len(board.received)
            at = board.write(frame)
            (answer,) = em.wait_replies(board, start, 1)
            assert answer == p.Frame(T.ACK, seq, bytes((T.PICTURE,))), answer
            end = board.received.find(b"\xc0", board.received.find(b"\xc0", start) + 1)
            sent = board.cycle_of_out(at)
            first_cycle = sent if first_cycle is None else first_cycle
            last_done = board.cycle_of_in(end)
            run.append(em.ms(last_done - sent))
        span_s = (last_done - first_cycle) / em.HZ
        after_picture_ping = host.request(T.PING)[1]
        heap1 = p.parse_status(host.request(T.PING, b"\x01")[0].payload)
        status = p.parse_status(host.request(T.PING)[0].payload)
        stats = board.close()

    print(
        "LED board on the real firmware: MicroPython v1.28.0 rp2 (RPI_PICO) in an emulated "
        "RP2040 (rp2040js 1.4.1);"
    )
    print("all times are EMULATED ms at 125 MHz (flash without wait states: a real Pico is slower)")
    print(f"boot: power-on -> VERSION announced: {boot_ms:.0f} ms")
    print(
        f"largest real 5-player picture ({big_wire} bytes on the wire), first byte -> ACK: "
        f"{summary(big)} (goal <= 10 ms)"
    )
    print(
        f"{len(pictures)} real 5-player pictures back to back (stop-and-wait), first byte -> "
        f"ACK: {summary(run)}"
    )
    print(
        f"  sustained: {len(pictures) / span_s:.1f} pictures/s over {span_s:.2f} s emulated, "
        f"strip writes included (goal >= 30); wire bytes mean {statistics.mean(wire):.0f}, "
        f"max {max(wire)}"
    )
    print(
        f"PING -> STATUS on an idle board: {summary(idle_ping)} (goal <= 2 ms); right after "
        f"a picture (waits for its strip write): {after_picture_ping:.2f} ms"
    )
    print(
        f"heap: {heap0['heap_used']} bytes used, {heap0['heap_free']} free before the run; "
        f"{heap1['heap_used']} used after {status['frames']} pictures "
        f"({'unchanged' if heap1['heap_used'] == heap0['heap_used'] else 'CHANGED'})"
    )
    worst = max(max(big), max(run), after_picture_ping)
    print(f"worst answer seen: {worst:.2f} ms emulated")
    print(
        f"(wall time {time.monotonic() - wall:.0f} s; emulator "
        f"{stats['cycle'] / max(stats['wall_ms'], 1) / 1000:.0f} M cycles per wall second)"
        if stats
        else ""
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
