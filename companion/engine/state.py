"""The game state as plain JSON data, and the small moves every rule uses on it.

The state is a ``dict`` that ``json.dumps`` writes as-is; its keys are those of the replay
output in SCENARIO.md plus the bookkeeping the flow needs (phase, step, bids, dice window).
Functions here mutate a state in place; :func:`companion.engine.apply` copies first.
"""

from __future__ import annotations

import re

from companion.engine.errors import InvalidSetup
from companion.engine.profile import make_profile
from companion.engine.types import Event, LastRoundReason, PlayerState, ScoreReason, State

PLAYER_ID = re.compile(r"[a-z][a-z0-9_-]{0,15}")
FULL_DECK = tuple(range(13))  # R1.1: cards 0..12


def new_game(players: object, stack: object = None, profile: object = None) -> State:
    """A game waiting for every player's sacrifice (R1).

    >>> s = new_game(["ana", "ben", "cleo"], stack=["ben", "ana", "cleo"])
    >>> s["track"], s["round"], s["pending"][0]
    ({'0': ['ben', 'ana', 'cleo']}, 0, {'type': 'sacrifice', 'player': 'ana'})
    """
    if not isinstance(players, list) or not 3 <= len(players) <= 5:
        raise InvalidSetup("a game needs 3 to 5 players")  # R1.1
    ids: list[str] = []
    for p in players:
        if not isinstance(p, str) or not PLAYER_ID.fullmatch(p):
            raise InvalidSetup(f"player id {p!r} must match [a-z][a-z0-9_-]{{0,15}}")
        ids.append(p)
    if len(set(ids)) != len(ids):
        raise InvalidSetup("player ids must be different")
    if stack is None:
        stack = list(ids)
    if not isinstance(stack, list) or len(stack) != len(ids) or any(p not in stack for p in ids):
        raise InvalidSetup("stack must list every player exactly once")  # R1.3
    prof = make_profile(profile)
    return {
        "round": 0,
        "mode": None,
        "last_round": False,
        "finished": False,
        "pending": [{"type": "sacrifice", "player": p} for p in ids],
        "chocolatl": None,  # R1.4
        "old_man": None,
        "players": {p: _new_player() for p in ids},
        "track": {"0": [str(p) for p in stack]},
        "pyramid": [[None] * cells for cells, _bonus in prof["pyramid_rows"]],
        "winners": [],
        "seats": list(ids),
        "profile": prof,
        "phase": "sacrifice",
        "step": None,
        "station": None,
        "returning": None,
        "harvest": None,
        "improvements": None,
        "revealed": {},  # station -> player -> cards shown this round
        "dice_window": None,
        "decision": None,
        "last_round_reason": None,
    }


def _new_player() -> PlayerState:
    return {
        "score": 0,
        "deck": list(FULL_DECK),
        "huts": 0,
        "dice": 0,
        "cubes_used": 0,
        "sacrifice": None,
        "final": None,
        "used": [],  # cards bid this round (R2.7)
        "bids": {},  # station -> cards bid this round, secret until revealed
    }


def stack_position(state: State, player: str) -> int:
    """Height of ``player``'s marker in the stack on its box (0 = bottom)."""
    return state["track"][str(state["players"][player]["score"])].index(player)


def leader_box(state: State) -> int:
    """The box of the leading marker(s) (R2.3)."""
    return max(p["score"] for p in state["players"].values())


def add_score(
    state: State, player: str, points: int, reason: ScoreReason, events: list[Event]
) -> None:
    """Move ``player``'s marker by ``points`` (R6.1): cut at 0, a moved marker goes on top."""
    ps = state["players"][player]
    old = ps["score"]
    new = max(0, old + points)
    if new != old:
        track = state["track"]
        stack = track[str(old)]
        stack.remove(player)
        if not stack:
            del track[str(old)]
        track.setdefault(str(new), []).append(player)
        ps["score"] = new
    events.append(
        {
            "type": "scored",
            "player": player,
            "points": points,
            "reason": reason,
            "from": old,
            "score": new,
        }
    )
    if new >= state["profile"]["end_score"]:
        end_this_round(state, "end_score", events)


def pyramid_full(state: State) -> bool:
    return all(cell is not None for row in state["pyramid"] for cell in row)


def end_this_round(state: State, reason: LastRoundReason, events: list[Event]) -> None:
    """Make the current round the last (R6.3); the first reason found is kept."""
    if not state["last_round"]:
        state["last_round"] = True
        state["last_round_reason"] = reason
        events.append({"type": "last_round", "reason": reason, "round": state["round"]})


def use_cube(state: State, player: str, events: list[Event]) -> None:
    """Count a cube as used (R6.4: also past the supply); all used ends the game (R6.3)."""
    ps = state["players"][player]
    ps["cubes_used"] += 1
    if ps["cubes_used"] >= state["profile"]["cubes"]:
        end_this_round(state, "cubes", events)
