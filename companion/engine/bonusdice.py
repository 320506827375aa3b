"""The bonus dice window as everybody can see it (R3.2-R3.4, R4, R5.4).

When a station's cards are revealed, every bid's effective value before dice is public: the
revealed cards plus huts and the old man (R3.3). So is how many black dice each player holds.
From that alone this module tells, for every player, the bid's parts, the place it has now,
what using dice could still do, and whether any roll at all can change that player's place.
A holder whose place no roll can change has nothing to decide (using a die would only lose
it, R3.2), so the table answers "no dice" for them.

Only public fields are read (``revealed``, huts, dice held, the old man, the figure, scores
and the stack), so the functions work on a state and on any seat's view alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine.ranking import HUT_BONUS

DIE_MAX = 6  # a black die shows 1..6 (R3.2)
PYRAMID_MARGIN = 3  # R5.4: first places two cubes with a lead of at least 3


def _height(state: Mapping[str, Any], player: str) -> int:
    """The marker's height on its box (R6.1): higher in the stack wins a tie (R3.4)."""
    score = state["players"][player]["score"]
    return int(state["track"][str(score)].index(player))


def _tie_key(state: Mapping[str, Any], player: str) -> tuple[int, int, int]:
    """R3.4 among equal bids: the figure holder, then the lower score, then higher in the stack."""
    return (
        0 if state["chocolatl"] == player else 1,
        state["players"][player]["score"],
        -_height(state, player),
    )


def bid_parts(state: Mapping[str, Any], station: int) -> dict[str, dict[str, Any]]:
    """Every player's revealed bid at ``station`` as its parts and its value before dice:
    cards (R2.7), huts (R4.2), the old man (R4.1) and ``base`` = their sum (R3.3).

    >>> from companion.engine import new_game
    >>> s = new_game(["ana", "ben", "cleo"])
    >>> s["revealed"]["2"] = {"ana": [5, 6], "ben": [4, 7], "cleo": [3, 8]}
    >>> s["players"]["ana"]["huts"], s["old_man"] = 2, "ben"
    >>> {p: b["base"] for p, b in bid_parts(s, 2).items()}
    {'ana': 13, 'ben': 10, 'cleo': 11}
    """
    cards = state["revealed"][str(station)]
    if station == 1:
        om_player, om_value = state["returning"], 1  # R4.1: the returning holder adds 1
    else:
        om_player, om_value = state["old_man"], -1  # R4.1: this round's holder subtracts 1
    out: dict[str, dict[str, Any]] = {}
    for p, ps in state["players"].items():
        shown = list(cards[p])
        huts = ps["huts"] * HUT_BONUS[station]
        old_man = om_value if p == om_player else 0
        out[p] = {
            "cards": shown,
            "cards_sum": sum(shown),
            "huts": huts,
            "old_man": old_man,
            "base": sum(shown) + huts + old_man,
            "dice": ps["dice"],
        }
    return out


def _place(state: Mapping[str, Any], player: str, totals: dict[str, int]) -> int:
    """``player``'s place (1 = first) in the strict order of ``totals`` (R3.4)."""
    order = sorted(totals, key=lambda p: (-totals[p], *_tie_key(state, p)))
    return order.index(player) + 1


def _always_ahead(state: Mapping[str, Any], a: str, b: str, low: int, high: int) -> bool:
    """``a`` with its lowest possible bid ``low`` still ranks before ``b`` at its highest."""
    return low > high or (low == high and _tie_key(state, a) < _tie_key(state, b))


def outlook(state: Mapping[str, Any], station: int) -> dict[str, dict[str, Any]]:
    """For every player: :func:`bid_parts` plus

    - ``place``: the place if nobody uses a die;
    - ``best``: for each number of own dice ``k`` (1..held), the best place those dice can
      reach (all sixes, nobody else rolling): ``{"2": 2}`` reads "two dice could lift you to
      2nd";
    - ``worst``: the lowest place other players' dice could push this player to;
    - ``fixed``: no roll of anybody can change this player's place (nor, at the pyramid,
      whether first leads second by 3, R5.4): a holder then has nothing to decide.
    """
    parts = bid_parts(state, station)
    base = {p: b["base"] for p, b in parts.items()}
    high = {p: b["base"] + DIE_MAX * b["dice"] for p, b in parts.items()}
    for p, b in parts.items():
        b["place"] = _place(state, p, base)
        b["best"] = {
            str(k): _place(state, p, {**base, p: base[p] + DIE_MAX * k})
            for k in range(1, b["dice"] + 1)
        }
        b["worst"] = _place(state, p, {**high, p: base[p]})
        b["fixed"] = _fixed(state, station, p, base, high)
    return parts


def _fixed(
    state: Mapping[str, Any], station: int, p: str, base: dict[str, int], high: dict[str, int]
) -> bool:
    others = [q for q in base if q != p]
    ahead = [q for q in others if _always_ahead(state, q, p, base[q], high[p])]
    behind = [q for q in others if _always_ahead(state, p, q, base[p], high[q])]
    if len(ahead) + len(behind) != len(others):
        return False  # some order against p depends on the dice
    if station != 4:
        return True
    # R5.4: with first and second settled, the margin between them may still hang on dice.
    if not ahead and behind:  # p is first; second is whichever of the rest bids highest
        gap_low = base[p] - max(high[q] for q in behind)
        gap_high = high[p] - max(base[q] for q in behind)
    elif len(ahead) == 1:  # p is second behind the one player always ahead
        first = ahead[0]
        gap_low = base[first] - high[p]
        gap_high = high[first] - base[p]
    else:
        return True  # third or lower: the pyramid margin is not p's
    return gap_low >= PYRAMID_MARGIN or gap_high < PYRAMID_MARGIN


def nothing_to_decide(state: Mapping[str, Any], player: str) -> bool:
    """True while the bonus dice window awaits ``player`` (R3.2) and no roll of anybody can
    change ``player``'s place at this station (R3.4, R5.4): "no dice" is then the only
    sensible answer, and it can be given without asking, from public facts alone."""
    window = state.get("dice_window")
    if state["phase"] != "dice" or not window or window.get("station") is None:
        return False
    if not any(e["type"] == "dice" and e.get("player") == player for e in state["pending"]):
        return False
    return bool(outlook(state, window["station"])[player]["fixed"])
