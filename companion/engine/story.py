"""The story of a finished (or ended) game: how the scores moved, where the game turned, and
who won most at which station.

Built only from a game's log (SCENARIO.md: players, stack, profile, commands) replayed through
the engine, so it says exactly what the table saw. The table computes it once when a game is
over and the display shows it after the final scoring; it holds nothing secret that the final
scoring has not already shown (revealed bids only, R3.1; no sacrifices).

Scores are the track scores (R6.1) after every station: a station's effects are all the
``scored`` events between its ``ranking`` event and the next station's (a pyramid row bonus,
R5.4, comes with the later pyramid decision, and the drink penalty, R5.5, is part of its
station's net change). A finished game's series end with one more mark, the final scoring
(``"final": True``): every player's R7 total, so the chart ends where the winner's total is.

>>> doc = {"players": ["ana", "ben", "cleo"], "commands": []}
>>> s = game_story(doc)
>>> s["marks"], s["series"]["ana"], s["turning_points"], s["played"]
([{'round': 0, 'station': 0}], [0], [], 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal, NotRequired, TypedDict

from companion.engine.asks import STATIONS
from companion.engine.errors import IllegalCommand, InvalidSetup, ReplayError
from companion.engine.flow import apply_in_place
from companion.engine.state import new_game
from companion.engine.types import Event

TOP_GAINS = 3  # the largest single-station gains a story names

# The reason key of a station's gain (R5): the display words it per language.
STATION_REASON = {
    1: "chocolatl",
    2: "harvest",
    3: "city",
    4: "pyramid_row",
    5: "drink",
    6: "tachli",
}


class Mark(TypedDict):
    """A point of the score series: after ``station`` of ``round`` (0, 0 = the start); the
    last mark of a finished game is its final scoring (``final``, station 0, R7)."""

    round: int
    station: int
    final: NotRequired[bool]


class TurningPoint(TypedDict):
    """One moment the table may ask about, worded by the display from ``kind``/``reason``.

    ``gain``: ``player`` took ``points`` at that station (``reason`` says how, R5), reaching
    ``score``. ``lead``: ``player`` went ahead alone (``rival``: who led before, or None for the
    first lead). ``final``: the final scoring (R7) put ``player`` ahead of ``rival``, the
    leader on the track, with ``points`` from the final lines."""

    kind: Literal["gain", "lead", "final"]
    round: int
    station: int
    player: str
    points: int
    score: int
    reason: str
    rival: str | None


class StationStats(TypedDict):
    """One station (R5) over the game: how often it was played, who came first how often
    (R3.4), and the net points each player made there."""

    station: int
    played: int
    wins: dict[str, int]
    points: dict[str, int]


class PlayerStats(TypedDict):
    """What a player did besides scoring: huts built (R5.3), black dice taken and used (R3.2),
    pyramid cubes placed (R5.4), improvement cards exchanged (R5.6), the Chocolatl figure won
    and the old man taken (R5.1)."""

    huts: int
    dice_taken: int
    dice_used: int
    cubes: int
    cards_exchanged: int
    figures: int
    old_man: int


class Story(TypedDict):
    """The whole story: ``series[p][i]`` is p's track score at ``marks[i]`` (at the final
    mark, p's final total, R7). ``played`` counts the stations played."""

    players: list[str]
    marks: list[Mark]
    series: dict[str, list[int]]
    turning_points: list[TurningPoint]
    stations: list[StationStats]
    players_stats: dict[str, PlayerStats]
    played: int
    finished: bool


def _sole_leader(scores: Mapping[str, int]) -> str | None:
    """The one player ahead of all others, or None on a shared lead or at 0."""
    best = max(scores.values())
    top = [p for p, v in scores.items() if v == best]
    return top[0] if len(top) == 1 and best > 0 else None


def _empty_stats() -> PlayerStats:
    return {
        "huts": 0,
        "dice_taken": 0,
        "dice_used": 0,
        "cubes": 0,
        "cards_exchanged": 0,
        "figures": 0,
        "old_man": 0,
    }


class _Teller:
    """Reads the engine's events in order and keeps the story's running counts."""

    def __init__(self, players: list[str]) -> None:
        self.players = players
        self.scores = {p: 0 for p in players}
        self.round = 0
        self.open: Mark | None = None
        self.open_from: dict[str, int] = dict(self.scores)
        self.open_reasons: dict[str, dict[str, int]] = {}
        self.marks: list[Mark] = [{"round": 0, "station": 0}]
        self.series = {p: [0] for p in players}
        self.gains: list[TurningPoint] = []
        self.stations: dict[int, StationStats] = {
            int(k): {
                "station": int(k),
                "played": 0,
                "wins": {p: 0 for p in players},
                "points": {p: 0 for p in players},
            }
            for k in STATIONS
        }
        self.stats = {p: _empty_stats() for p in players}
        self.final: dict[str, int] | None = None
        self.winners: list[str] = []

    def close(self) -> None:
        """The open station is over: one more point of every series."""
        mark = self.open
        if mark is None:
            return
        self.open = None
        self.marks.append(mark)
        station = self.stations[mark["station"]]
        for p in self.players:
            self.series[p].append(self.scores[p])
            gained = self.scores[p] - self.open_from[p]
            station["points"][p] += gained
            if gained > 0:
                reasons = self.open_reasons.get(p, {})
                best = max(reasons, key=lambda r: reasons[r], default="")
                self.gains.append(
                    {
                        "kind": "gain",
                        "round": mark["round"],
                        "station": mark["station"],
                        "player": p,
                        "points": gained,
                        "score": self.scores[p],
                        "reason": best or STATION_REASON[mark["station"]],
                        "rival": None,
                    }
                )

    def read(self, events: Iterable[Event]) -> None:
        for e in events:  # each branch tests e["type"] itself: mypy reads that type's fields
            if e["type"] == "round_started":
                self.round = e["round"]
            elif e["type"] == "ranking":
                self.close()
                station = e["station"]
                self.open = {"round": self.round, "station": station}
                self.open_from = dict(self.scores)
                self.open_reasons = {}
                self.stations[station]["played"] += 1
                self.stations[station]["wins"][e["order"][0]] += 1
            elif e["type"] == "scored":
                p = e["player"]
                self.scores[p] = e["score"]
                reasons = self.open_reasons.setdefault(p, {})
                reasons[e["reason"]] = reasons.get(e["reason"], 0) + e["score"] - e["from"]
            elif e["type"] == "round_ended":
                self.close()
            elif e["type"] == "hut":
                self.stats[e["player"]]["huts"] += 1
            elif e["type"] == "die":
                self.stats[e["player"]]["dice_taken"] += 1
            elif e["type"] == "dice_choices":
                for p, count in e["choices"].items():
                    self.stats[p]["dice_used"] += count
            elif e["type"] == "cube" and e["row"] is not None:
                self.stats[e["player"]]["cubes"] += 1
            elif e["type"] == "card_gained":
                self.stats[e["player"]]["cards_exchanged"] += 1
            elif e["type"] == "figure":
                self.stats[e["player"]]["figures"] += 1
            elif e["type"] == "old_man":
                self.stats[e["player"]]["old_man"] += 1
            elif e["type"] == "final_scoring":
                self.close()
                self.final = {p: line["total"] for p, line in e["lines"].items()}
            elif e["type"] == "game_over":
                self.winners = list(e["winners"])

    def turning_points(self) -> list[TurningPoint]:
        """The largest gains (biggest first; ties: the earlier, then seat order), every
        change of the sole leader, and the final scoring's overtaking if there was one."""
        order = {p: i for i, p in enumerate(self.players)}
        gains = sorted(
            self.gains,
            key=lambda g: (-g["points"], g["round"], g["station"], order[g["player"]]),
        )[:TOP_GAINS]
        leads: list[TurningPoint] = []
        leader: str | None = None
        for i, mark in enumerate(self.marks):
            now = _sole_leader({p: self.series[p][i] for p in self.players})
            if now is not None and now != leader:
                leads.append(
                    {
                        "kind": "lead",
                        "round": mark["round"],
                        "station": mark["station"],
                        "player": now,
                        "points": self.series[now][i] - (self.series[now][i - 1] if i else 0),
                        "score": self.series[now][i],
                        "reason": "took_lead" if leader is None else "lead_change",
                        "rival": leader,
                    }
                )
                leader = now
        out = gains + leads
        if self.final is not None and leader is not None and leader not in self.winners:
            winner = self.winners[0]
            out.append(
                {
                    "kind": "final",
                    "round": self.round,
                    "station": 0,
                    "player": winner,
                    "points": self.final[winner] - self.scores[winner],
                    "score": self.final[winner],
                    "reason": "final_overtake",
                    "rival": leader,
                }
            )
        return out


def game_story(document: Mapping[str, Any]) -> Story:
    """The story of the game in ``document`` (SCENARIO.md, with its engine commands).

    A command the engine refuses raises :class:`ReplayError` naming it; a game that was ended
    early tells its story up to where it stopped (``finished`` False).
    """
    players: Any = document.get("players")  # new_game checks it (R1.1)
    state = new_game(players, document.get("stack"), document.get("profile"))
    commands = document.get("commands", [])
    if not isinstance(commands, list):
        raise InvalidSetup("commands must be a list")
    teller = _Teller(list(state["players"]))
    for index, command in enumerate(commands):
        try:
            teller.read(apply_in_place(state, command))
        except IllegalCommand as exc:
            raise ReplayError(index, str(exc)) from None
    teller.close()  # an ended game's station in progress counts as played
    stations = [teller.stations[int(k)] for k in STATIONS]
    turning_points = teller.turning_points()  # from the stations (the final one is its own)
    played = len(teller.marks) - 1
    marks, series = list(teller.marks), {p: list(v) for p, v in teller.series.items()}
    if teller.final is not None:  # R7: the chart's last step is the final scoring
        marks.append({"round": teller.round, "station": 0, "final": True})
        for p in teller.players:
            series[p].append(teller.final[p])
    return {
        "players": teller.players,
        "marks": marks,
        "series": series,
        "turning_points": turning_points,
        "stations": stations,
        "players_stats": teller.stats,
        "played": played,
        "finished": bool(state["finished"]),
    }
