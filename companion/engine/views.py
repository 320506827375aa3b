"""What each seat may see: the only way state leaves the server (DESIGN.md "Engine").

A seat sees its own deck, bids, sacrifice and dice decision; everyone sees revealed cards and
the public board. ``None`` is the table display. Before the game is over nobody sees another
seat's sacrifice (R1.2), unrevealed bids (R2.4-R2.6) or undecided dice (R3.2).
"""

from __future__ import annotations

from typing import cast

from companion.engine.asks import bid_shape
from companion.engine.bonusdice import outlook
from companion.engine.explain import describe
from companion.engine.jsondata import clone
from companion.engine.scoring import score_lines
from companion.engine.types import (
    BidOutlook,
    DiceWindowView,
    Event,
    FinalLine,
    PlayerState,
    PlayerView,
    State,
    View,
)


def view(state: State, seat: str | None) -> View:
    """The state as ``seat`` may see it (``None``: the public table view).

    >>> from companion.engine import new_game, apply
    >>> s, _ = apply(new_game(["ana", "ben", "cleo"]), {"type": "sacrifice", "player": "ana",
    ...                                                "card": 5})
    >>> mine, theirs = view(s, "ana"), view(s, "ben")
    >>> mine["players"]["ana"]["sacrifice"], theirs["players"]["ana"]["sacrifice"]
    (5, None)

    While a bid is awaited the view says its shape (R2.4-R2.6), so a pad need not know it:

    >>> s = new_game(["ana", "ben", "cleo"])
    >>> for p in ("ana", "ben", "cleo"):
    ...     s, _ = apply(s, {"type": "sacrifice", "player": p, "card": 0})
    >>> s, _ = apply(s, {"type": "harvest", "dice": [1, 2, 3]})
    >>> s, _ = apply(s, {"type": "improvements", "cards": [13, 10]})
    >>> view(s, "ana")["bid_shape"]  # box 0 is red (R2.3): one bid, two cards a station
    {'stations': ['1', '2', '3', '4', '5', '6'], 'cards': 2}
    """
    return views(state, [seat])[seat]


def views(state: State, seats: list[str | None]) -> dict[str | None, View]:
    """:func:`view` for several seats at once, for a broadcast: the public part is built once
    and shared by the returned views, so treat them as read-only (serialise them, for example).
    """
    for seat in seats:
        if seat is not None and seat not in state["players"]:
            raise ValueError(f"unknown seat {seat!r}")
    over = state["finished"]
    public_players = {p: _player_view(ps, over) for p, ps in state["players"].items()}
    bidding = state["phase"] == "bid"
    awaited = {e.get("player") for e in state["pending"] if e["type"] == "bid"}
    step = state["step"]
    window = state["dice_window"]
    dice_open = window is not None and state["phase"] in ("dice", "roll")
    # Effective bids before dice and what a roll could change: public facts only (R3.3).
    station = window["station"] if window is not None else None
    bids = outlook(state, station) if dice_open and station is not None else None
    public_projection = None if over else projection(state, None)
    # The public part, built once. The profile never changes during a game, so views share
    # it rather than copy it.
    base: View = {
        "round": state["round"],
        "mode": state["mode"],
        "last_round": state["last_round"],
        "last_round_reason": state["last_round_reason"],
        "finished": over,
        "pending": clone(state["pending"]),
        "chocolatl": state["chocolatl"],
        "old_man": state["old_man"],
        "returning": state["returning"],
        "track": clone(state["track"]),
        "pyramid": clone(state["pyramid"]),
        "winners": list(state["winners"]),
        "seats": list(state["seats"]),
        "profile": state["profile"],
        "phase": state["phase"],
        "step": step,
        "station": state["station"],
        "harvest": clone(state["harvest"]),
        "improvements": clone(state["improvements"]),
        "revealed": clone(state["revealed"]),
        "decision": clone(state["decision"]),
        "bid_status": {p: p not in awaited for p in state["players"]} if bidding else None,
        "bid_shape": bid_shape(step) if bidding and step is not None else None,  # R2.4-R2.6
        "me": None,
        "players": public_players,
        "dice_window": None,
        "projection": public_projection,
    }
    out: dict[str | None, View] = {}
    for seat in seats:
        v = base.copy()
        v["me"] = seat
        if seat is not None:
            v["players"] = {
                **public_players,
                seat: _player_view(state["players"][seat], True, own=True),
            }
        v["dice_window"] = _dice_view(state, seat, bids) if dice_open else None
        if seat is not None and not over:
            v["projection"] = projection(state, seat)
        out[seat] = v
    return out


def _player_view(ps: PlayerState, visible: bool, own: bool = False) -> PlayerView:
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


def _dice_view(
    state: State, seat: str | None, bids: dict[str, BidOutlook] | None
) -> DiceWindowView:
    window = state["dice_window"]
    assert window is not None, "only while a dice window is open"
    decided = window["choices"]
    players = state["players"]
    return {
        "station": window["station"],
        "decided": {p: p in decided for p in players if players[p]["dice"] or p in decided},
        # Choices are shown once everyone has decided (R3.2); before that only one's own.
        "choices": dict(decided)
        if state["phase"] == "roll"
        else ({seat: decided[seat]} if seat is not None and seat in decided else {}),
        "rolls": clone(window["rolls"]),
        "bids": bids,
    }


def projection(state: State, seat: str | None) -> dict[str, FinalLine]:
    """Every player's score "if the game ended now" (R7), without what ``seat`` may not know:
    others' sacrifices, the sacrifice bonus (it would hint at them) and unrolled dice."""
    sacrifices = {p: (ps["sacrifice"] if p == seat else None) for p, ps in state["players"].items()}
    dice = {p: (0 if ps["dice"] == 0 else None) for p, ps in state["players"].items()}
    return score_lines(state, sacrifices, dice)


def visible_events(events: list[Event], seat: str | None) -> list[Event]:
    """``events`` with every private field removed unless it belongs to ``seat``."""
    out: list[Event] = []
    for e in events:
        if (
            e["type"] == "sacrificed" or e["type"] == "bid_placed" or e["type"] == "dice_decided"
        ) and (e["player"] != seat and e["private"]):
            private = e["private"]
            # The same event without the private fields (they are NotRequired in its type).
            e = cast(Event, {k: v for k, v in e.items() if k not in private})
            if "text" in e:
                e["text"] = describe(e)
        out.append(e)
    return out
