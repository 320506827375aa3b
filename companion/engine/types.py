"""The shapes of the engine's plain JSON data, for type checkers and readers.

The state, views, commands and events stay plain ``dict``s (``json.dumps`` writes them as-is);
these TypedDicts and ``Literal`` names say which keys they have and what the values may be
(SCENARIO.md "Commands" and "Replay output"). Nothing here runs at play time except the
command field table :data:`COMMAND_FIELDS`, which the engine and the web edge both use to
refuse unknown keys.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

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


class BidParts(TypedDict):
    """A revealed bid's parts (R2.7, R4.1, R4.2), its value before dice (``base``, R3.3) and
    the dice its player holds."""

    cards: list[int]
    cards_sum: int
    huts: int
    old_man: int
    base: int
    dice: int


class BidOutlook(BidParts):
    """What dice could do to a bid (bonusdice.outlook, R3.2): the place without dice, the best
    place ``k`` own dice could reach, the worst others' dice could push to, whether no roll
    changes the place (``fixed``) and whether the holder's dice can matter (R3.6)."""

    place: int
    best: dict[str, int]
    worst: int
    fixed: bool
    matters: bool


class DiceWindowView(TypedDict):
    station: int | None
    decided: dict[str, bool]
    choices: dict[str, int]
    rolls: dict[str, list[int]]
    # Every bid from public facts (bonusdice.outlook, R3.3): parts, value before dice, places.
    bids: dict[str, BidOutlook] | None


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

# --- events: what the engine says happened (PROTOCOL.md 3.4 "events") ---------------------
#
# Every event is ``type`` plus that type's fields. An event with a secret names its secret
# fields in ``private``; :func:`views.visible_events` drops them for every other seat, so
# they are ``NotRequired``. ``text`` is the English sentence (``explain.describe``) added by
# ``apply``; the events of ``apply_in_place`` have none.


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


class _Told(TypedDict):
    """What every event may carry besides its own fields: its English sentence."""

    text: NotRequired[str]


class SacrificedEvent(_Told):
    """R1.2: a player laid a sacrifice card face down; the card is theirs alone."""

    type: Literal["sacrificed"]
    player: str
    card: NotRequired[int]
    private: list[str]


class RoundStartedEvent(_Told):
    """R2.2/R2.3: a round began in the colour of the leading marker's box."""

    type: Literal["round_started"]
    round: int
    mode: Mode | None
    leader_box: int
    leaders: list[str]
    last_round: bool


class HarvestDiceEvent(_Told):
    type: Literal["harvest_dice"]
    dice: list[int]


class ImprovementCardsEvent(_Told):
    type: Literal["improvement_cards"]
    cards: list[int]


class BidPlacedEvent(_Told):
    """R2.4-R2.6: a seat bid; its cards are its own until revealed (R3.1)."""

    type: Literal["bid_placed"]
    player: str
    step: Step | None
    bids: NotRequired[dict[str, list[int]]]
    private: list[str]


class FirstCardsRevealedEvent(_Told):
    """R2.5: a green round's first cards, station -> player -> cards."""

    type: Literal["first_cards_revealed"]
    cards: dict[str, dict[str, list[int]]]


class RevealedEvent(_Told):
    """R3.1: a station's bids turned over, player -> cards."""

    type: Literal["revealed"]
    station: int
    cards: dict[str, list[int]]


class DiceDecidedEvent(_Told):
    """R3.2: a holder decided how many bonus dice to use; the count is secret until all have."""

    type: Literal["dice_decided"]
    player: str
    count: NotRequired[int]
    private: list[str]


class DiceChoicesEvent(_Told):
    type: Literal["dice_choices"]
    station: int | None
    choices: dict[str, int]


class RolledEvent(_Told):
    type: Literal["rolled"]
    player: str
    values: list[int]


class RankingEvent(_Told):
    type: Literal["ranking"]
    station: int
    entries: list[RankingEntry]
    ties: list[Tie]
    order: list[str]


class PlayerEvent(_Told):
    """R5.1: a player took the Chocolatl figure ("figure") or the old man ("old_man")."""

    type: Literal["figure", "old_man"]
    player: str


# ``from`` is a Python keyword, so this one is spelt the functional way.
ScoredEvent = TypedDict(
    "ScoredEvent",
    {
        "text": NotRequired[str],
        "type": Literal["scored"],
        "player": str,
        "points": int,
        "reason": ScoreReason,
        "from": int,  # the score before, R6.1 cuts the new one off at 0
        "score": int,
    },
)


class CityChoiceEvent(_Told):
    type: Literal["city_choice"]
    player: str
    choice: CityChoice


class HutEvent(_Told):
    type: Literal["hut"]
    player: str
    huts: int  # how many the player has now


class DieEvent(_Told):
    type: Literal["die"]
    player: str
    dice: int  # how many the player holds now


class PyramidOrderEvent(_Told):
    type: Literal["pyramid_order"]
    player: str
    first: str


class CubeEvent(_Told):
    """R5.4: a cube placed, or (row and cell None) not placed in a full pyramid."""

    type: Literal["cube"]
    player: str
    row: int | None
    cell: int | None


class RowCompletedEvent(_Told):
    type: Literal["row_completed"]
    row: int
    player: str
    bonus: int
    counts: dict[str, int]
    ties: list[Tie]


class CardEvent(_Told):
    """R5.6: a player's lowest card discarded ("card_discarded") or an improvement card
    gained ("card_gained")."""

    type: Literal["card_discarded", "card_gained"]
    player: str
    card: int


class LastRoundEvent(_Told):
    type: Literal["last_round"]
    reason: LastRoundReason
    round: int


class RoundEndedEvent(_Told):
    type: Literal["round_ended"]
    round: int


class FinalScoringEvent(_Told):
    type: Literal["final_scoring"]
    lines: dict[str, FinalLine]


class GameOverEvent(_Told):
    type: Literal["game_over"]
    winners: list[str]
    tied_on_points: list[str]
    total: int


Event = (
    SacrificedEvent
    | RoundStartedEvent
    | HarvestDiceEvent
    | ImprovementCardsEvent
    | BidPlacedEvent
    | FirstCardsRevealedEvent
    | RevealedEvent
    | DiceDecidedEvent
    | DiceChoicesEvent
    | RolledEvent
    | RankingEvent
    | PlayerEvent
    | ScoredEvent
    | CityChoiceEvent
    | HutEvent
    | DieEvent
    | PyramidOrderEvent
    | CubeEvent
    | RowCompletedEvent
    | CardEvent
    | LastRoundEvent
    | RoundEndedEvent
    | FinalScoringEvent
    | GameOverEvent
)
EventType = Literal[
    "sacrificed",
    "round_started",
    "harvest_dice",
    "improvement_cards",
    "bid_placed",
    "first_cards_revealed",
    "revealed",
    "dice_decided",
    "dice_choices",
    "rolled",
    "ranking",
    "figure",
    "old_man",
    "scored",
    "city_choice",
    "hut",
    "die",
    "pyramid_order",
    "cube",
    "row_completed",
    "card_discarded",
    "card_gained",
    "last_round",
    "round_ended",
    "final_scoring",
    "game_over",
]
