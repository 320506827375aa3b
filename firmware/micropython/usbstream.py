# The USB serial link as the firmware sees it: sys.stdin.buffer / sys.stdout.buffer, with
# select.poll to learn whether anything is waiting. Any object with any/readinto/write/wait will
# do (the simulated board passes its own).
import select
import sys


class UsbStream:
    def __init__(self):
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def _ready(self, timeout_ms):
        # ipoll() is the allocation-free form of poll()
        for _ in self._poll.ipoll(timeout_ms):
            return True
        return False

    def any(self):
        """True when at least one byte is waiting."""
        for _ in self._poll.ipoll(0):
            return True
        return False

    def readinto(self, buf, n):
        """Reads exactly n bytes into buf; blocks until they are there (the firmware only asks
        for bytes the host has already committed to send, proto.Decoder.need)."""
        return self._in.readinto(buf, n)

    def write(self, buf, n):
        self._out.write(buf, n)  # MicroPython streams take a max length, so no slice is made

    def wait(self, timeout_ms):
        self._ready(timeout_ms)
