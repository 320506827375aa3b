"""The shapes of the engine's plain JSON data, for type checkers and readers.

The state, views, commands and events stay plain ``dict``s (``json.dumps`` writes them as-is);
these TypedDicts and ``Literal`` names say which keys they have and what the values may be
(SCENARIO.md "Commands" and "Replay output"). Nothing here runs at play time except the
command field table :data:`COMMAND_FIELDS`, which the engine and the web edge both use to
refuse unknown keys.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

Mode = Literal["red", "green", "gold"]  # R2.3: the colour of the leader's box
TrackColour = Mode
Phase = Literal[
    "sacrifice", "setup", "bid", "dice", "roll", "city", "pyramid", "final_roll", "finished"
]
# R2.4-R2.6: a red round's one bid ("all"), a green round's two ("first", "second"), or the
# station a gold round's bid is for.
Step = Literal["all", "first", "second"] | int
StationKey = Literal["1", "2", "3", "4", "5", "6"]
CommandType = Literal[
    "sacrifice", "harvest", "improvements", "bid", "dice", "roll", "city", "pyramid"
]
CityChoice = Literal["hut", "die"]  # R5.3
LastRoundReason = Literal["end_score", "pyramid_full", "cubes", "max_rounds"]  # R2.1, R6.3
ScoreReason = Literal["chocolatl", "harvest", "pyramid_row", "drink", "drink_penalty", "tachli"]
TieRule = Literal["figure", "lower_score", "stack"]  # R3.4, R3.5

# Every command's exact keys (SCENARIO.md "Commands"): a command with another key is refused,
# so nothing unchecked is ever stored with a game.
COMMAND_FIELDS: dict[str, frozenset[str]] = {
    "sacrifice": frozenset({"type", "player", "card"}),
    "harvest": frozenset({"type", "dice"}),
    "improvements": frozenset({"type", "cards"}),
    "bid": frozenset({"type", "player", "bids"}),
    "dice": frozenset({"type", "player", "count"}),
    "roll": frozenset({"type", "player", "values"}),
    "city": frozenset({"type", "player", "choice"}),
    "pyramid": frozenset({"type", "player", "first"}),
}


class Profile(TypedDict):
    """The board's numbers (profile.json, SCENARIO.md "Profile")."""

    track_colors: list[TrackColour]
    end_score: int
    max_rounds: int
    cubes: int
    hut_spaces: int
    pyramid_rows: list[list[int]]  # [cells, bonus] per row, bottom first
    drink: list[list[int]]  # [first, second] points per round
    drink_penalty: int
    tachli_last_round: list[int]
    chocolatl_points: int
    improvement_decks: list[list[int]]


class Pending(TypedDict):
    """One awaited command; host inputs (harvest, improvements) carry no player."""

    type: CommandType
    player: NotRequired[str]


class FinalLine(TypedDict):
    """A player's R7 lines; ``None`` where a projection may not know the value."""

    track: int
    stones: int
    pyramid_majority: int
    chocolatl: int
    old_man: int
    sacrifice: int | None
    sacrifice_bonus: int | None
    die: int | None
    total: int


class PlayerState(TypedDict):
    score: int
    deck: list[int]
    huts: int
    dice: int
    cubes_used: int
    sacrifice: int | None
    final: FinalLine | None
    used: list[int]  # cards bid this round (R2.7)
    bids: dict[str, list[int]]  # station -> cards bid this round, secret until revealed


class DiceWindow(TypedDict):
    """The bonus dice window of a station (R3.2), or the final roll (R7, station None)."""

    station: int | None
    choices: dict[str, int]
    rolls: dict[str, list[int]]


class Decision(TypedDict):
    """A first-ranked player's choice the flow waits for (R5.3 city, R5.4 pyramid)."""

    type: Literal["city", "pyramid"]
    first: str
    second: str


class State(TypedDict):
    """The whole game (SCENARIO.md "Replay output" plus the flow's bookkeeping)."""

    round: int
    mode: Mode | None
    last_round: bool
    finished: bool
    pending: list[Pending]
    chocolatl: str | None
    old_man: str | None
    players: dict[str, PlayerState]
    track: dict[str, list[str]]
    pyramid: list[list[str | None]]
    winners: list[str]
    seats: list[str]
    profile: Profile
    phase: Phase
    step: Step | None
    station: int | None
    returning: str | None
    harvest: list[int] | None
    improvements: list[int] | None
    revealed: dict[str, dict[str, list[int]]]
    dice_window: DiceWindow | None
    decision: Decision | None
    last_round_reason: LastRoundReason | None


class BidShape(TypedDict):
    """What the bid asked for now must hold (R2.4-R2.6): these stations, so many cards each."""

    stations: list[str]
    cards: int


class PlayerView(TypedDict):
    """A player as one seat sees them: the deck, sacrifice and bids only where allowed."""

    score: int
    huts: int
    dice: int
    cubes_used: int
    final: FinalLine | None
    deck_size: int
    deck: list[int] | None
    sacrifice: int | None
    used: list[int] | None
    bids: dict[str, list[int]] | None


class DiceWindowView(TypedDict):
    station: int | None
    decided: dict[str, bool]
    choices: dict[str, int]
    rolls: dict[str, list[int]]
    # Every bid from public facts (bonusdice.outlook, R3.3): parts, value before dice, places.
    bids: dict[str, dict[str, Any]] | None


class View(TypedDict):
    """The state as one seat (or the display, ``me`` None) may see it (views.py)."""

    round: int
    mode: Mode | None
    last_round: bool
    last_round_reason: LastRoundReason | None
    finished: bool
    pending: list[Pending]
    chocolatl: str | None
    old_man: str | None
    returning: str | None
    track: dict[str, list[str]]
    pyramid: list[list[str | None]]
    winners: list[str]
    seats: list[str]
    profile: Profile
    phase: Phase
    step: Step | None
    station: int | None
    harvest: list[int] | None
    improvements: list[int] | None
    revealed: dict[str, dict[str, list[int]]]
    decision: Decision | None
    bid_status: dict[str, bool] | None
    bid_shape: BidShape | None
    me: str | None
    players: dict[str, PlayerView]
    dice_window: DiceWindowView | None
    projection: dict[str, FinalLine] | None


# --- commands: what the engine accepts (exact keys, COMMAND_FIELDS) ----------------------


class SacrificeCommand(TypedDict):
    type: Literal["sacrifice"]
    player: str
    card: int


class HarvestCommand(TypedDict):
    type: Literal["harvest"]
    dice: list[int]


class ImprovementsCommand(TypedDict):
    type: Literal["improvements"]
    cards: list[int]


class BidCommand(TypedDict):
    type: Literal["bid"]
    player: str
    bids: dict[str, list[int]]


class DiceCommand(TypedDict):
    type: Literal["dice"]
    player: str
    count: int


class RollCommand(TypedDict):
    type: Literal["roll"]
    player: str
    values: list[int]


class CityCommand(TypedDict):
    type: Literal["city"]
    player: str
    choice: CityChoice


class PyramidCommand(TypedDict):
    type: Literal["pyramid"]
    player: str
    first: str


Command = (
    SacrificeCommand
    | HarvestCommand
    | ImprovementsCommand
    | BidCommand
    | DiceCommand
    | RollCommand
    | CityCommand
    | PyramidCommand
)

# --- events -------------------------------------------------------------------------------


class RankingEntry(TypedDict):
    """One player's effective bid at a station (R3.3): its parts, total and place."""

    player: str
    cards: list[int]
    cards_sum: int
    huts: int
    old_man: int
    dice: list[int]
    total: int
    place: NotRequired[int]


class Tie(TypedDict):
    players: list[str]
    rule: TieRule
    value: int


class RankingEvent(TypedDict):
    type: Literal["ranking"]
    station: int
    entries: list[RankingEntry]
    ties: list[Tie]
    order: list[str]


# Events are many small shapes (SCENARIO.md "Events": ``type`` plus that type's fields, a
# ``private`` list and, once explained, ``text``); explain.py reads each by its type. They are
# written once and only read after, so one open mapping type serves them.
Event = dict[str, Any]
