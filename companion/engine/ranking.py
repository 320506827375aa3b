"""Effective bids (R3.3, R4) and the strict ranking with its tie reasons (R3.4, R3.5)."""

from __future__ import annotations

from companion.engine.state import stack_position
from companion.engine.types import RankingEntry, RankingEvent, State, Tie, TieRule

HUT_BONUS = {1: 1, 2: 1, 3: -1, 4: 1, 5: 1, 6: 1}  # R4.2, per hut


def tie_key(state: State, player: str) -> tuple[int, int, int]:
    """Order among equals (R3.4): figure holder, then lower score, then higher in the stack."""
    return (
        0 if state["chocolatl"] == player else 1,
        state["players"][player]["score"],
        -stack_position(state, player),
    )


def tie_rule(state: State, a: str, b: str) -> TieRule:
    """Which rule put ``a`` before ``b`` when they are otherwise equal."""
    if state["chocolatl"] in (a, b):
        return "figure"
    if state["players"][a]["score"] != state["players"][b]["score"]:
        return "lower_score"
    return "stack"


def order_players(state: State, players: list[str], values: dict[str, int]) -> list[str]:
    """``players`` by ``values`` descending, ties broken by R3.4 / R3.5."""
    return sorted(players, key=lambda p: (-values[p], *tie_key(state, p)))


def explain_ties(state: State, order: list[str], values: dict[str, int]) -> list[Tie]:
    """One entry per adjacent pair with equal values: who went first and by which rule."""
    ties: list[Tie] = []
    for a, b in zip(order, order[1:], strict=False):
        if values[a] == values[b]:
            rule = tie_rule(state, a, b)
            ties.append({"players": [a, b], "rule": rule, "value": values[a]})
    return ties


def rank_station(state: State, station: int, dice: dict[str, list[int]]) -> RankingEvent:
    """The ranking event of ``station``: every bid split into its parts, the order and ties."""
    players = state["players"]
    track = state["track"]
    holder = state["chocolatl"]
    hut = HUT_BONUS[station]  # R4.2
    if station == 1:
        om_player, om_value = state["returning"], 1  # R4.1: the returning holder adds 1
    else:
        om_player, om_value = state["old_man"], -1  # R4.1: this round's holder subtracts 1
    key = str(station)
    keyed: list[tuple[tuple[int, bool, int, int], RankingEntry]] = []
    for p, ps in players.items():
        cards = ps["bids"][key]
        cards_sum = cards[0] + cards[1]  # R2.7: two cards a station
        huts = ps["huts"] * hut
        om = om_value if p == om_player else 0
        total = cards_sum + huts + om  # R3.3
        rolled = dice.get(p)
        if rolled:
            total += sum(rolled)
        score = ps["score"]
        # R3.4: higher bid, then the figure, then the lower score, then higher in the stack.
        # The key is unique (two markers never share a box and a height), so the entry dicts
        # are never compared.
        keyed.append(
            (
                (-total, p != holder, score, -track[str(score)].index(p)),
                {
                    "player": p,
                    "cards": cards,
                    "cards_sum": cards_sum,
                    "huts": huts,
                    "old_man": om,
                    "dice": rolled or [],
                    "total": total,
                },
            )
        )
    keyed.sort()
    ranked: list[RankingEntry] = []
    order: list[str] = []
    ties: list[Tie] = []
    previous: RankingEntry | None = None
    for place, (_key, entry) in enumerate(keyed, 1):
        entry["place"] = place
        p = entry["player"]
        if previous is not None and previous["total"] == entry["total"]:
            a = previous["player"]
            ties.append({"players": [a, p], "rule": tie_rule(state, a, p), "value": entry["total"]})
        ranked.append(entry)
        order.append(p)
        previous = entry
    return {"type": "ranking", "station": station, "entries": ranked, "ties": ties, "order": order}


def station_order(state: State, station: int, dice: dict[str, list[int]]) -> tuple[list[str], int]:
    """:func:`rank_station`'s order and by how much first's total beats second's, without
    the parts and ties that explain it (a search's playouts read only the result)."""
    players = state["players"]
    track = state["track"]
    holder = state["chocolatl"]
    hut = HUT_BONUS[station]  # R4.2
    if station == 1:
        om_player, om_value = state["returning"], 1  # R4.1
    else:
        om_player, om_value = state["old_man"], -1  # R4.1
    key = str(station)
    keyed: list[tuple[int, bool, int, int, str]] = []
    for p, ps in players.items():
        cards = ps["bids"][key]
        total = cards[0] + cards[1] + ps["huts"] * hut  # R3.3
        if p == om_player:
            total += om_value
        rolled = dice.get(p)
        if rolled:
            total += sum(rolled)
        score = ps["score"]
        # R3.4, as rank_station sorts: the key is unique before the player's name.
        keyed.append((-total, p != holder, score, -track[str(score)].index(p), p))
    keyed.sort()
    return [k[4] for k in keyed], keyed[1][0] - keyed[0][0]
