"""What a table holds (seats, the running game) and the refusals it answers with."""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Literal, NotRequired, TypedDict, cast, get_args

from companion.engine import Event, State, View
from companion.engine.story import Story, game_story
from companion.players.review import StoredReviewDocument
from companion.store.documents import GameDocument, LoggedCommand
from companion.store.results import engine_log
from companion.store.rows import SeatRow
from companion.table.frame_types import Notice, Reason

SEATS_MIN, SEATS_MAX = 3, 5  # R1.1
DICE_MODES = ("digital", "table")
COMPANION_DICE = ("digital", "host")  # with table dice: who rolls a companion player's dice
TABLE_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")


# What a refusal's ``code`` may be (PROTOCOL.md 3.4 error frames): programs branch on these.
ErrorCode = Literal[
    "bad_colour",
    "bad_log",
    "bad_message",
    "bad_name",
    "bad_secret",
    "bad_state",
    "bad_table",
    "cannot_undo",
    "colour_taken",
    "game_running",
    "hints_off",
    "illegal",
    "name_characters",
    "name_invisible",
    "name_lookalike",
    "no_game",
    "not_allowed",
    "storage_failed",
    "table_full",
    "undo_moved",
    "undone",
    "unknown_type",
]
GameStatus = Literal["playing", "finished", "ended"]
SeatState = Literal["phone", "auto", "bot", "vacant"]
Role = Literal["display", "seat", "host"]  # who is at the other end of a connection
# Why an outcome came: a view frame's reason, or one of the table's own that sends no view
# (``ask_bots``: the companion players look again; ``closed``: the server stops; ``current``:
# a follower's catch-up with the game as it stands; ``board``: the LED board's status changed,
# which the displays get alone in a ``board`` frame).
OutcomeReason = Reason | Literal["ask_bots", "closed", "current", "board"]


def frame_reason(reason: OutcomeReason) -> Reason | None:
    """The view frames' reason of an outcome; None for the table's own, which send none.

    >>> frame_reason("undo"), frame_reason("ask_bots"), frame_reason("board")
    ('undo', None, None)
    """
    match reason:
        case "ask_bots" | "closed" | "current" | "board":
            return None
        case _:
            return reason


class ReviewRecord(TypedDict):
    """The review of the game that is over as the table holds it (cafe/reviews.py): its
    progress, the reason it failed, or once ready the stored review document."""

    game_id: int
    state: Literal["working", "ready", "failed"]
    progress: NotRequired[int]  # not in a failed one
    reason: NotRequired[str]  # a failed one's
    document: NotRequired[StoredReviewDocument]  # a ready one's, as the store keeps it


class JoinResult(TypedDict):
    """A join's answer, for the joining phone only (PROTOCOL.md 2): the seat it holds now,
    its token, and the name and colour it took."""

    seat: str
    token: str
    name: str
    colour: str


class TableError(ValueError):
    """A refused request: ``code`` for programs, ``reason`` for people. Nothing changed."""

    def __init__(self, code: ErrorCode, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def game_status(value: str) -> GameStatus:
    """A game status read back from the store, which keeps it as text."""
    if value in get_args(GameStatus):
        return cast(GameStatus, value)
    raise TableError("bad_log", f"unknown game status {value!r} in the database")


def storage_error(exc: BaseException) -> TableError:
    """A commit that failed (full disk, I/O error): the change was not made, in memory either."""
    return TableError(
        "storage_failed",
        "the server could not save this change, so nothing "
        f"changed (storage: {exc}); try again in a moment",
    )


@dataclass(frozen=True)
class Seat:
    """One seat; frozen so a change is a new list of seats, swapped in after its commit."""

    seat: str
    name: str
    colour: str
    token_hash: str | None
    state: SeatState = "phone"  # "auto": skipped, "bot": a companion player
    level: str | None = None  # a companion player's kind when state == "bot"

    def row(self) -> SeatRow:
        # The store keeps one state string: "bot:<level>" for a companion player.
        state = f"bot:{self.level}" if self.state == "bot" else self.state
        return SeatRow(self.seat, self.name, self.colour, self.token_hash, state)

    @classmethod
    def from_row(cls, r: SeatRow) -> Seat:
        state, _, level = r.state.partition(":")
        seat_state = cast(SeatState, state)  # the store keeps what row() wrote
        return cls(r.seat, r.name, r.colour, r.token_hash, seat_state, level or None)

    @property
    def companion(self) -> bool:
        """A companion player answers for this seat (the plain skip or a chosen level)."""
        return self.state in ("auto", "bot")


@dataclass
class Game:
    """The running (or last) game of a table, rebuilt from the store on start-up."""

    id: int
    status: GameStatus
    document: GameDocument  # players, stack, profile (store/documents.py)
    decks: list[list[int]]
    dice: str
    state: State
    commands: list[tuple[int, LoggedCommand, str, str | None]] = field(default_factory=list)
    events: list[list[Event]] = field(default_factory=list)  # per command
    cmd_ids: dict[tuple[str, str], int | None] = field(default_factory=dict)  # None = undone
    next_n: int = 0  # row number of the next stored command (undone rows keep theirs)
    told: tuple[int, Story] | None = field(default=None, repr=False)  # (seq, story) cache
    # Who ended it: "host" (the host page) or "cafe" (the admin's "close stuck game"); stored
    # with the game (``games.ended_by``), so a restart names the same.
    ended_by: str = "host"

    @property
    def seq(self) -> int:
        """The table's one sequence number: how many commands the game holds. A view says
        how far it has shown (``Stage.shown``), an ack where its command stands: both count
        places in ``commands``, never stored row numbers (an undo frees a row number for
        good but gives its place to the next command), so a pad compares them safely."""
        return len(self.commands)

    def place(self, n: int) -> int:
        """The sequence number (1-based place) of the stored command row ``n``; 0 if it is
        not in the game (undone)."""
        k = bisect.bisect_left([c[0] for c in self.commands], n)
        return k + 1 if k < len(self.commands) and self.commands[k][0] == n else 0

    def story(self) -> Story | None:
        """The story of the game once it is over (None while it is played): told once per
        end and kept; an undo that reopens the game changes ``seq``, so it is told anew."""
        if self.status == "playing":
            return None
        if self.told is None or self.told[0] != self.seq:
            document, commands = engine_log(self.document, [c for _, c, _, _ in self.commands])
            self.told = (self.seq, game_story({**document, "commands": commands}))
        return self.told[1]

    def draws(self) -> int:
        return sum(1 for _, c, _, _ in self.commands if c["type"] == "improvements")


@dataclass
class Outcome:
    """What one committed change means for the people at the table: which frames to send
    (``reason``, the new ``events``, whether to resend the round's ``history``, to which
    ``roles``: ``()`` sends no frame), which seats lost their phone (``kicked``), and the
    acknowledgement for the command that caused it (``ack_id``/``seq``).

    ``state`` is the game's state after the commit when the change moved the game or asks its
    followers to look again (commands and their follow-ups, start, undo, a colour correction,
    a seat handed to a companion player), else ``None``: the LED board and the companion
    players act on those outcomes only, the screens on every one."""

    reason: OutcomeReason
    events: list[Event] = field(default_factory=list)
    history: bool = False
    roles: tuple[str, ...] | None = None  # None: everybody
    kicked: list[str] = field(default_factory=list)
    kicked_by: str = "host"  # "host" (released, removed) or "self" (a phone gave up its seat)
    ack_id: str | None = None
    seq: int = 0
    retry: bool = False  # an already applied command id came again: ack only, no frames
    result: JoinResult | None = None  # a join's seat and token (for its caller only)
    state: State | None = None  # the game's state, when the game moved (see above)
    # The public view part-way through a step, when the show tells its beats one by one
    # (companion.table.staging): followers draw this rather than ``state``'s view.
    shown: View | None = None
    notices: dict[str, Notice] = field(default_factory=dict)  # per seat, its own only


def seat_id_for(name: str, taken: set[str]) -> str:
    """An engine player id (``[a-z][a-z0-9_-]{0,15}``) made from a display name.

    >>> seat_id_for("Ana", set()), seat_id_for("Ana", {"ana"}), seat_id_for("李", {"p1"})
    ('ana', 'ana2', 'p2')
    """
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9_-]", "", ascii_name.lower().replace(" ", "-"))
    slug = slug.lstrip("0123456789_-")[:13]
    if slug:
        candidates = [slug] + [f"{slug}{i}" for i in range(2, 10)]
    else:
        candidates = [f"p{i}" for i in range(1, 10)]
    for c in candidates:
        if c not in taken:
            return c
    raise TableError("bad_name", "no free seat id for that name")  # pragma: no cover


NAME_MAX = 24  # characters of a player's name, kept whole on every screen and in the logs


# Letters that draw nothing: Hangul fillers, the blank braille pattern, the Mongolian vowel
# separator and Khmer's inherent vowels. A name with one would look like another name.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")
# Scripts whose letters look alike (Latin "a", Cyrillic "а", Greek "α"): one word of a name
# keeps to one of them, so "Аna" cannot pass for "Ana".
LOOKALIKE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK"})


def clean_name(name: object) -> str:
    """A player's name in NFC with its spaces collapsed; a longer one is refused, never cut.
    A name must show at least one character, and holds no control, format or line separator
    character, no blank letter and no word mixing look-alike scripts (every screen shows it).

    >>> clean_name("  Anna   von Hohenberg ")
    'Anna von Hohenberg'
    >>> clean_name("Zoe\u0308")  # "e" and a combining diaeresis: one character
    'Zoë'
    >>> clean_name("\u3164")
    Traceback (most recent call last):
    ...
    companion.table.model.TableError: the name shows no character (only blanks or marks)
    """
    if not isinstance(name, str):
        raise TableError("bad_name", "the name must be text")
    name = unicodedata.normalize("NFC", name)
    for ch in name:
        category = unicodedata.category(ch)
        if category[0] == "C" or category in ("Zl", "Zp"):
            raise TableError(
                "name_characters",
                f"the name must not contain control or separator characters (U+{ord(ch):04X})",
            )
    name = " ".join(name.split())  # spaces of any width become one plain space
    if not name:
        raise TableError("bad_name", f"the name must have 1 to {NAME_MAX} characters")
    if len(name) > NAME_MAX:
        raise TableError(
            "bad_name",
            f"the name has {len(name)} characters; at most {NAME_MAX} are allowed",
        )
    if not any(unicodedata.category(ch)[0] in "LNPS" and ch not in BLANK_LETTERS for ch in name):
        raise TableError("name_invisible", "the name shows no character (only blanks or marks)")
    blank = next((ch for ch in name if ch in BLANK_LETTERS), None)
    if blank is not None:
        raise TableError(
            "name_characters", f"the name must not contain a blank letter (U+{ord(blank):04X})"
        )
    for word in name.split(" "):
        scripts = {_script(ch) for ch in word if ch.isalpha()} & LOOKALIKE_SCRIPTS
        if len(scripts) > 1:
            raise TableError(
                "name_lookalike",
                f"the word {word!r} mixes {' and '.join(sorted(s.title() for s in scripts))}"
                " letters that look alike; write it in one script",
            )
    return name


def _script(ch: str) -> str:
    """The script of a letter as its Unicode name begins ("LATIN SMALL LETTER A")."""
    return unicodedata.name(ch, "").split(" ", 1)[0]
