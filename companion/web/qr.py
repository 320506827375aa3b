"""QR codes for the join URL, as SVG (no image library needed)."""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg


def qr_svg(text: str) -> bytes:
    """An SVG QR code of ``text`` with a quiet zone, black on white."""
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
