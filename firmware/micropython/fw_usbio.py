# USB serial as the board sees it: non-blocking reads from sys.stdin.buffer with select.poll.
# ipoll() reuses its result tuple and readinto() fills a preallocated byte, so nothing is
# allocated per byte. Ctrl-C (0x03) stays the interrupt character: protocol frames never
# contain control bytes, so only a real Ctrl-C (e.g. from mpremote) stops the firmware.

import sys

try:
    import select
except ImportError:  # very old ports
    import uselect as select


class StdioPort:
    def __init__(self, stdin=None, stdout=None):
        self._in = stdin if stdin is not None else sys.stdin.buffer
        self._out = stdout if stdout is not None else sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(self._in, select.POLLIN)
        self._one = bytearray(1)

    def _ready(self, timeout_ms):
        for _obj, ev in self._poll.ipoll(timeout_ms):
            if ev & select.POLLIN:
                return True
        return False

    def readinto(self, buf):
        """Read the bytes available now (at most len(buf)); never blocks."""
        n = 0
        limit = len(buf)
        one = self._one
        while n < limit and self._ready(0):
            if not self._in.readinto(one):
                break
            buf[n] = one[0]
            n += 1
        return n

    def wait(self, timeout_ms):
        """Sleep until input arrives or timeout_ms passes."""
        self._ready(timeout_ms)

    def write(self, data):
        self._out.write(data)
