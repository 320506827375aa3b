"""Plain moves for a seat the host has skipped (the player left and nobody replaced them).

The policy is deliberately simple and predictable, never clever: sacrifice the lowest card,
bid the lowest free cards, use no bonus dice, take the die at the city and place first at the
pyramid. The moves go through the engine and the log like any player's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.asks import bid_shape, free_cards


def move(state: Mapping[str, Any], seat: str) -> dict[str, Any] | None:
    """The command answering what the engine awaits from ``seat``, or ``None`` (``state`` is
    a whole state or the seat's own view: only the seat's own and public fields are read)."""
    for entry in state["pending"]:
        if entry.get("player") != seat:
            continue
        kind = entry["type"]
        ps = state["players"][seat]
        if kind == "sacrifice":
            return {"type": "sacrifice", "player": seat, "card": min(ps["deck"])}
        if kind == "bid":
            cards = free_cards(ps)
            shape = bid_shape(state["step"])  # R2.4-R2.6
            n = shape["cards"]
            bids = {s: cards[n * i : n * i + n] for i, s in enumerate(shape["stations"])}
            return {"type": "bid", "player": seat, "bids": bids}
        if kind == "dice":
            return {"type": "dice", "player": seat, "count": 0}
        if kind == "city":
            return {"type": "city", "player": seat, "choice": "die"}
        if kind == "pyramid":
            return {"type": "pyramid", "player": seat, "first": seat}
    return None
