"""Companion players (companion/players/): legal commands from the seat's view only.

Random mid-game states come from random legal games (companion.players.random_games). The
information test changes what a seat cannot see (other seats' sacrifices, unrevealed bids,
undecided dice; DESIGN.md "Engine", R1.2, R2.4-R2.6, R3.2) and checks that no kind changes its
command.
"""

from __future__ import annotations

import json
import random
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import apply, apply_in_place, copy_state, new_game, view
from companion.players import KINDS, chooser, strong
from companion.players.common import awaited, free_cards
from companion.players.random_games import random_command, random_players

FAST_STRONG = partial(strong.choose, rollouts=24, time_limit=None)


def choosers() -> dict[str, Any]:
    out = {k: chooser(k) for k in KINDS}
    out["strong"] = FAST_STRONG
    return out


def mid_game(seed: int, k: int, steps: int) -> dict[str, Any]:
    """A random legal game stopped after ``steps`` commands (or at its end)."""
    rng = random.Random(seed)
    players = random_players(k)
    state = new_game(players, rng.sample(players, k))
    for _ in range(steps):
        if state["finished"]:
            break
        apply_in_place(state, random_command(state, rng))
    return state


def deciding_seats(state: dict[str, Any]) -> list[str]:
    return [p for p in state["players"] if awaited(view(state, p), p)]


def hide_differently(state: dict[str, Any], seat: str, rng: random.Random) -> dict[str, Any]:
    """The same game as ``seat`` sees it, with everything hidden from ``seat`` changed."""
    alt = copy_state(state)
    revealed = alt["revealed"]
    for q, ps in alt["players"].items():
        if q == seat or alt["finished"]:
            continue
        # Another sacrifice (R1.2): swap it with a card of the deck not bid this round.
        spare = free_cards(ps)
        if ps["sacrifice"] is not None and spare:
            card = rng.choice(spare)
            ps["deck"].remove(card)
            ps["deck"].append(ps["sacrifice"])
            ps["deck"].sort()
            ps["sacrifice"] = card
        # Other unrevealed cards (R2.4-R2.6): re-deal the hidden slots from the free cards.
        slots = []
        for k, cards in ps["bids"].items():
            shown = len(revealed.get(k, {}).get(q, []))
            slots.extend((k, i) for i in range(shown, len(cards)))
        if slots:
            pool = [ps["bids"][k][i] for k, i in slots] + free_cards(ps)
            rng.shuffle(pool)
            for (k, i), card in zip(slots, pool, strict=False):
                ps["bids"][k][i] = card
            ps["used"] = [c for cards in ps["bids"].values() for c in cards]
    window = alt["dice_window"]
    if window and alt["phase"] == "dice":  # R3.2: undecided until everyone has decided
        for q in list(window["choices"]):
            if q != seat:
                window["choices"][q] = rng.randint(0, alt["players"][q]["dice"])
    return alt


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    k=st.integers(3, 5),
    steps=st.integers(0, 160),
    bot_seed=st.integers(0, 2**32),
)
def test_hidden_information_never_changes_a_command(
    seed: int, k: int, steps: int, bot_seed: int
) -> None:
    state = mid_game(seed, k, steps)
    for seat in deciding_seats(state):
        alt = hide_differently(state, seat, random.Random(seed))
        assert json.dumps(view(alt, seat), sort_keys=True) == json.dumps(
            view(state, seat), sort_keys=True
        )
        for kind, choose in choosers().items():
            mine = choose(view(state, seat), random.Random(bot_seed))
            other = choose(view(alt, seat), random.Random(bot_seed))
            assert mine == other, kind


def test_hiding_changes_the_hidden_parts() -> None:
    """The alteration above is not empty: it changes sacrifices, bids and dice choices."""
    changed = {"sacrifice": 0, "bids": 0, "dice": 0}
    for seed in range(30):
        rng = random.Random(seed)
        state = new_game(random_players(4))
        while not state["finished"]:
            apply_in_place(state, random_command(state, rng))
            for seat in deciding_seats(state)[:1]:
                alt = hide_differently(state, seat, rng)
                for q in state["players"]:
                    a, b = state["players"][q], alt["players"][q]
                    changed["sacrifice"] += a["sacrifice"] != b["sacrifice"]
                    changed["bids"] += a["bids"] != b["bids"]
                window = state["dice_window"]
                changed["dice"] += bool(
                    window and window["choices"] != alt["dice_window"]["choices"]
                )
    assert all(n > 0 for n in changed.values()), changed


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_plays_legal_commands_to_the_end(kind: str) -> None:
    """A whole game where every seat is this kind: the engine accepts every command."""
    from companion.commands.arena import play_game

    for game in range(2 if kind == "strong" else 6):
        result = play_game([kind] * (3 + game % 3), seed=11, game=game)
        assert result.winners
        assert set(result.kinds.values()) == {kind}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 200))
def test_commands_answer_what_is_awaited(seed: int, steps: int) -> None:
    state = mid_game(seed, 4, steps)
    for seat in state["players"]:
        for kind, choose in choosers().items():
            command = choose(view(state, seat), random.Random(seed))
            if awaited(view(state, seat), seat) is None:
                assert command is None
            else:
                apply(state, command)  # raises if the engine refuses it
                assert command["player"] == seat, kind


def test_strong_search_is_repeatable_without_a_clock() -> None:
    state = mid_game(5, 4, 9)
    seat = deciding_seats(state)[0]
    first = FAST_STRONG(view(state, seat), random.Random(1))
    assert first == FAST_STRONG(view(state, seat), random.Random(1))


def test_strong_playouts_are_legal_and_the_same_through_the_checked_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The search applies its playouts' commands unchecked (engine.apply_made): through the
    checking engine instead, every one of them is accepted and every score is the same."""
    cases = []
    for seed in range(12):
        state = mid_game(seed, 3 + seed % 3, 4 + 11 * seed)
        for seat in deciding_seats(state):
            cases.append(view(state, seat))
    assert len(cases) >= 12
    moves = [strong.candidates(v, random.Random(7)) for v in cases]

    def scores() -> list[Any]:
        return [
            strong.playout_scores(v, m, random.Random(3), 6, strong.expected_points)
            for v, m in zip(cases, moves, strict=True)
        ]

    fast = scores()
    checked_calls = []

    def checked(state: Any, command: Any) -> None:
        checked_calls.append(command["type"])
        apply_in_place(state, command)

    monkeypatch.setattr(strong, "apply_made", checked)
    assert scores() == fast
    assert len(checked_calls) > 1000
