# Every vector of hardware/protocol_vectors.json through the firmware's decoder, board and
# encoder. Reports raw observations; tests/firmware/test_firmware.py compares them.
import json

import fw_wire as w
from common import hexs, make_board, parse_all, report, unhex

v = json.load(open("/data/protocol_vectors.json"))
cfg = v["board"]
crc_in = unhex(v["crc_check"]["input"])
out = {"crc_check": f"{w.crc16(crc_in, 0, len(crc_in)):04x}", "cases": {}}
for case in v["cases"]:
    data = unhex(case["wire"])
    frames, garbage = parse_all(data)
    res = {"frames": frames, "garbage": garbage}
    if case["direction"] == "host_to_board":
        board, port, strip, clock = make_board(cfg["led_count"], name=cfg["name"],
                                               boot_id=cfg["boot_id"])
        board.feed(data, len(data), 0)
        res["replies"] = parse_all(port.take())[0]
        res["pixels"] = hexs(bytes(board.pixels.picture))
    else:
        # The board's encoder must produce exactly these bytes for each frame it sends.
        writer = w.FrameWriter(64)
        enc = b""
        for f in case["frames"]:
            if "error" not in f:
                p = unhex(f["payload"])
                enc += bytes(writer.frame(f["type"], f["seq"], p, len(p)))
        res["encoded"] = hexs(enc)
    out["cases"][case["name"]] = res
report(out)
