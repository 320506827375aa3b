"""What the rules ask of a seat now: the bid's shape, the free cards, the awaited command.

One place for these rules, so the engine that checks a command, the companion players that
make one and the phone pad that helps a person make one (through the view's ``bid_shape``)
always agree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Literal

from companion.engine.types import BidShape, Pending, Step

STATIONS = ("1", "2", "3", "4", "5", "6")
# The decisions a seat makes itself; rolls are typed in by the host or made by the dealer.
PLAYER_KINDS = ("sacrifice", "bid", "dice", "city", "pyramid")
PlayerKind = Literal["sacrifice", "bid", "dice", "city", "pyramid"]


def bid_shape(step: Step) -> BidShape:
    """The stations the bid of ``step`` covers and the cards it gives each (R2.4-R2.6).

    >>> bid_shape("all")  # R2.4: a red round's one bid
    {'stations': ['1', '2', '3', '4', '5', '6'], 'cards': 2}
    >>> bid_shape("second")["cards"]  # R2.5: a green round's bids give one card a station
    1
    >>> bid_shape(4)  # R2.6: a gold round bids station by station
    {'stations': ['4'], 'cards': 2}
    """
    if step == "all":
        return {"stations": list(STATIONS), "cards": 2}
    if step == "first" or step == "second":
        return {"stations": list(STATIONS), "cards": 1}
    return {"stations": [str(step)], "cards": 2}


def free_cards(player: Mapping[str, object]) -> list[int]:
    """A player's cards not yet bid this round (R2.7), lowest first; equal cards (improvement
    cards can repeat) count separately.

    >>> free_cards({"deck": [1, 3, 3, 7], "used": [3, 7]})
    [1, 3]
    """
    deck, used = player["deck"], player["used"]
    if not isinstance(deck, list) or not isinstance(used, list):
        raise ValueError(_NOT_CARDS)
    free = list(deck)
    try:  # the engine's bookkeeping: ``used`` is part of ``deck``, so removing is enough
        for card in used:
            free.remove(card)
    except ValueError:  # anything else: count what is left
        left = Counter(deck)
        left.subtract(used)
        return sorted(left.elements())
    free.sort()
    return free


_NOT_CARDS = "deck and used must be lists of cards (a seat's own view)"


def awaited(pending: Iterable[Pending], seat: str) -> PlayerKind | None:
    """The decision the engine awaits from ``seat`` now, if any.

    >>> awaited([{"type": "harvest"}, {"type": "bid", "player": "ana"}], "ana")
    'bid'
    >>> awaited([{"type": "roll", "player": "ana"}], "ana") is None  # a roll is the dealer's
    True
    """
    for entry in pending:
        if entry.get("player") == seat:
            kind = entry["type"]
            if kind == "sacrifice" or kind == "bid" or kind == "dice":
                return kind
            if kind == "city" or kind == "pyramid":
                return kind
    return None


def awaiting(pending: Iterable[Pending]) -> dict[str, frozenset[str]]:
    """Every seat the engine waits for now, first asked first, with what it waits for (rolls
    included: with digital dice a phone rolls). The host's "waiting for" list and the hub's
    check that a waited-for phone shows its question read this one answer.

    >>> seats = awaiting([{"type": "harvest"}, {"type": "dice", "player": "ben"},
    ...                   {"type": "roll", "player": "ana"}, {"type": "dice", "player": "ana"}])
    >>> {seat: sorted(kinds) for seat, kinds in seats.items()}
    {'ben': ['dice'], 'ana': ['dice', 'roll']}
    """
    out: dict[str, set[str]] = {}
    for entry in pending:
        player = entry.get("player")
        if player is not None:
            out.setdefault(str(player), set()).add(str(entry["type"]))
    return {seat: frozenset(kinds) for seat, kinds in out.items()}
