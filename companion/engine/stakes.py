"""What each place at a station gives, from public facts (R3.6, R5, R6.1): the table's
measure of whether a question can matter.

A seat is asked a decision only when its answer can change what the station gives (DESIGN.md
"Nobody is asked what cannot matter"). Two places "give the same" to a player when the
station leaves that player's state the same either way: the same points after the cut-off at
0 (R6.1), the same figure or old man (R5.1), the same city option (R5.3), the same number of
cubes and the same say in their order (R5.4), the same improvement card (R5.6). A better place
itself is worth nothing later: ties are broken by the figure, the score and the stack (R3.4),
never by an earlier place. The one lasting trace of a place is the stack: two markers that
score the same points from the same box land in the order they scored (R6.1), so equal points
still differ for a player who shares a box with somebody.

Only public fields are read (scores, the stack, huts, the pyramid, the figure, the round, the
harvest dice and the face-up cards), so the functions work on a state and on a view alike.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

# A gain is compared, never read: equal gains leave the player's state the same.
Gain = tuple[Hashable, ...]
NOTHING: Gain = ()


def _points(state: Mapping[str, Any], player: str, points: int, place: int) -> Gain:
    """``points`` as the marker really moves (R6.1: cut off at 0, a change of 0 keeps its
    place); the place is kept when the marker moves from a shared box, because the order of
    scoring then sets the order in the new box's stack (R6.1, a tie-breaker by R3.4)."""
    score = state["players"][player]["score"]
    change = max(0, score + points) - score
    if change == 0:
        return NOTHING
    shared = len(state["track"][str(score)]) > 1
    return ("points", change, place if shared else 0)


def free_cells(state: Mapping[str, Any]) -> list[tuple[int, int]]:
    """The pyramid's free cells in the order cubes fill them (R5.4: lowest row, leftmost)."""
    return [
        (r, c)
        for r, row in enumerate(state["pyramid"])
        for c, cell in enumerate(row)
        if cell is None
    ]


def pyramid_order_matters(state: Mapping[str, Any]) -> bool:
    """R5.4: whether the order of first's and second's single cubes can change anything.

    Cubes fill the lowest row with a free cell from the left, and only how many cubes each
    player has in a row counts (the row's majority, R5.4; own cubes and the most cubes, R7).
    Two cubes that land in the same row give the same whichever goes first; the order matters
    when the first cube fills a row (the other goes one row up) or only one cell is left
    (only the first cube is placed).

    >>> from companion.engine import new_game
    >>> s = new_game(["ana", "ben", "cleo"])
    >>> pyramid_order_matters(s)  # both cubes go to the bottom row
    False
    >>> s["pyramid"][0] = ["ana", "ben", "cleo", "ana", None]
    >>> pyramid_order_matters(s)  # the first cube fills row 1, the second starts row 2
    True
    """
    return same_row(state) is False  # a full pyramid places neither cube (R5.4)


def same_row(state: Mapping[str, Any]) -> bool | None:
    """Whether first's and second's single cubes both land in one row (R5.4), or ``None``
    when the pyramid is full and no cube is placed at all."""
    cells = free_cells(state)
    if not cells:
        return None
    return len(cells) >= 2 and cells[0][0] == cells[1][0]


def pyramid_gain_in(same: bool | None, place: int, far: bool) -> Gain:
    """What the pyramid gives the player at ``place`` (R5.4): two cubes to first with a lead
    of 3 or more (``far``), otherwise one each; when both cubes land in one row (``same``,
    see :func:`same_row`) the order is worth nothing and first and second get the same."""
    if same is None:
        return NOTHING  # a full pyramid places nothing (R5.4)
    same_row = same
    if place == 1:
        return ("cubes", 2) if far else ("cubes", 1) if same_row else ("cubes", 1, "chooses")
    if place == 2 and not far:
        return ("cubes", 1) if same_row else ("cubes", 1, "chosen")
    return NOTHING


def place_gains(state: Mapping[str, Any], station: int) -> dict[str, list[Gain]]:
    """For every player, what each place 1..n at ``station`` (not the pyramid, see
    :func:`pyramid_gain`) would give them, by the rules of this round (R5.1-R5.3, R5.5, R5.6).

    >>> from companion.engine import new_game
    >>> s = new_game(["ana", "ben", "cleo", "dora"], ["ana", "ben", "cleo", "dora"])
    >>> s["round"] = 4
    >>> g = place_gains(s, 5)["ana"]  # R5.5 round 4: 5 and 0 points, lowest loses 2 (cut at 0)
    >>> g[0], g[1] == g[2] == g[3] == ()
    (('points', 5, 1), True)
    """
    players = state["players"]
    n = len(players)
    prof = state["profile"]
    out: dict[str, list[Gain]] = {}
    for p in players:
        gains = [NOTHING] * n
        if station == 1:  # R5.1: the figure and its point to first, the old man to lowest
            gains[0] = ("figure", _points(state, p, prof["chocolatl_points"], 1))
            gains[n - 1] = ("old_man",)
        elif station == 2:  # R5.2: the harvest dice, highest first, to the first three
            dice = sorted(state["harvest"] or (), reverse=True)
            for i in range(min(3, n)):
                gains[i] = _points(state, p, dice[i], i + 1) if i < len(dice) else ("harvest", i)
        elif station == 3:  # R5.3: first chooses, second gets the other; no hut: first's die
            free = prof["hut_spaces"] - sum(ps["huts"] for ps in players.values())
            gains[0] = ("city", "choice") if free > 0 else ("city", "die")
            if free > 0:
                gains[1] = ("city", "other")
        elif station == 5:  # R5.5: the round's drink points, the lowest's penalty
            schedule = prof["drink"]
            first, second = schedule[min(max(state["round"], 1), len(schedule)) - 1]
            gains[0] = _points(state, p, first, 1)
            gains[1] = _points(state, p, second, 2)
            gains[n - 1] = _points(state, p, -prof["drink_penalty"], n)
        elif station == 6:
            if state["last_round"]:  # R5.6: points in the last round
                first, second = prof["tachli_last_round"]
                gains[0] = _points(state, p, first, 1)
                gains[1] = _points(state, p, second, 2)
            elif state["improvements"]:  # R5.6: the higher card to first, the lower to second
                high, low = sorted(state["improvements"], reverse=True)
                gains[0], gains[1] = ("card", high), ("card", low)
            else:
                gains[0], gains[1] = ("card", 1), ("card", 2)
        else:
            raise ValueError(f"station {station} has no plain place gains (the pyramid: R5.4)")
        out[p] = gains
    return out
