# The firmware's main loop (hardware/FIRMWARE.md): read bytes, decode frames, answer, show
# pictures, feed the watchdog, show "host lost" when the companion goes quiet.
# Every buffer is allocated here, once; the loop itself allocates nothing.
import gc
import sys
import time

from micropython import const

import config
import proto

LOST_COLOUR_R = const(48)  # dim amber: clearly "not a game picture", well under 0.5 A
LOST_COLOUR_G = const(16)
LOST_COLOUR_B = const(0)
LOST_EVERY = const(8)
LOST_STEP_MS = const(250)
STATUS_LEN = const(15)
STATUS_HEAP_LEN = const(23)


class Firmware:
    def __init__(self, stream, strip, clock, make_wdt, status_led=None, cfg=config):
        self.stream = stream
        self.strip = strip
        self.clock = clock
        self.make_wdt = make_wdt
        self.wdt = None
        self.status_led = status_led
        self.cfg = cfg
        self.decoder = proto.Decoder(cfg.MAX_PAYLOAD)
        self.encoder = proto.Encoder(32)
        # A read never asks for more than the current frame still needs (Decoder.need).
        self.inbuf = bytearray(proto.OVERHEAD + cfg.MAX_PAYLOAD + 1)
        self.reply = bytearray(32)
        self.frames = 0
        self.errors = 0
        self.running = True
        self.host_lost = False  # "lost" only after HOST_LOST_MS of silence, from boot on
        self.showing_lost = False
        self.lost_phase = -1
        self.led_on = False
        self.last_host = clock()
        version = cfg.FIRMWARE_VERSION + " " + sys.platform
        self.version = bytearray(5 + len(version))
        self.version[0] = cfg.PROTOCOL_VERSION
        self.version[1] = strip.count >> 8
        self.version[2] = strip.count & 0xFF
        self.version[3] = cfg.MAX_PAYLOAD >> 8
        self.version[4] = cfg.MAX_PAYLOAD & 0xFF
        for i in range(len(version)):
            self.version[5 + i] = ord(version[i])
        strip.off()
        self.send(proto.VERSION, 0, self.version, len(self.version))  # announce the boot

    # -- output ---------------------------------------------------------------------------
    def send(self, mtype, seq, payload, length):
        n = self.encoder.encode(mtype, seq, payload, length)
        self.stream.write(self.encoder.out, n)

    def ack(self, seq, mtype):
        self.reply[0] = mtype
        self.send(proto.ACK, seq, self.reply, 1)

    def nack(self, seq, reason, mtype):
        self.errors += 1
        self.reply[0] = reason
        self.reply[1] = mtype
        self.send(proto.NACK, seq, self.reply, 2)

    def send_status(self, seq, heap):
        r = self.reply
        _put32(r, 0, self.frames)
        _put32(r, 4, self.errors)
        ma = self.strip.last_ma
        r[8] = (ma >> 8) & 0xFF
        r[9] = ma & 0xFF
        r[10] = 1 if self.strip.limited else 0
        r[11] = self.strip.brightness
        r[12] = self.strip.budget >> 8
        r[13] = self.strip.budget & 0xFF
        r[14] = 1 if self.showing_lost else 0
        if not heap:
            self.send(proto.STATUS, seq, r, STATUS_LEN)
            return
        # PING with payload 1: heap in use and free (bytes), which stay put while the loop
        # runs (nothing allocated per frame). Only on request: gc.mem_alloc() walks the whole
        # heap (about 9 ms on the RP2040).
        _put32(r, 15, gc.mem_alloc())
        _put32(r, 19, gc.mem_free())
        self.send(proto.STATUS, seq, r, STATUS_HEAP_LEN)

    # -- input ----------------------------------------------------------------------------
    def step(self):
        """One pass of the main loop: reads until a frame is handled or nothing is waiting,
        then the timers; returns the number of bytes read."""
        dec = self.decoder
        stream = self.stream
        inbuf = self.inbuf
        total = 0
        while True:
            n = dec.need()
            if n == 0:
                # Between frames, in a header or in noise: one byte, and only if waiting.
                if not stream.any():
                    break
                n = 1
            # Past a header the host has committed to at least n more bytes: one blocking
            # read gets them (sys.stdin.buffer.readinto blocks until n bytes are there).
            stream.readinto(inbuf, n)
            total += n
            dec.start(0)
            handled = False
            while True:
                result = dec.scan(inbuf, n)
                if result == proto.FRAME:
                    self.handle(dec.type, dec.seq, dec.length)
                elif result == proto.ERROR:
                    self.nack(
                        dec.seq, dec.reason, dec.type if dec.reason == proto.UNKNOWN_TYPE else 0
                    )
                else:
                    break
                handled = True
                if not self.running:
                    return total
            if handled:
                break  # feed the watchdog and check the timers after every frame
        now = self.clock()
        if self.wdt is not None:
            self.wdt.feed()
        if time.ticks_diff(now, self.last_host) > self.cfg.HOST_LOST_MS:
            self.host_lost = True
        if self.host_lost:
            self.show_lost(now)
        return total

    def run(self):
        while self.running:
            if self.step() == 0:
                self.stream.wait(2)

    def handle(self, mtype, seq, length):
        self.last_host = self.clock()
        if self.wdt is None and mtype != proto.STOP:
            self.wdt = self.make_wdt()  # the first host frame starts the watchdog
        restore = False
        if self.host_lost:
            self.host_lost = False
            if self.showing_lost:
                self.showing_lost = False
                restore = True
        wrote = self.answer(mtype, seq, length)
        if restore and not wrote and self.running:
            self.strip.show()  # the last picture back (after the answer: the write is slow)

    def answer(self, mtype, seq, length):
        """Answers one frame and applies it; True when it wrote the strip."""
        if not self.led_on:
            self.led_on = True
            self.set_status_led(1)
        buf = self.decoder.buf
        start = proto.HEADER
        if mtype == proto.PICTURE:
            if length % 3 or length > 3 * self.strip.count:
                self.nack(seq, proto.BAD_PAYLOAD, mtype)
                return
            # ACK once the picture is held: rendering and above all the write (about 6 ms with
            # interrupts off, machine.bitstream) come after, so the host can already send the
            # next picture meanwhile.
            self.strip.load(buf, start, length)
            self.frames += 1
            self.ack(seq, mtype)
            self.strip.render()
            self.strip.write()
            return True
        elif mtype == proto.PING:
            self.send_status(seq, length == 1 and buf[start] == 1)
        elif mtype == proto.HELLO:
            self.send(proto.VERSION, seq, self.version, len(self.version))
        elif mtype == proto.CONFIG:
            budget = (buf[start + 1] << 8) | buf[start + 2] if length == 3 else 0
            if length != 3 or budget < 100:
                self.nack(seq, proto.BAD_PAYLOAD, mtype)
                return
            self.strip.brightness = buf[start]
            self.strip.budget = budget
            self.strip.render()
            self.ack(seq, mtype)
            self.strip.write()
            return True
        elif mtype == proto.STOP:
            self.ack(seq, mtype)
            self.running = False
        else:
            self.nack(seq, proto.UNEXPECTED, mtype)  # board-to-host types
        return False

    def show_lost(self, now):
        phase = (now // LOST_STEP_MS) % LOST_EVERY
        if not self.showing_lost or phase != self.lost_phase:
            self.showing_lost = True
            self.lost_phase = phase
            self.strip.fill_pattern(phase, LOST_COLOUR_R, LOST_COLOUR_G, LOST_COLOUR_B, LOST_EVERY)
            self.led_on = False
            self.set_status_led(phase & 1)

    def set_status_led(self, on):
        if self.status_led is not None:
            self.status_led.value(on)


def _put32(buf, at, value):
    buf[at] = (value >> 24) & 0xFF
    buf[at + 1] = (value >> 16) & 0xFF
    buf[at + 2] = (value >> 8) & 0xFF
    buf[at + 3] = value & 0xFF
