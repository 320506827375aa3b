"""The strong player: determinized Monte Carlo search over the engine, within a budget.

For each decision it lists a handful of candidate commands (the good player's choice, variants
of it with other station priorities and swapped pairs, or every option of a small choice).
It then invents full states that agree with everything its view shows (determinization): each
other seat gets a sacrifice and a deck consistent with the cards it has revealed this round,
and the bids and dice decisions it may already have made but not shown are made afresh by a
model of that seat (the good player with noise). Each candidate is played out on the same
invented states with the same dice (common random numbers) to the end of the round, or of the
game in its last round, and scored by a projection of the final scores; the best mean wins.

It reads only its view: the search invents what the view hides, never looks it up.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

from companion.engine import IllegalCommand, State, apply_in_place, apply_made
from companion.players import good, random_player
from companion.players.common import (
    STATIONS,
    Command,
    View,
    awaited,
    free_cards,
    rounds_left,
    station_values,
)

ROLLOUTS = 240  # playouts per decision (all candidates together)
TIME_LIMIT = 0.3  # seconds: the search stops early past this, whatever is left
OPPONENT_NOISE = 0.25  # how far the model of another seat strays from the good player's values
SELF_NOISE = 0.1
RANDOM_SHARE = 0.3  # share of invented states in which another seat plays at random
BASE_BONUS = 0.02  # the good player's own choice wins unless another is clearly better
T = TypeVar("T")
STATE_KEYS = (
    "round",
    "mode",
    "last_round",
    "last_round_reason",
    "finished",
    "pending",
    "chocolatl",
    "old_man",
    "returning",
    "track",
    "pyramid",
    "winners",
    "seats",
    "profile",
    "phase",
    "step",
    "station",
    "harvest",
    "improvements",
    "revealed",
    "decision",
)


def choose(
    view: View, rng: random.Random, rollouts: int | None = None, time_limit: float | None = -1.0
) -> Command | None:
    """The best candidate found for what the engine awaits from ``view["me"]``.

    ``rollouts`` and ``time_limit`` default to :data:`ROLLOUTS` and :data:`TIME_LIMIT`; with
    ``time_limit=None`` the search is a pure function of the view and ``rng``.
    """
    rollouts = ROLLOUTS if rollouts is None else rollouts
    time_limit = TIME_LIMIT if time_limit == -1.0 else time_limit
    me = view["me"]
    kind = awaited(view, me)
    if kind is None:
        return None
    if kind == "sacrifice":
        return good.decide(view, me, rng)
    candidates = _candidates(view, me, kind, rng)
    if len(candidates) == 1:
        return candidates[0]
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    alive = list(range(len(candidates)))
    rounds = max(2, rollouts // len(candidates))
    done = 0
    sim_rng = random.Random(0)  # its state is set before every playout
    for it in range(rounds):
        det, others = _determinize(view, me, rng)
        wild = {p for p in det["players"] if p != me and rng.random() < RANDOM_SHARE}
        seed = rng.getrandbits(32)
        # The other seats' simultaneous commands depend only on the invented state and the
        # seed, not on the candidate: model them once and restart every playout from there.
        step_rng = random.Random(seed)
        step = [_model(det, p, "", wild, step_rng) for p in others]
        after_step = step_rng.getstate()
        for ci in alive:
            sim = copy_sim(det)
            sim_rng.setstate(after_step)
            try:
                _apply_step(sim, candidates[ci], step)
            except IllegalCommand:  # a candidate the invented state cannot take: skip it
                totals[ci] -= 1e9
                continue
            _rollout(sim, me, wild, sim_rng)
            totals[ci] += _utility(sim, me)
            counts[ci] += 1
            done += 1
        # Halve the field once a third of the budget is spent: spend the rest on the best.
        if it == rounds // 3 and len(alive) > 4:
            alive.sort(key=lambda c: -totals[c] / max(1, counts[c]))
            alive = alive[: max(4, len(alive) // 2)]
        if deadline is not None and time.perf_counter() > deadline and it >= 1:
            break
    best = max(alive, key=lambda c: totals[c] / max(1, counts[c]) + (BASE_BONUS if c == 0 else 0.0))
    return candidates[best]


def candidates(view: View, rng: random.Random) -> list[Command]:
    """The moves the search weighs for what the engine awaits from ``view["me"]`` (for a
    sacrifice, every card: the player itself takes the good player's choice unsearched)."""
    me = view["me"]
    kind = awaited(view, me)
    if kind is None:
        return []
    if kind == "sacrifice":
        cards = sorted(set(view["players"][me]["deck"]))
        return [{"type": "sacrifice", "player": me, "card": c} for c in cards]
    return _candidates(view, me, kind, rng)


def playout_scores(
    view: View,
    moves: list[Command],
    rng: random.Random,
    rounds: int,
    score: Callable[[State, str], T],
) -> list[list[T | None]]:
    """``rounds`` rows of paired samples: each row is one invented state agreeing with
    ``view`` and one random stream, and every move is played out on both (common random
    numbers), so differences between moves are measured on the same luck. ``score`` rates a
    finished playout for the seat (any value: the review scores the margin and the points
    together); ``None`` marks a move the invented state refuses. A pure function of the view
    and ``rng``."""
    me = view["me"]
    rows: list[list[T | None]] = []
    sim_rng = random.Random(0)  # its state is set before every playout
    for _ in range(rounds):
        det, others = _determinize(view, me, rng)
        wild = {p for p in det["players"] if p != me and rng.random() < RANDOM_SHARE}
        step_rng = random.Random(rng.getrandbits(32))
        step = [_model(det, p, "", wild, step_rng) for p in others]
        after_step = step_rng.getstate()
        row: list[T | None] = []
        for move in moves:
            sim = copy_sim(det)
            sim_rng.setstate(after_step)
            try:
                _apply_step(sim, move, step)
            except IllegalCommand:
                row.append(None)
                continue
            _rollout(sim, me, wild, sim_rng)
            row.append(score(sim, me))
        rows.append(row)
    return rows


def expected_points(sim: State, me: str) -> float:
    """The seat's final total (R7) at the end of a playout: exact once the game is over,
    otherwise the projection that the search uses for the rounds still to come."""
    final = sim["players"][me]["final"]
    if sim["finished"] and final is not None:
        return float(final["total"])
    return _projection(sim)[me]


def expected_totals(sim: State) -> dict[str, float]:
    """Every seat's final total (R7) at the end of a playout: exact once the game is over,
    otherwise the search's projection of the rounds still to come."""
    if sim["finished"]:
        finals = {p: ps["final"] for p, ps in sim["players"].items()}
        totals = {p: float(f["total"]) for p, f in finals.items() if f is not None}
        if len(totals) == len(finals):
            return totals
    return _projection(sim)


# --- candidates ---------------------------------------------------------------------------


def _candidates(view: View, me: str, kind: str, rng: random.Random) -> list[Command]:
    ps = view["players"][me]
    if kind == "city":
        return [{"type": "city", "player": me, "choice": c} for c in ("hut", "die")]
    if kind == "pyramid":
        d = view["decision"]
        return [{"type": "pyramid", "player": me, "first": f} for f in (d["first"], d["second"])]
    if kind == "dice":
        return [
            {"type": "dice", "player": me, "count": n} for n in range(0, min(ps["dice"], 3) + 1)
        ]
    seen: set[str] = set()
    out: list[Command] = []

    def add(bids: dict[str, list[int]]) -> None:
        key = repr(sorted((k, sorted(v)) for k, v in bids.items()))
        if key not in seen:
            seen.add(key)
            out.append({"type": "bid", "player": me, "bids": bids})

    base = good.bid(view, me, rng)
    add(base)
    for _ in range(5):
        add(good.bid(view, me, rng, noise=0.6))
    keys = list(base)
    if len(keys) > 1:
        # Swap whole allocations between two stations, and single cards between them.
        for i in range(len(keys)):
            for j in range(i + 1, len(keys)):
                a, b = keys[i], keys[j]
                swapped = dict(base)
                swapped[a], swapped[b] = base[b], base[a]
                add(swapped)
        for _ in range(6):
            a, b = rng.sample(keys, 2)
            x, y = rng.randrange(len(base[a])), rng.randrange(len(base[b]))
            moved = {k: list(v) for k, v in base.items()}
            moved[a][x], moved[b][y] = base[b][y], base[a][x]
            add(moved)
    else:
        # Gold (R2.6): which pair to spend on this station.
        cards = sorted(free_cards(ps), reverse=True)
        station = keys[0]
        pairs = {(cards[i], cards[i + 1]) for i in range(0, len(cards) - 1)}
        pairs |= {(cards[i], cards[-1]) for i in range(0, len(cards) - 1)}
        for pair in sorted(pairs):
            add({station: sorted(pair)})
    return out


# --- determinization ----------------------------------------------------------------------


def _determinize(view: View, me: str, rng: random.Random) -> tuple[State, list[str]]:
    """A full state agreeing with ``view``, and the seats whose current step is re-made."""
    state: dict[str, Any] = {k: view[k] for k in STATE_KEYS}
    state["pending"] = [dict(e) for e in view["pending"]]
    revealed = view["revealed"]
    phase = view["phase"]
    players: dict[str, Any] = {}
    for p, pv in view["players"].items():
        ps = {k: pv[k] for k in ("score", "huts", "dice", "cubes_used", "final")}
        if p == me:
            ps.update(
                deck=list(pv["deck"]),
                sacrifice=pv["sacrifice"],
                used=list(pv["used"]),
                bids={k: list(v) for k, v in pv["bids"].items()},
            )
        else:
            ps.update(_invent_hand(view, p, phase, revealed, rng))
        players[p] = ps
    state["players"] = players
    others = [p for p in players if p != me]
    window = view.get("dice_window")
    state["dice_window"] = None
    if phase == "sacrifice":
        # R1.2: a seat still to sacrifice holds all 13 cards; its choice is made afresh.
        waiting = [e["player"] for e in view["pending"] if e["type"] == "sacrifice"]
        for p in waiting:
            if p != me:
                players[p].update(deck=list(range(13)), sacrifice=None, used=[], bids={})
        return cast(State, state), [p for p in waiting if p != me]
    if phase == "bid":
        # Everyone's bid for this step is (re)made: the others' by the model.
        state["pending"] = [{"type": "bid", "player": p} for p in players]
    elif phase == "dice" and window is not None:
        holders = [p for p, ps in players.items() if ps["dice"] > 0]
        state["dice_window"] = {"station": window["station"], "choices": {}, "rolls": {}}
        state["pending"] = [{"type": "dice", "player": p} for p in holders]
        others = [p for p in holders if p != me]
    else:
        others = []
    # Every key of a state is filled in above, from the view or invented (the docstring).
    return cast(State, state), others


def _invent_hand(
    view: View, p: str, phase: str, revealed: dict[str, dict[str, list[int]]], rng: random.Random
) -> dict[str, Any]:
    """A deck, sacrifice, used cards and bids for ``p`` that agree with the revealed cards."""
    shown: dict[str, list[int]] = {k: list(v[p]) for k, v in revealed.items() if p in v}
    seen = [c for cards in shown.values() for c in cards]
    base = list(range(13))  # R1.1
    extra: list[int] = []
    for c in seen:
        if c in base and seen.count(c) <= base.count(c):
            continue
        if c not in extra or seen.count(c) > base.count(c) + extra.count(c):
            extra.append(c)  # an improvement card (R5.6)
    candidates = [c for c in base if c not in seen]
    # Low and high sacrifices are the usual ones; any unseen card may be it.
    weights = [3.0 if c in (0, 1) else 2.0 if c == 12 else 1.0 for c in candidates]
    sacrifice = rng.choices(candidates, weights)[0] if candidates else 0
    base.remove(sacrifice)
    for c in extra:
        base.remove(
            min(x for x in base if x not in seen) if any(x not in seen for x in base) else min(base)
        )
        base.append(c)
    deck = sorted(base)
    step = view["step"]
    bids: dict[str, list[int]] = {}
    if phase == "bid":
        if step == "second":
            bids = {k: [v[0]] for k, v in shown.items()}
        elif step not in ("all", "first"):
            bids = {k: v for k, v in shown.items() if len(v) == 2}
    elif view["mode"] == "gold":
        bids = {k: v for k, v in shown.items() if len(v) == 2}
    else:
        # Red or green after the bids: unrevealed stations get the unseen cards at random.
        free = list(deck)
        for c in seen:
            if c in free:
                free.remove(c)
        rng.shuffle(free)
        for k in STATIONS:
            have = list(shown.get(k, []))
            while len(have) < 2 and free:
                have.append(free.pop())
            bids[k] = have
    used = [c for v in bids.values() for c in v]
    return {"deck": deck, "sacrifice": sacrifice, "used": used, "bids": bids}


# --- playouts -----------------------------------------------------------------------------


def _model(
    sim: State,
    p: str,
    me: str,
    wild: set[str],
    rng: random.Random,
    plans: dict[tuple[Any, ...], Any] | None = None,
    kind: str | None = None,
) -> Command | None:
    """What a seat does in a playout: the good player with noise, or at random.

    With ``plans`` (one playout's memory), a modelled seat keeps the station priorities it
    drew at its first gold step of the round (R2.6) for the round's other steps instead of
    valuing every station again: a player with one plan for the round, and the playout's
    most frequent computation done once. ``kind``: what the engine awaits from ``p``, when
    the caller already knows it.
    """
    if kind is None:
        kind = awaited(sim, p)
    if p in wild:
        return random_player.decide(sim, p, rng, kind)
    noise = SELF_NOISE if p == me else OPPONENT_NOISE
    if plans is not None:
        step = sim["step"]
        if kind == "bid" and type(step) is int:
            key = (p, sim["round"], sim["last_round"])
            order = plans.get(key)
            if order is None:
                prio = good.priorities(sim, p, rng, noise)
                order = plans[key] = sorted(prio, key=lambda s: -prio[s])
            # good.plan over the stations left, read for this one: the same pair.
            i = [s for s in order if s >= step].index(step)
            cards = free_cards(sim["players"][p])[::-1]
            return {
                "type": "bid",
                "player": p,
                "bids": {str(step): sorted(cards[2 * i : 2 * i + 2])},
            }
        if kind == "dice":  # the same for the dice windows of the round (R3.2)
            values_key = (p, sim["round"], sim["last_round"], "values")
            values = plans.get(values_key)
            if values is None:
                values = plans[values_key] = station_values(sim, p)
            return {"type": "dice", "player": p, "count": good.dice_count(sim, p, values)}
    return good.decide(sim, p, rng, noise, kind)


def _apply_step(sim: State, mine: Command, others: list[Command | None]) -> None:
    """The candidate and the modelled simultaneous commands of the other seats."""
    apply_in_place(sim, mine)  # a candidate the invented state may refuse
    for c in others:
        if c is not None:
            apply_made(sim, c)


def copy_sim(state: State) -> State:
    """A copy of an engine state to play out, rebuilding only what the engine changes in
    place (a playout runs thousands of times a decision; a generic deep copy was a quarter of
    the search). Shared, because the engine only ever replaces them whole: the profile, the
    seats, the pending entries, the dice and cards of the round, the decision, the revealed
    cards of a station and every player's bid lists and final lines."""
    out = state.copy()
    out["pending"] = state["pending"].copy()
    out["track"] = {k: v.copy() for k, v in state["track"].items()}
    out["pyramid"] = [row.copy() for row in state["pyramid"]]
    out["revealed"] = state["revealed"].copy()
    window = state["dice_window"]
    if window is not None:
        out["dice_window"] = {
            "station": window["station"],
            "choices": window["choices"].copy(),
            "rolls": window["rolls"].copy(),
        }
    players = {}
    for p, ps in state["players"].items():
        q = ps.copy()
        q["deck"] = ps["deck"].copy()
        q["used"] = ps["used"].copy()
        q["bids"] = ps["bids"].copy()
        players[p] = q
    out["players"] = players
    return out


def _rollout(sim: State, me: str, wild: set[str], rng: random.Random) -> None:
    """Play to the end of this round (or the game) with the modelled players and fair dice."""
    start = sim["round"]
    decks = sim["profile"]["improvement_decks"]
    steps = 0
    plans: dict[tuple[Any, ...], Any] = {}
    while not sim["finished"] and sim["round"] == start and steps < 400:
        steps += 1
        entry = sim["pending"][0]
        kind = entry["type"]
        cmd: Command | None
        if kind == "harvest":
            cmd = {"type": "harvest", "dice": [rng.randint(1, 6) for _ in range(3)]}
        elif kind == "improvements":
            cmd = {"type": "improvements", "cards": [rng.choice(d) for d in decks]}
        elif kind == "roll":
            p = entry["player"]
            window = sim["dice_window"]
            n = 1 if window is None or sim["phase"] == "final_roll" else window["choices"][p]
            cmd = {"type": "roll", "player": p, "values": [rng.randint(1, 6) for _ in range(n)]}
        else:
            # The first pending entry is the first awaited from its seat: its kind.
            cmd = _model(sim, entry["player"], me, wild, rng, plans, kind)
            assert cmd is not None, "the pending entry awaits this seat"
        apply_made(sim, cmd)  # made from ``sim`` by the models and the fair dice above


def _utility(sim: View, me: str) -> float:
    """1 for a win (shared wins split), else a projection of the final margin."""
    if sim["finished"]:
        winners = sim["winners"]
        share = 1.0 / len(winners) if me in winners else 0.0
        totals: dict[str, int] = {p: ps["final"]["total"] for p, ps in sim["players"].items()}
        lead = totals[me] - max(t for p, t in totals.items() if p != me)
        return share + 0.01 * max(-20, min(20, lead))
    values = _projection(sim)
    margin = values[me] - max(v for p, v in values.items() if p != me)
    return 0.5 + 0.5 * max(-1.0, min(1.0, margin / 15.0))


def _projection(sim: View) -> dict[str, float]:
    """Final scores if the game ended soon (R7), with huts, dice and decks valued for the
    rounds that probably follow."""
    later = rounds_left(sim) if not sim["last_round"] else 0.0
    players = sim["players"]
    stones = {p: 0 for p in players}
    for row in sim["pyramid"]:
        for owner in row:
            if owner is not None:
                stones[owner] += 1
    most = max(stones.values())
    top_sac = max(ps["sacrifice"] for ps in players.values())
    out = {}
    for p, ps in players.items():
        v = float(ps["score"] + stones[p])
        v += 3 if most and stones[p] == most else 0
        v += 3 if sim["chocolatl"] == p else 0
        v += ps["sacrifice"] + (3 if ps["sacrifice"] == top_sac else 0)
        v += (3.0 + 1.0 * (ps["dice"] - 1)) if ps["dice"] else 0.0
        v += ps["huts"] * 0.9 * later
        v += (sum(ps["deck"]) - 66) * 0.25 * later
        out[p] = v
    return out
