"""The dealer: rolls the dice and draws the improvement cards when a table plays digitally.

Randomness stays out of the engine (SCENARIO.md): the dealer answers the engine's pending host
inputs (harvest R2.2, improvements R2.2, bonus dice rolls R3.2 and the final die R7) with
commands holding random values, and those commands are stored like any other so a game log
replays to the same state. Values come from the operating system's generator.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from typing import Any

from companion.engine.bonusdice import nothing_to_decide
from companion.engine.stakes import pyramid_order_matters
from companion.engine.types import (
    DiceCommand,
    HarvestCommand,
    ImprovementsCommand,
    PyramidCommand,
    RollCommand,
)

_RNG = random.SystemRandom()
NO_DICE = "table:no_dice"  # the logged source of a "no dice" the table gave without asking
# The logged source of a pyramid order the table gave without asking (both cubes land in one
# row, so the order gives nobody anything, R5.4).
NO_CHOICE = "table:no_choice"
TABLE_ANSWERS = (NO_DICE, NO_CHOICE)


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
) -> HarvestCommand | ImprovementsCommand | RollCommand | None:
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


def roll_for(
    state: Mapping[str, Any], players: Collection[str], rng: random.Random = _RNG
) -> RollCommand | None:
    """A digital roll for the first pending ``roll`` of one of ``players`` (companion players
    roll their own black dice, R3.2 and R7, also when the host types the real dice in)."""
    for entry in state["pending"]:
        if entry["type"] == "roll" and entry.get("player") in players:
            player = entry["player"]
            return {
                "type": "roll",
                "player": player,
                "values": [rng.randint(1, 6) for _ in range(roll_count(state, player))],
            }
    return None


def no_dice(state: Mapping[str, Any]) -> DiceCommand | None:
    """ "No dice" for the first holder the bonus dice window awaits whose answer cannot change
    what the station gives (R3.2, R5; decided from public facts by the engine), or ``None``."""
    for entry in state["pending"]:
        if entry["type"] == "dice" and nothing_to_decide(state, entry["player"]):
            return {"type": "dice", "player": entry["player"], "count": 0}
    return None


def no_choice(state: Mapping[str, Any]) -> PyramidCommand | None:
    """First places first at the pyramid when the order cannot change anything (R5.4: both
    cubes land in one row), or ``None``. The city's choice always matters (R5.3: a hut and a
    die are never the same), so it is always asked."""
    decision = state.get("decision")
    if state["phase"] != "pyramid" or not decision or pyramid_order_matters(state):
        return None
    first = decision["first"]
    return {"type": "pyramid", "player": first, "first": first}


def unasked(state: Mapping[str, Any]) -> tuple[DiceCommand | PyramidCommand, str] | None:
    """The table's own answer to a question that cannot matter, with its logged source."""
    dice = no_dice(state)
    if dice is not None:
        return dice, NO_DICE
    pyramid = no_choice(state)
    if pyramid is not None:
        return pyramid, NO_CHOICE
    return None
