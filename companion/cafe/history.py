"""The café's memory: finished games of every table, a leaderboard by player name over a
period, CSV exports, and a retention limit. Read from the ``results`` the outbox records
(companion.cafe.outbox), so history, leaderboard and webhooks always agree. The queries
are the store's (companion.store, the database's one owner)."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from companion.store import DamagedRow, Store
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


class History:
    """The café's history over the recorded results, asked of the store."""

    def __init__(self, store: Store | Callable[..., Any]) -> None:
        # A store; or, while web/admin.py still hands over ``Outbox.read``, the outbox's store.
        self._store: Store | None = (
            store
            if isinstance(store, Store)
            else getattr(getattr(store, "__self__", None), "store", None)
        )
        # Damaged results the last query left out (the store logs each and the admin
        # page names them); the rest is served.
        self.skipped: list[DamagedRow] = []

    def games(
        self,
        since: float | None = None,
        until: float | None = None,
        table: str | None = None,
        limit: int = 1000,
    ) -> list[dict[str, Any]]:
        """Games that are over, newest first, each with its result document."""
        return self.read(since, until, table, limit)[0]

    def read(
        self,
        since: float | None = None,
        until: float | None = None,
        table: str | None = None,
        limit: int = 1000,
    ) -> tuple[list[dict[str, Any]], list[DamagedRow]]:
        """:meth:`games`, and the damaged results left out (also in :attr:`skipped`)."""
        if self._store is None:
            raise TypeError("History needs the café's Store")
        found, self.skipped = self._store.history_read(since, until, table, limit)
        return found, self.skipped

    def leaderboard(
        self, since: float | None = None, until: float | None = None, people_only: bool = False
    ) -> list[dict[str, Any]]:
        """Per player name (case-insensitive): finished games, wins, win share, mean and best
        R7 total. Games the host ended have no final scores and do not count. Seats companion
        players played are ranked apart from people of the same name and marked
        (``companion``); ``people_only`` leaves them out."""
        board: dict[tuple[str, bool], dict[str, Any]] = {}
        for result in reversed(self.games(since, until, limit=100_000)):
            if result["status"] != "finished":
                continue
            for p in result["players"]:
                companion = bool(p.get("companion"))
                if companion and people_only:
                    continue
                key = (" ".join(p["name"].split()).casefold(), companion)
                row = board.setdefault(
                    key, {"name": p["name"], "games": 0, "wins": 0, "total": 0, "best": None}
                )
                row["name"] = p["name"]  # the latest spelling
                row["games"] += 1
                row["wins"] += 1 if p["winner"] else 0
                row["total"] += p["score"]
                row["best"] = p["score"] if row["best"] is None else max(row["best"], p["score"])
        out = []
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
                }
            )
        out.sort(key=lambda r: (-r["wins"], -r["win_share"], -r["mean_score"], r["name"]))
        return out


# A UTF-8 byte-order mark first: spreadsheets then read ü and é as such, not as mojibake.
BOM = "\ufeff"


def games_csv(results: list[dict[str, Any]]) -> str:
    """One line per player per game (spreadsheets sum and filter that easily); ``companion``
    holds the level of the companion player that played the seat, empty for a person."""
    buf = io.StringIO()
    w = csv.writer(buf)
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
                ]
            )
    return BOM + buf.getvalue()


def leaderboard_csv(rows: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["name", "companion", "games", "wins", "win_share", "mean_score", "best_score"])
    for r in rows:
        w.writerow(
            [
                _cell(r["name"]),
                "yes" if r.get("companion") else "no",
                r["games"],
                r["wins"],
                r["win_share"],
                r["mean_score"],
                r["best_score"],
            ]
        )
    return BOM + buf.getvalue()


def _cell(text: str) -> str:
    """A player's name as a spreadsheet cell: never a formula (``=``, ``+``, ``-``, ``@``)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


__all__ = ["History", "PeriodError", "games_csv", "iso", "leaderboard_csv", "period"]
