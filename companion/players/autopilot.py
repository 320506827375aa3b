"""Plain moves for a seat the host has skipped (the player left and nobody replaced them).

The policy is deliberately simple and predictable, never clever: sacrifice the lowest card,
bid the lowest free cards, use no bonus dice, take the die at the city and place first at the
pyramid. The moves go through the engine and the log like any player's.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

STATIONS = ("1", "2", "3", "4", "5", "6")


def free_cards(player_state: dict[str, Any]) -> list[int]:
    """The player's cards not yet used this round (R2.7), lowest first."""
    left = Counter(player_state["deck"])
    left.subtract(player_state["used"])
    return sorted(left.elements())


def move(state: dict[str, Any], seat: str) -> dict[str, Any] | None:
    """The command answering what the engine awaits from ``seat``, or ``None``."""
    for entry in state["pending"]:
        if entry.get("player") != seat:
            continue
        kind = entry["type"]
        ps = state["players"][seat]
        if kind == "sacrifice":
            return {"type": "sacrifice", "player": seat, "card": min(ps["deck"])}
        if kind == "bid":
            cards = free_cards(ps)
            step = state["step"]
            if step == "all":  # R2.4: two cards per station
                bids = {s: cards[2 * i : 2 * i + 2] for i, s in enumerate(STATIONS)}
            elif step in ("first", "second"):  # R2.5: one card per station
                bids = {s: [cards[i]] for i, s in enumerate(STATIONS)}
            else:  # R2.6: two cards for this gold step's station
                bids = {str(step): cards[:2]}
            return {"type": "bid", "player": seat, "bids": bids}
        if kind == "dice":
            return {"type": "dice", "player": seat, "count": 0}
        if kind == "city":
            return {"type": "city", "player": seat, "choice": "die"}
        if kind == "pyramid":
            return {"type": "pyramid", "player": seat, "first": seat}
    return None
