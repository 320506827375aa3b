"""Whether the host may take the last move back, and what the seat whose move it was is told.

The rule (DESIGN.md "Host controls") and its words: a move that revealed or scored nothing,
that no companion player, dealer or table's own answer made, can be undone; the host's frame
offers it by name (``frames``), ``commands.undo`` applies it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.store.documents import LoggedCommand
from companion.table.dealer import NO_CHOICE, NO_DICE
from companion.table.frame_types import Notice, UndoParams
from companion.table.model import Game
from companion.table.news import COMPANION_SOURCES

# Events a command may cause and still be undone: nothing secret or scored came out of it.
UNDOABLE_EVENTS = frozenset(
    {
        "sacrificed",
        "bid_placed",
        "dice_decided",
        "harvest_dice",
        "improvement_cards",
        "rolled",
        "round_started",
    }
)
# What an event that cannot be undone did, in the host's words (catalogue ``undo.what.*``).
UNDO_WHAT = {
    "revealed": "shown",
    "first_cards_revealed": "shown",
    "dice_choices": "shown",
    "ranking": "ranked",
    "scored": "scored",
    "row_completed": "scored",
    "final_scoring": "scored",
    "game_over": "scored",
    "card_gained": "cards",
    "card_discarded": "cards",
    "figure": "board",
    "old_man": "board",
    "hut": "board",
    "die": "board",
    "cube": "board",
    "city_choice": "board",
    "pyramid_order": "board",
    "round_ended": "round",
    "last_round": "round",
}
UNDO_WHAT_EN = {
    "shown": "cards or dice choices were shown to everybody",
    "ranked": "a station was ranked",
    "scored": "points were scored",
    "cards": "improvement cards changed hands",
    "board": "something moved on the board",
    "round": "the round ended",
    "other": "something happened in the game",
}
UNDO_EN = {
    "undo.no_game": "no game is running",
    "undo.nothing": "nothing to undo",
    "undo.dealer": "the last command was the companion's dice or cards draw",
    "undo.companion": "the last command was a companion player's move",
    "undo.no_dice": 'the last command was the table\'s own "no dice" (no die could change '
    "what that station gives)",
    "undo.no_choice": "the last command was the table's own pyramid order (both cubes went "
    "into one row)",
    "undo.revealed": "the last move ({command}) has already revealed or scored something: {what}",
    "undo.possible": "undo {command}",
}


@dataclass(frozen=True)
class UndoCheck:
    """Whether the host may undo the last command, and why, as a catalogue key with its
    parameters (the host page words it) and in plain English (the ``cannot_undo`` reason)."""

    possible: bool
    key: str
    params: UndoParams

    @property
    def text(self) -> str:
        given = self.params
        params: dict[str, object] = dict(given)
        if "what" in given:
            params["what"] = ", ".join(UNDO_WHAT_EN[w] for w in given["what"])
        if "command" in given:
            who = f"{given['player']}'s " if given.get("player") else ""
            params["command"] = who + str(given["command"])
        return UNDO_EN[self.key].format(**params)


def undo_check(game: Game | None) -> UndoCheck:
    """The last command can be undone while it revealed and scored nothing and was no
    random draw nor a companion's answer (DESIGN.md "undo")."""
    if game is None or game.status != "playing":
        return UndoCheck(False, "undo.no_game", {})
    if not game.commands:
        return UndoCheck(False, "undo.nothing", {})
    _, command, source, _ = game.commands[-1]
    if source == "dealer":
        return UndoCheck(False, "undo.dealer", {})
    if source == NO_DICE:
        return UndoCheck(False, "undo.no_dice", {})
    if source == NO_CHOICE:
        return UndoCheck(False, "undo.no_choice", {})
    if source.startswith(COMPANION_SOURCES):
        return UndoCheck(False, "undo.companion", {})
    player = command.get("player")  # a host input's has none
    params: UndoParams = {
        "command": command["type"],
        "player": player if isinstance(player, str) else None,
    }
    revealing = [e["type"] for e in game.events[-1] if e["type"] not in UNDOABLE_EVENTS]
    if revealing:
        what = sorted({UNDO_WHAT.get(kind, "other") for kind in revealing})
        return UndoCheck(False, "undo.revealed", {**params, "what": what})
    return UndoCheck(True, "undo.possible", params)


def undone_notice(command: LoggedCommand, state: Mapping[str, Any]) -> dict[str, Notice]:
    """The notice for the seat whose own move the host took back (to that seat only: a bid's
    cards are its secret), e.g. "your bid for station 3 was undone"."""
    player = command.get("player")
    if not isinstance(player, str) or not player:
        return {}
    notice: Notice = {"kind": "undone", "type": command["type"]}
    if command["type"] == "bid":
        notice["stations"] = sorted(command.get("bids", {}), key=int)
    elif state.get("station") is not None:
        notice["station"] = state["station"]
    return {player: notice}
