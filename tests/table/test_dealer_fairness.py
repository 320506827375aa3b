"""The dealer deals fairly: every die face, starting stack and deck order as likely as any other.

A table that plays digitally trusts the dealer (``table/dealer.py``) with the harvest dice and
the improvement cards (R2.2), the black dice (R3.2), the last die (R7), the starting stack
(R1.3) and the decks' order (R1.5). Each is counted over many deals from a seeded generator
and compared with a uniform deal by Pearson's chi-square test at p = 0.001: a face never
rolled, a die that favours a value, a shuffle that leaves a card near its place or a stack
that keeps the seating order fails. The seed makes every run the same (no flaky audit); the
real dealer draws from the operating system's generator, which is checked too.
"""

from __future__ import annotations

import inspect
import itertools
import math
import random
from collections import Counter
from collections.abc import Hashable, Mapping
from typing import Any

import pytest

from companion.engine import DEFAULT_PROFILE
from companion.table import dealer

DEALS = 30_000
Z_999 = 3.0902  # the standard normal's 99.9th percentile


def critical(dof: int) -> float:
    """Chi-square's 99.9th percentile for ``dof`` degrees of freedom (Wilson and Hilferty's
    approximation, within 1.5 % of the exact value from 5 degrees of freedom up).

    >>> round(critical(5), 1), round(critical(35), 1)
    (20.8, 66.7)
    """
    h = 2 / (9 * dof)
    return dof * (1 - h + Z_999 * math.sqrt(h)) ** 3


def chi_square(counts: Mapping[Hashable, int], expected: Mapping[Hashable, float]) -> float:
    """Pearson's statistic of ``counts`` against ``expected`` (every expected key counted)."""
    return sum((counts.get(k, 0) - e) ** 2 / e for k, e in expected.items())


def assert_uniform(counts: Counter[Any], outcomes: list[Any], constraints: int = 1) -> None:
    """``counts`` look like a uniform draw from ``outcomes`` (none missing, none extra)."""
    n = sum(counts.values())
    assert set(counts) <= set(outcomes), set(counts) - set(outcomes)
    stat = chi_square(counts, {o: n / len(outcomes) for o in outcomes})
    dof = len(outcomes) - constraints
    assert stat < critical(dof), (stat, critical(dof), counts.most_common(3))


def test_the_real_dealer_draws_from_the_operating_systems_generator() -> None:
    for fn in (dealer.deal, dealer.roll_for, dealer.initial_stack, dealer.shuffle_decks):
        assert isinstance(inspect.signature(fn).parameters["rng"].default, random.SystemRandom)


def test_harvest_dice_are_three_fair_independent_dice() -> None:
    """R2.2: three dice, every face as likely, and no die tied to another."""
    rng = random.Random(2)
    state = {"pending": [{"type": "harvest"}]}
    faces: Counter[int] = Counter()
    pairs: Counter[tuple[int, int]] = Counter()
    for _ in range(DEALS):
        command = dealer.deal(state, [[13], [10]], 0, rng)
        assert command is not None and command["type"] == "harvest"
        dice = command["dice"]
        assert len(dice) == 3
        faces.update(dice)
        pairs.update([(dice[0], dice[1]), (dice[1], dice[2])])
    assert_uniform(faces, list(range(1, 7)))
    assert_uniform(pairs, list(itertools.product(range(1, 7), repeat=2)))


@pytest.mark.parametrize("count", [1, 2, 3])
def test_black_dice_and_the_last_die_are_fair(count: int) -> None:
    """R3.2: as many dice as the player chose, each fair; R7: one die at the final roll."""
    rng = random.Random(count)
    window = {"choices": {"ana": count}}
    state = {"phase": "dice", "dice_window": window, "pending": [{"type": "roll", "player": "ana"}]}
    final = {"phase": "final_roll", "pending": [{"type": "roll", "player": "ana"}]}
    faces: Counter[int] = Counter()
    for i in range(DEALS // count):
        command = dealer.roll_for(state, ["ana"], rng)
        assert command is not None and len(command["values"]) == count
        faces.update(command["values"])
        if i % 10 == 0:
            last = dealer.deal(final, [[13], [10]], 0, rng)
            assert last is not None and last["type"] == "roll" and len(last["values"]) == 1
    assert_uniform(faces, list(range(1, 7)))


@pytest.mark.parametrize("players", [["ana", "ben", "cleo"], ["ana", "ben", "cleo", "dev"]])
def test_every_starting_stack_is_as_likely(players: list[str]) -> None:
    """R1.3: the stack on box 0 is in random order, each order as likely (the stack breaks
    ties all game long, so an order that came up more often would favour a seat)."""
    rng = random.Random(len(players))
    orders: Counter[tuple[str, ...]] = Counter()
    for _ in range(DEALS):
        stack = dealer.initial_stack(players, rng)
        assert sorted(stack) == sorted(players)
        orders[tuple(stack)] += 1
    assert_uniform(orders, list(itertools.permutations(players)))


def test_the_improvement_decks_are_shuffled_fairly_and_lose_no_card() -> None:
    """R1.5: both decks keep their cards, and each card is as likely at every place."""
    rng = random.Random(5)
    profile = DEFAULT_PROFILE
    at: list[Counter[tuple[int, int]]] = [Counter() for _ in profile["improvement_decks"]]
    for _ in range(DEALS):
        decks = dealer.shuffle_decks(profile, rng)
        for deck, original, counts in zip(decks, profile["improvement_decks"], at, strict=True):
            assert sorted(deck) == sorted(original)
            counts.update(enumerate(deck))
    for original, counts in zip(profile["improvement_decks"], at, strict=True):
        size, copies = len(original), Counter(original)
        expected = {(i, card): DEALS * n / size for i in range(size) for card, n in copies.items()}
        dof = (size - 1) * (len(copies) - 1)  # places × values, both margins fixed
        stat = chi_square(counts, expected)
        assert stat < critical(dof), (original, stat, critical(dof))


def test_improvement_cards_come_off_the_top_and_a_spent_deck_starts_over() -> None:
    """R2.2: each round draws the next card of each deck; after the last card the deck is
    used again from its top (the shuffled order is kept for the whole game)."""
    decks = [[15, 13, 14], [11, 12, 10, 11]]
    state = {"pending": [{"type": "improvements"}]}
    drawn = [dealer.deal(state, decks, n) for n in range(7)]
    assert [c["cards"] for c in drawn if c and c["type"] == "improvements"] == [
        [15, 11],
        [13, 12],
        [14, 10],
        [15, 11],
        [13, 11],
        [14, 12],
        [15, 10],
    ]
