"""Companion players: one module per kind, each a function of one seat's view and a random
source (``choose(view, rng) -> command | None``).

A player never sees the full state: the table and the arena hand it ``view(state, seat)``
(companion/engine/views.py), so it cannot know other seats' sacrifices, unrevealed bids or
undecided dice. Randomness comes in as ``rng``, so the engine stays pure and a seeded player
repeats its choices.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from typing import Any

KINDS: dict[str, str] = {
    "random": "companion.players.random_player",
    "plain": "companion.players.plain",
    "good": "companion.players.good",
    "strong": "companion.players.strong",
}
LEVELS = ("plain", "good", "strong")  # what a host can seat at a table

# A seat's view (engine View) in, a command or None out.
Chooser = Callable[[Mapping[str, Any], random.Random], "dict[str, Any] | None"]


def chooser(kind: str) -> Chooser:
    """The ``choose`` function of a player kind; a clear error for an unknown kind."""
    if kind not in KINDS:
        raise ValueError(f"unknown player kind {kind!r} (one of {', '.join(KINDS)})")
    choose: Chooser = importlib.import_module(KINDS[kind]).choose
    return choose
