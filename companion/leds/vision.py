"""Colour science for checking that the LED colours stay apart for colour-blind players.

Colour-vision deficiency is simulated with the Machado, Oliveira & Fernandes (2009) matrices at
full severity, applied to linear sRGB; colours are compared with CIEDE2000 in CIELAB (D65).
LED light is linear: a pixel value of 128 emits about half the light of 255, so a pixel
``(r, g, b)`` is read as linear RGB ``(r/255, g/255, b/255)`` scaled by its level.
"""

from __future__ import annotations

import math

Vec = tuple[float, float, float]

# Machado et al. 2009, severity 1.0, linear sRGB in -> linear sRGB out.
MACHADO_2009: dict[str, tuple[Vec, Vec, Vec]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}

VISIONS: tuple[str, ...] = ("normal", *MACHADO_2009)


def srgb_to_linear(c: float) -> float:
    """One sRGB channel in 0..1 -> linear light in 0..1 (IEC 61966-2-1)."""
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def linear_to_srgb(c: float) -> float:
    """Linear light in 0..1 -> one sRGB channel in 0..1 (the inverse of srgb_to_linear)."""
    return c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def screen_hex(pixels: bytes, brightness_cap: float) -> list[str]:
    """A pixel buffer (linear light under the brightness cap) as the screen colours it stands
    for, so a simulated strip on a display looks like the lit LEDs rather than dim ones.

    >>> screen_hex(bytes([round(0.35 * 255), 0, 0]), 0.35)
    ['#ff0000']
    """
    scale = 1 / (255 * brightness_cap)
    out = []
    for i in range(0, len(pixels) - 2, 3):
        r, g, b = (round(255 * linear_to_srgb(min(1.0, v * scale))) for v in pixels[i : i + 3])
        out.append(f"#{r:02x}{g:02x}{b:02x}")
    return out


def hex_to_linear(hex_colour: str) -> Vec:
    """``"#rrggbb"`` (a screen colour) -> linear RGB, the light an LED must emit to match it."""
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return srgb_to_linear(r), srgb_to_linear(g), srgb_to_linear(b)


def simulate(linear: Vec, vision: str) -> Vec:
    """Linear RGB as seen with ``vision`` ("normal" or a key of MACHADO_2009), clipped to 0..1."""
    if vision == "normal":
        return linear
    try:
        m = MACHADO_2009[vision]
    except KeyError:
        raise ValueError(f"unknown vision {vision!r}; known: {', '.join(VISIONS)}") from None
    out = (sum(m[i][j] * linear[j] for j in range(3)) for i in range(3))
    r, g, b = (min(1.0, max(0.0, v)) for v in out)
    return r, g, b


def linear_to_lab(linear: Vec) -> Vec:
    """Linear sRGB -> CIELAB (D65 white)."""
    r, g, b = linear
    x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b
    xn, yn, zn = 0.95047, 1.0, 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x / xn), f(y / yn), f(z / zn)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1: Vec, lab2: Vec) -> float:
    """CIEDE2000 colour difference (Sharma, Wu & Dalal 2005); about 1 is just noticeable."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    c_bar7 = ((c1 + c2) / 2) ** 7
    g = 0.5 * (1 - math.sqrt(c_bar7 / (c_bar7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0

    dlp = l2 - l1
    dcp = c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    elif abs(h2p - h1p) <= 180:
        dhp = h2p - h1p
    elif h2p - h1p > 180:
        dhp = h2p - h1p - 360
    else:
        dhp = h2p - h1p + 360
    dhp_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))

    lbp = (l1 + l2) / 2
    cbp = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbp = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hbp = (h1p + h2p + 360) / 2
    else:
        hbp = (h1p + h2p - 360) / 2

    t = (
        1
        - 0.17 * math.cos(math.radians(hbp - 30))
        + 0.24 * math.cos(math.radians(2 * hbp))
        + 0.32 * math.cos(math.radians(3 * hbp + 6))
        - 0.20 * math.cos(math.radians(4 * hbp - 63))
    )
    d_theta = 30 * math.exp(-(((hbp - 275) / 25) ** 2))
    cbp7 = cbp**7
    rc = 2 * math.sqrt(cbp7 / (cbp7 + 25**7))
    sl = 1 + 0.015 * (lbp - 50) ** 2 / math.sqrt(20 + (lbp - 50) ** 2)
    sc = 1 + 0.045 * cbp
    sh = 1 + 0.015 * cbp * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt(
        (dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhp_big / sh) ** 2 + rt * (dcp / sc) * (dhp_big / sh)
    )


def difference(linear1: Vec, linear2: Vec, vision: str = "normal") -> float:
    """CIEDE2000 between two emitted colours (linear RGB) as seen with ``vision``."""
    return ciede2000(
        linear_to_lab(simulate(linear1, vision)), linear_to_lab(simulate(linear2, vision))
    )
