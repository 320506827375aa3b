"""The random player kind: a uniformly random legal command from a seat's view (the baseline
every kind must beat; random whole games are companion.players.random_games)."""

from __future__ import annotations

import random

from companion.engine.asks import bid_shape
from companion.players.common import Command, View, awaited, free_cards


def choose(view: View, rng: random.Random) -> Command | None:
    return decide(view, view["me"], rng)


def decide(view: View, seat: str, rng: random.Random, kind: str | None = None) -> Command | None:
    """A random legal answer from ``seat``; ``kind``: what the engine awaits from it, when the
    caller already knows it."""
    if kind is None:
        kind = awaited(view, seat)
    if kind is None:
        return None
    ps = view["players"][seat]
    if kind == "sacrifice":
        return {"type": "sacrifice", "player": seat, "card": rng.choice(ps["deck"])}
    if kind == "bid":
        free = free_cards(ps)
        rng.shuffle(free)
        shape = bid_shape(view["step"])  # R2.4-R2.6
        return {
            "type": "bid",
            "player": seat,
            "bids": {k: [free.pop() for _ in range(shape["cards"])] for k in shape["stations"]},
        }
    if kind == "dice":
        return {"type": "dice", "player": seat, "count": rng.randint(0, ps["dice"])}
    if kind == "city":
        return {"type": "city", "player": seat, "choice": rng.choice(["hut", "die"])}
    d = view["decision"]
    return {"type": "pyramid", "player": seat, "first": rng.choice([d["first"], d["second"]])}
