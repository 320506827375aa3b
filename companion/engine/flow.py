"""Game flow: which command is awaited, checking it, and moving the game on (R2, R3, R6, R7).

Every handler checks the whole command before it changes anything, so a refusal leaves even
the in-place state untouched; :func:`apply` also works on a copy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeGuard

from companion.engine import scoring, stations
from companion.engine.asks import STATIONS, bid_shape
from companion.engine.errors import MalformedCommand, NotAwaited, RuleViolation
from companion.engine.profile import track_colour
from companion.engine.ranking import rank_station, station_order
from companion.engine.state import leader_box
from companion.engine.types import (
    COMMAND_FIELDS,
    CommandType,
    DiceWindow,
    Event,
    Pending,
    State,
    Step,
)

# A command as it arrives (a log line, a phone's message): checked field by field here.
RawCommand = Mapping[str, object]


class Unread(list[Event]):
    """The events of a command applied by :func:`apply_made`, which nobody reads: a station
    is ranked without the ranking event's parts and ties (ranking.station_order)."""


def _is_int(v: object) -> TypeGuard[int]:
    return type(v) is int  # not bool: True is no card


def _describe(entry: Pending) -> str:
    return entry["type"] + (f" from {entry['player']}" if "player" in entry else "")


def _awaited(state: State, ctype: CommandType, player: str | None) -> int:
    """Index of the pending entry this command answers, or a refusal saying what is awaited."""
    for i, entry in enumerate(state["pending"]):
        if entry["type"] == ctype and entry.get("player") == player:
            return i
    if state["finished"]:
        raise NotAwaited("the game is over")
    waiting = ", ".join(_describe(e) for e in state["pending"])
    who = f" from {player}" if player else ""
    if ctype == "bid" and state["phase"] == "bid" and player is not None:
        raise NotAwaited(f"{player} has already bid for this step (waiting for: {waiting})")
    raise NotAwaited(f"no {ctype}{who} is awaited now (waiting for: {waiting})")


def _player(state: State, command: RawCommand) -> str:
    player = command.get("player")
    if type(player) is not str:
        raise MalformedCommand(f"a {command['type']} command needs a player")
    if player not in state["players"]:
        raise MalformedCommand(f"unknown player {player!r}")
    return player


def _int_list(command: RawCommand, field: str, length: int, low: int, high: int) -> list[int]:
    values = command.get(field)
    if not isinstance(values, list) or len(values) != length:
        raise MalformedCommand(f"{command['type']} needs {field}: a list of {length} values")
    for v in values:
        if not _is_int(v) or not low <= v <= high:
            raise RuleViolation(f"{v!r} is not a value from {low} to {high}")
    return values  # a list[Any] checked value by value above


# --- round flow -------------------------------------------------------------------------


def start_round(state: State, number: int, events: list[Event]) -> None:
    """R2.2 / R2.3: cards back, old man returns, mode from the leader's box, await the setup."""
    prof = state["profile"]
    for ps in state["players"].values():
        ps["used"] = []
        ps["bids"] = {}
    state["round"] = number
    state["returning"] = state["old_man"]
    state["old_man"] = None
    box = leader_box(state)
    state["mode"] = track_colour(prof, box)
    if number >= prof["max_rounds"]:
        state["last_round"] = True  # R2.1
        state["last_round_reason"] = "max_rounds"
    state["phase"] = "setup"
    state["step"] = None
    state["station"] = None
    state["harvest"] = None
    state["improvements"] = None
    state["revealed"] = {}
    state["dice_window"] = None
    state["decision"] = None
    state["pending"] = [{"type": "harvest"}]
    if number < prof["max_rounds"]:
        state["pending"].append({"type": "improvements"})
    leaders = [p for p, ps in state["players"].items() if ps["score"] == box]
    events.append(
        {
            "type": "round_started",
            "round": number,
            "mode": state["mode"],
            "leader_box": box,
            "leaders": leaders,
            "last_round": state["last_round"],
        }
    )


def _await_bids(state: State, step: Step) -> None:
    state["phase"] = "bid"
    state["step"] = step
    state["station"] = None
    state["pending"] = [{"type": "bid", "player": p} for p in state["players"]]


def _begin_bidding(state: State) -> None:
    mode = state["mode"]
    _await_bids(state, "all" if mode == "red" else "first" if mode == "green" else 1)


def _reveal(state: State, station: int, events: list[Event]) -> None:
    """R3.1 then the bonus dice window (R3.2), or straight to resolution."""
    key = str(station)
    state["station"] = station
    state["step"] = None
    cards = {p: ps["bids"][key] for p, ps in state["players"].items()}  # no longer changes
    state["revealed"][key] = cards
    events.append({"type": "revealed", "station": station, "cards": cards})
    holders = [p for p, ps in state["players"].items() if ps["dice"] > 0]
    if holders:
        state["phase"] = "dice"
        state["dice_window"] = {"station": station, "choices": {}, "rolls": {}}
        state["pending"] = [{"type": "dice", "player": p} for p in holders]
    else:
        _resolve(state, events)


def _resolve(state: State, events: list[Event]) -> None:
    station = state["station"]
    assert station is not None, "a station is being ranked"
    window = state["dice_window"]
    rolls: dict[str, list[int]] = window["rolls"] if window is not None else {}
    for p, values in rolls.items():
        state["players"][p]["dice"] -= len(values)  # R3.2: used dice leave the player
    if type(events) is Unread:
        order, lead = station_order(state, station, rolls)
    else:
        ranking = rank_station(state, station, rolls)
        events.append(ranking)
        order = ranking["order"]
        lead = 0
        if station == 4:
            totals = {e["player"]: e["total"] for e in ranking["entries"]}
            lead = totals[order[0]] - totals[order[1]]
    state["dice_window"] = None
    state["pending"] = []
    if station == 1:
        stations.chocolatl(state, order, events)
    elif station == 2:
        stations.harvest(state, order, events)
    elif station == 3:
        if stations.free_hut_spaces(state) > 0:
            state["phase"] = "city"
            state["decision"] = {"type": "city", "first": order[0], "second": order[1]}
            state["pending"] = [{"type": "city", "player": order[0]}]
            return
        stations.take_die(state, order[0], events)  # R5.3: no hut space left
    elif station == 4:
        if lead >= 3:  # R5.4: first places both cubes
            stations.place_cube(state, order[0], events)
            stations.place_cube(state, order[0], events)
        else:
            state["phase"] = "pyramid"
            state["decision"] = {"type": "pyramid", "first": order[0], "second": order[1]}
            state["pending"] = [{"type": "pyramid", "player": order[0]}]
            return
    elif station == 5:
        stations.drink(state, order, events)
    else:
        stations.tachli(state, order, events)
    _next_station(state, events)


def _next_station(state: State, events: list[Event]) -> None:
    station = state["station"]
    assert station is not None, "a station was just played"
    state["decision"] = None
    if station == 6:
        _end_round(state, events)
    elif state["mode"] == "gold":
        _await_bids(state, station + 1)  # R2.6
    else:
        _reveal(state, station + 1, events)  # R2.4, R2.5


def _end_round(state: State, events: list[Event]) -> None:
    events.append({"type": "round_ended", "round": state["round"]})
    state["station"] = None
    if not state["last_round"]:
        start_round(state, state["round"] + 1, events)
        return
    holders = [p for p, ps in state["players"].items() if ps["dice"] > 0]
    if holders:  # R7: a leftover black die is rolled once
        state["phase"] = "final_roll"
        state["pending"] = [{"type": "roll", "player": p} for p in holders]
        state["dice_window"] = {"station": None, "choices": {}, "rolls": {}}
    else:
        scoring.final_scoring(state, {}, events)


# --- command handlers -------------------------------------------------------------------


def _sacrifice(state: State, command: RawCommand, events: list[Event]) -> None:
    player = _player(state, command)
    i = _awaited(state, "sacrifice", player)
    card = command.get("card")
    if not _is_int(card) or not 0 <= card <= 12:
        raise RuleViolation(f"the sacrifice must be one of your cards 0 to 12, not {card!r}")
    ps = state["players"][player]
    ps["sacrifice"] = card  # R1.2
    ps["deck"].remove(card)
    del state["pending"][i]
    events.append({"type": "sacrificed", "player": player, "card": card, "private": ["card"]})
    if not state["pending"]:
        start_round(state, 1, events)


def _harvest(state: State, command: RawCommand, events: list[Event]) -> None:
    i = _awaited(state, "harvest", None)
    dice = _int_list(command, "dice", 3, 1, 6)
    state["harvest"] = list(dice)
    del state["pending"][i]
    events.append({"type": "harvest_dice", "dice": list(dice)})
    if not state["pending"]:
        _begin_bidding(state)


def _improvements(state: State, command: RawCommand, events: list[Event]) -> None:
    i = _awaited(state, "improvements", None)
    cards = _int_list(command, "cards", 2, 0, 99)
    state["improvements"] = list(cards)
    del state["pending"][i]
    events.append({"type": "improvement_cards", "cards": list(cards)})
    if not state["pending"]:
        _begin_bidding(state)


# The bid shapes of every step, worked out once (asks.bid_shape, R2.4-R2.6).
_SHAPES: dict[Step, tuple[list[str], int]] = {
    step: (shape["stations"], shape["cards"])
    for step in ("all", "first", "second", 1, 2, 3, 4, 5, 6)
    for shape in [bid_shape(step)]
}


def _bad_bid_shape(state: State) -> RuleViolation:
    step = state["step"]
    if step == "all":
        return RuleViolation("a red round's bid gives all six stations two cards each")
    if step in ("first", "second"):
        return RuleViolation(f"a green round's {step} bid gives all six stations one card each")
    return RuleViolation(f"this gold step's bid gives station {step} two cards")


def _bid(state: State, command: RawCommand, events: list[Event]) -> None:
    player = _player(state, command)
    i = _awaited(state, "bid", player)
    bids = command.get("bids")
    step = state["step"]
    assert step is not None, "a bid step is open"
    keys, per_station = _SHAPES[step]
    if type(bids) is not dict or len(bids) != len(keys):
        raise _bad_bid_shape(state)
    ps = state["players"][player]
    deck = ps["deck"]
    used = ps["used"]
    taken: list[int] = []
    # The deck may hold equal improvement cards: a card is free while the deck holds more of
    # it than are used. Early in a round the free cards are cheapest to list; later (a gold
    # round's last stations) to count.
    free: list[int] | None = None
    if len(used) <= len(keys) * per_station:
        free = list(deck)
        try:
            for card in used:
                free.remove(card)
        except ValueError:  # not the engine's bookkeeping: count instead
            free = None
    for k in keys:
        cards = bids.get(k)
        if type(cards) is not list or len(cards) != per_station:
            raise _bad_bid_shape(state)
        for card in cards:
            if type(card) is not int:
                raise MalformedCommand(f"{card!r} is not a card")
            if free is None:
                ok = used.count(card) + taken.count(card) < deck.count(card)
            elif card in free:
                free.remove(card)
                ok = True
            else:
                ok = False
            if not ok:
                if card not in deck:
                    raise RuleViolation(f"card {card} is not in your deck")
                raise RuleViolation(f"card {card} is already used this round")  # R2.7
            taken.append(card)
    own_bids = ps["bids"]
    checked: dict[str, list[int]] = bids  # checked card by card above
    for k in keys:
        earlier = own_bids.get(k)
        own_bids[k] = list(checked[k]) if earlier is None else earlier + checked[k]
    used.extend(taken)
    del state["pending"][i]
    events.append(
        {
            "type": "bid_placed",
            "player": player,
            "step": state["step"],
            "bids": bids,
            "private": ["bids"],
        }
    )  # events are read-only
    if not state["pending"]:
        _bids_in(state, step, events)


def _bids_in(state: State, step: Step, events: list[Event]) -> None:
    """Every bid of ``step`` is in: show the first cards (green) or reveal a station."""
    if step == "first":  # R2.5: all first cards are shown together
        cards = {k: {p: list(q["bids"][k]) for p, q in state["players"].items()} for k in STATIONS}
        state["revealed"] = cards
        events.append(
            {"type": "first_cards_revealed", "cards": {k: dict(v) for k, v in cards.items()}}
        )
        _await_bids(state, "second")
    elif step == "all" or step == "second":
        _reveal(state, 1, events)
    else:
        _reveal(state, step, events)


def _dice(state: State, command: RawCommand, events: list[Event]) -> None:
    player = _player(state, command)
    i = _awaited(state, "dice", player)
    count = command.get("count")
    held = state["players"][player]["dice"]
    if not _is_int(count) or not 0 <= count <= held:
        raise RuleViolation(f"you can use 0 to {held} bonus dice, not {count!r}")
    window = state["dice_window"]
    assert window is not None, "a dice window is open"
    window["choices"][player] = count
    del state["pending"][i]
    events.append({"type": "dice_decided", "player": player, "count": count, "private": ["count"]})
    if not state["pending"]:
        _choices_in(state, window, events)


def _choices_in(state: State, window: DiceWindow, events: list[Event]) -> None:
    """R3.2: every dice holder has decided: the dice used are rolled, or the station ranked."""
    choices = dict(window["choices"])
    events.append({"type": "dice_choices", "station": state["station"], "choices": choices})
    rollers = [p for p, c in choices.items() if c > 0]
    if rollers:
        state["phase"] = "roll"
        state["pending"] = [{"type": "roll", "player": p} for p in rollers]
    else:
        _resolve(state, events)


def _roll(state: State, command: RawCommand, events: list[Event]) -> None:
    player = _player(state, command)
    i = _awaited(state, "roll", player)
    window = state["dice_window"]
    assert window is not None, "a dice window is open"
    final = state["phase"] == "final_roll"
    count = 1 if final else window["choices"][player]
    values = _int_list(command, "values", count, 1, 6)
    window["rolls"][player] = list(values)
    del state["pending"][i]
    events.append({"type": "rolled", "player": player, "values": list(values)})
    if not state["pending"]:
        _rolls_in(state, window, final, events)


def _rolls_in(state: State, window: DiceWindow, final: bool, events: list[Event]) -> None:
    """Every die is rolled: the final scoring (R7) or the station's ranking (R3.2)."""
    if final:
        scoring.final_scoring(state, {p: v[0] for p, v in window["rolls"].items()}, events)
        state["dice_window"] = None
    else:
        _resolve(state, events)


def _city(state: State, command: RawCommand, events: list[Event]) -> None:
    player = _player(state, command)
    i = _awaited(state, "city", player)
    choice = command.get("choice")
    if choice != "hut" and choice != "die":
        raise RuleViolation(f"the city choice is 'hut' or 'die', not {choice!r}")
    decision = state["decision"]
    assert decision is not None, "a decision is awaited"
    del state["pending"][i]
    events.append({"type": "city_choice", "player": player, "choice": choice})
    stations.city(state, decision["first"], decision["second"], choice, events)
    _next_station(state, events)


def _pyramid(state: State, command: RawCommand, events: list[Event]) -> None:
    player = _player(state, command)
    i = _awaited(state, "pyramid", player)
    decision = state["decision"]
    assert decision is not None, "a decision is awaited"
    pair = (decision["first"], decision["second"])
    first = command.get("first")
    if first != pair[0] and first != pair[1]:
        raise RuleViolation(f"first must be {pair[0]} or {pair[1]}, not {first!r}")
    del state["pending"][i]
    events.append({"type": "pyramid_order", "player": player, "first": first})
    for p in (first, pair[1] if first == pair[0] else pair[0]):
        stations.place_cube(state, p, events)
    _next_station(state, events)


_FIELD_COUNT = {kind: len(fields) for kind, fields in COMMAND_FIELDS.items()}
Handler = Callable[[State, RawCommand, list[Event]], None]
HANDLERS: dict[str, Handler] = {
    "sacrifice": _sacrifice,
    "harvest": _harvest,
    "improvements": _improvements,
    "bid": _bid,
    "dice": _dice,
    "roll": _roll,
    "city": _city,
    "pyramid": _pyramid,
}


def apply_in_place(state: State, command: object) -> list[Event]:
    """Apply ``command`` to ``state`` itself; on refusal nothing has changed.

    A command carries exactly its type's fields (SCENARIO.md "Commands"); any other key is
    refused, so nothing unchecked is kept in a game log:

    >>> from companion.engine import new_game
    >>> apply_in_place(new_game(["ana", "ben", "cleo"]),
    ...                {"type": "sacrifice", "player": "ana", "card": 3, "note": "hi"})
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.engine.errors.MalformedCommand: a sacrifice command has no field 'note' (its ...
    """
    if not isinstance(command, dict):
        raise MalformedCommand("a command must be an object with a type")
    kind = command.get("type")
    if type(kind) is not str or (handler := HANDLERS.get(kind)) is None:
        raise MalformedCommand(f"unknown command type {command.get('type')!r}")
    # Every field of a command is required, so a command with as many keys as its type has
    # fields either has exactly those or lacks one, which its handler refuses by name.
    if len(command) != _FIELD_COUNT[kind]:
        fields = COMMAND_FIELDS[kind]
        for key in command:
            if key not in fields:
                raise MalformedCommand(unknown_field(kind, key))
    events: list[Event] = []
    handler(state, command, events)
    return events


# --- commands made from the state itself ---------------------------------------------------
#
# A search plays thousands of games a decision with commands its players made from the state
# they answer (free cards, the bid's shape, the dice held): checking them again and building
# the events nobody reads was a large part of a playout. These handlers change the state
# exactly as the checked ones do for every legal command (tests/engine/test_made.py) and
# leave out only the checks.

# A command made by a player from the state it answers, so of its type's shape.
MadeCommand = Mapping[str, Any]


def _bid_made(state: State, command: MadeCommand, events: list[Event]) -> None:
    player: str = command["player"]
    i = _awaited(state, "bid", player)
    bids: dict[str, list[int]] = command["bids"]
    step = state["step"]
    assert step is not None, "a bid step is open"
    ps = state["players"][player]
    own_bids = ps["bids"]
    used = ps["used"]
    for k in _SHAPES[step][0]:  # R2.4-R2.6: the step's stations, in the checked order
        cards = bids[k]
        earlier = own_bids.get(k)
        own_bids[k] = list(cards) if earlier is None else earlier + cards
        used.extend(cards)  # R2.7
    del state["pending"][i]
    events.append(
        {"type": "bid_placed", "player": player, "step": step, "bids": bids, "private": ["bids"]}
    )
    if not state["pending"]:
        _bids_in(state, step, events)


def _dice_made(state: State, command: MadeCommand, events: list[Event]) -> None:
    player: str = command["player"]
    i = _awaited(state, "dice", player)
    count: int = command["count"]
    window = state["dice_window"]
    assert window is not None, "a dice window is open"
    window["choices"][player] = count
    del state["pending"][i]
    events.append({"type": "dice_decided", "player": player, "count": count, "private": ["count"]})
    if not state["pending"]:
        _choices_in(state, window, events)


def _roll_made(state: State, command: MadeCommand, events: list[Event]) -> None:
    player: str = command["player"]
    i = _awaited(state, "roll", player)
    window = state["dice_window"]
    assert window is not None, "a dice window is open"
    values: list[int] = command["values"]
    window["rolls"][player] = list(values)
    del state["pending"][i]
    events.append({"type": "rolled", "player": player, "values": list(values)})
    if not state["pending"]:
        _rolls_in(state, window, state["phase"] == "final_roll", events)


# The rarer commands of a playout go through the checked handlers.
MADE_HANDLERS: dict[str, Handler] = {
    **HANDLERS,
    "bid": _bid_made,
    "dice": _dice_made,
    "roll": _roll_made,
}


def apply_made(state: State, command: MadeCommand) -> None:
    """:func:`apply_in_place` for a command its maker built from ``state`` itself as the rules
    allow (a search's players): the same state, without checking the command again and
    without the events (a playout reads only the state).

    Only a command awaited now is taken (``NotAwaited`` otherwise); anything else about an
    illegal command may go unnoticed, so commands from outside (phones, logs, a host) always
    go through :func:`apply_in_place`.
    """
    MADE_HANDLERS[command["type"]](state, command, Unread())


def unknown_field(kind: str, key: object) -> str:
    """The refusal of a command with a key its type does not have (SCENARIO.md "Commands")."""
    fields = ", ".join(sorted(COMMAND_FIELDS[kind]))
    return f"a {kind} command has no field {key!r} (its fields: {fields})"
