"""The café's memory: finished games of every table, a leaderboard by player name over a
period, CSV exports, and a retention limit. Read from the ``results`` the outbox records
(companion.cafe.outbox), so history, leaderboard and webhooks always agree. The queries
are the store's (companion.store, the database's one owner)."""

from __future__ import annotations

import csv
import io
from collections.abc import Collection, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, TypedDict

from companion.store import DamagedRow, Store
from companion.store.documents import ResultDocument, ResultPlayer
from companion.store.results import iso

DATE_FORMAT = "%Y-%m-%d"


class PeriodError(ValueError):
    """A period that cannot be read; nothing is queried."""


def period(start: str | None, end: str | None) -> tuple[float | None, float | None]:
    """``YYYY-MM-DD`` dates (UTC, both days included) as epoch bounds ``[since, until)``.

    >>> period("2026-11-01", "2026-11-01")
    (1793491200.0, 1793577600.0)
    >>> period(None, None)
    (None, None)
    """

    def day(text: str | None, name: str) -> datetime | None:
        if text in (None, ""):
            return None
        try:
            return datetime.strptime(str(text), DATE_FORMAT).replace(tzinfo=UTC)
        except ValueError:
            raise PeriodError(f"{name} must be a date like 2026-11-22") from None

    since, until = day(start, "from"), day(end, "to")
    if since and until and until < since:
        raise PeriodError("the period ends before it starts")
    return (
        since.timestamp() if since else None,
        (until + timedelta(days=1)).timestamp() if until else None,
    )


class LeaderboardRow(TypedDict):
    """A player name's line of the leaderboard (PROTOCOL.md "Café admin")."""

    name: str  # the latest spelling
    companion: bool  # seats credited to a companion player of that name
    games: int  # finished games
    wins: int
    win_share: float
    mean_score: float  # R7 totals
    best_score: int
    helped: int  # games in which a companion player made some rounds' moves


class _Tally(TypedDict):
    name: str
    games: int
    wins: int
    total: int
    best: int
    helped: int


class History:
    """The café's history over the recorded results, asked of the store."""

    def __init__(self, store: Store, hidden: Collection[int] = frozenset()) -> None:
        # Games left out (a table's game whose end its screens have not shown yet).
        self.hidden = frozenset(hidden)
        self.store = store
        # Damaged results the last query left out (the store logs each and the admin
        # page names them); the rest is served.
        self.skipped: list[DamagedRow] = []

    def games(
        self,
        since: float | None = None,
        until: float | None = None,
        table: str | None = None,
        limit: int = 1000,
    ) -> list[ResultDocument]:
        """Games that are over, newest first, each with its result document."""
        return self.read(since, until, table, limit)[0]

    def read(
        self,
        since: float | None = None,
        until: float | None = None,
        table: str | None = None,
        limit: int = 1000,
    ) -> tuple[list[ResultDocument], list[DamagedRow]]:
        """:meth:`games`, and the damaged results left out (also in :attr:`skipped`)."""
        found, self.skipped = self.store.history_read(since, until, table, limit + len(self.hidden))
        return [g for g in found if g["game_id"] not in self.hidden][:limit], self.skipped

    def leaderboard(
        self, since: float | None = None, until: float | None = None, people_only: bool = False
    ) -> list[LeaderboardRow]:
        """Per player name (case-insensitive): finished games, wins, win share, mean and best
        R7 total. Games the host ended have no final scores and do not count. A seat counts
        for the one it is credited to, who played most of its rounds (results.credited):
        its ``name`` and ``companion``. Seats credited to companion players are ranked apart
        from people of the same name and marked (``companion``); ``people_only`` leaves them
        out. ``helped`` counts a row's games in which a companion player made the moves of
        some rounds (a person is not dropped for that)."""
        board: dict[tuple[str, bool], _Tally] = {}
        for result in reversed(self.games(since, until, limit=100_000)):
            if result["status"] != "finished":
                continue
            for p in result["players"]:
                companion = bool(p.get("companion"))
                if companion and people_only:
                    continue
                key = (" ".join(p["name"].split()).casefold(), companion)
                row = board.setdefault(
                    key,
                    {
                        "name": p["name"],
                        "games": 0,
                        "wins": 0,
                        "total": 0,
                        "best": p["score"],
                        "helped": 0,
                    },
                )
                row["name"] = p["name"]  # the latest spelling
                row["games"] += 1
                row["helped"] += 1 if not companion and helped(p) else 0
                row["wins"] += 1 if p["winner"] else 0
                row["total"] += p["score"]
                row["best"] = max(row["best"], p["score"])
        out: list[LeaderboardRow] = []
        for (_, companion), row in board.items():
            out.append(
                {
                    "name": row["name"],
                    "companion": companion,
                    "games": row["games"],
                    "wins": row["wins"],
                    "win_share": round(row["wins"] / row["games"], 4),
                    "mean_score": round(row["total"] / row["games"], 2),
                    "best_score": row["best"],
                    "helped": row["helped"],
                }
            )
        out.sort(key=lambda r: (-r["wins"], -r["win_share"], -r["mean_score"], r["name"]))
        return out


def helped(player: ResultPlayer) -> bool:
    """Whether a companion player made a seat's moves in some round (result ``holders``).

    >>> helped({"holders": [{"companion": None}, {"companion": "good"}]}), helped({})
    (True, False)
    """
    return any(h.get("companion") for h in player.get("holders") or [])


def spans(rounds: list[int]) -> str:
    """Rounds as short ranges.

    >>> spans([1, 2, 3, 5, 7, 6])
    '1-3,5-7'
    """
    out: list[str] = []
    for r in sorted(set(rounds)):
        if out and int(out[-1].split("-")[-1]) == r - 1:
            out[-1] = f"{out[-1].split('-')[0]}-{r}"
        else:
            out.append(str(r))
    return ",".join(out)


def holders_text(player: ResultPlayer) -> str:
    """Who held a seat in which rounds, for one spreadsheet cell.

    >>> holders_text({"holders": [
    ...     {"name": "Jo", "colour": "red", "companion": None, "rounds": [1, 2, 4]},
    ...     {"name": "Jo", "colour": "red", "companion": "good", "rounds": [3]}]})
    'Jo (red) rounds 1-2,4 | companion good as Jo (red) rounds 3'
    """
    parts = []
    for h in player.get("holders") or []:
        who = f"companion {h['companion']} as {h['name']}" if h.get("companion") else h["name"]
        parts.append(f"{who} ({h.get('colour')}) rounds {spans(h.get('rounds') or [])}")
    return " | ".join(parts)


# A UTF-8 byte-order mark first: spreadsheets then read ü and é as such, not as mojibake.
BOM = "\ufeff"
# CSV dialects by ``sep``: spreadsheets set to a comma as decimal mark (German, Dutch,
# Italian Excel) split lines on semicolons and read 12,5 as a number, not 12.5.
SEPARATORS = {"comma": ",", "semicolon": ";"}


class SeparatorError(ValueError):
    """A CSV separator that is not offered; nothing is exported."""


def separator(name: str | None) -> str:
    """The CSV delimiter for ``sep`` (default comma).

    >>> separator(None), separator("semicolon")
    (',', ';')
    """
    if name in (None, ""):
        return ","
    if name not in SEPARATORS:
        raise SeparatorError(f"sep must be one of {', '.join(SEPARATORS)}")
    return SEPARATORS[str(name)]


def _number(value: Any, sep: str) -> Any:
    """A decimal number as the dialect writes it: a comma as decimal mark with semicolons.

    >>> _number(12.5, ";"), _number(12.5, ","), _number(3, ";")
    ('12,5', 12.5, 3)
    """
    return str(value).replace(".", ",") if sep == ";" and isinstance(value, float) else value


def games_csv(results: Sequence[ResultDocument], sep: str = ",") -> str:
    """One line per player per game (spreadsheets sum and filter that easily); ``name``,
    ``colour`` and ``companion`` (its level, empty for a person) are those of the holder
    the seat is credited to, ``holders`` lists everyone who held the seat and when."""
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=sep)
    w.writerow(
        [
            "game_id",
            "table",
            "status",
            "started_at",
            "ended_at",
            "rounds_played",
            "seat",
            "name",
            "colour",
            "score",
            "track",
            "winner",
            "companion",
            "holders",
        ]
    )
    for r in results:
        for p in r["players"]:
            w.writerow(
                [
                    r["game_id"],
                    r["table"]["name"],
                    r["status"],
                    r["started_at"],
                    r["ended_at"],
                    r["rounds_played"],
                    p["seat"],
                    _cell(p["name"]),
                    p["colour"],
                    p["score"],
                    p["track"],
                    "yes" if p["winner"] else "no",
                    p.get("companion") or "",
                    _cell(holders_text(p)),
                ]
            )
    return BOM + buf.getvalue()


def leaderboard_csv(rows: Sequence[LeaderboardRow], sep: str = ",") -> str:
    """The leaderboard; ``helped``: games in which a companion player made some rounds' moves."""
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=sep)
    w.writerow(
        ["name", "companion", "games", "wins", "win_share", "mean_score", "best_score", "helped"]
    )
    for r in rows:
        w.writerow(
            [
                _cell(r["name"]),
                "yes" if r.get("companion") else "no",
                r["games"],
                r["wins"],
                _number(r["win_share"], sep),
                _number(r["mean_score"], sep),
                r["best_score"],
                r.get("helped", 0),
            ]
        )
    return BOM + buf.getvalue()


def _cell(text: str) -> str:
    """A player's name as a spreadsheet cell: never a formula (``=``, ``+``, ``-``, ``@``)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


__all__ = [
    "History",
    "PeriodError",
    "SeparatorError",
    "games_csv",
    "iso",
    "leaderboard_csv",
    "period",
    "separator",
]
