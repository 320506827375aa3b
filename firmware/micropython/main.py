# Chocolatl LED board firmware entry point (hardware/FIRMWARE.md). MicroPython runs this file at
# boot; the simulated board (companion/board/simboard.py) calls main() with its own stream.
import gc
import time

import machine
import neopixel

import config
from app import Firmware
from leds import Strip

firmware = None  # the running Firmware, for the REPL and the simulated board


def main(stream=None):
    global firmware
    np = neopixel.NeoPixel(machine.Pin(config.STRIP_PIN, machine.Pin.OUT), config.LED_COUNT)
    strip = Strip(np, config.LED_COUNT, config.GAMMA, config.BRIGHTNESS, config.BUDGET_MA)
    if stream is None:
        from usbstream import UsbStream

        stream = UsbStream()
    try:
        status_led = machine.Pin(config.STATUS_LED_PIN, machine.Pin.OUT)
    except (ValueError, TypeError):
        status_led = None
    fw = Firmware(stream, strip, time.ticks_ms, make_wdt, status_led)
    firmware = fw
    gc.collect()  # the set-up's garbage (gamma table floats, imports) before the loop starts
    try:
        fw.run()
    except KeyboardInterrupt:
        # Ctrl-C (mpremote, a terminal): drop to the REPL. A running watchdog cannot be
        # stopped, so reboot instead; the board then waits without one (FIRMWARE.md).
        strip.off()
        if fw.wdt is not None:
            machine.reset()
        raise
    strip.off()
    if fw.wdt is not None:
        machine.reset()


def make_wdt():
    return machine.WDT(timeout=config.WDT_MS)


if __name__ == "__main__":
    main()
