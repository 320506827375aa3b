"""The good player: fast rules of thumb, no search.

It values each station for this round (``common.station_values``: harvest dice, drink points,
the improvement card against its lowest card, huts against dice, cubes, the figure and the old
man), puts its strongest pairs of cards on the stations worth most to it and its weakest on the
rest, uses bonus dice when they lift it to a better place on a station worth it, builds huts
while enough rounds remain, and picks the pyramid order that scores more for it.
"""

from __future__ import annotations

import random
from typing import Any, cast

from companion.engine.stations import place_cube
from companion.engine.types import Event, State
from companion.players.common import (
    HUT_BONUS,
    Command,
    View,
    awaited,
    free_cards,
    modifier,
    rounds_left,
    station_values,
)

SACRIFICE = 0  # a high sacrifice scores itself and the top-sacrifice bonus at the end (R7)


def choose(view: View, rng: random.Random) -> Command | None:
    """The command answering what the engine awaits from ``view["me"]``, or ``None``."""
    return decide(view, view["me"], rng)


def decide(
    view: View, seat: str, rng: random.Random, noise: float = 0.0, kind: str | None = None
) -> Command | None:
    """:func:`choose` for ``seat`` on any state or view (only ``seat``'s own secrets and the
    public fields are read). ``noise`` > 0 perturbs the station values (used by the strong
    player to model opponents and to vary its candidates); ``kind``: what the engine awaits
    from ``seat``, when the caller already knows it."""
    if kind is None:
        kind = awaited(view, seat)
    if kind is None:
        return None
    if kind == "sacrifice":
        return {"type": "sacrifice", "player": seat, "card": sacrifice_card(view, seat)}
    if kind == "bid":
        return {"type": "bid", "player": seat, "bids": bid(view, seat, rng, noise)}
    if kind == "dice":
        return {"type": "dice", "player": seat, "count": dice_count(view, seat)}
    if kind == "city":
        return {"type": "city", "player": seat, "choice": city_choice(view, seat)}
    return {"type": "pyramid", "player": seat, "first": pyramid_first(view, seat)}


def sacrifice_card(view: View, seat: str) -> int:
    deck = view["players"][seat]["deck"]
    return SACRIFICE if SACRIFICE in deck else max(deck)


def priorities(view: View, seat: str, rng: random.Random, noise: float) -> dict[int, float]:
    """How much winning each station matters: first's value against lowest's."""
    out = {}
    if noise:
        spread = noise + noise
        random = rng.random
        for s, (first, _second, lowest) in station_values(view, seat).items():
            # value * (1 + rng.uniform(-noise, noise)), inlined: this runs in every playout
            out[s] = (first - 0.5 * lowest) * (1.0 + (-noise + spread * random()))
    else:
        for s, (first, _second, lowest) in station_values(view, seat).items():
            out[s] = first - 0.5 * lowest
    return out


def plan(
    cards: list[int], stations: list[int], prio: dict[int, float], per_station: int = 2
) -> dict[int, list[int]]:
    """Strongest cards to the stations that matter most, ``per_station`` each."""
    order = sorted(stations, key=lambda s: -prio[s])
    cards = sorted(cards, reverse=True)
    return {s: sorted(cards[per_station * i : per_station * (i + 1)]) for i, s in enumerate(order)}


def bid(
    view: View,
    seat: str,
    rng: random.Random,
    noise: float = 0.0,
    prio: dict[int, float] | None = None,
) -> dict[str, list[int]]:
    """The cards for this step (R2.4-R2.6); ``prio`` gives the stations' :func:`priorities`
    when the caller already has them (the strong player's playouts keep a round's)."""
    ps = view["players"][seat]
    cards = free_cards(ps)
    if prio is None:
        prio = priorities(view, seat, rng, noise)
    step = view["step"]
    if step == "all":
        return {str(s): c for s, c in plan(cards, list(range(1, 7)), prio).items()}
    if step == "first":  # R2.5: plan both cards, give the higher one now
        pairs = plan(cards, list(range(1, 7)), prio)
        return {str(s): [max(c)] for s, c in pairs.items()}
    if step == "second":
        # First cards are public: add where it can still lift a place, dump elsewhere.
        # The others' first cards with their modifiers (R4.1, R4.2), as modifier() adds
        # them, inlined: the strong player's playouts ask this thousands of times a decision.
        need = {}
        players = view["players"]
        revealed = view["revealed"]
        own = ps["bids"]
        top = max(cards)
        for s in range(1, 7):
            key = str(s)
            hut = HUT_BONUS[s]
            marked, mark = (view["returning"], 1) if s == 1 else (view["old_man"], -1)
            mine = own[key][0] + modifier(view, seat, s)
            best: int | None = None
            for p, c in revealed.get(key, {}).items():
                if p != seat:
                    value = c[0] + players[p]["huts"] * hut + (mark if p == marked else 0)
                    if best is None or value > best:
                        best = value
            need[s] = prio[s] * (1.5 if mine + top >= (best or 0) + 6 else 0.6)
        return {str(s): c for s, c in plan(cards, list(range(1, 7)), need, 1).items()}
    station = int(step)  # R2.6: plan the stations left, give this one its pair
    pairs = plan(cards, list(range(station, 7)), prio)
    return {str(station): pairs[station]}


def station_totals(view: View, station: int) -> dict[str, int]:
    """Every player's revealed bid at ``station`` with its modifiers (R3.3, no dice)."""
    cards = view["revealed"][str(station)]
    players = view["players"]
    hut = HUT_BONUS[station]  # R4.2
    # R4.1 as modifier() adds it, inlined: the strong player's playouts ask this often.
    marked, mark = (view["returning"], 1) if station == 1 else (view["old_man"], -1)
    return {
        p: sum(c) + players[p]["huts"] * hut + (mark if p == marked else 0)
        for p, c in cards.items()
    }


def dice_count(
    view: View, seat: str, values: dict[int, tuple[float, float, float]] | None = None
) -> int:
    """R3.2: the fewest dice that probably lift the seat to a place worth their cost.
    ``values``: the seat's :func:`station_values` when the caller already has them."""
    station = view["dice_window"]["station"] if view.get("dice_window") else view["station"]
    held = view["players"][seat]["dice"]
    totals = station_totals(view, station)
    mine = totals[seat]
    others = sorted((t for p, t in totals.items() if p != seat), reverse=True)
    first, second, lowest = (values or station_values(view, seat))[station]
    place_now = sum(1 for t in others if t >= mine)  # 0 = first (ties count against us)
    value_now = (
        first
        if place_now == 0
        else second
        if place_now == 1
        else (lowest if place_now == len(others) else 0.0)
    )
    # A leftover die scores its roll once at the end (R7); spare dice are worth little.
    keep = 3.5 if held == 1 else 1.0
    last_station = view["last_round"] and station == 6
    best, best_gain = 0, 0.0
    for k in range(1, min(held, 3) + 1):
        total = mine + 3.5 * k - 1.0  # a cautious guess of the roll
        place = sum(1 for t in others if t >= total)
        value = (
            first
            if place == 0
            else second
            if place == 1
            else (lowest if place == len(others) else 0.0)
        )
        cost = 0.0 if last_station else keep * k if k == 1 else keep + 1.0 * (k - 1)
        gain = value - value_now - cost
        if gain > best_gain:
            best, best_gain = k, gain
    if last_station and held > 1 and best == 0:
        best = held - 1  # only one leftover die is rolled at the end (R7)
    return best


def city_choice(view: View, seat: str) -> str:
    """R5.3: a hut pays at five stations of every later round; a die once."""
    ps = view["players"][seat]
    cubes_left = view["profile"]["cubes"] - ps["cubes_used"]
    if rounds_left(view) >= 2.5 and cubes_left > 1:
        return "hut"
    return "die"


def pyramid_first(view: View, seat: str) -> str:
    """R5.4: place first or second, whichever scores more for the seat (row bonuses)."""

    decision = view["decision"]
    a, b = decision["first"], decision["second"]
    other = b if a == seat else a
    best, best_gain = seat, None
    for first in (seat, other):
        # place_cube reads and changes only the board fields copied here (R5.4, R6.1).
        trial = cast(State, _board_copy(view))
        events: list[Event] = []
        place_cube(trial, first, events)
        place_cube(trial, other if first == seat else seat, events)
        gain = trial["players"][seat]["score"] - trial["players"][other]["score"]
        mine = sum(row.count(seat) for row in trial["pyramid"])
        gain = gain * 10 + mine
        if best_gain is None or gain > best_gain:
            best, best_gain = first, gain
    return best


def _board_copy(view: View) -> dict[str, Any]:
    """The public board fields that placing a cube reads and changes (R5.4, R6.1)."""
    return {
        "pyramid": [list(r) for r in view["pyramid"]],
        "track": {k: list(v) for k, v in view["track"].items()},
        "players": {
            p: {"score": ps["score"], "cubes_used": ps["cubes_used"]}
            for p, ps in view["players"].items()
        },
        "chocolatl": view["chocolatl"],
        "round": view["round"],
        "profile": view["profile"],
        "last_round": view["last_round"],
        "last_round_reason": view.get("last_round_reason"),
    }
