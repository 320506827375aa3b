# Stand-in for MicroPython's machine module in the firmware tests: records what the firmware
# does with pins, the watchdog and resets instead of touching hardware.


class Pin:
    OUT = 1
    IN = 0

    def __init__(self, pin, mode=-1):
        self.pin = pin
        self.mode = mode
        self.values = []

    def value(self, v=None):
        if v is None:
            return self.values[-1] if self.values else 0
        self.values.append(v)
        return None


class WDT:
    created = []

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        WDT.created.append(self)

    def feed(self):
        self.feeds += 1


class ResetCalled(Exception):
    pass


resets = []


def reset():
    resets.append(1)
    raise ResetCalled()
