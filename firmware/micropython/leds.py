# The strip: picture -> gamma -> brightness -> current limiter -> neopixel buffer.
# Integer arithmetic only (floats allocate on MicroPython); nothing is allocated per frame.

MA_PER_CHANNEL = 20   # companion/leds/power.py: 20 mA per channel at 255 ...
IDLE_MA_PER_LED = 1   # ... plus 1 mA per LED driver chip


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

    def load(self, src, start, length):
        """Copies a picture of length bytes from src[start:]; LEDs past it go dark."""
        pic = self.picture
        for i in range(length):
            pic[i] = src[start + i]
        for i in range(length, len(pic)):
            pic[i] = 0

    def show(self):
        """Renders the picture with gamma, brightness and the current limiter, then writes."""
        pic = self.picture
        buf = self.buf
        g = self.gamma
        br = self.brightness
        bpp = self.bpp
        ro = self.ro
        go = self.go
        bo = self.bo
        total = 0
        p = 0
        for i in range(self.count):
            r = g[pic[p]] * br // 255
            gr = g[pic[p + 1]] * br // 255
            b = g[pic[p + 2]] * br // 255
            o = i * bpp
            buf[o + ro] = r
            buf[o + go] = gr
            buf[o + bo] = b
            total += r + gr + b
            p += 3
        ma = estimate_ma(total, self.count)
        self.limited = ma > self.budget and total > 0
        if self.limited:
            # Scale every channel by k/1024 so the estimate fits the budget (POWER.md).
            lit_budget = self.budget - self.count * IDLE_MA_PER_LED
            if lit_budget < 0:
                lit_budget = 0
            k = (lit_budget * 255 // MA_PER_CHANNEL) * 1024 // total
            total = 0
            for i in range(len(buf)):
                v = buf[i] * k >> 10
                buf[i] = v
                total += v
            ma = estimate_ma(total, self.count)
        self.last_ma = ma
        self.np.write()

    def fill_pattern(self, phase, r, g, b, every):
        """Host-lost pattern: every n-th LED lit from phase on, the rest dark."""
        buf = self.buf
        for i in range(len(buf)):
            buf[i] = 0
        bpp = self.bpp
        i = phase % every
        while i < self.count:
            o = i * bpp
            buf[o + self.ro] = r
            buf[o + self.go] = g
            buf[o + self.bo] = b
            i += every
        self.np.write()

    def off(self):
        buf = self.buf
        for i in range(len(buf)):
            buf[i] = 0
        self.np.write()
