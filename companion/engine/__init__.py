"""The Chocolatl rules engine: pure functions over plain JSON-serialisable state.

No I/O, no randomness, no clock: dice, improvement cards and the initial stack come in as
commands or setup values (SCENARIO.md), so a game log always replays to the same state.

>>> s = new_game(["ana", "ben", "cleo"])
>>> for p, card in (("ana", 0), ("ben", 1), ("cleo", 2)):
...     s, events = apply(s, {"type": "sacrifice", "player": p, "card": card})
>>> s["round"], s["mode"], pending(s)
(1, 'red', [{'type': 'harvest'}, {'type': 'improvements'}])
>>> apply(s, {"type": "harvest", "dice": [1, 2, 9]})
Traceback (most recent call last):
...
companion.engine.errors.RuleViolation: 9 is not a value from 1 to 6
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from companion.engine.errors import (
    IllegalCommand,
    InvalidSetup,
    MalformedCommand,
    NotAwaited,
    ReplayError,
    RuleViolation,
)
from companion.engine.explain import describe
from companion.engine.flow import apply_in_place, apply_made
from companion.engine.jsondata import clone
from companion.engine.profile import DEFAULT_PROFILE, PLACEHOLDERS, make_profile, track_colour
from companion.engine.scoring import final_total
from companion.engine.state import new_game
from companion.engine.types import Command, Event, Pending, State, View
from companion.engine.views import projection, view, views, visible_events

__all__ = [
    "DEFAULT_PROFILE",
    "Command",
    "PLACEHOLDERS",
    "Event",
    "IllegalCommand",
    "InvalidSetup",
    "MalformedCommand",
    "NotAwaited",
    "ReplayError",
    "RuleViolation",
    "State",
    "View",
    "apply",
    "apply_in_place",
    "apply_made",
    "copy_state",
    "describe",
    "final_total",
    "game_from_document",
    "make_profile",
    "new_game",
    "pending",
    "projection",
    "replay_document",
    "track_colour",
    "view",
    "views",
    "visible_events",
]


# SCENARIO.md "Document": ``meta`` is for readers of the log and never changes the game.
DOCUMENT_KEYS = frozenset({"players", "stack", "profile", "commands", "meta"})


def copy_state(state: State) -> State:
    """A deep copy of the state; the profile is shared (the engine never changes it)."""
    profile = state["profile"]
    out = cast(State, {k: (v if k == "profile" else clone(v)) for k, v in state.items()})
    out["profile"] = profile
    return out


def apply(state: State, command: Mapping[str, object]) -> tuple[State, list[Event]]:
    """The state after ``command`` and the events that explain it; ``state`` is not changed.

    Raises :class:`IllegalCommand` (a ``ValueError``) with a reason a player can read.
    """
    new = copy_state(state)
    events = apply_in_place(new, command)
    for event in events:
        event["text"] = describe(event)
    return new, events


def pending(state: State) -> list[Pending]:
    """What is awaited next and from whom (host inputs carry no player)."""
    return [e.copy() for e in state["pending"]]


def game_from_document(document: object) -> State:
    """The starting state of a SCENARIO.md document (players, stack, profile)."""
    if not isinstance(document, dict):
        raise InvalidSetup("a game document must be a JSON object")
    unknown = sorted(set(document) - DOCUMENT_KEYS)
    if unknown:  # SCENARIO.md: a misspelt key must not pass silently
        raise InvalidSetup(
            f"unknown top-level key {unknown[0]!r} (allowed: {', '.join(sorted(DOCUMENT_KEYS))})"
        )
    if "meta" in document and not isinstance(document["meta"], dict):
        raise InvalidSetup("meta must be a JSON object")
    return new_game(document.get("players"), document.get("stack"), document.get("profile"))


def replay_document(document: object, keep_events: bool = True) -> tuple[State, list[Event]]:
    """Apply every command of a SCENARIO.md document; a refusal raises :class:`ReplayError`.

    ``keep_events=False`` skips collecting the events (the replay command only needs the state).
    """
    state = game_from_document(document)
    assert isinstance(document, dict)  # game_from_document refuses anything else
    commands = document.get("commands", [])
    if not isinstance(commands, list):
        raise InvalidSetup("commands must be a list")
    events: list[Event] = []
    for index, command in enumerate(commands):
        try:
            new_events = apply_in_place(state, command)
        except IllegalCommand as exc:
            raise ReplayError(index, str(exc)) from None
        if keep_events:
            events.extend(new_events)
    return state, events
