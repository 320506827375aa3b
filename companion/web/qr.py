"""QR codes for the join URL, as SVG (no image library needed)."""

from __future__ import annotations

import io
from functools import lru_cache

import qrcode
import qrcode.image.svg


@lru_cache(maxsize=16)
def qr_svg(text: str) -> bytes:
    """An SVG QR code of ``text`` with a quiet zone, black on white. Kept per text: drawing
    one costs about 8 ms of the shared event loop, and ``/t/<name>/qr.svg`` needs no token,
    so a client reloading it in a loop would otherwise hold every table up. A table's join
    link changes only when it is rotated; the few texts of a café fit the cache."""
    qr = qrcode.QRCode(
        border=4,
        error_correction=qrcode.constants.ERROR_CORRECT_M,
        image_factory=qrcode.image.svg.SvgPathFillImage,
    )
    qr.add_data(text)
    qr.make(fit=True)
    buf = io.BytesIO()
    qr.make_image().save(buf)
    return buf.getvalue()
