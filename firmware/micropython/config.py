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

LED_COUNT = 208            # 60 boxes x 3 + 14 pyramid + 14 status (default_layout.json)
BRIGHTNESS = 255           # 0..255, scales every channel after gamma; the host caps colours too
BUDGET_MA = 3000           # current limiter budget (companion/leds/power.py LIMITER_BUDGET_MA)
GAMMA = 2.2                # gamma of the table that maps picture values to PWM values
HOST_LOST_MS = 3000        # no valid host frame for this long -> "host lost" pattern
# Protocol and firmware versions and the payload limit live in fw_board.py / fw_wire.py.
WDT_MS = 5000              # watchdog timeout, started with the first valid host frame

# -- firmware behaviour (hardware/FIRMWARE.md) --------------------------------------------
TARGET = "esp32" if sys.platform == "esp32" else "rp2"
# Strip colour order as the neopixel module indexes its buffer (GRB for WS2812B).
COLOUR_ORDER = (1, 0, 2)
CHANNEL_MA = 20            # estimated mA of one colour channel at 255 (companion/leds/power.py)
IDLE_MA = 1                # quiescent mA per LED
# Safe-mode button: held at power-up, main.py leaves the board at the REPL, no watchdog.
# Pico: the BOOTSEL button (rp2.bootsel_button); ESP32: the BOOT button on GPIO 0.
SAFE_PIN = 0 if sys.platform == "esp32" else None
IDLE_WAIT_MS = 5           # longest sleep of the main loop when no byte is waiting
