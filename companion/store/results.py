"""What a finished (or ended) game leaves behind: its result document, built from the store.

The result is replayed from the stored command log through the engine, so it says exactly
what the table saw: players with names and colours, track scores, the final-scoring lines
(R7) and the winners (R7: highest total, then higher sacrifice, else shared). The same
document is the webhook body (PROTOCOL.md "Result webhooks") and the café's history row.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from companion.engine import apply, new_game

RESULT_VERSION = 1
TRACK_COLORS = "track_colors"  # the table's own logged correction (R2.3), not an engine command


def engine_log(
    document: dict[str, Any], commands: list[dict[str, Any]]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A stored game as the engine replays it (SCENARIO.md): the table's track-colour
    corrections (only possible before round 1) folded into the profile, the rest in order.

    >>> doc, cmds = engine_log({"players": ["a"], "profile": {"track_colors": ["red"]}},
    ...                        [{"type": "track_colors", "colors": ["gold"]}, {"type": "bid"}])
    >>> doc["profile"]["track_colors"], cmds
    (['gold'], [{'type': 'bid'}])
    """
    colors = [c["colors"] for c in commands if c.get("type") == TRACK_COLORS]
    if colors:
        document = {
            **document,
            "profile": {**(document.get("profile") or {}), "track_colors": list(colors[-1])},
        }
    return document, [c for c in commands if c.get("type") != TRACK_COLORS]


def companion_levels(logged: Iterable[tuple[dict[str, Any], str]]) -> dict[str, str]:
    """Which seats companion players played, at which level (the last one, if the host changed
    it), from the logged ``(command, source)`` pairs: sources ``auto`` (plain) and
    ``bot:<seat>:<level>``.

    >>> companion_levels([({"player": "ana"}, "seat:ana"), ({"player": "bo"}, "bot:bo:easy"),
    ...                   ({"player": "cy"}, "auto"), ({"type": "x"}, "host")])
    {'bo': 'easy', 'cy': 'plain'}
    """
    levels: dict[str, str] = {}
    for command, source in logged:
        player = command.get("player")
        if isinstance(player, str) and (source == "auto" or source.startswith("bot:")):
            levels[player] = "plain" if source == "auto" else source.split(":")[2]
    return levels


def iso(ts: float) -> str:
    """UTC time as ISO 8601 with a ``Z``.

    >>> iso(0)
    '1970-01-01T00:00:00Z'
    """
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def idempotency_key(table: str, game_id: int, created: float) -> str:
    """Stable for one game on one database: the same on every retry and after restarts, and
    different for a game of a new database that reuses the id.

    >>> idempotency_key("oak", 7, 1.5)
    'chocolatl-oak-7-1500'
    """
    return f"chocolatl-{table}-{game_id}-{int(created * 1000)}"


def build_result(
    *,
    table: str,
    title: str,
    game_id: int,
    status: str,
    created: float,
    ended: float,
    document: dict[str, Any],
    seats: list[dict[str, Any]],
    commands: list[dict[str, Any]],
    companions: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The result document of a game that is over (``status`` finished or ended);
    ``companions`` marks the seats companion players played (:func:`companion_levels`)."""
    if status not in ("finished", "ended"):
        raise ValueError(f"game {game_id} is {status}, not over")
    document, commands = engine_log(document, commands)
    state = new_game(document["players"], document.get("stack"), document.get("profile"))
    rounds = 0
    for command in commands:
        state, events = apply(state, command)
        rounds += sum(1 for e in events if e["type"] == "round_ended")
    names = {s["seat"]: s for s in seats}
    winners = list(state["winners"]) if status == "finished" else []
    players = []
    for seat in state["seats"]:
        ps = state["players"][seat]
        final = ps["final"]
        players.append(
            {
                "seat": seat,
                "name": names.get(seat, {}).get("name", seat),
                "colour": names.get(seat, {}).get("colour"),
                # A finished game's score is the R7 total; an ended one has only the track.
                "score": final["total"] if final else ps["score"],
                "track": ps["score"],
                "final": dict(final) if final else None,
                "winner": seat in winners,
                # The level of the companion player that played this seat, else None: the
                # café's leaderboard marks (or leaves out) companion players.
                "companion": (companions or {}).get(seat),
            }
        )
    return {
        "version": RESULT_VERSION,
        "event": f"game.{status}",
        "idempotency_key": idempotency_key(table, game_id, created),
        "table": {"name": table, "title": title},
        "game_id": game_id,
        "status": status,
        "started_at": iso(created),
        "ended_at": iso(ended),
        "rounds_played": rounds,
        "players": players,
        "winners": winners,
    }


def meta(
    table: str,
    created: float,
    seats: list[dict[str, Any]],
    companions: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """SCENARIO.md ``meta`` of a game log: the table, the date and the seats' names and
    colours, with ``companion: <level>`` on seats companion players played (``replay``
    ignores it)."""
    about: dict[str, Any] = {
        "table": table,
        "date": iso(created),
        "seats": {s["seat"]: {"name": s["name"], "colour": s["colour"]} for s in seats},
    }
    for seat, level in (companions or {}).items():
        if seat in about["seats"]:
            about["seats"][seat]["companion"] = level
    return about
