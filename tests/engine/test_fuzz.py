"""Arbitrary input never crashes the engine: a command is accepted or refused with an
``IllegalCommand`` that leaves the state unchanged; a document is set up or refused with
``InvalidSetup`` (SCENARIO.md: "refused with a message that says why")."""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import IllegalCommand, InvalidSetup, apply, game_from_document, new_game
from companion.players.random_games import random_command, random_players

TYPES = ["sacrifice", "harvest", "improvements", "bid", "dice", "roll", "city", "pyramid"]
PLAYERS = random_players(5)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 20)
    | st.floats(allow_nan=False)
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)
small_ints = st.lists(st.integers(-1, 14) | json_values, max_size=4)
bids = st.dictionaries(st.sampled_from(list("01234567")), small_ints, max_size=7) | json_values

commands = (
    st.fixed_dictionaries(
        {"type": st.sampled_from(TYPES) | json_values},
        optional={
            "player": st.sampled_from(PLAYERS) | json_values,
            "card": st.integers(-1, 14) | json_values,
            "dice": small_ints,
            "cards": small_ints,
            "bids": bids,
            "count": st.integers(-1, 3) | json_values,
            "values": small_ints,
            "choice": st.sampled_from(["hut", "die"]) | json_values,
            "first": st.sampled_from(PLAYERS) | json_values,
        },
    )
    | json_values
)


@cache
def game_states() -> list[dict[str, Any]]:
    """Every state of a few random games (3, 4 and 5 players)."""
    states = []
    for seed, k in ((1, 3), (2, 4), (3, 5)):
        rng = random.Random(seed)
        state = new_game(random_players(k))
        states.append(state)
        while not state["finished"]:
            state, _ = apply(state, random_command(state, rng))
            states.append(state)
    return states


@settings(max_examples=400, deadline=None)
@given(index=st.integers(0, 10**6), command=commands)
def test_any_command_is_accepted_or_cleanly_refused(index: int, command: Any) -> None:
    states = game_states()
    state = states[index % len(states)]
    before = json.dumps(state, sort_keys=True)
    try:
        apply(state, command)
    except IllegalCommand as exc:
        assert len(str(exc).split()) >= 3
    assert json.dumps(state, sort_keys=True) == before


profiles = (
    st.dictionaries(
        st.sampled_from(
            [
                "track_colors",
                "end_score",
                "max_rounds",
                "cubes",
                "hut_spaces",
                "pyramid_rows",
                "drink",
                "drink_penalty",
                "tachli_last_round",
                "chocolatl_points",
                "improvement_decks",
                "other",
            ]
        ),
        json_values,
        max_size=3,
    )
    | json_values
)
documents = (
    st.fixed_dictionaries(
        {"players": st.lists(st.sampled_from(PLAYERS) | json_values, max_size=6) | json_values},
        optional={
            "stack": st.lists(st.sampled_from(PLAYERS) | json_values, max_size=6) | json_values,
            "profile": profiles,
        },
    )
    | json_values
)


@settings(max_examples=300, deadline=None)
@given(document=documents)
def test_any_document_is_set_up_or_cleanly_refused(document: Any) -> None:
    try:
        state = game_from_document(document)
    except InvalidSetup as exc:
        assert str(exc)
        return
    assert 3 <= len(state["players"]) <= 5
    json.dumps(state)  # the state is plain JSON data
