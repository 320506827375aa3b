"""The host link code that drives a real board (companion/board/link.py) drives the emulated
RP2040 running the real MicroPython firmware, through a real pseudo-terminal, for a short
5-player game: every picture is acknowledged and the strip shows the last one exactly."""

from __future__ import annotations

import time

from companion.board.link import BoardLink

from . import emulator as em

LEDS = 208
DEADLINE_S = 60.0  # wall time on a shared machine; the emulator runs slower than a board


def test_the_link_plays_a_short_game_on_the_emulated_board(rp2040, tmp_path):
    bridge = em.PtyBridge(rp2040, tmp_path)
    # The emulator runs several times slower than a real board (and slower still on a busy
    # machine), so the wall-clock ACK timeout gets room; the default is for real hardware.
    link = BoardLink(
        bridge.path, LEDS, brightness=1.0, milliamp_budget=3000, ack_timeout=1.0
    ).start()
    try:
        pictures = em.game_pictures(seed=21, players=5, limit=30)
        for picture in pictures:
            gen = link.show(picture)
            assert link.wait_shown(gen, DEADLINE_S), link.status()
        st = link.status()
        assert st["state"] == "connected" and st["last_error"] is None
        assert st["firmware"] == "2.0.0 rp2" and st["version"] == 2 and st["led_count"] == LEDS
        assert st["frames_acked"] >= len(pictures)
        assert st["nacks"] == 0
        # the strip shows the last picture after gamma and the limiter, decoded from GP0
        want = em.expected_grb(pictures[-1])
        rp2040.wait_for(
            lambda: any(
                e["ev"] == "leds" and bytes.fromhex(e["grb"]) == want for e in rp2040.events[-20:]
            ),
            "the last picture on GP0",
        )
        # the heartbeat keeps the board from its host-lost pattern
        end = time.monotonic() + 30
        while link.status()["board"] is None and time.monotonic() < end:
            time.sleep(0.1)
        board = link.status()["board"]
        assert board is not None and not board["host_lost"]
        assert board["frames"] >= len(pictures)
    finally:
        link.stop()
        bridge.close()
