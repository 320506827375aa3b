"""Every kind of bad command is refused with a readable reason and changes nothing
(SCENARIO.md "Commands": refused with a message that says why, and the state does not change).

``Game.refuse`` checks the refusal is an ``IllegalCommand`` (a ``ValueError``), that its message
holds the given words, and that the state is byte-for-byte the same afterwards.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from companion.engine import (
    IllegalCommand,
    MalformedCommand,
    NotAwaited,
    RuleViolation,
    apply,
)

from .helpers import EVEN, Game, pairs, single_round_game, started

THREE = ("ana", "ben", "cleo")
RED_EVEN = {s: list(p) for s, p in zip("123456", EVEN, strict=True)}
GREEN_FIRST = {s: [p[0]] for s, p in zip("123456", EVEN, strict=True)}
ANA_S4_16 = pairs((1, 2), (3, 4), (6, 7), (12, 5), (8, 9), (10, 11))


def fresh() -> Game:
    return Game(THREE)


def setup_phase() -> Game:
    return started()


def red_bid() -> Game:
    g = started()
    g.setup()
    return g


def red_after_ana() -> Game:
    g = red_bid()
    g.bid_red({"ana": EVEN})
    return g


def green_first() -> Game:
    g = started(profile={"track_colors": ["green"]})
    g.setup()
    return g


def green_second() -> Game:
    g = green_first()
    g.bid_green({p: EVEN for p in THREE}, 0)
    return g


def gold_1() -> Game:
    g = started(profile={"track_colors": ["gold"]})
    g.setup()
    return g


def gold_2() -> Game:
    g = gold_1()
    g.bid_gold({p: EVEN for p in THREE}, 1)
    return g


def city() -> Game:
    g = red_bid()
    g.bid_red({p: EVEN for p in THREE})
    assert g.pending() == [{"type": "city", "player": "cleo"}]
    return g


def dice_window() -> Game:
    g = city()
    g.decide(until_station=4)
    assert g.pending() == [{"type": "dice", "player": "ben"}]
    return g


def roll_phase() -> Game:
    g = dice_window()
    g.do({"type": "dice", "player": "ben", "count": 1})
    return g


def pyramid() -> Game:
    g = red_bid()
    g.bid_red({"ana": ANA_S4_16, "ben": EVEN, "cleo": EVEN})
    g.decide(until_station=4)
    g.do({"type": "dice", "player": "ben", "count": 0})
    assert g.pending() == [{"type": "pyramid", "player": "ana"}]
    return g


def final_roll() -> Game:
    g = single_round_game()
    g.setup()
    g.bid_red({p: EVEN for p in THREE})
    g.decide(until_final=True)
    assert g.pending() == [{"type": "roll", "player": "ben"}]
    return g


def finished() -> Game:
    g = final_roll()
    g.do({"type": "roll", "player": "ben", "values": [3]})
    assert g.state["finished"]
    return g


Case = tuple[Callable[[], Game], object, tuple[str, ...], type[IllegalCommand]]

CASES: dict[str, Case] = {
    # shape
    "not an object (string)": (fresh, "sacrifice", ("object",), MalformedCommand),
    "not an object (list)": (fresh, [{"type": "sacrifice"}], ("object",), MalformedCommand),
    "not an object (null)": (fresh, None, ("object",), MalformedCommand),
    "missing type": (fresh, {"player": "ana", "card": 1}, ("command type",), MalformedCommand),
    "unknown type": (
        fresh,
        {"type": "pass", "player": "ana"},
        ("unknown command type", "pass"),
        MalformedCommand,
    ),
    "type not a string": (fresh, {"type": ["bid"]}, ("unknown command type",), MalformedCommand),
    "type is an object": (fresh, {"type": {}}, ("unknown command type",), MalformedCommand),
    "unknown player": (
        fresh,
        {"type": "sacrifice", "player": "zed", "card": 1},
        ("unknown player", "zed"),
        MalformedCommand,
    ),
    "missing player": (
        fresh,
        {"type": "sacrifice", "card": 1},
        ("needs a player",),
        MalformedCommand,
    ),
    "player not a string": (
        fresh,
        {"type": "sacrifice", "player": 1, "card": 1},
        ("needs a player",),
        MalformedCommand,
    ),
    # sacrifice
    "sacrifice twice": (
        lambda: _sacrificed_ana(),
        {"type": "sacrifice", "player": "ana", "card": 2},
        ("sacrifice", "ana"),
        NotAwaited,
    ),
    "sacrifice card 13": (
        fresh,
        {"type": "sacrifice", "player": "ana", "card": 13},
        ("0 to 12", "13"),
        RuleViolation,
    ),
    "sacrifice card -1": (
        fresh,
        {"type": "sacrifice", "player": "ana", "card": -1},
        ("0 to 12",),
        RuleViolation,
    ),
    "sacrifice bool": (
        fresh,
        {"type": "sacrifice", "player": "ana", "card": True},
        ("True",),
        RuleViolation,
    ),
    "sacrifice string": (
        fresh,
        {"type": "sacrifice", "player": "ana", "card": "3"},
        ("'3'",),
        RuleViolation,
    ),
    "sacrifice after round start": (
        setup_phase,
        {"type": "sacrifice", "player": "ana", "card": 1},
        ("no sacrifice",),
        NotAwaited,
    ),
    # host inputs
    "harvest during sacrifices": (
        fresh,
        {"type": "harvest", "dice": [1, 2, 3]},
        ("no harvest", "awaited"),
        NotAwaited,
    ),
    "harvest with 2 dice": (
        setup_phase,
        {"type": "harvest", "dice": [1, 2]},
        ("harvest", "3 values"),
        MalformedCommand,
    ),
    "harvest with 4 dice": (
        setup_phase,
        {"type": "harvest", "dice": [1, 2, 3, 4]},
        ("harvest", "3 values"),
        MalformedCommand,
    ),
    "harvest die 0": (
        setup_phase,
        {"type": "harvest", "dice": [0, 2, 3]},
        ("0 is not a value from 1 to 6",),
        RuleViolation,
    ),
    "harvest die 7": (
        setup_phase,
        {"type": "harvest", "dice": [1, 7, 3]},
        ("7 is not a value from 1 to 6",),
        RuleViolation,
    ),
    "harvest bool die": (
        setup_phase,
        {"type": "harvest", "dice": [True, 2, 3]},
        ("True", "1 to 6"),
        RuleViolation,
    ),
    "harvest not a list": (
        setup_phase,
        {"type": "harvest", "dice": "123"},
        ("harvest", "list"),
        MalformedCommand,
    ),
    "harvest twice": (
        lambda: _harvested(),
        {"type": "harvest", "dice": [1, 2, 3]},
        ("no harvest",),
        NotAwaited,
    ),
    "improvements 1 card": (
        setup_phase,
        {"type": "improvements", "cards": [13]},
        ("improvements", "2 values"),
        MalformedCommand,
    ),
    "improvements 3 cards": (
        setup_phase,
        {"type": "improvements", "cards": [13, 10, 11]},
        ("improvements", "2 values"),
        MalformedCommand,
    ),
    "improvements card 100": (
        setup_phase,
        {"type": "improvements", "cards": [100, 10]},
        ("100",),
        RuleViolation,
    ),
    "improvements in the last possible round": (
        lambda: single_round_game(),
        {"type": "improvements", "cards": [13, 10]},
        ("no improvements",),
        NotAwaited,
    ),
    # bids
    "bid during setup": (
        setup_phase,
        {"type": "bid", "player": "ana", "bids": RED_EVEN},
        ("no bid", "awaited"),
        NotAwaited,
    ),
    "second bid same step": (
        red_after_ana,
        {"type": "bid", "player": "ana", "bids": RED_EVEN},
        ("ana", "already bid"),
        NotAwaited,
    ),
    "bids not an object": (
        red_bid,
        {"type": "bid", "player": "ana", "bids": [[1, 12]]},
        ("red", "six stations"),
        RuleViolation,
    ),
    "red bid missing a station": (
        red_bid,
        {"type": "bid", "player": "ana", "bids": {k: v for k, v in RED_EVEN.items() if k != "6"}},
        ("red", "six stations"),
        RuleViolation,
    ),
    "red bid extra station": (
        red_bid,
        {"type": "bid", "player": "ana", "bids": RED_EVEN | {"7": [1, 2]}},
        ("red", "six stations"),
        RuleViolation,
    ),
    "red bid wrong station names": (
        red_bid,
        {"type": "bid", "player": "ana", "bids": {str(int(k) - 1): v for k, v in RED_EVEN.items()}},
        ("red", "six stations"),
        RuleViolation,
    ),
    "red bid station as a number": (
        red_bid,
        {"type": "bid", "player": "ana", "bids": {int(k): v for k, v in RED_EVEN.items()}},
        ("red", "six stations"),
        RuleViolation,
    ),
    "red bid cards not a list": (
        red_bid,
        {"type": "bid", "player": "ana", "bids": RED_EVEN | {"2": 13}},
        ("two cards",),
        RuleViolation,
    ),
    "improvements bool card": (
        setup_phase,
        {"type": "improvements", "cards": [13, False]},
        ("False",),
        RuleViolation,
    ),
    "red bid one card": (
        red_bid,
        {"type": "bid", "player": "ana", "bids": RED_EVEN | {"3": [3]}},
        ("two cards",),
        RuleViolation,
    ),
    "red bid three cards": (
        red_bid,
        {"type": "bid", "player": "ana", "bids": RED_EVEN | {"3": [3, 10, 0]}},
        ("two cards",),
        RuleViolation,
    ),
    "card not in deck (sacrificed)": (
        red_bid,
        {"type": "bid", "player": "ana", "bids": RED_EVEN | {"1": [0, 12]}},
        ("card 0 is not in your deck",),
        RuleViolation,
    ),
    "card 13 not in deck": (
        red_bid,
        {"type": "bid", "player": "ana", "bids": RED_EVEN | {"1": [13, 12]}},
        ("card 13 is not in your deck",),
        RuleViolation,
    ),
    "card twice in one bid": (
        red_bid,
        {"type": "bid", "player": "ana", "bids": RED_EVEN | {"1": [12, 12]}},
        ("card 12", "already used"),
        RuleViolation,
    ),
    "card is a string": (
        red_bid,
        {"type": "bid", "player": "ana", "bids": RED_EVEN | {"1": ["1", 12]}},
        ("'1' is not a card",),
        MalformedCommand,
    ),
    "card is a bool": (
        red_bid,
        {"type": "bid", "player": "ana", "bids": RED_EVEN | {"1": [True, 12]}},
        ("True is not a card",),
        MalformedCommand,
    ),
    "card is a float": (
        red_bid,
        {"type": "bid", "player": "ana", "bids": RED_EVEN | {"1": [1.0, 12]}},
        ("1.0 is not a card",),
        MalformedCommand,
    ),
    "green first bid with two cards": (
        green_first,
        {"type": "bid", "player": "ana", "bids": RED_EVEN},
        ("green", "first", "one card"),
        RuleViolation,
    ),
    "green first bid missing a station": (
        green_first,
        {
            "type": "bid",
            "player": "ana",
            "bids": {k: v for k, v in GREEN_FIRST.items() if k != "1"},
        },
        ("green", "first"),
        RuleViolation,
    ),
    "green second bid with two cards": (
        green_second,
        {"type": "bid", "player": "ana", "bids": RED_EVEN},
        ("green", "second", "one card"),
        RuleViolation,
    ),
    "green second bid reuses a first card": (
        green_second,
        {"type": "bid", "player": "ana", "bids": GREEN_FIRST},
        ("card 1", "already used"),
        RuleViolation,
    ),
    "gold bid wrong station": (
        gold_1,
        {"type": "bid", "player": "ana", "bids": {"2": [1, 12]}},
        ("gold", "station 1"),
        RuleViolation,
    ),
    "gold bid two stations": (
        gold_1,
        {"type": "bid", "player": "ana", "bids": {"1": [1, 12], "2": [2, 11]}},
        ("gold", "station 1"),
        RuleViolation,
    ),
    "gold bid one card": (
        gold_1,
        {"type": "bid", "player": "ana", "bids": {"1": [12]}},
        ("station 1", "two cards"),
        RuleViolation,
    ),
    "gold bid reuses a card of station 1": (
        gold_2,
        {"type": "bid", "player": "ana", "bids": {"2": [12, 2]}},
        ("card 12", "already used"),
        RuleViolation,
    ),
    "gold bid station 1 again": (
        gold_2,
        {"type": "bid", "player": "ana", "bids": {"1": [2, 11]}},
        ("station 2",),
        RuleViolation,
    ),
    # bonus dice
    "dice when no window": (
        red_bid,
        {"type": "dice", "player": "ben", "count": 0},
        ("no dice from ben",),
        NotAwaited,
    ),
    "dice from a non-holder": (
        dice_window,
        {"type": "dice", "player": "ana", "count": 0},
        ("no dice from ana",),
        NotAwaited,
    ),
    "dice above held": (
        dice_window,
        {"type": "dice", "player": "ben", "count": 2},
        ("0 to 1", "2"),
        RuleViolation,
    ),
    "dice negative": (
        dice_window,
        {"type": "dice", "player": "ben", "count": -1},
        ("0 to 1", "-1"),
        RuleViolation,
    ),
    "dice non-integer": (
        dice_window,
        {"type": "dice", "player": "ben", "count": 0.5},
        ("0 to 1", "0.5"),
        RuleViolation,
    ),
    "dice bool": (
        dice_window,
        {"type": "dice", "player": "ben", "count": True},
        ("0 to 1", "True"),
        RuleViolation,
    ),
    "dice string": (
        dice_window,
        {"type": "dice", "player": "ben", "count": "1"},
        ("0 to 1", "'1'"),
        RuleViolation,
    ),
    "dice twice": (
        roll_phase,
        {"type": "dice", "player": "ben", "count": 1},
        ("no dice from ben",),
        NotAwaited,
    ),
    "roll before deciding": (
        dice_window,
        {"type": "roll", "player": "ben", "values": [3]},
        ("no roll from ben",),
        NotAwaited,
    ),
    "roll too many values": (
        roll_phase,
        {"type": "roll", "player": "ben", "values": [3, 4]},
        ("roll", "1 values"),
        MalformedCommand,
    ),
    "roll no values": (
        roll_phase,
        {"type": "roll", "player": "ben", "values": []},
        ("roll", "1 values"),
        MalformedCommand,
    ),
    "roll value 7": (
        roll_phase,
        {"type": "roll", "player": "ben", "values": [7]},
        ("7 is not a value from 1 to 6",),
        RuleViolation,
    ),
    "roll value 0": (
        roll_phase,
        {"type": "roll", "player": "ben", "values": [0]},
        ("0 is not a value from 1 to 6",),
        RuleViolation,
    ),
    "roll from someone else": (
        roll_phase,
        {"type": "roll", "player": "cleo", "values": [3]},
        ("no roll from cleo",),
        NotAwaited,
    ),
    "final roll two values": (
        final_roll,
        {"type": "roll", "player": "ben", "values": [3, 3]},
        ("1 values",),
        MalformedCommand,
    ),
    "final roll from a non-holder": (
        final_roll,
        {"type": "roll", "player": "ana", "values": [3]},
        ("no roll from ana",),
        NotAwaited,
    ),
    # decisions
    "city when not awaited": (
        red_bid,
        {"type": "city", "player": "cleo", "choice": "hut"},
        ("no city",),
        NotAwaited,
    ),
    "city from second": (
        city,
        {"type": "city", "player": "ben", "choice": "hut"},
        ("no city from ben",),
        NotAwaited,
    ),
    "city choice invalid": (
        city,
        {"type": "city", "player": "cleo", "choice": "both"},
        ("'hut' or 'die'", "both"),
        RuleViolation,
    ),
    "city choice missing": (
        city,
        {"type": "city", "player": "cleo"},
        ("'hut' or 'die'",),
        RuleViolation,
    ),
    "pyramid when not awaited": (
        city,
        {"type": "pyramid", "player": "cleo", "first": "cleo"},
        ("no pyramid",),
        NotAwaited,
    ),
    "pyramid from second": (
        pyramid,
        {"type": "pyramid", "player": "cleo", "first": "cleo"},
        ("no pyramid from cleo",),
        NotAwaited,
    ),
    "pyramid first not one of the two": (
        pyramid,
        {"type": "pyramid", "player": "ana", "first": "ben"},
        ("ana or cleo", "ben"),
        RuleViolation,
    ),
    "pyramid first missing": (
        pyramid,
        {"type": "pyramid", "player": "ana"},
        ("ana or cleo",),
        RuleViolation,
    ),
    # over
    "bid after the game": (
        finished,
        {"type": "bid", "player": "ana", "bids": RED_EVEN},
        ("game is over",),
        NotAwaited,
    ),
    "harvest after the game": (
        finished,
        {"type": "harvest", "dice": [1, 2, 3]},
        ("game is over",),
        NotAwaited,
    ),
}


def _sacrificed_ana() -> Game:
    g = Game(THREE)
    g.do({"type": "sacrifice", "player": "ana", "card": 1})
    return g


def _harvested() -> Game:
    g = started()
    g.do({"type": "harvest", "dice": [1, 2, 3]})
    return g


@pytest.mark.parametrize("name", list(CASES))
def test_bad_command_is_refused_with_reason_and_changes_nothing(name: str) -> None:
    """SCENARIO.md: a refused command says why and leaves the state unchanged."""
    build, command, words, kind = CASES[name]
    g = build()
    with pytest.raises(kind):
        apply(g.state, command)  # type: ignore[arg-type]
    g.refuse(command, *words)


def test_refusals_are_value_errors() -> None:
    """Typed errors subclass ValueError (project rule)."""
    for kind in (IllegalCommand, MalformedCommand, NotAwaited, RuleViolation):
        assert issubclass(kind, ValueError)


def test_a_refusal_mid_game_lets_the_game_go_on() -> None:
    """After a refusal the same state accepts the right command."""
    g = dice_window()
    g.refuse({"type": "dice", "player": "ben", "count": 5}, "0 to 1")
    g.do({"type": "dice", "player": "ben", "count": 1})
    assert g.pending() == [{"type": "roll", "player": "ben"}]


def test_out_of_turn_refusal_names_what_is_awaited() -> None:
    """A command that is not awaited says what the engine waits for instead."""
    g = red_after_ana()
    msg = g.refuse({"type": "harvest", "dice": [1, 2, 3]}, "no harvest")
    assert "bid from ben" in msg and "bid from cleo" in msg
