# Runs inside the MicroPython interpreter (WebAssembly port) with the firmware files in /fw, the
# stand-in machine/neopixel modules in /standins and the vectors in /data. Prints one line
# "RESULT <json>" that test_firmware_micropython.py checks case by case.
import gc
import json
import sys

sys.path.insert(0, "/standins")
sys.path.insert(0, "/fw")
# The pyscript build of the port brings its own "config" module; the firmware's must win.
for _name in ("config", "proto", "leds", "app", "main"):
    if _name in sys.modules:
        del sys.modules[_name]

import config  # noqa: E402
import machine  # noqa: E402  (stand-in)
import neopixel  # noqa: E402  (stand-in)
import proto  # noqa: E402
from app import Firmware  # noqa: E402
from leds import Strip  # noqa: E402

TYPE_NAMES = {proto.HELLO: "HELLO", proto.VERSION: "VERSION", proto.ACK: "ACK",
              proto.NACK: "NACK", proto.PICTURE: "PICTURE", proto.CONFIG: "CONFIG",
              proto.PING: "PING", proto.STATUS: "STATUS", proto.STOP: "STOP"}
TYPE_CODES = {v: k for k, v in TYPE_NAMES.items()}
REASONS = {proto.BAD_CRC: "bad_crc", proto.TRUNCATED: "truncated", proto.TOO_LARGE: "too_large",
           proto.UNKNOWN_TYPE: "unknown_type", proto.BAD_PAYLOAD: "bad_payload",
           proto.BAD_ESCAPE: "bad_escape", proto.BAD_LENGTH: "bad_length",
           proto.UNEXPECTED: "unexpected"}

results = {}


def hexs(b):
    return "".join("%02x" % x for x in b)  # noqa: UP031 - MicroPython-friendly


def unhex(s):
    return bytes(int(s[i:i + 2], 16) for i in range(0, len(s), 2))


class FakeStream:
    """Bytes in from a preloaded buffer, bytes out into a capture buffer; allocation-free."""

    def __init__(self, cap=8192, interrupt_at_end=False):
        self.inbuf = bytearray(cap)
        self.inlen = 0
        self.pos = 0
        self.out = bytearray(16384)
        self.outlen = 0
        self.interrupt_at_end = interrupt_at_end

    def load(self, data):
        for i in range(len(data)):
            self.inbuf[i] = data[i]
        self.inlen = len(data)
        self.pos = 0

    def readinto(self, buf):
        if self.interrupt_at_end and self.pos >= self.inlen:
            raise KeyboardInterrupt  # what a Ctrl-C from mpremote does to the running loop
        n = 0
        size = len(buf)
        while n < size and self.pos < self.inlen:
            buf[n] = self.inbuf[self.pos]
            self.pos += 1
            n += 1
        return n

    def write(self, buf, n):
        if self.outlen + n > len(self.out):
            self.outlen = 0
        for i in range(n):
            self.out[self.outlen + i] = buf[i]
        self.outlen += n

    def wait(self, ms):
        pass

    def take(self):
        data = bytes(self.out[:self.outlen])
        self.outlen = 0
        return data


class FakeClock:
    def __init__(self):
        self.now = 1000

    def ms(self):
        return self.now


def make_board(led_count=config.LED_COUNT):
    machine.WDT.created.clear()
    np = neopixel.NeoPixel(machine.Pin(config.STRIP_PIN, machine.Pin.OUT), led_count)
    strip = Strip(np, led_count, config.GAMMA, config.BRIGHTNESS, config.BUDGET_MA)
    stream = FakeStream()
    clock = FakeClock()
    led = machine.Pin(config.STATUS_LED_PIN, machine.Pin.OUT)
    fw = Firmware(stream, strip, clock.ms, lambda: machine.WDT(timeout=config.WDT_MS), led)
    return fw, np, stream, clock, led


def feed(fw, stream, data):
    stream.load(data)
    while fw.step():
        pass
    return stream.take()


def frame(mtype, seq, payload):
    enc = proto.Encoder(len(payload) + 8)
    n = enc.encode(mtype, seq, payload, len(payload))
    return bytes(enc.out[:n])


def case(name):
    def wrap(fn):
        try:
            out = fn()
            results[name] = out if isinstance(out, dict) else {"ok": bool(out)}
        except Exception as e:  # noqa: BLE001 - report, never crash the suite
            results[name] = {"ok": False, "error": repr(e)}
        return fn
    return wrap


@case("implementation")
def _():
    return {"ok": sys.implementation.name == "micropython", "name": sys.implementation.name,
            "version": list(sys.implementation.version[:3])}


@case("vectors")
def _():
    with open("/data/vectors.json") as f:
        doc = json.load(f)
    failures = []
    for v in doc["vectors"]:
        dec = proto.Decoder(doc["max_payload"])
        got = []
        for b in unhex(v["hex"]):
            r = dec.feed(b)
            if r == proto.FRAME:
                got.append({"event": "frame", "type": TYPE_NAMES[dec.type], "seq": dec.seq,
                            "payload": hexs(dec.buf[proto.HEADER:proto.HEADER + dec.length])})
            elif r == proto.ERROR:
                e = {"event": "error", "reason": REASONS[dec.reason], "seq": dec.seq}
                if dec.reason == proto.UNKNOWN_TYPE:
                    e["type"] = dec.type
                got.append(e)
        if got != v["events"]:
            failures.append({"name": v["name"], "got": got})
        if "encode" in v:
            e = v["encode"]
            wire = frame(TYPE_CODES[e["type"]], e["seq"], unhex(e["payload"]))
            if hexs(wire) != v["hex"]:
                failures.append({"name": v["name"], "encoded": hexs(wire)})
    crc = proto.crc16(b"123456789", 0, 9)
    return {"ok": not failures and "%04x" % crc == doc["crc"]["check"],  # noqa: UP031
            "count": len(doc["vectors"]), "names": [v["name"] for v in doc["vectors"]],
            "failures": failures, "crc_check": "%04x" % crc}  # noqa: UP031


@case("boot_and_version")
def _():
    fw, np, stream, clock, led = make_board()
    boot = stream.take()
    reply = feed(fw, stream, frame(proto.HELLO, 1, b"\x01"))
    return {"ok": True, "boot": hexs(boot), "reply": hexs(reply), "platform": sys.platform,
            "strip_dark": not any(np.buf)}


@case("picture_gamma")
def _():
    fw, np, stream, clock, led = make_board()
    stream.take()
    pic = bytearray(3 * config.LED_COUNT)
    for i in range(len(pic)):
        pic[i] = (i * 37) % 90
    writes = np.writes
    reply = feed(fw, stream, frame(proto.PICTURE, 7, pic))
    return {"ok": True, "picture": hexs(pic), "np_buf": hexs(np.buf), "reply": hexs(reply),
            "order": list(np.ORDER), "writes": np.writes - writes,
            "held": hexs(fw.strip.picture) == hexs(pic), "limited": fw.strip.limited,
            "last_ma": fw.strip.last_ma, "gamma": config.GAMMA}


@case("current_limit")
def _():
    fw, np, stream, clock, led = make_board()
    pic = bytes([255]) * (3 * config.LED_COUNT)
    reply = feed(fw, stream, frame(proto.PICTURE, 8, pic))
    status = feed(fw, stream, frame(proto.PING, 9, b""))
    return {"ok": True, "np_buf": hexs(np.buf), "reply": hexs(reply), "limited": fw.strip.limited,
            "last_ma": fw.strip.last_ma, "budget": fw.strip.budget, "status": hexs(status)}


@case("config")
def _():
    fw, np, stream, clock, led = make_board()
    pic = bytes([200]) * (3 * config.LED_COUNT)
    feed(fw, stream, frame(proto.PICTURE, 1, pic))
    reply = feed(fw, stream, frame(proto.CONFIG, 2, bytes([128, 0x03, 0xE8])))
    after = hexs(np.buf)
    bad = feed(fw, stream, frame(proto.CONFIG, 3, bytes([128, 0, 10])))
    return {"ok": True, "reply": hexs(reply), "np_buf": after, "bad_reply": hexs(bad),
            "brightness": fw.strip.brightness, "budget": fw.strip.budget,
            "last_ma": fw.strip.last_ma, "unchanged_by_bad": hexs(np.buf) == after}


@case("host_lost")
def _():
    fw, np, stream, clock, led = make_board()
    pic = bytes([60, 0, 0]) * config.LED_COUNT
    feed(fw, stream, frame(proto.PICTURE, 1, pic))
    shown = hexs(np.buf)
    for dt in (1000, 1000, 900):  # 2900 ms: still within HOST_LOST_MS
        clock.now += dt
        fw.step()
    before = hexs(np.buf) == shown
    clock.now += 200  # 3100 ms without the host
    fw.step()
    lost = hexs(np.buf)
    lost_flag = fw.showing_lost
    clock.now += 250
    fw.step()
    moved = hexs(np.buf)
    back = feed(fw, stream, frame(proto.PING, 2, b""))
    return {"ok": True, "still_shown_before_timeout": before, "lost_buf": lost,
            "lost_flag": lost_flag, "moved_buf": moved, "restored": hexs(np.buf) == shown,
            "status_after": hexs(back), "led_values": led.values[-4:],
            "host_lost_ms": config.HOST_LOST_MS}


@case("watchdog")
def _():
    fw, np, stream, clock, led = make_board()
    for _ in range(5):
        fw.step()
    before = len(machine.WDT.created)
    feed(fw, stream, frame(proto.PING, 1, b""))
    wdt = machine.WDT.created[-1] if machine.WDT.created else None
    feeds0 = wdt.feeds if wdt else 0
    for _ in range(20):
        clock.now += 10
        fw.step()
    return {"ok": True, "created_before_host": before, "created": len(machine.WDT.created),
            "timeout": wdt.timeout if wdt else None,
            "feeds_in_20_steps": wdt.feeds - feeds0 if wdt else 0}


@case("errors_nack")
def _():
    fw, np, stream, clock, led = make_board()
    stream.take()
    good = frame(proto.PICTURE, 4, bytes([1, 2, 3]))
    bad = bytearray(good)
    bad[1] ^= 0x40  # the type byte: PICTURE becomes 0x50, the CRC no longer matches
    r_crc = feed(fw, stream, bytes(bad))
    r_unknown = feed(fw, stream, frame(0x7A, 13, b"\x55"))
    r_payload = feed(fw, stream, frame(proto.PICTURE, 5, bytes([1, 2])))
    r_unexpected = feed(fw, stream, frame(proto.ACK, 6, b"\x10"))
    r_garbage = feed(fw, stream, b"print('hi')\r\n" + good)
    return {"ok": True, "bad_crc": hexs(r_crc), "unknown_type": hexs(r_unknown),
            "bad_payload": hexs(r_payload), "unexpected": hexs(r_unexpected),
            "garbage_then_good": hexs(r_garbage), "errors": fw.errors, "frames": fw.frames}


@case("stop")
def _():
    fw, np, stream, clock, led = make_board()
    stream.take()
    reply = feed(fw, stream, frame(proto.STOP, 8, b""))
    return {"ok": True, "reply": hexs(reply), "running": fw.running}


@case("main_entry")
def _():
    import main

    out = {"ok": True}
    for how in ("stop", "ctrl_c"):
        machine.resets.clear()
        machine.WDT.created.clear()
        stream = FakeStream(interrupt_at_end=how == "ctrl_c")
        data = frame(proto.PICTURE, 1, bytes([90]) * 30)
        if how == "stop":
            data += frame(proto.STOP, 2, b"")
        stream.load(data)
        outcome = "returned"
        try:
            main.main(stream)
        except machine.ResetCalled:
            outcome = "reset"
        except KeyboardInterrupt:
            outcome = "keyboard_interrupt"
        out[how] = {"outcome": outcome, "resets": len(machine.resets),
                    "wdt": len(machine.WDT.created), "replies": hexs(stream.take())}
    # Ctrl-C before any host frame: no watchdog, so the board drops to the REPL.
    machine.resets.clear()
    stream = FakeStream(interrupt_at_end=True)
    outcome = "returned"
    try:
        main.main(stream)
    except machine.ResetCalled:
        outcome = "reset"
    except KeyboardInterrupt:
        outcome = "keyboard_interrupt"
    out["ctrl_c_no_host"] = {"outcome": outcome, "resets": len(machine.resets)}
    return out


@case("no_ctrl_c_on_wire")
def _():
    enc = proto.Encoder(300)
    found = 0
    for seq in range(256):
        n = enc.encode(proto.PICTURE, seq, bytes(range(256)), 256)
        for i in range(n):
            if 1 <= enc.out[i] <= 5:
                found += 1
    return {"ok": found == 0, "control_bytes": found}


@case("no_allocation_per_frame")
def _():
    if not hasattr(gc, "mem_alloc"):
        return {"ok": True, "skipped": "gc.mem_alloc missing"}
    fw, np, stream, clock, led = make_board()
    pic = bytearray(3 * config.LED_COUNT)
    for i in range(len(pic)):
        pic[i] = (i * 13) % 256  # escapes, and over the budget so the limiter runs
    stream.load(frame(proto.PICTURE, 3, pic) + frame(proto.PING, 4, b""))
    while fw.step():
        pass

    def run(k):
        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        for _ in range(k):
            stream.pos = 0
            while fw.step():
                pass
            clock.now += 5
        b = gc.mem_alloc()
        gc.enable()
        return b - a

    small = run(5)
    large = run(100)
    return {"ok": large == 0 and small == 0, "alloc_5_frames": small, "alloc_100_frames": large,
            "frames": fw.frames, "limited": fw.strip.limited}


@case("usbstream")
def _():
    # The real USB stream on the port's own stdin/stdout: nothing waiting reads 0 bytes without
    # blocking, and write(buf, n) sends exactly n bytes (no slice is made).
    from usbstream import UsbStream

    s = UsbStream()
    n = s.readinto(bytearray(16))
    s.wait(1)
    s.write(bytearray(b"USBSTREAM-OK-not-this"), 12)
    s.write(bytearray(b"\n"), 1)
    return {"ok": n == 0, "read": n}


print("RESULT " + json.dumps(results))
