# Gamma, brightness, colour order and the current limiter, driven through PICTURE/CONFIG frames.
import fw_wire as w
from common import frame, hexs, make_board, parse_all, report, run_bytes


def picture(rgb_list):
    raw = b"".join(bytes(c) for c in rgb_list)
    n = len(rgb_list)
    return bytes([0, n >> 8, n & 0xFF]) + raw


out = {}
# 1. Gamma with full brightness and an ample budget; colour order GRB in the strip buffer.
board, port, strip, clock = make_board(4, brightness=255, budget_ma=5000)
run_bytes(board, port, frame(w.T_PICTURE, 1, picture([(255, 255, 255), (128, 64, 0),
                                                      (10, 20, 30), (0, 0, 0)])))
out["gamma"] = {"strip": hexs(bytes(strip.buf)), "table": list(board.pixels.table),
                "replies": parse_all(port.take())[0], "estimated_ma": board.pixels.estimated_ma,
                "scale": board.pixels.scale, "writes": strip.writes}

# 2. The limiter: 10 white LEDs at full brightness want ~610 mA; the budget is 300 mA.
board, port, strip, clock = make_board(10, brightness=255, budget_ma=300, channel_ma=20,
                                       idle_ma=1)
run_bytes(board, port, frame(w.T_PICTURE, 2, picture([(255, 255, 255)] * 10)))
out["limited"] = {"strip": hexs(bytes(strip.buf)), "estimated_ma": board.pixels.estimated_ma,
                  "scale": board.pixels.scale, "budget": 300, "channel_ma": 20, "idle_ma": 1,
                  "led_count": 10}

# 3. CONFIG changes brightness and budget and re-renders the current picture at once.
board, port, strip, clock = make_board(10, brightness=255, budget_ma=5000)
run_bytes(board, port, frame(w.T_PICTURE, 3, picture([(255, 255, 255)] * 10)))
before = hexs(bytes(strip.buf))
run_bytes(board, port, frame(w.T_CONFIG, 4, bytes([64, 0x01, 0x2C, 20, 0x0B, 0xB8])))
out["config"] = {"before": before, "after": hexs(bytes(strip.buf)),
                 "table_255": board.pixels.table[255], "budget": board.pixels.budget_ma,
                 "estimated_ma": board.pixels.estimated_ma,
                 "replies": parse_all(port.take())[0]}

# 4. A refused picture leaves the strip as it was.
board, port, strip, clock = make_board(3, brightness=255, budget_ma=5000)
run_bytes(board, port, frame(w.T_PICTURE, 5, picture([(255, 0, 0)] * 3)))
good = hexs(bytes(strip.buf))
run_bytes(board, port, frame(w.T_PICTURE, 6, bytes([1, 0, 3, 1, 0, 255, 0, 3, 3])))
out["refused"] = {"before": good, "after": hexs(bytes(strip.buf)),
                  "replies": parse_all(port.take())[0]}
report(out)
