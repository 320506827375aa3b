"""The bonus dice window seen from public facts (companion.engine.bonusdice): R3.2, R3.3,
R3.4, R4.1, R4.2, R5.4.

Situations are played through the engine (helpers.Game), never made by editing state. The
"EVEN" round is worked by hand in test_rules_stations.py; the "BEN" rounds below change only
ben's cards: S1 5+6 (lowest: the old man, -1 from S2 on, R4.1), S2 7+8 and S3 9+10 (first
both times: at the city he takes the die, cleo builds the hut, R5.3).
"""

from __future__ import annotations

from companion.engine import view
from companion.engine.bonusdice import bid_parts, nothing_to_decide, outlook

from .helpers import EVEN, Game, pairs, started

THREE = ("ana", "ben", "cleo")
# ben's S4 is hopeless (1+2-1 = 2, +6 = 8 < 13), S5 too (3+4-1 = 6, +6 = 12 < 13), S6 out of
# reach of everybody (11+12-1 = 22 > 13).
BEN_LOW = pairs((5, 6), (7, 8), (9, 10), (1, 2), (3, 4), (11, 12))
# ben's S4 leads by one (4+12-1 = 15 against cleo's 13 + 1 hut = 14): first whatever happens,
# but one die could make the lead 3 (R5.4: two cubes), so he is asked.
BEN_AHEAD = pairs((5, 6), (7, 8), (9, 10), (4, 12), (1, 11), (2, 3))


def window(plan: dict, station: int) -> Game:
    """Round 1 (red) played up to the bonus dice window of ``station``."""
    g = started()
    g.setup()
    g.bid_red(plan)
    g.decide(city="die", until_station=station)
    assert g.state["phase"] == "dice" and g.state["station"] == station
    return g


def test_r3_3_parts_match_the_engines_ranking_at_every_station() -> None:
    """R3.3, R4.1, R4.2: cards + huts + old man before dice equal the ranking's total when
    nobody rolls. EVEN round: ana holds the old man from S1, cleo builds a hut at S3, ben's
    die opens windows at S4-S6; every window's parts are checked against the ranking."""
    g = started()
    g.setup()
    g.bid_red({p: EVEN for p in THREE})
    seen = {}
    for station in (4, 5, 6):
        g.decide(until_station=station)
        seen[station] = bid_parts(g.state, station)
        g.do({"type": "dice", "player": "ben", "count": 0})
    g.decide()
    assert sorted(seen) == [4, 5, 6]
    for station, parts in seen.items():
        for entry in g.ranking(station)["entries"]:
            mine = parts[entry["player"]]
            assert (mine["cards"], mine["cards_sum"], mine["huts"], mine["old_man"]) == (
                entry["cards"],
                entry["cards_sum"],
                entry["huts"],
                entry["old_man"],
            )
            assert mine["base"] == entry["total"]  # nobody used a die (R3.2: 0 = none)
    # The worked example: S4 cleo 13 + 1 hut, ben 13, ana 13 - 1 old man.
    assert {p: b["base"] for p, b in seen[4].items()} == {"ana": 12, "ben": 13, "cleo": 14}


def test_r3_2_what_dice_could_change_in_the_even_round() -> None:
    """R3.2, R3.4: at S4 ben (13, one die) is 2nd; a six lifts him to 1st (19 > 14); nobody
    else holds dice, so nobody can push him lower; his place depends on his die."""
    g = started()
    g.setup()
    g.bid_red({p: EVEN for p in THREE})
    g.decide(until_station=4)
    ben = outlook(g.state, 4)["ben"]
    assert (ben["place"], ben["best"], ben["worst"], ben["fixed"]) == (2, {"1": 1}, 2, False)
    assert ben["dice"] == 1
    assert not nothing_to_decide(g.state, "ben")
    # Players without dice have no "best"; cleo could be pushed down by ben's die.
    cleo = outlook(g.state, 4)["cleo"]
    assert (cleo["place"], cleo["best"], cleo["worst"]) == (1, {}, 2)


def test_r3_2_a_place_no_roll_can_change_needs_no_decision() -> None:
    """R3.2, R3.4: ben at S4 bids 2 (1+2, old man -1); even a six (8) stays below ana's 13
    and cleo's 14, and nobody else holds dice: he is 3rd whatever happens."""
    g = window({"ana": EVEN, "ben": BEN_LOW, "cleo": EVEN}, 4)
    ben = outlook(g.state, 4)["ben"]
    assert (ben["base"], ben["place"], ben["best"], ben["worst"]) == (2, 3, {"1": 3}, 3)
    assert ben["fixed"] and nothing_to_decide(g.state, "ben")
    # The same facts in every seat's view and the display's (public only).
    for seat in (None, "ana", "ben"):
        assert view(g.state, seat)["dice_window"]["bids"]["ben"]["fixed"] is True


def test_r3_4_first_out_of_reach_needs_no_decision() -> None:
    """R3.4: ben's S6 bid 22 (11+12, old man -1) is above anything the others can reach (13,
    no dice): his 1st place is settled."""
    g = window({"ana": EVEN, "ben": BEN_LOW, "cleo": EVEN}, 4)
    g.do({"type": "dice", "player": "ben", "count": 0})
    g.decide(city="die", until_station=6)
    assert outlook(g.state, 6)["ben"]["place"] == 1
    assert nothing_to_decide(g.state, "ben")


def test_r5_4_a_settled_first_place_still_decides_the_pyramid_margin() -> None:
    """R5.4: ben leads S4 by one (15 against 14): no roll takes first place from him, but one
    die could make his lead 3 or more (two cubes instead of one each), so he is asked. At
    S5 (no margin rule) the same kind of lead settles everything."""
    g = window({"ana": EVEN, "ben": BEN_AHEAD, "cleo": EVEN}, 4)
    ben = outlook(g.state, 4)["ben"]
    assert (ben["base"], ben["place"], ben["worst"]) == (15, 1, 1)
    assert not ben["fixed"] and not nothing_to_decide(g.state, "ben")


def test_only_an_awaited_holder_can_have_nothing_to_decide() -> None:
    """R3.2: outside a window, or for a player the window does not await, the helper says no."""
    g = window({"ana": EVEN, "ben": BEN_LOW, "cleo": EVEN}, 4)
    assert not nothing_to_decide(g.state, "ana")  # holds no die, is not asked at all
    g.do({"type": "dice", "player": "ben", "count": 0})
    assert not nothing_to_decide(g.state, "ben")  # the window moved on
