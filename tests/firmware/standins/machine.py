# Stand-in for MicroPython's machine module: records what the firmware asks of the hardware.

WDT_FEEDS = [0]
TIMERS = []


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 2

    def __init__(self, pin_id, mode=-1, pull=-1):
        self.id = pin_id
        self._value = 1

    def value(self, v=None):
        if v is None:
            return self._value
        self._value = v


class WDT:
    instances = []

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        WDT.instances.append(self)

    def feed(self):
        self.feeds += 1


class Timer:
    PERIODIC = 1
    ONE_SHOT = 0

    def __init__(self, id=-1):
        self.callback = None
        self.period = None
        TIMERS.append(self)

    def init(self, period=1000, mode=1, callback=None):
        self.period = period
        self.callback = callback

    def deinit(self):
        self.callback = None


def reset():
    raise SystemExit("machine.reset")
