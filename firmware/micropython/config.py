# Board settings of the Chocolatl LED board (hardware/PINMAP.md, hardware/POWER.md).
# This file wins over the docs: if PINMAP.md disagrees, PINMAP.md is the bug.
import sys

# Strip data pin: GP0 on the Raspberry Pi Pico, GPIO 13 on an ESP32.
if sys.platform == "esp32":
    STRIP_PIN = 13
    STATUS_LED_PIN = 2
else:
    STRIP_PIN = 0
    STATUS_LED_PIN = "LED"

LED_COUNT = 208  # 60 boxes x 3 + 14 pyramid + 14 status (default_layout.json)
BRIGHTNESS = 255  # 0..255, scales every channel after gamma; the host caps colours too
BUDGET_MA = 3000  # current limiter budget (companion/leds/power.py LIMITER_BUDGET_MA)
GAMMA = 2.2  # gamma of the table that maps picture values to PWM values
HOST_LOST_MS = 3000  # no valid host frame for this long -> "host lost" pattern
WDT_MS = 5000  # watchdog timeout, started with the first valid host frame
MAX_PAYLOAD = 1024  # largest payload accepted (hardware/PROTOCOL.md)
PROTOCOL_VERSION = 2  # hardware/PROTOCOL.md; the host refuses a board that speaks another
FIRMWARE_VERSION = "2.0.0"
MICROPYTHON = "1.28.0"  # the MicroPython release the firmware is tested with (rp2, RPI_PICO)
