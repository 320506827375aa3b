"""The bonus dice window as everybody can see it (R3.2-R3.4, R4, R5).

When a station's cards are revealed, every bid's effective value before dice is public: the
revealed cards plus huts and the old man (R3.3). So is how many black dice each player holds.
From that alone this module tells, for every player, the bid's parts, the place it has now,
what using dice could still do, whether any roll at all can change that player's place, and
whether the holder's own answer can change what the station gives (``stakes``). A holder whose
answer cannot change that has nothing to decide (a used die would only be lost, R3.2), so
the table answers "no dice" for them.

Only public fields are read (``revealed``, huts, dice held, the old man, the figure, scores
and the stack), so the functions work on a state and on any seat's view alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product
from typing import Any

from companion.engine.ranking import HUT_BONUS
from companion.engine.stakes import Gain, place_gains, pyramid_gain_in, same_row
from companion.engine.types import BidOutlook, BidParts

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


def bid_parts(state: Mapping[str, Any], station: int) -> dict[str, BidParts]:
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
    out: dict[str, BidParts] = {}
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


def outlook(state: Mapping[str, Any], station: int) -> dict[str, BidOutlook]:
    """For every player: :func:`bid_parts` plus

    - ``place``: the place if nobody uses a die;
    - ``best``: for each number of own dice ``k`` (1..held), the best place those dice can
      reach (all sixes, nobody else rolling): ``{"2": 2}`` reads "two dice could lift you to
      2nd";
    - ``worst``: the lowest place other players' dice could push this player to;
    - ``fixed``: no roll of anybody can change this player's place (nor, at the pyramid,
      whether first leads second by 3, R5.4);
    - ``matters``: this player holds dice and, for some rolls of the others, using dice
      can change what the station gives this player or a player it passes (``_matters``);
      a holder for whom it is False has nothing to decide.
    """
    parts = bid_parts(state, station)
    base = {p: b["base"] for p, b in parts.items()}
    high = {p: b["base"] + DIE_MAX * b["dice"] for p, b in parts.items()}
    out: dict[str, BidOutlook] = {}
    for p, b in parts.items():
        out[p] = {
            **b,
            "place": _place(state, p, base),
            "best": {
                str(k): _place(state, p, {**base, p: base[p] + DIE_MAX * k})
                for k in range(1, b["dice"] + 1)
            },
            "worst": _place(state, p, {**high, p: base[p]}),
            "fixed": _fixed(state, station, p, base, high),
            "matters": False,  # below, once every place is known
        }
    gains = place_gains(state, station) if station != 4 else None
    for p, o in out.items():
        o["matters"] = not o["fixed"] and _matters(state, station, p, base, high, gains)
    return out


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


def _tie_margin(state: Mapping[str, Any], q: str, h: str) -> int:
    """How much ``q`` must bid above ``h`` to rank before it: 0 if ``q`` wins a tie (R3.4)."""
    return 0 if _tie_key(state, q) < _tie_key(state, h) else 1


def _matters(
    state: Mapping[str, Any],
    station: int,
    h: str,
    base: dict[str, int],
    high: dict[str, int],
    gains: dict[str, list[Gain]] | None,
) -> bool:
    """Whether ``h``'s answer can change what the station gives (R3.2, R5; ``stakes``).

    The others decide at the same time (R3.2): each other player's total is anything from its
    base to its base plus six a die held. ``h``'s answer matters when, for some such totals,
    ``h``'s bid with dice (base + 1 .. base + 6 a die) gives ``h`` something else than its bid
    without, or moves a player it passes to a place that gives that player something else
    (a marker at 0 that is lowest at the drink loses nothing, the one it would pass does).
    """
    if station == 4:
        return _matters_pyramid(state, h, base, high)
    assert gains is not None, "plain place gains for stations other than the pyramid"
    others = [q for q in base if q != h]
    edge = {q: _tie_margin(state, q, h) for q in others}
    for top in range(base[h] + 1, high[h] + 1):
        # Per other player: ahead of h with and without dice ("AA"), passed ("AB"), behind.
        choices: list[list[tuple[str, str]]] = []
        for q in others:
            e, lo, hi = edge[q], base[q], high[q]
            opts = []
            if hi >= top + e:
                opts.append(("AA", q))
            if max(lo, base[h] + e) <= min(hi, top + e - 1):
                opts.append(("AB", q))
            if lo < base[h] + e:
                opts.append(("BB", q))
            choices.append(opts)
        for combo in product(*choices):
            ahead = sum(1 for kind, _ in combo if kind == "AA")
            passed = [q for kind, q in combo if kind == "AB"]
            if not passed:
                continue
            new, old = ahead, ahead + len(passed)  # 0-based places with and without dice
            if gains[h][new] != gains[h][old]:
                return True
            if any(len(set(gains[q][new : old + 1])) > 1 for q in passed):
                return True
    return False


def _region(value: int, total: int, edge: int) -> int:
    """Where another bid ``value`` stands against ``h``'s ``total`` at the pyramid (R5.4):
    0 behind by 3 or more, 1 behind by less, 2 ahead by less than 3, 3 ahead by 3 or more."""
    if value <= total - PYRAMID_MARGIN:
        return 0
    if value < total + edge:
        return 1
    if value < total + PYRAMID_MARGIN:
        return 2
    return 3


# What ``h`` knows of the others against one of its totals: (players ahead, up to 2; anybody
# behind by less than 3; everybody ahead is 3 or more ahead).
_Side = tuple[int, bool, bool]


def _side_add(side: _Side, region: int) -> _Side:
    ahead, near, far = side
    if region >= 2:
        return (min(ahead + 1, 2), near, far and region == 3)
    return (ahead, near or region == 1, far)


def _side_gain(same: bool | None, side: _Side) -> Gain:
    ahead, near, far = side
    if ahead == 0:  # h is first: two cubes unless second is within 3 (R5.4)
        return pyramid_gain_in(same, 1, not near)
    return pyramid_gain_in(same, 2, far) if ahead == 1 else pyramid_gain_in(same, 3, False)


def _matters_pyramid(
    state: Mapping[str, Any], h: str, base: dict[str, int], high: dict[str, int]
) -> bool:
    """:func:`_matters` at the pyramid, where what first and second get also hangs on the
    margin between them (R5.4). The others' totals are followed as pairs of regions (without
    and with ``h``'s dice) and summed up to what decides ``h``'s cubes."""
    same = same_row(state)
    if same is None:
        return False  # a full pyramid gives nothing to anybody (R5.4)
    others = [q for q in base if q != h]
    edge = {q: _tie_margin(state, q, h) for q in others}
    start: _Side = (0, False, True)
    for top in range(base[h] + 1, high[h] + 1):
        sides = {(start, start)}
        for q in others:
            lo, hi, e = base[q], high[q], edge[q]
            near = range(max(lo, base[h] - 4), min(hi, top + 4) + 1)
            pairs = {(_region(v, base[h], e), _region(v, top, e)) for v in (lo, hi, *near)}
            sides = {(_side_add(a, ra), _side_add(b, rb)) for a, b in sides for ra, rb in pairs}
        if any(_side_gain(same, a) != _side_gain(same, b) for a, b in sides):
            return True
    return False


def nothing_to_decide(state: Mapping[str, Any], player: str) -> bool:
    """True while the bonus dice window awaits ``player`` (R3.2) and no answer of
    ``player``'s can change what the station gives (R3.4, R5; :func:`outlook`'s ``matters``):
    "no dice" is then the only sensible answer, and it can be given without asking, from
    public facts alone."""
    window = state.get("dice_window")
    if state["phase"] != "dice" or not window or window.get("station") is None:
        return False
    if not any(e["type"] == "dice" and e.get("player") == player for e in state["pending"]):
        return False
    return not outlook(state, window["station"])[player]["matters"]
