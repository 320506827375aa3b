# Stand-in for MicroPython's neopixel module: the same buffer layout (GRB, ORDER, bpp) as the
# real driver, with write() counted instead of clocked out on a pin.


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.writes = 0

    def __len__(self):
        return self.n

    def write(self):
        self.writes += 1
