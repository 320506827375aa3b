"""Every frame a display, phone or host receives, rendered from a table's snapshot.

The only way out of a table (a finished game's replay and the café admin's list included), as
``view()`` is for the engine: pure functions of a
:class:`Snapshot` (taken under the table's lock), the :class:`Links` the web layer made, and
the audience — ``(role, seat)``. What an audience may not see never enters its frame: a seat's
frame holds the engine view for that seat, display and host frames the public view
(PROTOCOL.md 3.4).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from companion.engine import View, apply, new_game, views, visible_events
from companion.engine.colours import PLAYER_COLOURS
from companion.players.reviewing import reasons
from companion.table.dealer import NO_CHOICE, NO_DICE, TABLE_ANSWERS
from companion.table.model import SEATS_MAX, Game, Seat
from companion.table.staging import StepShown, at_beat, beat_views

Audience = tuple[str, str | None]  # ("display" | "seat" | "host", seat id or None)

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
COMPANION_SOURCES = ("auto", "bot:")  # the logged sources of a companion player's moves


@dataclass(frozen=True)
class HostInfo:
    """What only the host's frame carries."""

    inputs: list[dict[str, Any]]
    games: list[dict[str, Any]]  # id, status, players, created
    track_colors: list[str]
    saved_track_colors: list[str] | None
    join_secret: str


@dataclass(frozen=True)
class Snapshot:
    name: str
    title: str
    settings: dict[str, Any]
    seats: tuple[Seat, ...]
    game: Game | None
    board: dict[str, Any] | None
    host: HostInfo | None = None  # only taken when a host is in the audience
    review: dict[str, Any] | None = None  # the over game's review: progress, then document
    step: StepShown | None = None  # the step up now while its beats run (Stage.snapshot)


@dataclass(frozen=True)
class Links:
    """The table's URLs, made by the web layer (Flask's url_for); ``join`` is absolute."""

    paths: dict[str, str]  # display, qr, join_api, seat_page, ws_display, ws_seat, ...
    join: str
    log: Callable[[int], str]  # a finished game's log download, with the host token


def status(snap: Snapshot) -> str:
    """``lobby`` | ``playing`` | ``finished`` (PROTOCOL.md section 4)."""
    if snap.game is None:
        return "lobby"
    return "playing" if snap.game.status == "playing" else "finished"


def summary(snap: Snapshot, links: Links, with_join: bool = False) -> dict[str, Any]:
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


def _history(game: Game | None) -> list[dict[str, Any]]:
    """Events since the start of the current round (or of the game)."""
    if game is None:
        return []
    out: list[dict[str, Any]] = []
    for events in reversed(game.events):
        starts = [i for i, e in enumerate(events) if e["type"] == "round_started"]
        if starts:
            out[:0] = events[starts[-1] :]
            break
        out[:0] = events
    return out


def _events(events: list[dict[str, Any]], seat: str | None) -> list[dict[str, Any]]:
    """Redacted for ``seat``, without the engine's English ``text``: the pages word every
    event from their own catalogues."""
    return [{k: v for k, v in e.items() if k != "text"} for e in visible_events(events, seat)]


def render(
    snap: Snapshot,
    links: Links,
    audiences: Iterable[Audience],
    reason: str,
    events: list[dict[str, Any]],
    history: bool,
    connected: set[str],
    notices: dict[str, dict[str, Any]] | None = None,
) -> dict[Audience, dict[str, Any]]:
    """The view frame of every audience. What they share (the engine views, seats,
    summaries, history) is built once. ``notices`` go to one seat each (its own undone
    move, say): never to anybody else."""
    audiences = list(dict.fromkeys(audiences))
    g = snap.game
    seats_info = [
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
    whole_history = _history(g) if history else []
    summaries = {w: summary(snap, links, w) for w in (True, False)}
    # Once the game is over, the display and host tell its story (after the final scoring).
    story = g.story() if g is not None and any(r != "seat" for r, _ in audiences) else None
    # This round's moves, walked once for every phone's companion moves and skipped windows.
    moves, unasked = (
        round_news(g) if g is not None and any(r == "seat" for r, _ in audiences) else ({}, {})
    )
    frames: dict[Audience, dict[str, Any]] = {}
    for role, seat in audiences:
        frame: dict[str, Any] = {
            "type": "view",
            "seq": g.seq if g else 0,
            "reason": reason,
            "table": summaries[role != "seat"],
            "seats": seats_info,
            "you": None,
            "game": None,
            "events": _events(events, seat),
        }
        if g is not None:
            frame["game"] = {
                "id": g.id,
                "status": g.status,
                "dice": g.dice,
                "view": game_views[game_seats[seat]],
            }
            if step is not None:
                frame["game"]["staged"] = beat_views(
                    before_views[game_seats[seat]],
                    game_views[game_seats[seat]],
                    _events(step.events, seat),
                    step.beats,
                )
            if g.status == "ended":
                frame["game"]["standings"] = standings(g)
                frame["game"]["ended_by"] = g.ended_by
        if role == "seat" and seat is not None:
            s = next((x for x in snap.seats if x.seat == seat), None)
            mine = [dict(e) for e in g.state["pending"] if e.get("player") == seat] if g else []
            frame["you"] = {
                "seat": seat,
                "name": s.name if s else seat,
                "colour": s.colour if s else None,
                "hex": PLAYER_COLOURS.get(s.colour) if s else None,
                "pending": mine,
                "companion_moves": moves.get(seat, []),
                "not_asked": unasked.get(seat, []),
            }
            if notices and seat in notices:
                frame["notice"] = notices[seat]
        if history:
            frame["history"] = _events(whole_history, seat)
        if (review := _review(snap, seat if role == "seat" else None)) is not None:
            frame["review"] = review
        if role != "seat":
            frame["board"] = snap.board
            frame["story"] = story
        if role == "host":
            frame["host"] = _host(snap.host, links, g)
            if frame["host"] is not None:
                frame["host"]["waiting"] = waiting(snap, connected)
        frames[(role, seat)] = frame
    return frames


def _review(snap: Snapshot, seat: str | None) -> dict[str, Any] | None:
    """The review of the game that is over: its progress for everybody, then each player's
    summary (public once the game is over) and, for a seat, its own costliest decisions with
    the better move, the reason in every language and the replay step (never another seat's
    decisions: they stay its own)."""
    r, g = snap.review, snap.game
    if r is None or g is None or g.status == "playing" or r.get("game_id") != g.id:
        return None
    out: dict[str, Any] = {
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
    mine = players.get(seat) if seat is not None else None
    if mine is not None:
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


def waiting(snap: Snapshot, connected: set[str]) -> list[dict[str, Any]]:
    """The seats the table waits for now (the game as shown), each with its name and whether
    its phone is connected or a companion player answers: the host sees which phone holds the
    table up."""
    g = snap.game
    if g is None or g.status != "playing":
        return []
    awaited = list(dict.fromkeys(str(e["player"]) for e in g.state["pending"] if "player" in e))
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


def _host(info: HostInfo | None, links: Links, game: Game | None) -> dict[str, Any] | None:
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
        # An ended game asks for nothing to be typed in (its pending inputs are moot).
        "inputs": info.inputs if game is not None and game.status == "playing" else [],
        "games": [{**game, "log": links.log(game["id"])} for game in info.games],
        "profile": {"track_colors": info.track_colors, "saved": info.saved_track_colors},
        "join_secret": info.join_secret,
    }


def hello(snap: Snapshot, links: Links, audience: Audience, connected: set[str]) -> dict[str, Any]:
    """The whole view a newly connected screen starts from."""
    return render(snap, links, [audience], "hello", [], True, connected)[audience]


@dataclass(frozen=True)
class UndoCheck:
    """Whether the host may undo the last command, and why, as a catalogue key with its
    parameters (the host page words it) and in plain English (the ``cannot_undo`` reason)."""

    possible: bool
    key: str
    params: dict[str, Any]

    @property
    def text(self) -> str:
        params = dict(self.params)
        if "what" in params:
            params["what"] = ", ".join(UNDO_WHAT_EN[w] for w in params["what"])
        if "command" in params:
            who = f"{params['player']}'s " if params.get("player") else ""
            params["command"] = who + str(params["command"])
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
    params = {"command": command["type"], "player": command.get("player")}
    revealing = [e["type"] for e in game.events[-1] if e["type"] not in UNDOABLE_EVENTS]
    if revealing:
        what = sorted({UNDO_WHAT.get(kind, "other") for kind in revealing})
        return UndoCheck(False, "undo.revealed", {**params, "what": what})
    return UndoCheck(True, "undo.possible", params)


def undone_notice(command: dict[str, Any], state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The notice for the seat whose own move the host took back (to that seat only: a bid's
    cards are its secret), e.g. "your bid for station 3 was undone"."""
    player = command.get("player")
    if not player:
        return {}
    notice: dict[str, Any] = {"kind": "undone", "type": command["type"]}
    if command["type"] == "bid":
        notice["stations"] = sorted(command.get("bids", {}), key=int)
    elif state.get("station") is not None:
        notice["station"] = state["station"]
    return {player: notice}


_AUTOMATIC = (*TABLE_ANSWERS, "dealer")  # commands no seat sent


def _this_round(game: Game) -> list[tuple[dict[str, Any], str, int | None]]:
    """This round's commands, from the one that started it (it may also have ended the last
    round: a station answered without asking stays news until the next round's first move),
    with their sources and the station whose cards were revealed when each came. A frame's
    seats share one walk (:func:`render`)."""
    steps = game.events
    start = next(
        (
            i
            for i in range(len(steps) - 1, -1, -1)
            if any(e["type"] == "round_started" for e in steps[i])
        ),
        0,
    )
    # A round ended by the table's own answers (R3.2, R5.4: nothing left to ask) keeps the
    # answers the table gave before it in the same chain: they are news as much as the last.
    while (
        start > 0
        and game.commands[start][2] in _AUTOMATIC
        and not any(e["type"] == "round_started" for e in steps[start - 1])
    ):
        start -= 1
    station = next(
        (
            e["station"]
            for i in range(start - 1, -1, -1)
            for e in reversed(steps[i])
            if e["type"] == "revealed"
        ),
        None,
    )
    out: list[tuple[dict[str, Any], str, int | None]] = []
    for (_, command, source, _), events in zip(game.commands[start:], steps[start:], strict=False):
        out.append((command, source, station))
        for event in events:
            if event["type"] == "revealed":
                station = event["station"]
    return out


def companion_moves(game: Game, seat: str) -> list[dict[str, Any]]:
    """What a companion player did for ``seat`` this round since the seat's phone last played
    (its own moves only): the phone that gets its seat back is told what was bid for it."""
    return round_news(game)[0].get(seat, [])


def not_asked(game: Game, seat: str) -> list[dict[str, Any]]:
    """The questions of this round the table answered for ``seat`` without asking, because no
    answer could change what the station gives: a bonus dice window (``kind`` "dice", answered
    "no dice", R3.2) or the pyramid's order (``kind`` "pyramid": both cubes land in one row,
    R5.4); with the station and the place its ranking gave (once ranked): the pad says why."""
    return round_news(game)[1].get(seat, [])


def round_news(
    game: Game,
) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[dict[str, Any]]]]:
    """Every seat's :func:`companion_moves` and :func:`not_asked`, in one walk of the round
    (a frame's phones share it)."""
    rows = _this_round(game)
    moves: dict[str, list[dict[str, Any]]] = {}
    skipped: dict[str, list[tuple[int | None, str]]] = {}
    for command, source, station in rows:
        seat = command.get("player")
        if not isinstance(seat, str):
            continue
        if source == f"seat:{seat}":
            moves.pop(seat, None)  # the phone played again: earlier moves are its own news
        elif source.startswith(COMPANION_SOURCES):
            move = {k: v for k, v in command.items() if k != "player"}
            if command["type"] in ("dice", "roll") and station is not None:
                move["station"] = station
            moves.setdefault(seat, []).append(move)
        if source in TABLE_ANSWERS:
            kind = "dice" if source == NO_DICE else "pyramid"
            skipped.setdefault(seat, []).append((station, kind))
    places: dict[int | None, dict[str, int]] = {}
    if skipped:
        for events in game.events[len(game.events) - len(rows) :]:
            for e in events:
                if e["type"] == "ranking":
                    places[e["station"]] = {x["player"]: x["place"] for x in e["entries"]}
    asked = {
        seat: [
            {"station": st, "place": places.get(st, {}).get(seat), "kind": kind}
            for st, kind in stations
        ]
        for seat, stations in skipped.items()
    }
    return moves, asked


def standings(game: Game) -> list[dict[str, Any]]:
    """The scores when the host ended the game: best first, equal scores share a place
    (no final scoring happened, R7 needs the last round)."""
    players = game.state["players"]
    order = sorted(players, key=lambda p: -players[p]["score"])
    out: list[dict[str, Any]] = []
    for i, p in enumerate(order):
        score = players[p]["score"]
        place = out[-1]["place"] if out and out[-1]["score"] == score else i + 1
        out.append({"player": p, "score": score, "place": place})
    return out


def admin_summary(snap: Snapshot, connected: set[str]) -> dict[str, Any]:
    """A table as the café admin lists it: state, seats (with whether their phone is
    connected) and the LED board's connection; no secrets, no game view."""
    g = snap.game
    board = snap.board
    return {
        "name": snap.name,
        "title": snap.title,
        "status": status(snap),
        "game_id": g.id if g else None,
        "game_status": g.status if g else None,
        "round": g.state["round"] if g else None,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "colour": s.colour,
                "hex": PLAYER_COLOURS.get(s.colour),
                "state": s.state,
                "connected": s.seat in connected,
            }
            for s in snap.seats
        ],
        "board": (
            {
                "mode": board.get("mode"),
                "connected": board.get("connected"),
                "detail": board.get("detail"),
            }
            if board
            else None
        ),
    }


def replay_frames(
    *,
    table: str,
    title: str,
    lang: str,
    game_id: int,
    document: dict[str, Any],
    seats: list[dict[str, Any]],
    commands: list[dict[str, Any]],
    status: str,
    urls: dict[str, str | None] | None = None,
) -> list[dict[str, Any]]:
    """The display's view frames of a finished game, one per event: the start, then each
    event of each command in turn. A mid-command step shows the view as the live show staged
    it with the events so far told (``staging.at_beat``), so no step shows what a later event
    of the same command reveals. ``urls`` are the web layer's (the display page's path); a
    seat's ``companion`` is its level, if any."""
    state = new_game(document["players"], document.get("stack"), document.get("profile"))
    seats_info = [
        {
            "id": s["seat"],
            "name": s["name"],
            "colour": s["colour"],
            "hex": PLAYER_COLOURS.get(s["colour"]),
            "connected": True,
            "state": "phone",
            "companion": bool(s.get("companion")),  # as at the live table
            "level": s.get("companion"),
        }
        for s in seats
    ]
    links = {"display": None, "qr": None, "join": None, **(urls or {})}
    frames: list[dict[str, Any]] = []
    round_events: list[dict[str, Any]] = []

    def frame(seen: View, over: bool) -> dict[str, Any]:
        summary = {
            "name": table,
            "title": title,
            "status": "finished" if over else "playing",
            "dice": "digital",
            "seats_filled": len(seats),
            "seats_max": SEATS_MAX,
            "game_id": game_id,
            "round": seen["round"],
            "lang": lang,
            "urls": links,
        }
        return {
            "type": "view",
            "seq": len(frames),
            "reason": "replay",
            "table": summary,
            "seats": seats_info,
            "you": None,
            "game": {
                "id": game_id,
                "status": status if over else "playing",
                "dice": "digital",
                "view": seen,
            },
            "events": [],
            "history": visible_events(list(round_events), None),
            "board": None,
        }

    after = views(state, [None])[None]
    frames.append(frame(after, False))
    for n, command in enumerate(commands, start=1):
        before = after
        state, events = apply(state, command)
        after = views(state, [None])[None]
        told = visible_events(events, None)
        last = n == len(commands)
        if not events:
            frames.append(frame(after, last))
        for j, e in enumerate(events):
            if e["type"] == "round_started":
                round_events = []
            round_events.append(e)
            if j == len(events) - 1:
                frames.append(frame(after, last))
            else:
                frames.append(frame(cast(View, at_beat(before, after, told, j + 1)), False))
    return frames


def replay_steps(
    document: dict[str, Any], commands: list[dict[str, Any]]
) -> list[list[dict[str, Any]]]:
    """Each command's events of a finished game, as the live show's steps: what a replay's
    show block is made of (``show.block``). Kept on the server, never sent: a bid's events
    carry its cards before the reveal."""
    state = new_game(document["players"], document.get("stack"), document.get("profile"))
    out: list[list[dict[str, Any]]] = []
    for command in commands:
        state, events = apply(state, command)
        out.append(events)
    return out
