# No per-frame allocation: 198 LEDs (60 boxes x 3 + 14 pyramid + 4 status), pictures in both
# encodings, measured with gc.mem_alloc and enforced with micropython.heap_lock.
import gc

import fw_wire as w
import micropython
from common import frame, make_board, report
from fakeio import FakePort

N = 198
port = FakePort(in_size=65536, out_size=65536)
board, port, strip, clock = make_board(N, port=port, brightness=128, budget_ma=800)


def raw_pic(k):
    b = bytearray(3 * N)
    for i in range(N):
        b[3 * i] = (i * 7 + k) & 0xFF
        b[3 * i + 1] = (i * 3) & 0xFF
        b[3 * i + 2] = 200 if (i + k) % 5 == 0 else 0
    return bytes([0, N >> 8, N & 0xFF]) + bytes(b)


def rle_pic(k):
    pal = bytes([0, 0, 0, 230, 159, 0, 86, 180, 233, 0, 158, 115, 240, 228, 66, 0, 114, 178])
    runs = bytearray()
    left = N
    i = 0
    while left:
        run = min(left, 1 + (i + k) % 7)
        runs += bytes([(i + k) % 6, run])
        left -= run
        i += 1
    return bytes([1, N >> 8, N & 0xFF, 6]) + pal + bytes(runs)


frames = []
for k in range(40):
    frames.append(frame(w.T_PICTURE, k, raw_pic(k) if k % 2 else rle_pic(k)))
frames.append(frame(w.T_PING, 200))
frames.append(frame(w.T_PING, 201)[:-3] + b"\x7e")  # a damaged frame (NACK path)

for f in frames[:4]:  # warm-up
    port.push(f)
    board.step()
    board.step()
    board.step()
    board.step()
port.outlen = 0

# Queue the rest first: pushing allocates (slices), processing must not.
for f in frames[4:]:
    port.push(f)
gc.collect()
before = gc.mem_alloc()
steps = 0
micropython.heap_lock()
try:
    while port.pending():
        board.step()
        steps += 1
    locked_ok = True
except MemoryError:
    locked_ok = False
micropython.heap_unlock()
after = gc.mem_alloc()
report({"locked_ok": locked_ok, "alloc_delta": after - before, "steps": steps,
        "pictures": board.pictures, "frames_bad": board.frames_bad,
        "reply_bytes": port.outlen, "has_mem_alloc": hasattr(gc, "mem_alloc")})
