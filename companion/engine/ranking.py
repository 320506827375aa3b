"""Effective bids (R3.3, R4) and the strict ranking with its tie reasons (R3.4, R3.5)."""

from __future__ import annotations

from typing import Any

from companion.engine.state import Event, State, stack_position

HUT_BONUS = {1: 1, 2: 1, 3: -1, 4: 1, 5: 1, 6: 1}  # R4.2, per hut

TIE_WORDS = {
    "figure": "holds the Chocolatl figure",
    "lower_score": "has the lower score",
    "stack": "is higher in the stack on the same box",
}


def tie_key(state: State, player: str) -> tuple[int, int, int]:
    """Order among equals (R3.4): figure holder, then lower score, then higher in the stack."""
    return (
        0 if state["chocolatl"] == player else 1,
        state["players"][player]["score"],
        -stack_position(state, player),
    )


def tie_rule(state: State, a: str, b: str) -> str:
    """Which rule put ``a`` before ``b`` when they are otherwise equal."""
    if state["chocolatl"] in (a, b):
        return "figure"
    if state["players"][a]["score"] != state["players"][b]["score"]:
        return "lower_score"
    return "stack"


def order_players(state: State, players: list[str], values: dict[str, int]) -> list[str]:
    """``players`` by ``values`` descending, ties broken by R3.4 / R3.5."""
    return sorted(players, key=lambda p: (-values[p], *tie_key(state, p)))


def explain_ties(state: State, order: list[str], values: dict[str, int]) -> list[dict[str, Any]]:
    """One entry per adjacent pair with equal values: who went first and by which rule."""
    ties = []
    for a, b in zip(order, order[1:], strict=False):
        if values[a] == values[b]:
            rule = tie_rule(state, a, b)
            ties.append({"players": [a, b], "rule": rule,
                         "text": f"{a} is ahead of {b} on a tie at {values[a]}: "
                                 f"{a} {TIE_WORDS[rule]}"})
    return ties


def rank_station(state: State, station: int, dice: dict[str, list[int]]) -> Event:
    """The ranking event of ``station``: every bid split into its parts, the order and ties."""
    old_man = state["old_man"]
    returning = state["returning"]
    entries: dict[str, dict[str, Any]] = {}
    totals: dict[str, int] = {}
    key = str(station)
    for p, ps in state["players"].items():
        cards = ps["bids"][key]
        huts = ps["huts"] * HUT_BONUS[station]  # R4.2
        if station == 1:
            om = 1 if returning == p else 0  # R4.1: the returning holder adds 1 at station 1
        else:
            om = -1 if old_man == p else 0  # R4.1: this round's holder subtracts 1 at 2-6
        rolled = dice.get(p, [])
        total = sum(cards) + huts + om + sum(rolled)  # R3.3
        totals[p] = total
        entries[p] = {"player": p, "cards": list(cards), "cards_sum": sum(cards), "huts": huts,
                      "old_man": om, "dice": list(rolled), "total": total}
    order = order_players(state, list(state["players"]), totals)
    ranked = []
    for place, p in enumerate(order, 1):
        entries[p]["place"] = place
        ranked.append(entries[p])
    ties = explain_ties(state, order, totals)
    text = f"Station {station}: " + ", ".join(f"{e['place']}. {e['player']} {e['total']}"
                                              for e in ranked)
    return {"type": "ranking", "station": station, "entries": ranked, "ties": ties,
            "order": order, "text": text}
