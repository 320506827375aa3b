"""The JSON documents the store keeps in its columns, as TypedDicts: a game's setup, its
logged commands, and the result of a game that is over (PROTOCOL.md "Result webhooks").

The store reads them back as written (``database.py`` parses each column where it is read
and checks the result's keys); from there on they carry these types. Nothing here runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, Required, TypedDict

from companion.engine.types import Command, FinalLine


class ShowCursor(TypedDict):
    """Where the show stood when it last held a step (table/stage.py), kept for a restart."""

    game: int
    n: int
    at: float


class TableSettings(TypedDict, total=False):
    """A table's settings document (``tables.settings``): the table's own choices, whose
    meaning the table keeps (table/table.py); ``show`` is where its show stood."""

    dice: Required[str]
    track_colors: list[str] | None
    companion_dice: str
    lang: str
    hints: str | None
    pace: str
    board_drawing: bool
    show: ShowCursor


class GameDocument(TypedDict):
    """A stored game's setup (``games.document``): SCENARIO.md "Document" without its
    ``commands`` and ``meta``. The engine checks it when the game is replayed."""

    players: list[str]
    stack: NotRequired[list[str]]
    # SCENARIO.md "Profile": the keys given replace the default's (make_profile checks them).
    profile: NotRequired[Mapping[str, object]]


class TrackColorsCommand(TypedDict):
    """The table's own logged correction of the track colours (R2.3), before round 1: not an
    engine command; ``results.engine_log`` folds it into the profile."""

    type: Literal["track_colors"]
    colors: list[str]


# A row of a game's command log (``commands.command``): an engine command or the table's own.
LoggedCommand = Command | TrackColorsCommand


class MetaSeat(TypedDict):
    """A seat in a game log's ``meta`` (SCENARIO.md): ``companion`` only on seats companion
    players played, their level."""

    name: str
    colour: str
    companion: NotRequired[str]


class LogMeta(TypedDict):
    """SCENARIO.md ``meta`` of a game log: the table, the date and the seats."""

    table: str
    date: str
    seats: dict[str, MetaSeat]


class GameLog(GameDocument):
    """A game's whole log (SCENARIO.md "Document"): the stored setup, the ``meta`` of its
    table and seats, and the engine commands (track-colour corrections folded into the
    profile). What a finished game's log download holds and what its review reads."""

    meta: LogMeta
    commands: list[Command]


class Who(TypedDict):
    """Who made a seat's moves: a person (``companion`` None) on a phone under its name and
    colour, or a companion player of that level under the seat's name."""

    name: str
    colour: str | None
    companion: str | None


class Holder(Who):
    """A holder of a seat in a result: who, and the rounds it made a move in."""

    rounds: list[int]


class ResultPlayer(TypedDict):
    """A seat in a result, in seating order: ``name``, ``colour`` and ``companion`` are the
    credited holder's; ``score`` the R7 total of a finished game (``final`` its lines), the
    track score of an ended one (``final`` None)."""

    seat: str
    name: str
    colour: str | None
    score: int
    track: int
    final: FinalLine | None
    winner: bool
    companion: NotRequired[str | None]  # a version 1 result of the first release has none
    holders: NotRequired[list[Holder]]  # from version 2 on


class ResultTable(TypedDict):
    name: str
    title: str


class ResultDocument(TypedDict):
    """The result of a game that is over (``results.result``): the webhook body and the
    café's history row (PROTOCOL.md "Result webhooks"). A stored one may be of version 1
    still (one its upgrade could not read): its players have no ``holders``."""

    version: int
    event: str  # game.finished or game.ended
    idempotency_key: str
    table: ResultTable
    game_id: int
    status: str  # finished or ended
    started_at: str  # UTC, ISO 8601 with a Z
    ended_at: str
    rounds_played: int
    players: list[ResultPlayer]
    winners: list[str]
