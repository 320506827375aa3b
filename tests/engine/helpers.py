"""Drive real games through the engine's public API (new_game / apply) in a few words.

Tests build every situation by playing commands, never by editing state dicts, so a test also
checks that the situation is reachable. Every ``apply`` made here also checks that the input
state was not changed (the engine is pure).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from companion.engine import IllegalCommand, apply, new_game

STATIONS = ("1", "2", "3", "4", "5", "6")
# Every station bid 13 (1+12, 2+11, ...): all bids tie and the tie rules decide everything.
EVEN = [(1, 12), (2, 11), (3, 10), (4, 9), (5, 8), (6, 7)]
# Face-up improvement cards that leave a 1..12 deck as it is: R5.6 discards the 1 and the new
# 1 joins, so EVEN stays playable round after round.
KEEP = (1, 1)

Pairs = list[tuple[int, int]]
Plan = dict[str, Pairs]


def dump(state: dict[str, Any]) -> str:
    return json.dumps(state, sort_keys=True)


def pairs(*stations: tuple[int, int]) -> Pairs:
    """Six (card, card) pairs, one per station 1..6, checked to use 6 x 2 different cards."""
    cards = [c for pair in stations for c in pair]
    assert len(stations) == 6 and len(set(cards)) == 12, stations
    return [tuple(p) for p in stations]  # type: ignore[misc]


def paired(deck: list[int]) -> Pairs:
    """Lowest with highest, second lowest with second highest, ... for stations 1..6."""
    return [(deck[i], deck[11 - i]) for i in range(6)]


class Game:
    """A game played command by command; keeps the document (for replay) and all events."""

    def __init__(
        self,
        players: list[str] | tuple[str, ...] = ("ana", "ben", "cleo"),
        stack: list[str] | None = None,
        profile: dict[str, Any] | None = None,
    ) -> None:
        self.players = list(players)
        self.document: dict[str, Any] = {"players": self.players, "commands": []}
        if stack is not None:
            self.document["stack"] = list(stack)
        if profile is not None:
            self.document["profile"] = profile
        self.state = new_game(self.players, stack, profile)
        self.events: list[dict[str, Any]] = []

    # --- raw commands ---------------------------------------------------------------

    @property
    def commands(self) -> list[dict[str, Any]]:
        return self.document["commands"]

    def do(self, command: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply ``command`` (it must be accepted); return its events."""
        before = dump(self.state)
        new, events = apply(self.state, command)
        assert dump(self.state) == before, "apply changed its input state"
        self.state = new
        self.commands.append(command)
        self.events.extend(events)
        return events

    def refuse(self, command: Any, *words: str) -> str:
        """Assert ``command`` is refused with a message holding ``words``, changing nothing."""
        before = dump(self.state)
        with pytest.raises(IllegalCommand) as info:
            apply(self.state, command)
        assert dump(self.state) == before
        message = str(info.value)
        assert len(message.split()) >= 3, f"refusal too terse: {message!r}"
        for word in words:
            assert word in message, f"{word!r} not in refusal {message!r}"
        return message

    # --- reading --------------------------------------------------------------------

    def p(self, player: str) -> dict[str, Any]:
        return self.state["players"][player]

    def scores(self) -> dict[str, int]:
        return {p: ps["score"] for p, ps in self.state["players"].items()}

    def pending(self) -> list[dict[str, Any]]:
        return self.state["pending"]

    def pending_types(self) -> list[str]:
        return [e["type"] for e in self.state["pending"]]

    def of_type(self, kind: str, events: list[dict[str, Any]] | None = None) -> list[dict]:
        return [e for e in (self.events if events is None else events) if e["type"] == kind]

    def scored(
        self, *reasons: str, events: list[dict[str, Any]] | None = None
    ) -> list[tuple[str, int, int]]:
        """(player, points, actual change) of the score events with one of ``reasons``."""
        return [
            (e["player"], e["points"], e["score"] - e["from"])
            for e in self.of_type("scored", events)
            if e["reason"] in reasons
        ]

    def ranking(self, station: int, events: list[dict[str, Any]] | None = None) -> dict:
        """The last ranking event of ``station``."""
        found = [e for e in self.of_type("ranking", events) if e["station"] == station]
        assert found, f"station {station} was not ranked"
        return found[-1]

    def totals(self, station: int) -> dict[str, int]:
        return {e["player"]: e["total"] for e in self.ranking(station)["entries"]}

    # --- setup ----------------------------------------------------------------------

    def sacrifice_all(self, cards: dict[str, int] | int = 0) -> list[dict]:
        events = []
        for p in self.players:
            card = cards if isinstance(cards, int) else cards[p]
            events += self.do({"type": "sacrifice", "player": p, "card": card})
        return events

    def setup(
        self, harvest: tuple[int, int, int] = (1, 2, 3), improvements: tuple[int, int] = KEEP
    ) -> list[dict]:
        """Answer the round setup (R2.2): harvest dice, and the cards when they are awaited."""
        events = self.do({"type": "harvest", "dice": list(harvest)})
        if "improvements" in self.pending_types():
            events += self.do({"type": "improvements", "cards": list(improvements)})
        return events

    # --- bidding and decisions ---------------------------------------------------------

    def bid_red(self, plan: Plan) -> list[dict]:
        """R2.4: every player's twelve cards at once (players in plan order)."""
        events = []
        for p, prs in plan.items():
            events += self.do(
                {
                    "type": "bid",
                    "player": p,
                    "bids": {s: list(pr) for s, pr in zip(STATIONS, prs, strict=True)},
                }
            )
        return events

    def bid_green(self, plan: Plan, which: int) -> list[dict]:
        """R2.5: card ``which`` (0 = first, 1 = second) of every station's pair."""
        events = []
        for p, prs in plan.items():
            events += self.do(
                {
                    "type": "bid",
                    "player": p,
                    "bids": {s: [pr[which]] for s, pr in zip(STATIONS, prs, strict=True)},
                }
            )
        return events

    def bid_gold(self, plan: Plan, station: int) -> list[dict]:
        """R2.6: every player's two cards for ``station``."""
        events = []
        for p, prs in plan.items():
            events += self.do(
                {"type": "bid", "player": p, "bids": {str(station): list(prs[station - 1])}}
            )
        return events

    def decide(
        self,
        city: str = "hut",
        pyramid_first: str | Callable[[dict], str] | None = None,
        dice: dict[str, int] | None = None,
        rolls: dict[str, list[int]] | None = None,
        final_rolls: dict[str, int] | None = None,
        until_station: int | None = None,
        until_final: bool = False,
    ) -> list[dict]:
        """Answer every awaited decision (city, pyramid order, bonus dice, rolls) until a bid
        or host input is awaited. ``dice``: how many dice each holder uses in every window
        (default 0); ``rolls``: values per roller (default all 6s); ``pyramid_first``: who
        places first (default: the first-ranked player); ``until_station``: stop when the
        bonus dice window of that station opens; ``until_final``: stop at the final roll."""
        events: list[dict] = []
        while self.state["pending"]:
            if (
                until_station is not None
                and self.state["phase"] == "dice"
                and self.state["station"] == until_station
            ):
                break
            if until_final and self.state["phase"] == "final_roll":
                break
            entry = self.state["pending"][0]
            kind, player = entry["type"], entry.get("player")
            if kind == "city":
                events += self.do({"type": "city", "player": player, "choice": city})
            elif kind == "pyramid":
                d = self.state["decision"]
                first = pyramid_first(d) if callable(pyramid_first) else pyramid_first
                events += self.do(
                    {"type": "pyramid", "player": player, "first": first or d["first"]}
                )
            elif kind == "dice":
                count = (dice or {}).get(player, 0)
                events += self.do({"type": "dice", "player": player, "count": count})
            elif kind == "roll" and self.state["phase"] == "final_roll":
                value = (final_rolls or {}).get(player, 6)
                events += self.do({"type": "roll", "player": player, "values": [value]})
            elif kind == "roll":
                n = self.state["dice_window"]["choices"][player]
                values = (rolls or {}).get(player, [6] * n)
                events += self.do({"type": "roll", "player": player, "values": values})
            else:
                break
        return events

    def play_round(
        self,
        plan: Plan,
        harvest: tuple[int, int, int] = (1, 2, 3),
        improvements: tuple[int, int] = KEEP,
        **decisions: Any,
    ) -> list[dict]:
        """One whole round in whatever mode it is, with each player's six pairs of ``plan``
        (a player missing from ``plan`` pairs their deck lowest with highest)."""
        plan = {p: plan.get(p) or paired(self.p(p)["deck"]) for p in self.players}
        round_no = self.state["round"]
        events = self.setup(harvest, improvements)
        mode = self.state["mode"]
        if mode == "red":
            events += self.bid_red(plan)
            events += self.decide(**decisions)
        elif mode == "green":
            events += self.bid_green(plan, 0)
            events += self.bid_green(plan, 1)
            events += self.decide(**decisions)
        else:
            for station in range(1, 7):
                events += self.bid_gold(plan, station)
                events += self.decide(**decisions)
        assert self.state["round"] != round_no or self.state["finished"], "round did not end"
        return events


def single_round_game(
    players: tuple[str, ...] = ("ana", "ben", "cleo"),
    profile: dict[str, Any] | None = None,
    stack: list[str] | None = None,
    sacrifices: dict[str, int] | int = 0,
) -> Game:
    """A game whose only round is round 1 (max_rounds 1), sacrifices made, red mode."""
    prof = {"max_rounds": 1}
    prof.update(profile or {})
    g = Game(players, stack=stack, profile=prof)
    g.sacrifice_all(sacrifices)
    return g


def started(
    players: tuple[str, ...] = ("ana", "ben", "cleo"),
    profile: dict[str, Any] | None = None,
    stack: list[str] | None = None,
    sacrifices: dict[str, int] | int = 0,
) -> Game:
    """A game with every sacrifice made: round 1 awaits its setup."""
    g = Game(players, stack=stack, profile=profile)
    g.sacrifice_all(sacrifices)
    return g
