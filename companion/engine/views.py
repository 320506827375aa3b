"""What each seat may see: the only way state leaves the server (DESIGN.md "Engine").

A seat sees its own deck, bids, sacrifice and dice decision; everyone sees revealed cards and
the public board. ``None`` is the table display. Before the game is over nobody sees another
seat's sacrifice (R1.2), unrevealed bids (R2.4-R2.6) or undecided dice (R3.2).
"""

from __future__ import annotations

from typing import Any

from companion.engine.bonusdice import outlook
from companion.engine.explain import describe
from companion.engine.jsondata import clone
from companion.engine.scoring import score_lines
from companion.engine.state import Event, State

PUBLIC_KEYS = (
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


def view(state: State, seat: str | None) -> dict[str, Any]:
    """The state as ``seat`` may see it (``None``: the public table view).

    >>> from companion.engine import new_game, apply
    >>> s, _ = apply(new_game(["ana", "ben", "cleo"]), {"type": "sacrifice", "player": "ana",
    ...                                                "card": 5})
    >>> mine, theirs = view(s, "ana"), view(s, "ben")
    >>> mine["players"]["ana"]["sacrifice"], theirs["players"]["ana"]["sacrifice"]
    (5, None)
    """
    return views(state, [seat])[seat]


def views(state: State, seats: list[str | None]) -> dict[str | None, dict[str, Any]]:
    """:func:`view` for several seats at once, for a broadcast: the public part is built once
    and shared by the returned views, so treat them as read-only (serialise them, for example).
    """
    for seat in seats:
        if seat is not None and seat not in state["players"]:
            raise ValueError(f"unknown seat {seat!r}")
    over = state["finished"]
    # The profile never changes during a game, so views share it rather than copy it.
    base: dict[str, Any] = {
        k: (state[k] if k == "profile" else clone(state[k])) for k in PUBLIC_KEYS
    }
    public_players = {p: _player_view(ps, over) for p, ps in state["players"].items()}
    awaited = {e.get("player") for e in state["pending"] if e["type"] == "bid"}
    base["bid_status"] = (
        {p: p not in awaited for p in state["players"]} if state["phase"] == "bid" else None
    )
    window = state["dice_window"]
    dice_open = window is not None and state["phase"] in ("dice", "roll")
    # Effective bids before dice and what a roll could change: public facts only (R3.3).
    bids = outlook(state, window["station"]) if dice_open else None
    public_projection = None if over else projection(state, None)
    out: dict[str | None, dict[str, Any]] = {}
    for seat in seats:
        v = dict(base)
        v["me"] = seat
        if seat is None:
            v["players"] = public_players
        else:
            v["players"] = {
                **public_players,
                seat: _player_view(state["players"][seat], True, own=True),
            }
        v["dice_window"] = _dice_view(state, seat, bids) if dice_open else None
        v["projection"] = public_projection if seat is None or over else projection(state, seat)
        out[seat] = v
    return out


def _player_view(ps: dict[str, Any], visible: bool, own: bool = False) -> dict[str, Any]:
    return {
        "score": ps["score"],
        "huts": ps["huts"],
        "dice": ps["dice"],
        "cubes_used": ps["cubes_used"],
        "final": clone(ps["final"]),
        "deck_size": len(ps["deck"]),
        # The deck would give the sacrifice away (13 cards minus one), so it is private.
        "deck": list(ps["deck"]) if visible else None,
        "sacrifice": ps["sacrifice"] if visible else None,
        "used": list(ps["used"]) if own else None,
        "bids": clone(ps["bids"]) if own else None,
    }


def _dice_view(state: State, seat: str | None, bids: Any) -> dict[str, Any]:
    window = state["dice_window"]
    decided = window["choices"]
    players = state["players"]
    return {
        "station": window["station"],
        "decided": {p: p in decided for p in players if players[p]["dice"] or p in decided},
        # Choices are shown once everyone has decided (R3.2); before that only one's own.
        "choices": dict(decided)
        if state["phase"] == "roll"
        else ({seat: decided[seat]} if seat in decided else {}),
        "rolls": clone(window["rolls"]),
        "bids": bids,
    }


def projection(state: State, seat: str | None) -> dict[str, dict[str, Any]]:
    """Every player's score "if the game ended now" (R7), without what ``seat`` may not know:
    others' sacrifices, the sacrifice bonus (it would hint at them) and unrolled dice."""
    sacrifices = {p: (ps["sacrifice"] if p == seat else None) for p, ps in state["players"].items()}
    dice = {p: (0 if ps["dice"] == 0 else None) for p, ps in state["players"].items()}
    return score_lines(state, sacrifices, dice)


def visible_events(events: list[Event], seat: str | None) -> list[Event]:
    """``events`` with every private field removed unless it belongs to ``seat``."""
    out = []
    for e in events:
        private = e.get("private")
        if private and e.get("player") != seat:
            e = {k: v for k, v in e.items() if k not in private}
            if "text" in e:
                e["text"] = describe(e)
        out.append(e)
    return out
