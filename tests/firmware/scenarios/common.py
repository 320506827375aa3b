# Helpers shared by the MicroPython scenarios (runs inside MicroPython, imported from /fw's
# neighbour /lib via the runner).
import binascii
import json

import fw_board
import fw_wire as w
from fakeio import FakeClock, FakePort
from neopixel import NeoPixel


def hexs(b):
    return binascii.hexlify(b).decode()


def unhex(s):
    return binascii.unhexlify(s)


def report(d):
    print("RESULT " + json.dumps(d))


def parse_all(data, parser=None):
    """Frames and errors in data, as dicts like the vectors file (reasons as numbers)."""
    p = parser if parser is not None else w.FrameParser()
    out = []
    for b in data:
        r = p.feed(b)
        if r == w.FRAME:
            out.append({"type": p.type, "seq": p.seq,
                        "payload": hexs(bytes(p.buf[w.HEADER:w.HEADER + p.length]))})
        elif r == w.ERROR:
            out.append({"error": p.reason, "seq": p.seq, "type": p.type})
    return out, p.garbage


def make_board(n=8, clock=None, port=None, **kw):
    clock = clock if clock is not None else FakeClock()
    port = port if port is not None else FakePort()
    strip = NeoPixel(None, n)
    board = fw_board.Board(port, strip, n, clock.ticks_ms, clock.ticks_diff, **kw)
    return board, port, strip, clock


_writer = w.FrameWriter(1024)


def frame(typ, seq, payload=b""):
    """Wire bytes of one host frame, built with the firmware's own writer."""
    return bytes(_writer.frame(typ, seq, payload, len(payload)))


def run_bytes(board, port, data):
    port.push(data)
    while port.pending():
        board.step()
