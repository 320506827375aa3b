"""A phone's news of the round: what a companion player did for its seat since the phone last
played, and which questions the table answered for it without asking (R3.6). One walk of the
round serves every phone of a frame (``frames.render``).
"""

from __future__ import annotations

from typing import Literal

from companion.store.documents import LoggedCommand
from companion.table.dealer import NO_DICE, TABLE_ANSWERS
from companion.table.frame_types import NotAsked
from companion.table.model import Game

COMPANION_SOURCES = ("auto", "bot:")  # the logged sources of a companion player's moves
_AUTOMATIC = (*TABLE_ANSWERS, "dealer")  # commands no seat sent


def _this_round(game: Game) -> list[tuple[LoggedCommand, str, int | None]]:
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
    out: list[tuple[LoggedCommand, str, int | None]] = []
    for (_, command, source, _), events in zip(game.commands[start:], steps[start:], strict=False):
        out.append((command, source, station))
        for event in events:
            if event["type"] == "revealed":
                station = event["station"]
    return out


def companion_moves(game: Game, seat: str) -> list[dict[str, object]]:
    """What a companion player did for ``seat`` this round since the seat's phone last played
    (its own moves only): the phone that gets its seat back is told what was bid for it."""
    return round_news(game)[0].get(seat, [])


def not_asked(game: Game, seat: str) -> list[NotAsked]:
    """The questions of this round the table answered for ``seat`` without asking, because no
    answer could change what the station gives: a bonus dice window (``kind`` "dice", answered
    "no dice", R3.2) or the pyramid's order (``kind`` "pyramid": both cubes land in one row,
    R5.4); with the station and the place its ranking gave (once ranked): the pad says why."""
    return round_news(game)[1].get(seat, [])


def round_news(
    game: Game,
) -> tuple[dict[str, list[dict[str, object]]], dict[str, list[NotAsked]]]:
    """Every seat's :func:`companion_moves` and :func:`not_asked`, in one walk of the round
    (a frame's phones share it)."""
    rows = _this_round(game)
    moves: dict[str, list[dict[str, object]]] = {}
    skipped: dict[str, list[tuple[int | None, Literal["dice", "pyramid"]]]] = {}
    for command, source, station in rows:
        seat = command.get("player")
        if not isinstance(seat, str):
            continue
        if source == f"seat:{seat}":
            moves.pop(seat, None)  # the phone played again: earlier moves are its own news
        elif source.startswith(COMPANION_SOURCES):
            move: dict[str, object] = {k: v for k, v in command.items() if k != "player"}
            if command["type"] in ("dice", "roll") and station is not None:
                move["station"] = station
            moves.setdefault(seat, []).append(move)
        if source in TABLE_ANSWERS:
            kind: Literal["dice", "pyramid"] = "dice" if source == NO_DICE else "pyramid"
            skipped.setdefault(seat, []).append((station, kind))
    places: dict[int | None, dict[str, int]] = {}
    if skipped:
        for events in game.events[len(game.events) - len(rows) :]:
            for e in events:
                if e["type"] == "ranking":
                    places[e["station"]] = {x["player"]: x["place"] for x in e["entries"]}
    asked: dict[str, list[NotAsked]] = {
        seat: [
            {"station": st, "place": places.get(st, {}).get(seat), "kind": kind}
            for st, kind in stations
        ]
        for seat, stations in skipped.items()
    }
    return moves, asked
