"""Every live frame a display, phone or host receives, rendered from a table's snapshot.

The only way out of a table, as ``view()`` is for the engine (a finished game's replay is
``replay_frames``, the café admin's list ``admin_frames``; a phone's news of the round
``news``, the host's undo ``undo``): pure functions of a
:class:`Snapshot` (taken under the table's lock), the :class:`Links` the web layer made, and
the audience — ``(role, seat)``. What an audience may not see never enters its frame: a seat's
frame holds the engine view for that seat, display and host frames the public view
(PROTOCOL.md 3.4).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal, TypedDict

from companion.engine import Event, views, visible_events
from companion.engine.asks import awaiting
from companion.engine.colours import PLAYER_COLOURS
from companion.engine.types import Pending
from companion.players.reviewing import older, reasons
from companion.store.documents import TableSettings
from companion.table.board_status import BoardStatus
from companion.table.frame_types import (
    DisplayFrame,
    GameInfo,
    HostBlock,
    HostFrame,
    HostGameRow,
    Notice,
    Reason,
    ReviewInfo,
    SeatFrame,
    SeatInfo,
    Standing,
    TableSummary,
    ViewFrame,
    ViewFrameBase,
    Waiting,
    You,
)
from companion.table.model import SEATS_MAX, Game, ReviewRecord, Seat
from companion.table.news import round_news
from companion.table.show import without_text
from companion.table.staging import StepShown, beat_views
from companion.table.undo import undo_check

Audience = tuple[str, str | None]  # ("display" | "seat" | "host", seat id or None)


class _News(TypedDict, total=False):
    """A seat frame's own news, after its events."""

    notice: Notice


class _Later(TypedDict, total=False):
    """What a view frame holds after its events (and a seat's notice), in this order."""

    history: list[Event]
    history_from: int
    review: ReviewInfo


@dataclass(frozen=True)
class HostInfo:
    """What only the host's frame carries."""

    inputs: list[Pending]
    games: list[HostGameRow]
    track_colors: list[str]
    saved_track_colors: list[str] | None
    join_secret: str
    running: bool  # the table's game is being played (the screens may show it behind)


@dataclass(frozen=True)
class Snapshot:
    name: str
    title: str
    settings: TableSettings
    seats: tuple[Seat, ...]
    game: Game | None
    board: BoardStatus | None
    host: HostInfo | None = None  # only taken when a host is in the audience
    review: ReviewRecord | None = None  # the over game's review: progress, then document
    step: StepShown | None = None  # the step up now while its beats run (Stage.snapshot)


@dataclass(frozen=True)
class Links:
    """The table's URLs, made by the web layer (Flask's url_for); ``join`` is absolute."""

    paths: dict[str, str]  # display, qr, join_api, seat_page, ws_display, ws_seat, ...
    join: str
    log: Callable[[int], str]  # a finished game's log download, with the host token


def status(snap: Snapshot) -> Literal["lobby", "playing", "finished"]:
    """``lobby`` | ``playing`` | ``finished`` (PROTOCOL.md section 4)."""
    if snap.game is None:
        return "lobby"
    return "playing" if snap.game.status == "playing" else "finished"


def summary(snap: Snapshot, links: Links, with_join: bool = False) -> TableSummary:
    """PROTOCOL.md section 4; the join URL only for the display and host."""
    g = snap.game
    return {
        "name": snap.name,
        "title": snap.title,
        "status": status(snap),
        "dice": g.dice if g else snap.settings["dice"],
        "seats_filled": sum(1 for s in snap.seats if s.state != "vacant"),
        "seats_max": SEATS_MAX,
        "game_id": g.id if g else None,
        "round": g.state["round"] if g else None,
        "urls": {**links.paths, "join": links.join if with_join else None},
        "lang": snap.settings.get("lang", "en"),
        "companion_dice": snap.settings.get("companion_dice", "digital"),
        "hints": snap.settings.get("hints"),
        # The host may hide the LED board's drawing on the display (shown by default).
        "board_drawing": snap.settings.get("board_drawing", True) is not False,
    }


def _history(game: Game | None) -> tuple[int, list[Event]]:
    """Events since the start of the round the last step began in (or of the game): the
    current round's, and the round before too when the step on the screens ended it and
    started this one. Its last events are that step's, all of them, so a page opened while
    the step's beats run hides the ones not told yet (each beat's ``untold``) and shows what a
    page that watched the step shows (the ended round's last stations until its summary).
    With them, how many of the game's events come before them: the host's log numbers its
    lines from the game's start, after a reload too.

    >>> g = lambda *steps: type("G", (), {"events": [list(s) for s in steps]})()
    >>> r = lambda n: {"type": "round_started", "round": n}
    >>> rk = lambda s: {"type": "ranking", "station": s}
    >>> before, events = _history(g([r(1)], [rk(5)], [rk(6), r(2)]))
    >>> before, [e.get("round", e.get("station")) for e in events]
    (0, [1, 5, 6, 2])
    >>> before, events = _history(g([r(1)], [rk(6), r(2)], [rk(1)]))
    >>> before, [e.get("round", e.get("station")) for e in events]
    (2, [2, 1])
    """
    if game is None:
        return 0, []
    out: list[Event] = []
    total = sum(len(events) for events in game.events)
    for k, events in enumerate(reversed(game.events)):
        starts = [i for i, e in enumerate(events) if e["type"] == "round_started"]
        # The last step is sent whole; a round it starts after its first event goes on back.
        if starts and (k > 0 or starts[-1] == 0):
            out[:0] = events[starts[-1] :]
            break
        out[:0] = events
    return total - len(out), out


def _events(events: list[Event], seat: str | None) -> list[Event]:
    """Redacted for ``seat``, without the engine's English ``text``: the pages word every
    event from their own catalogues."""
    return [without_text(e) for e in visible_events(events, seat)]


def render(
    snap: Snapshot,
    links: Links,
    audiences: Iterable[Audience],
    reason: Reason,
    events: list[Event],
    history: bool,
    connected: set[str],
    notices: dict[str, Notice] | None = None,
) -> dict[Audience, ViewFrame]:
    """The view frame of every audience. What they share (the engine views, seats,
    summaries, history) is built once. ``notices`` go to one seat each (its own undone
    move, say): never to anybody else."""
    audiences = list(dict.fromkeys(audiences))
    g = snap.game
    seats_info: list[SeatInfo] = [
        {
            "id": s.seat,
            "name": s.name,
            "colour": s.colour,
            "hex": PLAYER_COLOURS.get(s.colour),
            "connected": s.seat in connected,
            "state": s.state,
            "companion": s.companion,
            "level": s.level if s.state == "bot" else ("plain" if s.state == "auto" else None),
            "person": s.token_hash is not None,
        }
        for s in snap.seats
    ]
    game_seats = {
        seat: (seat if g is not None and seat in g.state["players"] else None)
        for _role, seat in audiences
    }
    game_views = views(g.state, list(set(game_seats.values()))) if g is not None else {}
    # The step up now: the view before it, for every audience at once (its beats are staged
    # on it, so no page folds a step's events itself).
    step = snap.step if g is not None else None
    before_views = views(step.before, list(set(game_seats.values()))) if step else {}
    history_from, whole_history = _history(g) if history else (0, [])
    summaries = {w: summary(snap, links, w) for w in (True, False)}
    # Once the game is over, the display and host tell its story (after the final scoring).
    story = g.story() if g is not None and any(r != "seat" for r, _ in audiences) else None
    # This round's moves, walked once for every phone's companion moves and skipped windows.
    moves, unasked = (
        round_news(g) if g is not None and any(r == "seat" for r, _ in audiences) else ({}, {})
    )
    frames: dict[Audience, ViewFrame] = {}
    for role, seat in audiences:
        game: GameInfo | None = None
        if g is not None:
            game = {
                "id": g.id,
                "status": g.status,
                "dice": g.dice,
                "view": game_views[game_seats[seat]],
            }
            if step is not None:
                game["staged"] = beat_views(
                    before_views[game_seats[seat]],
                    game_views[game_seats[seat]],
                    _events(step.events, seat),
                    step.beats,
                )
            if g.status == "ended":
                game["standings"] = standings(g)
                game["ended_by"] = g.ended_by
        you: You | None = None
        if role == "seat" and seat is not None:
            s = next((x for x in snap.seats if x.seat == seat), None)
            mine = (
                [Pending(**e) for e in g.state["pending"] if e.get("player") == seat] if g else []
            )
            you = {
                "seat": seat,
                "name": s.name if s else seat,
                "colour": s.colour if s else None,
                "hex": PLAYER_COLOURS.get(s.colour) if s else None,
                "pending": mine,
                "companion_moves": moves.get(seat, []),
                "not_asked": unasked.get(seat, []),
            }
        head: ViewFrameBase = {
            "type": "view",
            "seq": g.seq if g else 0,
            "reason": reason,
            "table": summaries[role != "seat"],
            "seats": seats_info,
            "you": you,
            "game": game,
            "events": _events(events, seat),
        }
        # What follows the events, in this order, in every audience's frame.
        later: _Later = {}
        if history:
            later["history"] = _events(whole_history, seat)
            later["history_from"] = history_from
        if (review := _review(snap, seat if role == "seat" else None)) is not None:
            later["review"] = review
        frame: ViewFrame
        if role == "seat":
            news: _News = {}
            if seat is not None and notices and seat in notices:
                news["notice"] = notices[seat]
            seat_frame: SeatFrame = {**head, **news, **later}
            frame = seat_frame
        elif role == "host":
            host_frame: HostFrame = {
                **head,
                **later,
                "story": story,
                "host": _host(snap, links, connected),
            }
            frame = host_frame
        else:
            display_frame: DisplayFrame = {**head, **later, "board": snap.board, "story": story}
            frame = display_frame
        frames[(role, seat)] = frame
    return frames


def _review(snap: Snapshot, seat: str | None) -> ReviewInfo | None:
    """The review of the game that is over: its progress for everybody, then each player's
    summary (public once the game is over) and, for a seat, its own costliest decisions with
    the better move, the reason in every language and the replay step (never another seat's
    decisions: they stay its own)."""
    r, g = snap.review, snap.game
    if r is None or g is None or g.status == "playing" or r.get("game_id") != g.id:
        return None
    out: ReviewInfo = {
        "game_id": g.id,
        "state": r["state"],
        "progress": r.get("progress", 0),
    }
    if r["state"] == "failed":
        out["reason"] = r.get("reason", "")
    if r["state"] != "ready":
        return out
    document = r["document"]
    names = {s.seat: s.name for s in snap.seats}
    players = document["players"]
    # A review stored before the margin and the common mix: its figures mean something else.
    out["older"] = older(document)
    out["players"] = [
        {
            "seat": p,
            "name": names.get(p, p),
            "mean_loss": pr["mean_loss"],
            "decisions": pr["decisions"],
            "labels": pr["labels"],
        }
        for p, pr in players.items()
    ]
    if seat is not None and (mine := players.get(seat)) is not None:
        steps = document.get("steps", {})
        out["mine"] = {
            "seat": seat,
            "mean_loss": mine["mean_loss"],
            "decisions": mine["decisions"],
            "labels": mine["labels"],
            "worst": [
                {
                    "round": d["round"],
                    "station": d["station"],
                    "step": d["step"],
                    "kind": d["kind"],
                    "made": d["made"],
                    "better": d["better"],
                    "loss": d["loss"],
                    "label": d["label"],
                    "reasons": reasons(d),
                    "replay_step": steps.get(str(d["index"])),
                }
                for d in mine["worst"]
            ],
        }
    return out


def waiting(snap: Snapshot, connected: set[str]) -> list[Waiting]:
    """The seats the table waits for now (the game as shown), each with its name and whether
    its phone is connected or a companion player answers: the host sees which phone holds the
    table up."""
    g = snap.game
    if g is None or g.status != "playing":
        return []
    awaited = awaiting(g.state["pending"])  # first asked first
    seats = {s.seat: s for s in snap.seats}
    return [
        {
            "seat": seat,
            "name": seats[seat].name if seat in seats else seat,
            "connected": seat in connected,
            "companion": bool(seats[seat].companion) if seat in seats else False,
        }
        for seat in awaited
    ]


def _host(snap: Snapshot, links: Links, connected: set[str]) -> HostBlock | None:
    """The host's block, of the game as the screens show it (``snap.game``);
    ``snap.host.running`` says whether the table's game is still played (one that finished by
    itself may still be on its way on them)."""
    info, game = snap.host, snap.game
    if info is None:
        return None
    # The undo the host's screen offers is the last move the screens show, named by its game
    # and row number: the host's undo sends them back, and the table refuses it if another
    # move has come since (commands.undo).
    check = undo_check(game)
    last = game.commands[-1][0] if game is not None and game.commands else None
    return {
        "undo": {
            "possible": check.possible,
            "reason": check.text,
            "key": check.key,
            "params": check.params,
            "game": game.id if game is not None else None,
            "n": last,
        },
        # End game only while the game is played: one that is over (the screens may still be
        # showing its last moves) has nothing left to end, and the table would refuse it.
        "can_end": info.running,
        # An ended game asks for nothing to be typed in (its pending inputs are moot).
        "inputs": info.inputs if game is not None and game.status == "playing" else [],
        "games": [{**game, "log": links.log(game["id"])} for game in info.games],
        "profile": {"track_colors": info.track_colors, "saved": info.saved_track_colors},
        "join_secret": info.join_secret,
        "waiting": waiting(snap, connected),
    }


def hello(snap: Snapshot, links: Links, audience: Audience, connected: set[str]) -> ViewFrame:
    """The whole view a newly connected screen starts from."""
    return render(snap, links, [audience], "hello", [], True, connected)[audience]


def standings(game: Game) -> list[Standing]:
    """The scores when the host ended the game: best first, equal scores share a place
    (no final scoring happened, R7 needs the last round)."""
    players = game.state["players"]
    order = sorted(players, key=lambda p: -players[p]["score"])
    out: list[Standing] = []
    for i, p in enumerate(order):
        score = players[p]["score"]
        place = out[-1]["place"] if out and out[-1]["score"] == score else i + 1
        out.append({"player": p, "score": score, "place": place})
    return out
