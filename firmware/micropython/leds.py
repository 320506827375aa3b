# The strip: picture -> gamma -> brightness -> current limiter -> neopixel buffer.
# Integer arithmetic only (floats allocate on MicroPython); nothing is allocated per frame. The
# per-LED loops are @micropython.viper functions (hardware/FIRMWARE.md "Speed").
import array

import micropython
from micropython import const

MA_PER_CHANNEL = const(20)  # companion/leds/power.py: 20 mA per channel at 255 ...
IDLE_MA_PER_LED = const(1)  # ... plus 1 mA per LED driver chip


def gamma_table(gamma):
    """Picture value -> PWM value; a lit value never rounds down to dark."""
    table = bytearray(256)
    for i in range(1, 256):
        v = int(255 * (i / 255) ** gamma + 0.5)
        table[i] = v if v > 0 else 1
    return table


def estimate_ma(total, count):
    """Same formula as companion/leds/power.py frame_current_ma (integer mA)."""
    return total * MA_PER_CHANNEL // 255 + count * IDLE_MA_PER_LED


@micropython.viper
def _copy(src: ptr8, start: int, dst: ptr8, p: ptr32) -> int:
    # dst[:length] = src[start:start + length] XOR 0x20 (PICTURE payloads are sent XOR 0x20,
    # hardware/PROTOCOL.md, so dim values 1..5 need no escaping), the rest of dst dark.
    length = p[0]
    size = p[1]
    for i in range(length):
        dst[i] = src[start + i] ^ 0x20
    for i in range(length, size):
        dst[i] = 0
    return length


@micropython.viper
def _render(pic: ptr8, out: ptr8, gamma: ptr8, p: ptr32) -> int:
    # p: count, brightness, bpp, red/green/blue offsets in a pixel. Returns the channel sum.
    count = p[0]
    br = p[1]
    bpp = p[2]
    ro = p[3]
    go = p[4]
    bo = p[5]
    total = 0
    o = 0
    s = 0
    for _ in range(count):
        r = gamma[pic[s]]
        g = gamma[pic[s + 1]]
        b = gamma[pic[s + 2]]
        if br != 255:
            # v * br // 255 without a division: exact for v * br <= 65025
            x = r * br
            r = (x + 1 + (x >> 8)) >> 8
            x = g * br
            g = (x + 1 + (x >> 8)) >> 8
            x = b * br
            b = (x + 1 + (x >> 8)) >> 8
        out[o + ro] = r
        out[o + go] = g
        out[o + bo] = b
        total += r + g + b
        o += bpp
        s += 3
    return total


@micropython.viper
def _scale(buf: ptr8, n: int, k: int) -> int:
    # Every byte times k/1024 (the current limiter); returns the new sum.
    total = 0
    for i in range(n):
        v = (buf[i] * k) >> 10
        buf[i] = v
        total += v
    return total


@micropython.viper
def _pattern(buf: ptr8, n: int, colour: ptr8, p: ptr32) -> int:
    # Host-lost pattern: every p[1]-th LED from p[0] on lit with colour (already in pixel
    # order, p[2] bytes a pixel), the rest dark.
    for i in range(n):
        buf[i] = 0
    bpp = p[2]
    every = p[1]
    i = p[0] * bpp
    step = every * bpp
    while i + bpp <= n:
        for j in range(bpp):
            buf[i + j] = colour[j]
        i += step
    return 0


class Strip:
    """Holds the last picture (RGB, strip order) and shows it on the neopixel object."""

    def __init__(self, np, count, gamma, brightness, budget_ma):
        self.np = np
        self.count = count
        self.buf = np.buf
        order = getattr(np, "ORDER", (1, 0, 2, 3))
        self.bpp = getattr(np, "bpp", 3)
        self.ro = order[0]
        self.go = order[1]
        self.bo = order[2]
        self.gamma = gamma_table(gamma)
        self.brightness = brightness
        self.budget = budget_ma
        self.picture = bytearray(3 * count)
        self.last_ma = estimate_ma(0, count)
        self.limited = False
        self._p = array.array("i", (count, brightness, self.bpp, self.ro, self.go, self.bo))
        self._colour = bytearray(self.bpp)
        self._pp = array.array("i", (0, 1, self.bpp))

    def load(self, src, start, length):
        """Takes a PICTURE payload of length bytes from src[start:] (RGB XOR 0x20); LEDs past
        it go dark."""
        p = self._p
        p[0] = length
        p[1] = len(self.picture)
        _copy(src, start, self.picture, p)
        p[0] = self.count

    def render(self):
        """Gamma, brightness and the current limiter into the neopixel buffer (no write)."""
        p = self._p
        p[1] = self.brightness
        total = _render(self.picture, self.buf, self.gamma, p)
        ma = estimate_ma(total, self.count)
        self.limited = ma > self.budget and total > 0
        if self.limited:
            # Scale every channel by k/1024 so the estimate fits the budget (POWER.md).
            lit_budget = self.budget - self.count * IDLE_MA_PER_LED
            if lit_budget < 0:
                lit_budget = 0
            k = (lit_budget * 255 // MA_PER_CHANNEL) * 1024 // total
            total = _scale(self.buf, len(self.buf), k)
            ma = estimate_ma(total, self.count)
        self.last_ma = ma

    def write(self):
        """Sends the buffer to the strip (machine.bitstream on rp2: the CPU, interrupts off,
        about 30 us an LED)."""
        self.np.write()

    def show(self):
        """Renders the picture with gamma, brightness and the current limiter, then writes."""
        self.render()
        self.np.write()

    def fill_pattern(self, phase, r, g, b, every):
        """Host-lost pattern: every n-th LED lit from phase on, the rest dark."""
        c = self._colour
        c[self.ro] = r
        c[self.go] = g
        c[self.bo] = b
        pp = self._pp
        pp[0] = phase % every
        pp[1] = every
        _pattern(self.buf, self.count * self.bpp, c, pp)
        self.np.write()

    def off(self):
        buf = self.buf
        for i in range(len(buf)):
            buf[i] = 0
        self.np.write()
