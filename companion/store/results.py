"""What a finished (or ended) game leaves behind: its result document, built from the store.

The result is replayed from the stored command log through the engine, so it says exactly
what the table saw: players with names and colours, track scores, the final-scoring lines
(R7) and the winners (R7: highest total, then higher sacrifice, else shared). The same
document is the webhook body (PROTOCOL.md "Result webhooks") and the café's history row.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Final, TypedDict, TypeGuard

from companion.engine import Command, apply, new_game
from companion.store.documents import (
    GameDocument,
    Holder,
    LoggedCommand,
    LogMeta,
    ResultDocument,
    ResultPlayer,
    TrackColorsCommand,
    Who,
)
from companion.store.rows import GameSeat, TakeoverRow

# 2: each player has ``holders`` (who held the seat in which rounds) and is credited to the
# holder of most rounds (:func:`credited`).
RESULT_VERSION = 2
# The table's own logged correction (R2.3), not an engine command (TrackColorsCommand).
TRACK_COLORS: Final = "track_colors"


def _colours(command: LoggedCommand) -> TypeGuard[TrackColorsCommand]:
    return command.get("type") == TRACK_COLORS


def _engine(command: LoggedCommand) -> TypeGuard[Command]:
    return command.get("type") != TRACK_COLORS


def engine_log(
    document: GameDocument, commands: Sequence[LoggedCommand]
) -> tuple[GameDocument, list[Command]]:
    """A stored game as the engine replays it (SCENARIO.md): the table's track-colour
    corrections (only possible before round 1) folded into the profile, the rest in order.

    >>> doc, cmds = engine_log({"players": ["a"], "profile": {"track_colors": ["red"]}},
    ...                        [{"type": "track_colors", "colors": ["gold"]}, {"type": "bid"}])
    >>> doc["profile"]["track_colors"], cmds
    (['gold'], [{'type': 'bid'}])
    """
    colors = [c["colors"] for c in commands if _colours(c)]
    if colors:
        document = {
            **document,
            "profile": {**(document.get("profile") or {}), "track_colors": list(colors[-1])},
        }
    return document, [c for c in commands if _engine(c)]


def companion_levels(logged: Iterable[tuple[LoggedCommand, str]]) -> dict[str, str]:
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


class Phone(TypedDict):
    """Who is on a seat's phone: the name and colour it plays under."""

    name: str
    colour: str | None


def holder_of(source: str, phone: Phone) -> Who | None:
    """Who made a seat's logged command: the person on its phone (``seat:<id>``, as
    ``phone`` names them then) or a companion player under the seat's name (``auto``: plain,
    ``bot:<seat>:<level>``); None for the table's own moves (dealer, no dice, host input).

    >>> holder_of("bot:jo:good", {"name": "Jo", "colour": "red"})
    {'name': 'Jo', 'colour': 'red', 'companion': 'good'}
    >>> holder_of("seat:jo", {"name": "Jo", "colour": "red"})["companion"] is None
    True
    >>> holder_of("dealer", {"name": "Jo", "colour": "red"}) is None
    True
    """
    if source.startswith("seat:"):
        level = None
    elif source == "auto":
        level = "plain"
    elif source.startswith("bot:"):
        level = source.split(":")[2]
    else:
        return None
    return {"name": phone["name"], "colour": phone.get("colour"), "companion": level}


def credited(holders: Sequence[Holder]) -> int:
    """Which holder a seat's result is credited to (README "who is credited"): the one who
    played most rounds; on a tie a person before a companion player, then the later holder
    (who finished the seat). A person who came back in another colour (a new phone) is one
    player: the rounds of every holder with that name (as the leaderboard compares names)
    count together, and the latest of them is credited. -1 when nobody moved for the seat.

    >>> credited([{"name": "Jo", "rounds": [1, 2, 4], "companion": None},
    ...           {"name": "Jo", "rounds": [3], "companion": "good"}])
    0
    >>> credited([{"name": "Ana", "rounds": [1, 2], "companion": None},
    ...           {"name": "Bert", "rounds": [3, 4], "companion": None}])
    1
    >>> credited([{"name": "Xo", "rounds": [1], "companion": "plain"},
    ...           {"name": "Bo", "rounds": [2], "companion": None}])
    1
    >>> credited([{"name": "Ana", "rounds": [1, 2], "companion": None},
    ...           {"name": "Ana", "rounds": [3, 4, 5], "companion": "good"},
    ...           {"name": "ana ", "rounds": [6, 7], "companion": None}])
    2
    """
    groups: dict[tuple[str, bool], tuple[set[int], int]] = {}
    for i, h in enumerate(holders):
        if h["rounds"]:
            who = (" ".join(str(h["name"]).split()).casefold(), h["companion"] is None)
            rounds = groups.get(who, (set(), i))[0] | set(h["rounds"])
            groups[who] = (rounds, i)
    best, key = -1, (0, False, -1)
    for (_, person), (rounds, last) in groups.items():
        k = (len(rounds), person, last)
        if k > key:
            best, key = last, k
    return best


def seat_holders(
    seats: Sequence[GameSeat],
    logged: Iterable[tuple[int, int, LoggedCommand, str]],
    takeovers: Iterable[TakeoverRow] = (),
) -> dict[str, list[Holder]]:
    """Who held each seat in which rounds, from the log: ``logged`` is ``(round, n,
    command, source)`` of each command (:func:`by_round`),
    ``seats`` the names and colours at the start and ``takeovers`` each phone that took a seat
    over during the game (from command ``n`` on). A holder is a
    name, colour and companion level (None: a person) with the rounds it made a move in; a
    round two holders moved in counts for both. Holders are in the order they first moved.

    >>> seats = [{"seat": "a", "name": "Ana", "colour": "green"}]
    >>> log = [(1, 0, {"player": "a"}, "seat:a"), (2, 1, {"player": "a"}, "bot:a:good"),
    ...        (3, 2, {"player": "a"}, "seat:a")]
    >>> [(h["name"], h["companion"], h["rounds"])
    ...  for h in seat_holders(seats, log, [TakeoverRow("a", 2, "Bert", "yellow")])["a"]]
    [('Ana', None, [1]), ('Ana', 'good', [2]), ('Bert', None, [3])]
    """
    phones: dict[str, Phone] = {
        s["seat"]: {"name": s["name"], "colour": s.get("colour")} for s in seats
    }
    changes = sorted(takeovers, key=lambda t: t.n)
    out: dict[str, list[Holder]] = {s: [] for s in phones}
    k = 0
    for rnd, n, command, source in sorted(logged, key=lambda x: x[1]):
        while k < len(changes) and changes[k].n <= n:
            t = changes[k]
            phones[t.seat] = {"name": t.name, "colour": t.colour}
            k += 1
        seat = command.get("player")
        if not isinstance(seat, str) or seat not in phones:
            continue
        who = holder_of(source, phones[seat])
        if who is None:
            continue
        held = out.setdefault(seat, [])
        same = next((h for h in held if {**h, "rounds": None} == {**who, "rounds": None}), None)
        if same is None:
            same = {**who, "rounds": []}
            held.append(same)
        if max(1, rnd) not in same["rounds"]:
            same["rounds"].append(max(1, rnd))
    return out


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


def by_round(
    logged: Iterable[tuple[int, LoggedCommand, str]],
) -> list[tuple[int, int, LoggedCommand, str]]:
    """Each logged ``(n, command, source)`` with the round it was made in, as
    ``(round, n, command, source)``, read from the log alone (no replay): a round's setup
    rolls its harvest dice once (R2.2) before anyone bids, so a move belongs to the round of
    the latest harvest before it; the setup's sacrifices, before the first harvest, to round 1.

    >>> [r for r, *_ in by_round([(0, {"type": "sacrifice"}, "seat:a"),
    ...     (1, {"type": "harvest"}, "dealer"), (2, {"type": "bid"}, "seat:a"),
    ...     (3, {"type": "harvest"}, "dealer"), (4, {"type": "bid"}, "auto")])]
    [1, 1, 1, 2, 2]
    """
    rnd = 0
    out: list[tuple[int, int, LoggedCommand, str]] = []
    for n, command, source in logged:
        if command.get("type") == "harvest":
            rnd += 1
        out.append((max(1, rnd), n, command, source))
    return out


def upgraded(
    result: ResultDocument,
    seats: Sequence[GameSeat] | None,
    logged: Sequence[tuple[int, LoggedCommand, str]],
) -> ResultDocument:
    """A result document of version 1 (one name and companion mark per seat) in today's
    shape, its scores untouched: holders from the game's log when it is still stored (no
    takeover was recorded before version 2, so a phone keeps the seat's first name), else
    the one holder it named, for every round played."""
    if result.get("version", 1) >= RESULT_VERSION:
        return result
    held: dict[str, list[Holder]] = {}
    if seats is not None:
        held = seat_holders(seats, by_round(logged))
    every = list(range(1, max(1, int(result.get("rounds_played") or 0)) + 1))
    players: list[ResultPlayer] = []
    for p in result["players"]:
        holders: list[Holder] = held.get(p["seat"]) or [
            {
                "name": p["name"],
                "colour": p.get("colour"),
                "companion": p.get("companion"),
                "rounds": every,
            }
        ]
        players.append(credit(p, holders))
    return {**result, "version": RESULT_VERSION, "players": players}


def build_result(
    *,
    table: str,
    title: str,
    game_id: int,
    status: str,
    created: float,
    ended: float,
    document: GameDocument,
    seats: Sequence[GameSeat],
    logged: Sequence[tuple[int, LoggedCommand, str]],
    takeovers: Iterable[TakeoverRow] = (),
) -> ResultDocument:
    """The result document of a game that is over (``status`` finished or ended) from its
    logged ``(n, command, source)`` and the phones that took seats over (:func:`seat_holders`):
    each seat lists its holders and carries the name, colour and companion mark of the one it
    is credited to (:func:`credited`)."""
    if status not in ("finished", "ended"):
        raise ValueError(f"game {game_id} is {status}, not over")
    document, commands = engine_log(document, [c for _, c, _ in logged])
    state = new_game(document["players"], document.get("stack"), document.get("profile"))
    rounds = 0
    for command in commands:
        state, events = apply(state, command)
        rounds += sum(1 for e in events if e["type"] == "round_ended")
    names = {s["seat"]: s for s in seats}
    held = seat_holders(seats, by_round(logged), takeovers)
    winners = list(state["winners"]) if status == "finished" else []
    players: list[ResultPlayer] = []
    for seat in state["seats"]:
        ps = state["players"][seat]
        final = ps["final"]
        start = names.get(seat)
        player: ResultPlayer = {
            "seat": seat,
            "name": start.get("name", seat) if start else seat,
            "colour": start.get("colour") if start else None,
            # A finished game's score is the R7 total; an ended one has only the track.
            "score": final["total"] if final else ps["score"],
            "track": ps["score"],
            "final": final.copy() if final else None,
            "winner": seat in winners,
            "companion": None,
        }
        players.append(credit(player, held.get(seat, [])))
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


def credit(player: ResultPlayer, holders: list[Holder]) -> ResultPlayer:
    """A result's player credited to the holder of most rounds: its ``name``, ``colour`` and
    ``companion`` (the level of a companion player, None for a person; the café's
    leaderboard marks or leaves out companion players), with every holder in ``holders``.
    A seat nobody moved for keeps what it had."""
    i = credited(holders)
    if i < 0:
        return {**player, "holders": holders}
    who = holders[i]
    return {
        **player,
        "name": who["name"],
        "colour": who["colour"],
        "companion": who["companion"],
        "holders": holders,
    }


def meta(
    table: str,
    created: float,
    seats: Sequence[GameSeat],
    companions: Mapping[str, str] | None = None,
) -> LogMeta:
    """SCENARIO.md ``meta`` of a game log: the table, the date and the seats' names and
    colours, with ``companion: <level>`` on seats companion players played (``replay``
    ignores it)."""
    about: LogMeta = {
        "table": table,
        "date": iso(created),
        "seats": {s["seat"]: {"name": s["name"], "colour": s["colour"]} for s in seats},
    }
    for seat, level in (companions or {}).items():
        if seat in about["seats"]:
            about["seats"][seat]["companion"] = level
    return about
