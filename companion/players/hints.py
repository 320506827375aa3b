"""Learning mode: a suggestion for a seat from the good or strong player, with a one-line
reason. The reason is a catalogue key and its parameters (companion/web/i18n: the pages render
every text in the four languages), so the same hint reads in the player's own language.

Like every player it reads only the seat's own view.
"""

from __future__ import annotations

import random
from typing import Any

from companion.players import chooser
from companion.players.common import Command, View, free_cards, rounds_left

HINT_LEVELS = ("good", "strong")
REASON_KEYS = (
    "hint.sacrifice_high",
    "hint.sacrifice_low",
    "hint.bid_best",
    "hint.bid_high",
    "hint.bid_low",
    "hint.dice_use",
    "hint.dice_keep",
    "hint.city_hut",
    "hint.city_die",
    "hint.pyramid_me",
    "hint.pyramid_other",
)


def suggest(view: View, level: str, rng: random.Random) -> dict[str, Any] | None:
    """``{"command", "reason": {"key", "params"}}`` for what ``view["me"]`` is asked now, or
    ``None`` when nothing is asked of the seat."""
    if level not in HINT_LEVELS:
        raise ValueError(f"hints come from the good or strong player, not {level!r}")
    command = chooser(level)(view, rng)
    if command is None:
        return None
    return {"command": command, "reason": reason(view, command)}


def reason(view: View, command: Command) -> dict[str, Any]:
    """Why, in plain words: a catalogue key and its parameters (station numbers, cards)."""
    me = view["me"]
    ps = view["players"][me]
    kind = command["type"]
    if kind == "sacrifice":
        card = command["card"]
        high = card >= 7
        return _r("hint.sacrifice_high" if high else "hint.sacrifice_low", card=card)
    if kind == "bid":
        bids = command["bids"]
        if len(bids) == 1:  # gold (R2.6): is this pair among the strongest cards left?
            ((station, cards),) = bids.items()
            free = sorted(free_cards(ps), reverse=True)
            strong = sum(cards) >= sum(free[: len(free) // 2]) / max(1, len(free) // 4)
            return _r(
                "hint.bid_high" if strong else "hint.bid_low",
                station=int(station),
                cards=" + ".join(map(str, cards)),
            )
        ranked = sorted(bids, key=lambda k: (-sum(bids[k]), int(k)))
        return _r("hint.bid_best", a=int(ranked[0]), b=int(ranked[1]))
    if kind == "dice":
        n = command["count"]
        return _r("hint.dice_use", n=n) if n else _r("hint.dice_keep")
    if kind == "city":
        if command["choice"] == "hut":
            return _r("hint.city_hut", rounds=max(1, round(rounds_left(view))))
        return _r("hint.city_die")
    if command["first"] == me:
        return _r("hint.pyramid_me")
    return _r("hint.pyramid_other")


def _r(key: str, **params: Any) -> dict[str, Any]:
    return {"key": key, "params": params}
