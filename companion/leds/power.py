"""Current drawn by a WS2812B frame, for the power budget (``hardware/POWER.md``).

A WS2812B channel draws about 20 mA at value 255 and proportionally less below (PWM), so full
white is about 60 mA per LED; each LED's driver chip also draws about 1 mA when dark.
"""

from __future__ import annotations

MA_PER_CHANNEL = 20.0
IDLE_MA_PER_LED = 1.0


def frame_current_ma(buf: bytes, idle: bool = True) -> float:
    """Estimated supply current (mA) of the strip showing pixel buffer ``buf``."""
    if len(buf) % 3:
        raise ValueError(f"a pixel buffer has 3 bytes per LED; got {len(buf)} bytes")
    lit = sum(buf) / 255 * MA_PER_CHANNEL
    return lit + (IDLE_MA_PER_LED * len(buf) // 3 if idle else 0.0)


def worst_case_ma(led_count: int, brightness_cap: float = 1.0) -> float:
    """Every LED full white under the cap, plus the idle draw."""
    return led_count * (3 * MA_PER_CHANNEL * round(brightness_cap * 255) / 255 + IDLE_MA_PER_LED)


# Budget the firmware's current limiter should hold the strip to on the default board
# (hardware/POWER.md): above every picture the companion draws, well below the 6 A supply.
LIMITER_BUDGET_MA = 3000
