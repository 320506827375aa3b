# Boot announcement, the host-lost pattern on a fake clock, recovery and the watchdog.
import fw_board
import fw_wire as w
from common import frame, hexs, make_board, parse_all, report, run_bytes
from machine import WDT

wdt = WDT(timeout=8000)
board, port, strip, clock = make_board(6, brightness=255, budget_ma=5000, host_lost_ms=3000,
                                       wdt=wdt, boot_id=0xBEEF, name="rp2")
board.start()
out = {"announce": parse_all(port.take())[0], "boot_dark": hexs(bytes(strip.buf))}
pic = bytes([0, 0, 6]) + bytes([0, 0, 255]) * 6
run_bytes(board, port, frame(w.T_PICTURE, 1, pic))
out["picture"] = hexs(bytes(strip.buf))
timeline = []
for t in (1000, 2999, 3000, 3100, 3200, 3750):
    clock.t = t
    board.step()
    timeline.append({"t": t, "state": board.state, "strip": hexs(bytes(strip.buf))})
out["timeline"] = timeline
out["feeds_after_steps"] = wdt.feeds
# The host comes back with just a PING: the last picture is restored at once.
clock.t = 4000
run_bytes(board, port, frame(w.T_PING, 2))
out["after_ping"] = {"state": board.state, "strip": hexs(bytes(strip.buf)),
                     "replies": parse_all(port.take())[0]}
# A STATUS request reports the counters.
run_bytes(board, port, frame(w.T_STATUS_REQ, 3))
out["status"] = parse_all(port.take())[0]
out["states"] = {"BOOT": fw_board.BOOT, "LIVE": fw_board.LIVE, "LOST": fw_board.LOST}
report(out)
