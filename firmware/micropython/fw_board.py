# The board's protocol state machine: reads host frames, answers them, drives the pixels and
# shows the host-lost pattern. Hardware-independent: the port, strip, watchdog and clock are
# passed in, so the same code runs on the Pico, in the simulated board and in the tests.
#
# States: BOOT (announced, dark) -> LIVE (a valid frame within host_lost_ms) -> LOST (pattern)
# -> LIVE again on the next valid frame, which restores the last picture at once.

import fw_wire as w
from fw_picture import OK, Pixels

PROTOCOL_VERSION = 1
FIRMWARE_VERSION = (1, 0, 0)

BOOT = 0
LIVE = 1
LOST = 2

ANNOUNCE_BOOT = 0
ANNOUNCE_REPLY = 1


def _u16(p, i, v):
    v &= 0xFFFF
    p[i] = v >> 8
    p[i + 1] = v & 0xFF


class Board:
    def __init__(self, port, strip, led_count, ticks_ms, ticks_diff, wdt=None, arm_wdt=None,
                 status_led=None, name="rp2", boot_id=0, order=(1, 0, 2), gamma=2.2,
                 brightness=64, budget_ma=1500, channel_ma=20, idle_ma=1, host_lost_ms=3000,
                 chunk=64):
        self.port = port
        self.wdt = wdt
        self._arm_wdt = arm_wdt  # called once, on the first valid host frame
        self.status_led = status_led
        self.ticks_ms = ticks_ms
        self.ticks_diff = ticks_diff
        self.pixels = Pixels(strip, led_count, order, gamma, brightness, budget_ma, channel_ma,
                             idle_ma)
        self.led_count = led_count
        self.name = name.encode() if isinstance(name, str) else bytes(name)
        self.boot_id = boot_id & 0xFFFF
        self.host_lost_ms = host_lost_ms
        self.parser = w.FrameParser()
        self.writer = w.FrameWriter(32)
        self.txp = bytearray(32)
        self.rx = bytearray(chunk)
        self._pattern = bytearray(3 * led_count)
        self.state = BOOT
        self.frames_ok = 0
        self.frames_bad = 0
        self.pictures = 0
        self.last_seq = 0
        self._tx_seq = 0
        self._start = ticks_ms()
        self._last_host = self._start
        self._last_anim = -1

    # -- output ---------------------------------------------------------------------------
    def _send(self, typ, seq, length):
        self.port.write(self.writer.frame(typ, seq, self.txp, length))

    def announce(self, reason=ANNOUNCE_BOOT, seq=0):
        """VERSION: sent unsolicited on boot and as the reply to HELLO."""
        p = self.txp
        p[0] = PROTOCOL_VERSION
        p[1] = FIRMWARE_VERSION[0]
        p[2] = FIRMWARE_VERSION[1]
        p[3] = FIRMWARE_VERSION[2]
        p[4] = self.led_count >> 8
        p[5] = self.led_count & 0xFF
        p[6] = w.MAX_PAYLOAD >> 8
        p[7] = w.MAX_PAYLOAD & 0xFF
        p[8] = self.boot_id >> 8
        p[9] = self.boot_id & 0xFF
        p[10] = reason
        name = self.name
        k = len(name)
        if k > 16:
            k = 16
        for i in range(k):
            p[11 + i] = name[i]
        self._send(w.T_VERSION, seq, 11 + k)

    def _ack(self, seq, typ):
        self.txp[0] = typ
        self._send(w.T_ACK, seq, 1)

    def _nack(self, seq, typ, reason):
        self.txp[0] = typ
        self.txp[1] = reason
        self._send(w.T_NACK, seq, 2)

    def _status(self, seq):
        p = self.txp
        px = self.pixels
        up = self.ticks_diff(self.ticks_ms(), self._start) // 1000
        _u16(p, 0, self.frames_ok)
        _u16(p, 2, self.frames_bad)
        _u16(p, 4, self.parser.garbage)
        _u16(p, 6, px.estimated_ma)
        p[8] = px.scale
        p[9] = self.state
        p[10] = (up >> 24) & 0xFF
        p[11] = (up >> 16) & 0xFF
        p[12] = (up >> 8) & 0xFF
        p[13] = up & 0xFF
        p[14] = self.last_seq
        self._send(w.T_STATUS, seq, 15)

    # -- input ----------------------------------------------------------------------------
    def _handle(self, now):
        pr = self.parser
        typ = pr.type
        seq = pr.seq
        n = pr.length
        buf = pr.buf
        s = w.HEADER
        self.frames_ok += 1
        self._last_host = now
        if self._arm_wdt is not None:
            self.wdt = self._arm_wdt()
            self._arm_wdt = None
        if self.state != LIVE:
            self.state = LIVE
            if self.status_led is not None:
                self.status_led.value(1)
            if typ != w.T_PICTURE:
                self.pixels.show_picture()  # host back: its last picture at once
        if typ == w.T_PICTURE:
            r = self.pixels.decode(buf, s, n)
            if r != OK:
                self._nack(seq, typ, r)
                return
            self.pictures += 1
            self.last_seq = seq
            self.pixels.show_picture()
            self._ack(seq, typ)
        elif typ == w.T_PING:
            self._ack(seq, typ)
        elif typ == w.T_HELLO:
            if n < 1:
                self._nack(seq, typ, w.R_BAD_PAYLOAD)
            elif buf[s] != PROTOCOL_VERSION:
                self._nack(seq, typ, w.R_UNSUPPORTED_VERSION)
            else:
                self.announce(ANNOUNCE_REPLY, seq)
        elif typ == w.T_CONFIG:
            if n != 6:
                self._nack(seq, typ, w.R_BAD_PAYLOAD)
                return
            brightness = buf[s]
            budget = (buf[s + 1] << 8) | buf[s + 2]
            channel = buf[s + 3]
            lost = (buf[s + 4] << 8) | buf[s + 5]
            if budget < 100 or channel == 0 or lost < 500:
                self._nack(seq, typ, w.R_BAD_PAYLOAD)
                return
            self.pixels.configure(brightness, budget, channel)
            self.host_lost_ms = lost
            self.pixels.show_picture()
            self._ack(seq, typ)
        elif typ == w.T_STATUS_REQ:
            self._status(seq)
        else:
            self._nack(seq, typ, w.R_UNKNOWN_TYPE)

    def feed(self, data, count, now):
        """Process count received bytes from data."""
        pr = self.parser
        for i in range(count):
            r = pr.feed(data[i])
            if r == w.FRAME:
                self._handle(now)
            elif r == w.ERROR:
                self.frames_bad += 1
                if pr.type < 0x80:  # never answer something that looks like our own echo
                    self._nack(pr.seq, pr.type, pr.reason)

    def step(self):
        """One pass of the main loop. Returns the number of bytes read (0 = idle)."""
        now = self.ticks_ms()
        n = self.port.readinto(self.rx)
        if n:
            self.feed(self.rx, n, now)
        if self.ticks_diff(now, self._last_host) >= self.host_lost_ms:
            self.state = LOST
            step = now // 100
            if step != self._last_anim:
                self._last_anim = step
                self.pixels.host_lost(now, self._pattern)
                if self.status_led is not None:
                    self.status_led.value((step >> 2) & 1)  # blinks while the host is lost
        if self.wdt is not None:
            self.wdt.feed()
        return n

    def start(self):
        self.pixels.render(self._pattern)  # dark until the host sends a picture
        self.announce(ANNOUNCE_BOOT, 0)

    def run(self, idle_ms=5):
        """The main loop: never blocks longer than idle_ms, so the watchdog is fed."""
        self.start()
        step = self.step
        wait = self.port.wait
        while True:
            if not step():
                wait(idle_ms)
