"""Numbers as the pages print them, for tests that compare a page with the server's data."""

from __future__ import annotations

import math


def one_decimal(x: float) -> str:
    """texts.js ``oneDecimal``: JavaScript's ``Math.round`` takes halves up, where Python's
    ``round`` and ``:.1f`` take them to the even (a loss of 6.25 reads "6.3" on every page).

    >>> one_decimal(6.25), one_decimal(0.45), one_decimal(9.04)
    ('6.3', '0.5', '9.0')
    """
    tenths = x * 10
    whole = math.floor(tenths)
    if tenths - whole >= 0.5:
        whole += 1
    return f"{whole / 10:.1f}"
