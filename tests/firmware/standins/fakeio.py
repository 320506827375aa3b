# Test doubles for the firmware's port and clock, written so that they never allocate while a
# frame is processed (the allocation checks measure the firmware, not the doubles).


class FakeClock:
    def __init__(self, t=0):
        self.t = t

    def ticks_ms(self):
        return self.t

    def ticks_diff(self, a, b):
        return a - b


class FakePort:
    """Input queued with push(); output collected into a preallocated buffer."""

    def __init__(self, in_size=8192, out_size=8192, ctrl_c=False):
        self.inbuf = bytearray(in_size)
        self.inlen = 0
        self.pos = 0
        self.out = bytearray(out_size)
        self.outlen = 0
        self.ctrl_c = ctrl_c
        self.waits = 0

    def push(self, data):
        self.inbuf[self.inlen:self.inlen + len(data)] = data
        self.inlen += len(data)

    def pending(self):
        return self.inlen - self.pos

    def readinto(self, buf):
        n = 0
        limit = len(buf)
        while n < limit and self.pos < self.inlen:
            b = self.inbuf[self.pos]
            if b == 3 and self.ctrl_c:
                if n:
                    break  # deliver what came before the Ctrl-C first
                self.pos += 1
                raise KeyboardInterrupt
            buf[n] = b
            self.pos += 1
            n += 1
        if self.pos == self.inlen:
            self.pos = 0
            self.inlen = 0
        return n

    def wait(self, ms):
        self.waits += 1

    def write(self, data):
        o = self.outlen
        for i in range(len(data)):
            self.out[o + i] = data[i]
        self.outlen = o + len(data)

    def take(self):
        data = bytes(self.out[:self.outlen])
        self.outlen = 0
        return data
