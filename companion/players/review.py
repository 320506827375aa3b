"""Game review: every decision of every seat rated by the strong player's search.

:func:`review_game` is a pure function from a game log (docs/SCENARIO.md) to a review
document. It replays the log and, at each decision (the sacrifice, every bid step, bonus dice,
the city choice, the pyramid order), asks the strong player's search what the deciding seat
could have done, **from that seat's view at that moment** (``view(state, seat)``: never the
full state, so what the seat could not know cannot change its rating). The search plays the
move made and the strong player's candidates out on the same invented states with the same
dice (paired samples).

What a move is worth is what wins the game: the seat's expected **margin** over the best
other seat's final total (R7; the winner has the highest total). Scoring the seat's own
points instead rated a leader's bids as costly when they only kept it ahead. The loss of a
decision is the mean of (best move's margin - made move's margin) over the samples, with its
standard error; the seat's own points the better move would have added are kept beside it
(``points_loss``), from the same samples.

A decision is called worse than good only when the loss is clear of the noise: more than
:data:`NOISE_SES` standard errors and at least the label's threshold in points of margin
(:data:`THRESHOLDS`: 1, 2 and 4 points). The best move is picked on the same samples that
measure the loss, so small losses lean high; the standard-error rule keeps that from
labelling a move.

Each player's headline (``mean_loss``) is the loss per decision **in a common mix** of
decisions (:data:`MIX`, docs/DESIGN.md "Game review"): the mean loss of each kind of decision
the player faced, weighed by how often a seat faces that kind in a typical game, not by how
often this player happened to (a kind it never faced adds nothing). A raw mean let a player
who keeps taking bonus dice (many cheap dice windows) look as careful as a far better one.

Deterministic: every decision draws from its own generator seeded with the review seed and
the command's index in the log, and the search runs a number of playouts (never a clock).
"""

from __future__ import annotations

import json
import math
import random
import statistics
from collections.abc import Mapping
from importlib.resources import files
from typing import Literal, NotRequired, TypedDict, cast

from companion.engine import (
    IllegalCommand,
    ReplayError,
    State,
    apply_in_place,
    game_from_document,
    view,
)
from companion.engine.types import CityChoice
from companion.players import strong
from companion.players.common import PLAYER_KINDS, Command, View

# The languages of the review texts and of every page (web/i18n): the one list.
LANGUAGES: tuple[str, ...] = ("en", "de", "nl", "it")
# Points of margin lost (expected final total against the best other seat's) from which a
# decision gets a label; each also needs the loss to exceed NOISE_SES standard errors.
THRESHOLDS = (("blunder", 4.0), ("mistake", 2.0), ("inaccuracy", 1.0))
NOISE_SES = 2.0
# Playouts a second of this search on one core of the development machine (5-player games,
# benchmarks/bench_review.py): turns --budget seconds into a fixed number of playouts.
REFERENCE_RATE = 4000.0
DEFAULT_BUDGET = 40.0  # seconds for a whole game on that machine
MIN_ROUNDS = 8  # invented states per decision at the least (a standard error needs several)
MAX_ROUNDS = 400
WORST = 3  # costliest decisions listed per player
# How decisions are scored and summed up, kept in every review document. A stored review
# without it was rated by the older method: the seat's own points, a raw mean per player.
METHOD = "margin-mix"
OLDER_METHOD = "points"
# The common mix of decisions behind each player's headline: decisions of each kind a seat
# faces in a typical game, the median over the four kinds of player of the mean per seat in
# four-player arena games (strong, good, plain, random in rotating seats). The median keeps
# one kind's habit out: plain takes the die at every city and then faces ~16 dice windows a
# game, the others 1-3. "bid" is a whole round's bid (red, R2.4) or one half of it (green,
# R2.5); "gold" one station's bid (R2.6).
MIX: dict[str, float] = {
    "sacrifice": 1.0,
    "bid": 5.0,
    "gold": 4.0,
    "dice": 2.5,
    "city": 1.0,
    "pyramid": 0.5,
}

_TEXTS: dict[str, dict[str, str]] = json.loads(
    files(__package__).joinpath("review_text.json").read_text(encoding="utf-8")
)


class Reason(TypedDict):
    key: str  # a text of review_text.json
    # The text's parameters, by its placeholders: station numbers, cards and counts (int),
    # a bid's cards written out (str). Each key has its own, so they stay a plain mapping.
    params: dict[str, int | str]


# A decision's move as the review shows it (SCENARIO.md "Commands"): the command without its
# player (whose decision it is, the review says), a bid's cards sorted.
class SacrificeMove(TypedDict):
    type: Literal["sacrifice"]
    card: int


class BidMove(TypedDict):
    type: Literal["bid"]
    bids: dict[str, list[int]]


class DiceMove(TypedDict):
    type: Literal["dice"]
    count: int


class CityMove(TypedDict):
    type: Literal["city"]
    choice: CityChoice


class PyramidMove(TypedDict):
    type: Literal["pyramid"]
    first: str


Move = SacrificeMove | BidMove | DiceMove | CityMove | PyramidMove


class _Decision(TypedDict):
    """What a rated decision holds in a review of either method."""

    index: int  # the command's 0-based index in the log
    player: str
    kind: str
    round: int
    station: int | None  # the station decided on (None: a sacrifice or a whole-round bid)
    step: str | int | None
    made: Move
    better: Move
    loss: float  # expected points of margin lost against the best move found (>= 0)
    se: float  # standard error of that loss
    label: str  # good / inaccuracy / mistake / blunder
    forced: bool  # only one legal move
    options: int  # moves weighed
    playouts: int
    reason: str
    reason_key: Reason


class DecisionReview(_Decision):
    points_loss: float  # the seat's own expected points the better move would have added


class KindSummary(TypedDict):
    decisions: int
    mean_loss: float


class _Player(TypedDict):
    """What a player's summary holds in a review of either method."""

    kind: str | None  # the companion kind from the log's meta.seats, if any
    decisions: int  # decisions with a choice (forced ones are counted apart)
    forced: int
    # The headline: points of margin lost per decision in the common MIX (the older method:
    # the raw mean of the seat's own points lost).
    mean_loss: float
    labels: dict[str, int]


class PlayerReview(_Player):
    raw_mean_loss: float  # the plain mean over the decisions this player faced
    by_kind: dict[str, KindSummary]  # per kind of decision (the keys of MIX)
    worst: list[DecisionReview]


class _Review(TypedDict):
    """What a review document holds, made now or stored by the older method."""

    seed: int
    budget: float
    playouts: int  # playouts per decision (all its moves together)
    lang: str
    thresholds: dict[str, float]
    noise_ses: float


class ReviewDocument(_Review):
    method: str  # METHOD
    mix: dict[str, float]
    players: dict[str, PlayerReview]
    decisions: list[DecisionReview]


# A review as the café stores it (cafe/reviews.py) and reads it back: a ReviewDocument with
# the replay step of each listed decision. One stored by the older method (OLDER_METHOD, the
# seat's own points and a raw mean) lacks what the margin and the common mix brought.
class StoredDecision(_Decision):
    points_loss: NotRequired[float]


class StoredPlayerReview(_Player):
    raw_mean_loss: NotRequired[float]
    by_kind: NotRequired[dict[str, KindSummary]]
    worst: list[StoredDecision]


class StoredReviewDocument(_Review):
    method: NotRequired[str]  # absent from reviews stored by the older method
    mix: NotRequired[dict[str, float]]
    players: dict[str, StoredPlayerReview]
    decisions: list[StoredDecision]
    steps: dict[str, int]  # command index (a string, as in JSON) -> its replay step


class ReviewError(ValueError):
    """A log that cannot be reviewed (refused command, bad option), with the reason."""


def playouts_for(budget: float, decisions: int) -> int:
    """The playouts each decision gets from a budget in seconds on the reference machine."""
    if not budget > 0:
        raise ReviewError(f"the budget must be a positive number of seconds, not {budget!r}")
    return max(1, int(budget * REFERENCE_RATE / max(1, decisions)))


def decisions_of(document: Mapping[str, object]) -> list[tuple[int, str, View, Command]]:
    """Every player decision of a log: (index, seat, the seat's view just before, command)."""
    try:
        state = game_from_document(document)
    except ValueError as exc:
        raise ReviewError(str(exc)) from None
    commands = document.get("commands", [])
    if not isinstance(commands, list):
        raise ReviewError("commands must be a list")
    out: list[tuple[int, str, View, Command]] = []
    for index, command in enumerate(commands):
        kind = command.get("type") if isinstance(command, dict) else None
        seat = command.get("player") if isinstance(command, dict) else None
        if kind in PLAYER_KINDS and seat in state["players"]:
            out.append((index, seat, view(state, seat), command))
        try:
            apply_in_place(state, command)
        except IllegalCommand as exc:
            raise ReviewError(str(ReplayError(index, str(exc)))) from None
    return out


def review_game(
    document: Mapping[str, object],
    seed: int = 0,
    budget: float = DEFAULT_BUDGET,
    lang: str = "en",
    playouts: int | None = None,
    only: set[int] | None = None,
) -> ReviewDocument:
    """The review of a game log; ``playouts`` per decision overrides the budget, ``only``
    limits the rating to the decisions at those command indices."""
    if lang not in LANGUAGES:
        raise ReviewError(f"no review texts for {lang!r}; known: {', '.join(LANGUAGES)}")
    found = decisions_of(document)
    per_decision = playouts if playouts is not None else playouts_for(budget, len(found))
    if per_decision < 1:
        raise ReviewError("playouts must be at least 1")
    rated = [
        rate(v, command, index, seed, per_decision, lang)
        for index, _seat, v, command in found
        if only is None or index in only
    ]
    return assemble(document, seed, budget, per_decision, lang, rated)


def assemble(
    document: Mapping[str, object],
    seed: int,
    budget: float,
    playouts: int,
    lang: str,
    rated: list[DecisionReview],
) -> ReviewDocument:
    """The review document from rated decisions (in log order): each player's summary."""
    return {
        "method": METHOD,
        "seed": seed,
        "budget": budget,
        "playouts": playouts,
        "lang": lang,
        "thresholds": dict(THRESHOLDS),
        "noise_ses": NOISE_SES,
        "mix": dict(MIX),
        "players": summaries(document, rated),
        "decisions": rated,
    }


def summaries(
    document: Mapping[str, object], rated: list[DecisionReview]
) -> dict[str, PlayerReview]:
    """Each player's figures over the ``rated`` decisions, with the seat's companion kind from
    the log (a review rated in parts, players/reviewing.py, sums up the same way)."""
    return {p: _summary(p, _kind(document, p), rated) for p in _players(document)}


def rate(
    seen: View, made: Command, index: int, seed: int, playouts: int, lang: str = "en"
) -> DecisionReview:
    """One decision from the deciding seat's view ``seen``: the made move against the
    strong player's candidates, in expected points of the seat's margin over the best other
    seat (what wins, R7), with its own points beside."""
    rng = random.Random(f"review-{seed}-{index}")
    me = seen["me"]
    moves = strong.candidates(seen, rng)
    made_key = _key(made)
    keys = [_key(m) for m in moves]
    if made_key in keys:
        made_at = keys.index(made_key)
    else:
        moves.append(made)
        keys.append(made_key)
        made_at = len(moves) - 1
    for move in _neighbours(made):  # the made move with two stations' cards swapped
        key = _key(move)
        if key not in keys:
            moves.append(move)
            keys.append(key)
    forced = len(moves) == 1
    moves, made_at = within_budget(moves, made_at, playouts)
    base: DecisionReview = {
        "index": index,
        "player": me,
        "kind": made["type"],
        "round": seen["round"],
        "station": _station(seen, made),
        "step": seen["step"],
        "made": _public(made),
        "better": _public(made),
        "loss": 0.0,
        "se": 0.0,
        "points_loss": 0.0,
        "label": "good",
        "forced": forced,
        "options": len(moves),
        "playouts": 0,
        "reason": _text(lang, "review.best", {}),
        "reason_key": {"key": "review.best", "params": {}},
    }
    if forced:
        return base
    rounds = max(MIN_ROUNDS, min(MAX_ROUNDS, playouts // len(moves)))
    rows = strong.playout_scores(seen, moves, rng, rounds, outcome)
    means = []
    for i in range(len(moves)):
        values = [v[0] for row in rows if (v := row[i]) is not None]
        means.append(statistics.fmean(values) if values else -math.inf)
    best = max(range(len(moves)), key=lambda i: (means[i], i == made_at))
    base["playouts"] = rounds * len(moves)
    if best == made_at:
        return base
    pairs = [
        (b, m) for row in rows if (b := row[best]) is not None and (m := row[made_at]) is not None
    ]
    diffs = [b[0] - m[0] for b, m in pairs]
    loss = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    reason = explain(seen, made, moves[best])
    base["better"] = _public(moves[best])
    base["loss"] = round(loss, 3)
    base["se"] = round(se, 3)
    base["points_loss"] = round(statistics.fmean(b[1] - m[1] for b, m in pairs), 3)
    base["label"] = label(loss, se)
    base["reason"] = _text(lang, reason["key"], reason["params"])
    base["reason_key"] = reason
    return base


def within_budget(moves: list[Command], made_at: int, playouts: int) -> tuple[list[Command], int]:
    """The moves a decision's ``playouts`` can rate, MIN_ROUNDS invented states each, and
    where the made move is among them. A budget too small for every candidate keeps the made
    move and the first others (strong.candidates lists the good player's bid first, then its
    variations): the review then costs what its budget says, at least two moves of MIN_ROUNDS
    states, instead of MIN_ROUNDS for every candidate whatever the budget (a 3-player game at
    0.3 s ran 5,224 playouts for a budget of 1,200).

    >>> moves = [{"type": "dice", "player": "a", "count": n} for n in range(4)]
    >>> kept, at = within_budget(moves, 3, 20)
    >>> [m["count"] for m in kept], at
    ([0, 3], 1)
    >>> within_budget(moves, 1, 8 * 4) == (moves, 1)
    True
    """
    affordable = max(2, playouts // MIN_ROUNDS)
    if len(moves) <= affordable:
        return moves, made_at
    others = [i for i in range(len(moves)) if i != made_at][: affordable - 1]
    kept = sorted([made_at, *others])
    return [moves[i] for i in kept], kept.index(made_at)


def outcome(sim: State, me: str) -> tuple[float, float]:
    """A finished playout for ``me``: (margin over the best other seat, own total), both in
    expected final points (R7: the highest total wins)."""
    totals = strong.expected_totals(sim)
    mine = totals[me]
    return mine - max(v for p, v in totals.items() if p != me), mine


def kind_of(decision: DecisionReview) -> str:
    """The decision's kind in the common mix (a key of MIX)."""
    if decision["kind"] == "bid":
        return "gold" if type(decision["step"]) is int else "bid"  # R2.6: one station
    return decision["kind"]


def headline(decisions: list[DecisionReview]) -> float:
    """Points of margin lost per decision in the common mix: each kind's mean loss weighed by
    MIX, as if the player had met a typical game's decisions; a kind it never met (no dice
    held, the city never won) adds nothing, as it lost nothing there. Renormalising over the
    kinds met instead let a player who met only the costly kinds (whole-round bids) look
    worse than one who also met many cheap ones. Forced decisions are left out by the caller."""
    by_kind = _by_kind(decisions)
    total = sum(MIX.values())
    return round(sum(MIX.get(k, 0.0) * v["mean_loss"] for k, v in by_kind.items()) / total, 3)


def _by_kind(decisions: list[DecisionReview]) -> dict[str, KindSummary]:
    groups: dict[str, list[float]] = {}
    for d in decisions:
        groups.setdefault(kind_of(d), []).append(d["loss"])
    return {
        k: {"decisions": len(v), "mean_loss": round(statistics.fmean(v), 3)}
        for k, v in sorted(groups.items())
    }


def _neighbours(made: Command) -> list[Command]:
    """A bid for several stations with the cards of two stations swapped: what the seat
    could have done with the same cards, next to the strong player's own candidates."""
    if made["type"] != "bid" or len(made["bids"]) < 2:
        return []
    bids = made["bids"]
    keys = sorted(bids)
    out = []
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            swapped = dict(bids)
            swapped[a], swapped[b] = bids[b], bids[a]
            out.append({"type": "bid", "player": made["player"], "bids": swapped})
    return out


def label(loss: float, se: float) -> str:
    """good unless the loss is clear of the noise (> NOISE_SES standard errors) and reaches
    a threshold in points."""
    if loss <= NOISE_SES * se:
        return "good"
    for name, points in THRESHOLDS:
        if loss >= points:
            return name
    return "good"


def explain(seen: View, made: Command, better: Command) -> Reason:
    """Why the better move is better, in plain words: a text key and its parameters."""
    kind = made["type"]
    if kind == "sacrifice":
        key = (
            "review.sacrifice_higher" if better["card"] > made["card"] else "review.sacrifice_lower"
        )
        return {"key": key, "params": {"made": made["card"], "better": better["card"]}}
    if kind == "dice":
        key = "review.dice_more" if better["count"] > made["count"] else "review.dice_fewer"
        return {"key": key, "params": {"made": made["count"], "better": better["count"]}}
    if kind == "city":
        return {"key": f"review.city_{better['choice']}", "params": {}}
    if kind == "pyramid":
        mine = better["first"] == seen["me"]
        return {"key": "review.pyramid_me" if mine else "review.pyramid_other", "params": {}}
    made_bids, better_bids = made["bids"], better["bids"]
    if len(made_bids) == 1:  # one station: a gold step (R2.6)
        ((station, cards),) = made_bids.items()
        better_cards = better_bids[station]
        key = "review.bid_save" if sum(better_cards) < sum(cards) else "review.bid_push"
        return {
            "key": key,
            "params": {
                "station": int(station),
                "made": _cards(cards),
                "better": _cards(better_cards),
            },
        }
    gain = {k: sum(better_bids[k]) - sum(made_bids[k]) for k in made_bids}
    up = max(gain, key=lambda k: (gain[k], -int(k)))
    down = min(gain, key=lambda k: (gain[k], int(k)))
    return {
        "key": "review.bid_shift",
        "params": {"up": int(up), "down": int(down)},
    }


def render(reason: Reason, lang: str) -> str:
    """A reason in ``lang`` (station names in that language)."""
    return _text(lang, reason["key"], reason["params"])


def text(lang: str, key: str) -> str:
    """A fixed text of the review (the labels) in ``lang``."""
    return _TEXTS[lang][key]


# Parameters that are station numbers, and the name each one's station gets in the text.
_NAMED = {"station": "name", "up": "up_name", "down": "down_name"}


def _text(lang: str, key: str, params: Mapping[str, int | str]) -> str:
    texts = _TEXTS[lang]
    values = dict(params)
    for number, name in _NAMED.items():
        if number in params:
            values[name] = texts[f"station.{params[number]}"]
    return texts[key].format(**values)


def _cards(cards: list[int]) -> str:
    return " + ".join(str(c) for c in cards)


def _key(command: Command) -> str:
    """Moves that differ only in the order of a station's cards are the same move."""
    if command["type"] == "bid":
        return repr(sorted((k, sorted(v)) for k, v in command["bids"].items()))
    return repr(sorted((k, v) for k, v in command.items() if k != "player"))


def _public(command: Command) -> Move:
    out = {k: v for k, v in command.items() if k != "player"}
    if "bids" in out:
        out["bids"] = {k: sorted(v) for k, v in sorted(out["bids"].items())}
    # A decision's command, checked by the engine (replayed from the log, or one of the
    # strong player's legal candidates): one of the moves, less its player.
    return cast(Move, out)


def _station(seen: View, command: Command) -> int | None:
    if command["type"] == "bid":
        step = seen["step"]
        return step if type(step) is int else None
    return seen["station"] if command["type"] in ("dice", "city", "pyramid") else None


def _players(document: Mapping[str, object]) -> list[str]:
    """The log's player ids in seating order (``game_from_document`` checks them)."""
    players = document["players"]
    if not isinstance(players, list):
        raise ReviewError("players must be a list")
    return players


def _kind(document: Mapping[str, object], player: str) -> str | None:
    """The companion kind of a seat from the log's ``meta.seats`` (SCENARIO.md): the arena
    writes the kind itself, a table an object whose ``companion`` names it (none: a person)."""
    meta = document.get("meta")
    seat = meta.get("seats", {}).get(player) if isinstance(meta, dict) else None
    if isinstance(seat, str):
        return seat
    if isinstance(seat, dict) and isinstance(seat.get("companion"), str):
        return str(seat["companion"])
    return None


def _summary(player: str, kind: str | None, rated: list[DecisionReview]) -> PlayerReview:
    mine = [d for d in rated if d["player"] == player]
    chosen = [d for d in mine if not d["forced"]]
    labels = {name: 0 for name in ("good", "inaccuracy", "mistake", "blunder")}
    for d in chosen:
        labels[d["label"]] += 1
    worst = sorted((d for d in chosen if d["loss"] > 0), key=lambda d: (-d["loss"], d["index"]))
    return {
        "kind": kind,
        "decisions": len(chosen),
        "forced": len(mine) - len(chosen),
        "mean_loss": headline(chosen),
        "raw_mean_loss": round(statistics.fmean(d["loss"] for d in chosen), 3) if chosen else 0.0,
        "by_kind": _by_kind(chosen),
        "labels": labels,
        "worst": worst[:WORST],
    }
