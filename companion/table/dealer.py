"""The dealer: rolls the dice and draws the improvement cards when a table plays digitally.

Randomness stays out of the engine (SCENARIO.md): the dealer answers the engine's pending host
inputs (harvest R2.2, improvements R2.2, bonus dice rolls R3.2 and the final die R7) with
commands holding random values, and those commands are stored like any other so a game log
replays to the same state. Values come from the operating system's generator.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

_RNG = random.SystemRandom()


def shuffle_decks(profile: Mapping[str, Any], rng: random.Random = _RNG) -> list[list[int]]:
    """The two improvement decks (R1.5) shuffled once per game; stored with the game so the
    dealer keeps drawing in the same order after a restart."""
    decks = [list(deck) for deck in profile["improvement_decks"]]
    for deck in decks:
        rng.shuffle(deck)
    return decks


def initial_stack(players: list[str], rng: random.Random = _RNG) -> list[str]:
    """A random starting stack on box 0 (R1.3)."""
    stack = list(players)
    rng.shuffle(stack)
    return stack


def deal(
    state: Mapping[str, Any], decks: list[list[int]], draws: int, rng: random.Random = _RNG
) -> dict[str, Any] | None:
    """One command answering the first pending host input, or ``None`` if none is pending.

    ``draws`` is how many ``improvements`` commands the game has had: the next cards are the
    top of each deck after that many draws (a deck that runs out starts over from its top).
    """
    for entry in state["pending"]:
        kind = entry["type"]
        if kind == "harvest":
            return {"type": "harvest", "dice": [rng.randint(1, 6) for _ in range(3)]}
        if kind == "improvements":
            return {"type": "improvements", "cards": [deck[draws % len(deck)] for deck in decks]}
        if kind == "roll":
            player = entry["player"]
            count = roll_count(state, player)
            return {
                "type": "roll",
                "player": player,
                "values": [rng.randint(1, 6) for _ in range(count)],
            }
    return None


def roll_count(state: Mapping[str, Any], player: str) -> int:
    """How many dice ``player`` rolls now: one leftover die at final scoring (R7), else the
    number chosen in the bonus dice window (R3.2)."""
    if state["phase"] == "final_roll":
        return 1
    return int(state["dice_window"]["choices"][player])
