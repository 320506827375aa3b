"""The shapes of the frames the server sends (PROTOCOL.md 3.4), for type checkers and readers.

A view frame differs by audience: a seat's carries ``you`` (and its own ``notice``), the
display's the LED ``board``, the display's and the host's the game's ``story``, the host's
the ``host`` block. Their parts reuse the engine's shapes (``View``, ``Event``, ``Pending``,
``Story``), so a frame says exactly what may leave the server. The other server frames (ack,
error, ok, board, ...) are small and fixed. ``tests/web/test_frame_types.py`` holds
PROTOCOL.md's key lists and a live server's frames to these types.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from companion.engine.story import Story
from companion.engine.types import Event, Pending, RankingEvent, View
from companion.table.board_status import BoardStatus

SeatState = Literal["phone", "auto", "bot", "vacant"]
Reason = Literal[
    "hello", "resend", "command", "seats", "undo", "game", "settings", "review", "show"
]


class TableSummary(TypedDict):
    """PROTOCOL.md 4: the table as lists and frames show it; ``urls.join`` only for the
    display and host."""

    name: str
    title: str
    status: Literal["lobby", "playing", "finished"]
    dice: str
    seats_filled: int
    seats_max: int
    game_id: int | None
    round: int | None
    urls: dict[str, str | None]
    lang: str
    companion_dice: str
    hints: str | None
    board_drawing: bool


class SeatInfo(TypedDict):
    """One seat in seat order: who holds it and whether a phone or a companion player plays."""

    id: str
    name: str
    colour: str
    hex: str | None
    connected: bool
    state: SeatState
    companion: bool
    level: str | None
    person: bool


class NotAsked(TypedDict):
    """A question the table answered for the seat because no answer could matter (R3.6)."""

    station: int | None
    place: int | None
    kind: Literal["dice", "pyramid"]


class You(TypedDict):
    """A seat frame's own part: the seat, what is awaited of it, what was done for it."""

    seat: str
    name: str
    colour: str | None
    hex: str | None
    pending: list[Pending]
    # The seat's own commands a companion player made (without ``player``; dice and roll
    # with their ``station``).
    companion_moves: list[dict[str, object]]
    not_asked: list[NotAsked]


class Standing(TypedDict):
    """An ended game's order by track score; equal scores share a place."""

    player: str
    score: int
    place: int


# A view as its difference from another (table/staging.py ``diff``): the keys of ``View`` whose
# values differ, and of ``players`` only each card's changed fields; ``patch`` puts it back.
ViewChanges = dict[str, object]


class Staged(TypedDict):
    """Each beat's view of the step up, staged on the server (table/staging.py
    ``beat_views``): the audience's view before the step and at each beat, each as its
    difference from ``game.view`` (only the changed keys; of ``players`` only changed fields)."""

    before: ViewChanges
    beats: list[ViewChanges]


class GameInfo(TypedDict):
    """The game on the screens and the engine view its audience may see."""

    id: int
    status: Literal["playing", "finished", "ended"]
    dice: str
    view: View
    standings: NotRequired[list[Standing]]
    ended_by: NotRequired[str | None]
    staged: NotRequired[Staged]  # only while the step's beats run


class Notice(TypedDict):
    """A seat's own news, only in the frame of the change: ``undone`` (its own move, with
    ``type`` and the ``stations`` or ``station`` it was for) or ``resumed``."""

    kind: Literal["undone", "resumed"]
    type: NotRequired[str]
    stations: NotRequired[list[str]]
    station: NotRequired[int | None]


class NextDecision(TypedDict):
    """The decision that completes a station's result, already the next step (show.py
    ``announce_decision``, R5.3, R5.4)."""

    type: Literal["city", "pyramid"]
    player: str
    asked: NotRequired[bool]  # False: the table answers it (the order changes nothing)


class Beat(TypedDict):
    """One thing a step shows, for ``seconds`` (table/show.py ``beats``)."""

    kind: Literal["station", "decision", "summary", "last_round", "final_line", "winner"]
    seconds: float
    station: NotRequired[int]
    ranking: NotRequired[RankingEvent]
    effects: NotRequired[list[Event]]
    player: NotRequired[str]
    asked: NotRequired[bool]  # a decision the table made because it could change nothing
    next: NotRequired[NextDecision]  # a station's decision, made already, told next
    round: NotRequired[int]
    rankings: NotRequired[list[RankingEvent]]
    reason: NotRequired[str]
    winners: NotRequired[list[str]]
    # How many of the step's last events the beat does not tell yet (the step's events less
    # show.told's count): every frame's beat has it, set by show.block once the step's beats
    # are known. A page hides that many events from the end of what it was sent (the step's
    # events end every frame's history), so a page opened in the middle of a step tells as
    # much as one that watched it.
    untold: NotRequired[int]


class ShowInfo(TypedDict):
    """Where the show is (table/show.py ``block``); without a game only pace and seconds."""

    pace: str
    seconds: float
    step: int
    beats: list[Beat]
    hold: NotRequired[float]
    elapsed: NotRequired[float]
    more: NotRequired[bool]
    story_at: NotRequired[float]
    paused: NotRequired[bool]  # a replay paused on this beat (web/replay_sessions.py)


class ReviewPlayer(TypedDict):
    seat: str
    name: str
    mean_loss: float
    decisions: int
    labels: dict[str, int]


class WorstDecision(TypedDict):
    """One of a seat's costliest decisions: what it made, what was better, and why."""

    round: int
    station: int | None
    step: str | int | None
    kind: str
    made: object
    better: object
    loss: float
    label: str
    reasons: dict[str, str]  # language -> sentence
    replay_step: int | None


class ReviewMine(TypedDict):
    seat: str
    mean_loss: float
    decisions: int
    labels: dict[str, int]
    worst: list[WorstDecision]


class ReviewInfo(TypedDict):
    """The review of a game that is over: progress, then every player's summary and, in a
    seat's frame only, its own costliest decisions."""

    game_id: int
    state: Literal["working", "ready", "failed"]
    progress: int
    reason: NotRequired[str]
    older: NotRequired[bool]  # when ready: stored by the older method (not comparable)
    players: NotRequired[list[ReviewPlayer]]
    mine: NotRequired[ReviewMine]


class UndoParams(TypedDict):
    """The parameters of the undo reason's catalogue key (table/undo.py): the last move's
    ``command`` type and its ``player`` (None for a host input), and what of it cannot be
    taken back (``what``, ``undo.what.*`` keys) when it revealed or scored something."""

    command: NotRequired[str]
    player: NotRequired[str | None]
    what: NotRequired[list[str]]


class UndoInfo(TypedDict):
    """The undo the host's screen offers: the move it names (game, row) and the reason."""

    possible: bool
    reason: str
    key: str
    params: UndoParams
    game: int | None
    n: int | None


class HostGameRow(TypedDict):
    """One of the table's games as the host's list holds it, before its log link."""

    id: int
    status: str
    players: list[str]
    created: float


class HostGame(HostGameRow):
    log: str


class TrackProfile(TypedDict):
    track_colors: list[str]
    saved: list[str] | None


class Waiting(TypedDict):
    """A seat the shown game waits for, so the host can name the phone that holds it up."""

    seat: str
    name: str
    connected: bool
    companion: bool


class HostBlock(TypedDict):
    undo: UndoInfo
    can_end: bool
    inputs: list[Pending]
    games: list[HostGame]
    profile: TrackProfile
    join_secret: str
    waiting: list[Waiting]


class ViewFrameBase(TypedDict):
    """What every audience's view frame holds (PROTOCOL.md 3.4)."""

    type: Literal["view"]
    seq: int
    reason: Reason
    table: TableSummary
    seats: list[SeatInfo]
    you: You | None
    game: GameInfo | None
    events: list[Event]
    history: NotRequired[list[Event]]  # hello and undo frames
    history_from: NotRequired[int]  # how many of the game's events come before the history
    review: NotRequired[ReviewInfo]  # once the game is over, with companion players
    show: NotRequired[ShowInfo | None]  # set by the hub on every frame it sends


class SeatFrame(ViewFrameBase):
    notice: NotRequired[Notice]


class DisplayFrame(ViewFrameBase):
    board: BoardStatus | None  # the LED board's status, None without a board
    story: Story | None


class HostFrame(ViewFrameBase):
    story: Story | None
    host: HostBlock | None


ViewFrame = SeatFrame | DisplayFrame | HostFrame

# --- the other frames -------------------------------------------------------------------


class AckFrame(TypedDict):
    type: Literal["ack"]
    id: str
    seq: int
    retry: NotRequired[bool]  # the command id was applied already: acknowledged again only


class ErrorFrame(TypedDict):
    type: Literal["error"]
    code: str
    reason: str
    id: NotRequired[str | None]


# ``for`` is a Python keyword, so this one is spelt the functional way.
OkFrame = TypedDict("OkFrame", {"type": Literal["ok"], "for": str, "id": str | None})


class TakenOverFrame(TypedDict):
    type: Literal["taken_over"]


class RemovedFrame(TypedDict):
    type: Literal["removed"]
    by: str


class TableClosedFrame(TypedDict):
    type: Literal["table_closed"]


class PongFrame(TypedDict):
    type: Literal["pong"]
    t: float | None  # the ping's own t, None when it sent none


class BoardFrame(TypedDict):
    """The LED board's status alone, to the displays (PROTOCOL.md 3.4): its pictures change
    many times a step (a marker walks box by box) and nothing else did, so no whole view."""

    type: Literal["board"]
    board: BoardStatus | None


class HintFrame(TypedDict):
    """Learning mode's answer (PROTOCOL.md 3.1): a suggestion, or None when nothing is asked."""

    type: Literal["hint"]
    id: str | None
    seq: int
    hint: dict[str, object] | None


ServerFrame = (
    SeatFrame
    | DisplayFrame
    | HostFrame
    | AckFrame
    | ErrorFrame
    | OkFrame
    | TakenOverFrame
    | RemovedFrame
    | TableClosedFrame
    | PongFrame
    | HintFrame
    | BoardFrame
)

# --- a finished game's replay (table/replay_frames.py, web/replay_sessions.py) ------------


class ReplaySummary(TypedDict):
    """The table as a replay's display shows it: the game's own table, never its live
    settings (a replay has no join link, dice choice or hints)."""

    name: str
    title: str
    status: Literal["playing", "finished"]
    dice: str
    seats_filled: int
    seats_max: int
    game_id: int
    round: int
    lang: str
    urls: dict[str, str | None]


class ReplaySeat(TypedDict):
    """A seat of a replayed game: as the game started, ``companion`` and ``level`` as the
    live table showed a companion player's seat."""

    id: str
    name: str
    colour: str
    hex: str | None
    connected: bool
    state: SeatState
    companion: bool
    level: str | None


class ReplayPosition(TypedDict):
    """Which step of how many a replay's display shows."""

    step: int
    steps: int


class ReplayFrame(TypedDict):
    """A replay's display frame: one per event of the game (``reason`` "replay"), or a
    command played with the show's beats (``reason`` "command", ``show`` its block)."""

    type: Literal["view"]
    seq: int
    reason: Literal["replay", "command"]
    table: ReplaySummary
    seats: list[ReplaySeat]
    you: None
    game: GameInfo
    events: list[Event]
    history: list[Event]
    board: None
    show: NotRequired[ShowInfo]
    story: NotRequired[Story]  # a played step that names the winner (web/replay_sessions.py)
    replay: NotRequired[ReplayPosition]  # set on the way out (web/replay_sessions.py)


class Chapter(TypedDict):
    """Where a round (``station`` None) or a round's station starts in a replay's frames."""

    round: int
    station: int | None
    step: int
