"""``companion arena``: games in-process between companion player kinds, to measure strength.

Seating rotates (game g gives seat i the kind ``kinds[(i + g) % k]``), so no kind keeps a seat
or a place in the stack order. The dealer rolls and draws from the arena's seeded generator;
each seat gets its own seeded generator. Every player decides from ``view(state, seat)`` only.
As at a table, a question no answer of which can matter is answered by the table itself
(``dealer.unasked``), and the report counts the questions a round that players were asked.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict, cast

import orjson

from companion.engine import Command, apply_in_place, final_total, new_game, view
from companion.players import KINDS, chooser
from companion.players.random_games import random_players
from companion.table import dealer


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players",
        required=True,
        help="3 to 5 kinds, comma-separated, e.g. strong,good,random,random "
        f"(kinds: {', '.join(KINDS)})",
    )
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--logs", metavar="DIR", help="write every game as a SCENARIO.md document into DIR"
    )


class ArenaRun(TypedDict):
    """Which arena game a log is: the run's seed and the game's number in it."""

    seed: int
    game: int


class ArenaMeta(TypedDict):
    """An arena log's ``meta``: each seat's companion player kind (player id -> kind), not a
    table's seats (``LogMeta``), and which game of which run it was."""

    seats: dict[str, str]
    arena: ArenaRun


class ArenaLog(TypedDict):
    """An arena game as a SCENARIO.md document (``--logs``): the setup, the arena's ``meta``
    and every command, the dealer's and the table's own answers too."""

    players: list[str]
    stack: list[str]
    meta: ArenaMeta
    commands: list[Command]


@dataclass
class GameResult:
    document: ArenaLog
    kinds: dict[str, str]  # player id -> kind
    winners: list[str]
    totals: dict[str, int]
    times: dict[str, list[float]] = field(default_factory=dict)  # player id -> seconds
    rounds: int = 0
    asked: Counter[str] = field(default_factory=Counter)  # decisions a player made, by kind
    answered: Counter[str] = field(default_factory=Counter)  # the table's own answers, by kind


# The questions a phone is asked after the bids: bonus dice (R3.2), city (R5.3), pyramid (R5.4).
QUESTIONS = ("dice", "city", "pyramid")


def parse_kinds(text: str) -> list[str]:
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    if not 3 <= len(kinds) <= 5:
        raise ValueError("--players needs 3 to 5 kinds (R1.1)")
    for k in kinds:
        chooser(k)  # a clear error for an unknown kind
    return kinds


def play_game(kinds: list[str], seed: int, game: int) -> GameResult:
    """One game to the end; seat i plays ``kinds[(i + game) % k]``."""
    k = len(kinds)
    players = random_players(k)
    seat_kind = {p: kinds[(i + game) % k] for i, p in enumerate(players)}
    rng = random.Random(f"arena-{seed}-{game}")
    seat_rngs = {p: random.Random(f"arena-{seed}-{game}-{p}") for p in players}
    choose = {p: chooser(kind) for p, kind in seat_kind.items()}
    stack = dealer.initial_stack(players, rng)
    state = new_game(players, stack)
    decks = dealer.shuffle_decks(state["profile"], rng)
    draws = 0
    commands: list[Command] = []
    times: dict[str, list[float]] = {p: [] for p in players}
    asked: Counter[str] = Counter()
    answered: Counter[str] = Counter()
    while not state["finished"]:
        command: Mapping[str, Any] | None = dealer.deal(state, decks, draws, rng)
        table_answer = dealer.unasked(state) if command is None else None
        if table_answer is not None:  # nothing to decide (R3.2, R5.4): the table answers
            command = table_answer[0]
            answered[command["type"]] += 1
        elif command is None:
            seat = next(e["player"] for e in state["pending"] if "player" in e)
            seen = view(state, seat)
            start = time.perf_counter()
            command = choose[seat](seen, seat_rngs[seat])
            times[seat].append(time.perf_counter() - start)
            if command is None:
                raise RuntimeError(
                    f"{seat_kind[seat]} player gave no command for {state['pending']}"
                )
            if command["type"] in QUESTIONS:
                asked[command["type"]] += 1
        elif command["type"] == "improvements":
            draws += 1
        apply_in_place(state, command)
        commands.append(cast(Command, command))  # the engine took it: a command's exact keys
    document: ArenaLog = {
        "players": players,
        "stack": stack,
        "meta": {"seats": seat_kind, "arena": {"seed": seed, "game": game}},
        "commands": commands,
    }
    return GameResult(
        document,
        seat_kind,
        list(state["winners"]),
        {p: final_total(ps) for p, ps in state["players"].items()},
        times,
        state["round"],
        asked,
        answered,
    )


@dataclass
class KindStats:
    seats: int = 0
    shares: list[float] = field(default_factory=list)  # per game: this kind's share of wins
    totals: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)


def tally(kinds: list[str], results: list[GameResult]) -> dict[str, KindStats]:
    """Win share per kind (a shared win is split), final totals and decision times."""
    stats = {k: KindStats(seats=kinds.count(k)) for k in dict.fromkeys(kinds)}
    for r in results:
        share = {k: 0.0 for k in stats}
        for w in r.winners:
            share[r.kinds[w]] += 1.0 / len(r.winners)
        for k, s in share.items():
            stats[k].shares.append(s)
        for p, kind in r.kinds.items():
            stats[kind].totals.append(r.totals[p])
            stats[kind].times.extend(r.times[p])
    return stats


def confidence(shares: list[float]) -> tuple[float, float, float]:
    """Mean and its 95 % interval (normal approximation over games, clipped to 0..1)."""
    n = len(shares)
    mean = statistics.fmean(shares)
    sd = statistics.stdev(shares) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(kinds: list[str], results: list[GameResult], elapsed: float) -> str:
    stats = tally(kinds, results)
    k = len(kinds)
    lines = [
        f"{len(results)} games, {k} players ({', '.join(kinds)}), {elapsed:.1f} s",
        f"{'kind':<8} {'seats':>5} {'win share':>10} {'95% CI':>15} {'fair':>6} "
        f"{'mean score':>10} {'decision p50':>13} {'p95':>9}",
    ]
    for kind, s in stats.items():
        mean, low, high = confidence(s.shares)
        lines.append(
            f"{kind:<8} {s.seats:>5} {mean:>9.1%} {f'{low:.1%}-{high:.1%}':>15} "
            f"{s.seats / k:>6.0%} {statistics.fmean(s.totals):>10.1f} "
            f"{percentile(s.times, 0.5) * 1000:>10.2f} ms "
            f"{percentile(s.times, 0.95) * 1000:>6.1f} ms"
        )
    rounds = sum(r.rounds for r in results)
    asked = sum((r.asked for r in results), Counter[str]())
    answered = sum((r.answered for r in results), Counter[str]())
    each = ", ".join(f"{k} {asked[k] / rounds:.2f}" for k in QUESTIONS)
    lines.append(
        f"questions a round (dice, city, pyramid after the bids): "
        f"{sum(asked.values()) / rounds:.2f} ({each}); answered by the table: "
        f"{sum(answered.values()) / rounds:.2f} a round, {rounds} rounds"
    )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        kinds = parse_kinds(args.players)
    except ValueError as exc:
        raise SystemExit(f"companion arena: {exc}") from None
    if args.games < 1:
        raise SystemExit("companion arena: --games must be at least 1")
    logs = Path(args.logs) if args.logs else None
    if logs is not None:
        logs.mkdir(parents=True, exist_ok=True)
    results = []
    start = time.perf_counter()
    for game in range(args.games):
        result = play_game(kinds, args.seed, game)
        results.append(result)
        if logs is not None:
            path = logs / f"game-{args.seed}-{game + 1:04d}.json"
            path.write_bytes(orjson.dumps(result.document, option=orjson.OPT_INDENT_2))
    print(report(kinds, results, time.perf_counter() - start))
    return 0
