"""Bad game documents (SCENARIO.md "Document", "Profile") are refused with a clear reason."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import (
    DEFAULT_PROFILE,
    InvalidSetup,
    ReplayError,
    game_from_document,
    make_profile,
    replay_document,
)

OK = {"players": ["ana", "ben", "cleo"]}

BAD_DOCUMENTS: dict[str, tuple[Any, str]] = {
    "not an object": (["ana", "ben", "cleo"], "object"),
    "no players": ({}, "3 to 5 players"),
    "players not a list": ({"players": "ana,ben,cleo"}, "3 to 5 players"),
    "2 players": ({"players": ["ana", "ben"]}, "3 to 5 players"),
    "6 players": ({"players": ["ana", "ben", "cleo", "dev", "eli", "fay"]}, "3 to 5 players"),
    "capital letter id": ({"players": ["Ana", "ben", "cleo"]}, "'Ana'"),
    "id starting with a digit": ({"players": ["1ana", "ben", "cleo"]}, "'1ana'"),
    "id too long": ({"players": ["a" * 17, "ben", "cleo"]}, "[a-z]"),
    "empty id": ({"players": ["", "ben", "cleo"]}, "[a-z]"),
    "id with a space": ({"players": ["ana b", "ben", "cleo"]}, "'ana b'"),
    "id not a string": ({"players": [7, "ben", "cleo"]}, "7"),
    "duplicate id": ({"players": ["ana", "ben", "ana"]}, "different"),
    "stack missing a player": (OK | {"stack": ["ana", "ben"]}, "stack"),
    "stack with a stranger": (OK | {"stack": ["ana", "ben", "dev"]}, "stack"),
    "stack with a duplicate": (OK | {"stack": ["ana", "ana", "cleo"]}, "stack"),
    "stack with a number": (OK | {"stack": ["ana", 1, "cleo"]}, "stack"),
    "stack with a list": (OK | {"stack": [["ana"], "ben", "cleo"]}, "stack"),
    "stack not a list": (OK | {"stack": "ana"}, "stack"),
    "profile not an object": (OK | {"profile": [1]}, "profile"),
    "unknown profile key": (OK | {"profile": {"speed": 3}}, "unknown profile key 'speed'"),
    "commands not a list": (OK | {"commands": {"type": "harvest"}}, "commands"),
}

BAD_PROFILES: dict[str, tuple[dict[str, Any], str]] = {
    "track_colors empty": ({"track_colors": []}, "track_colors"),
    "track_colors unknown colour": ({"track_colors": ["red", "blue"]}, "track_colors"),
    "track_colors a string": ({"track_colors": "red"}, "track_colors"),
    "end_score 0": ({"end_score": 0}, "end_score"),
    "end_score a string": ({"end_score": "40"}, "end_score"),
    "end_score a bool": ({"end_score": True}, "end_score"),
    "max_rounds 0": ({"max_rounds": 0}, "max_rounds"),
    "max_rounds 2.5": ({"max_rounds": 2.5}, "max_rounds"),
    "cubes 0": ({"cubes": 0}, "cubes"),
    "hut_spaces -1": ({"hut_spaces": -1}, "hut_spaces"),
    "pyramid_rows empty": ({"pyramid_rows": []}, "pyramid_rows"),
    "pyramid_rows triple": ({"pyramid_rows": [[5, 5, 5]]}, "pyramid_rows"),
    "pyramid_rows zero cells": ({"pyramid_rows": [[0, 5]]}, "pyramid_rows"),
    "pyramid_rows negative bonus": ({"pyramid_rows": [[5, -1]]}, "pyramid_rows"),
    "drink not pairs": ({"drink": [8, 4]}, "drink"),
    "drink_penalty -2": ({"drink_penalty": -2}, "drink_penalty"),
    "tachli three values": ({"tachli_last_round": [6, 3, 1]}, "tachli_last_round"),
    "chocolatl_points a string": ({"chocolatl_points": "1"}, "chocolatl_points"),
    "improvement_decks one deck": ({"improvement_decks": [[13, 14]]}, "improvement_decks"),
    "improvement_decks empty deck": ({"improvement_decks": [[13], []]}, "improvement_decks"),
    "improvement_decks card 100": ({"improvement_decks": [[100], [10]]}, "improvement_decks"),
}


@pytest.mark.parametrize("name", list(BAD_DOCUMENTS))
def test_bad_document_is_refused(name: str) -> None:
    """SCENARIO.md "Document": 3-5 ids matching [a-z][a-z0-9_-]{0,15}, a permutation stack."""
    document, words = BAD_DOCUMENTS[name]
    with pytest.raises(InvalidSetup) as info:
        replay_document(document)
    assert words in str(info.value)
    assert issubclass(InvalidSetup, ValueError)


@pytest.mark.parametrize("name", list(BAD_PROFILES))
def test_bad_profile_value_is_refused(name: str) -> None:
    """SCENARIO.md "Profile": every given key is checked; the message names the key."""
    overrides, key = BAD_PROFILES[name]
    with pytest.raises(InvalidSetup) as info:
        game_from_document(OK | {"profile": overrides})
    assert key in str(info.value)


def test_good_document_defaults() -> None:
    """Stack defaults to the players' order; a given key replaces the default's key whole."""
    state = game_from_document(OK | {"profile": {"track_colors": ["gold"], "end_score": 30}})
    assert state["track"] == {"0": ["ana", "ben", "cleo"]}
    assert state["profile"]["track_colors"] == ["gold"]
    assert state["profile"]["end_score"] == 30
    assert state["profile"]["max_rounds"] == DEFAULT_PROFILE["max_rounds"]
    assert make_profile(None) == DEFAULT_PROFILE
    longest = game_from_document({"players": ["a" * 16, "b-1_x", "c"]})
    assert list(longest["players"]) == ["a" * 16, "b-1_x", "c"]


def test_refused_command_in_a_document_names_its_index() -> None:
    """SCENARIO.md "replay": the refusal carries the command's 0-based index and reason."""
    document = OK | {
        "commands": [
            {"type": "sacrifice", "player": "ana", "card": 0},
            {"type": "sacrifice", "player": "ana", "card": 1},
        ]
    }
    with pytest.raises(ReplayError) as info:
        replay_document(document)
    assert info.value.index == 1
    assert "no sacrifice from ana" in info.value.reason
    assert str(info.value).startswith("command 1:")
