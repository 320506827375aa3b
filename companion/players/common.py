"""What every companion player needs from a seat's view: what is awaited, the free cards, the
effective-bid modifiers and a rough value of each station this round.

Everything here reads only what the seat may see: the public part of the view and the seat's
own deck, bids and sacrifice. The same functions also run on the full states that the strong
player invents while it searches (they never read another seat's hidden fields there either).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine import asks
from companion.engine.asks import PLAYER_KINDS, STATIONS, free_cards
from companion.engine.ranking import HUT_BONUS

__all__ = [
    "HUT_BONUS",
    "PLAYER_KINDS",
    "STATIONS",
    "Command",
    "View",
    "awaited",
    "decision_key",
    "free_cards",
    "modifier",
    "rounds_left",
    "station_values",
]

# A seat's view (engine.types.View) or a whole state the strong player invented: both are
# read through the same keys here, so the players take either as plain JSON data.
View = Mapping[str, Any]
Command = dict[str, Any]


def awaited(view: View, seat: str | None = None) -> str | None:
    """The kind of command the engine awaits from ``seat`` (default: the view's own seat)."""
    return asks.awaited(view["pending"], view["me"] if seat is None else seat)


def modifier(view: View, seat: str, station: int) -> int:
    """Huts (R4.2) and the old man (R4.1) on ``seat``'s bid at ``station``."""
    mod: int = view["players"][seat]["huts"] * HUT_BONUS[station]
    if station == 1:
        if view["returning"] == seat:
            mod += 1
    elif view["old_man"] == seat:
        mod -= 1
    return mod


def rounds_left(view: View) -> float:
    """A guess of how many rounds follow this one: none in the last round, otherwise fewer
    as the leader nears the end score (R6.3) or the round limit (R2.1)."""
    if view["last_round"]:
        return 0.0
    prof = view["profile"]
    by_rounds: int = prof["max_rounds"] - view["round"]
    lead = 0
    for p in view["players"].values():
        if p["score"] > lead:
            lead = p["score"]
    by_score: float = max(0.0, (prof["end_score"] - lead) / 8.0)
    return max(0.0, min(by_rounds, by_score + 0.5))


def station_values(view: View, seat: str) -> dict[int, tuple[float, float, float]]:
    """For each station: what first, second and lowest place are worth to ``seat`` this round,
    in points (rough, the basis of the good player's choices)."""
    prof = view["profile"]
    later = rounds_left(view)
    last = view["last_round"]
    players = view["players"]
    me = players[seat]
    # R5.1: a point and the figure (ties, +3 at the end); lowest takes the old man (-1 at
    # stations 2-6, -3 at the end when it is the last round).
    figure = 3.0 if last else 1.5
    s1 = (
        prof["chocolatl_points"] + (0.5 if view["chocolatl"] == seat else figure),
        0.0,
        -3.5 if last else -1.5,
    )
    dice = sorted(view["harvest"] or (3, 4, 5), reverse=True)  # R5.2
    s2 = (float(dice[0]), float(dice[1]), float(dice[2]) if len(players) == 3 else 0.0)
    # R5.3: a hut adds 1 at five stations of every later round; a die is 1-6 once.
    hut = 0.9 * later
    die = 2.5 if me["dice"] == 0 else 1.8
    free = prof["hut_spaces"]
    for ps in players.values():
        free -= ps["huts"]
    if free > 0:
        s3 = (max(hut, die), min(hut, die), 0.0)
    else:
        s3 = (die, 0.0, 0.0)
    # R5.4 / R7: a cube is a point at the end, plus row and majority bonuses.
    # R5.5: drink points this round, lowest loses the penalty.
    sched = prof["drink"][min(view["round"], len(prof["drink"])) - 1]
    s5 = (float(sched[0]), float(sched[1]), -float(prof["drink_penalty"]))
    # R5.6: in the last round points; otherwise the higher card replaces the lowest card.
    if last:
        first6, second6 = prof["tachli_last_round"]
        s6 = (float(first6), float(second6), 0.0)
    else:
        imp = sorted(view["improvements"] or (12, 10), reverse=True)
        deck = me["deck"]
        low = min(deck) if deck else 0
        s6 = (
            max(0.0, imp[0] - low) * 0.22 * later,
            max(0.0, imp[1] - low) * 0.22 * later,
            0.0,
        )
    return {1: s1, 2: s2, 3: s3, 4: (3.5, 1.5, 0.0), 5: s5, 6: s6}


def decision_key(state: Mapping[str, Any], seat: str) -> tuple[Any, ...] | None:
    """What the engine awaits from ``seat`` now; the same key means the same decision."""
    kind = asks.awaited(state["pending"], seat)
    if kind is None:
        return None
    return (kind, state["round"], state["phase"], state["step"], state["station"])
