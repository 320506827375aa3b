# The USB serial link as the firmware sees it: non-blocking reads of sys.stdin.buffer through
# select.poll, writes to sys.stdout.buffer. Any object with readinto/write/wait will do (tests,
# the simulated board).
import select
import sys


class UsbStream:
    def __init__(self):
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._one = bytearray(1)

    def _ready(self, timeout_ms):
        # ipoll() is the allocation-free form of poll()
        for _ in self._poll.ipoll(timeout_ms):
            return True
        return False

    def readinto(self, buf):
        """Reads what is waiting (at most len(buf) bytes) without blocking."""
        n = 0
        size = len(buf)
        while n < size and self._ready(0):
            if self._in.readinto(self._one) != 1:
                break
            buf[n] = self._one[0]
            n += 1
        return n

    def write(self, buf, n):
        self._out.write(buf, n)  # MicroPython streams take a max length, so no slice is made

    def wait(self, timeout_ms):
        self._ready(timeout_ms)
