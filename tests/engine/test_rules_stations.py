"""R3 (resolving a station), R4 (modifiers) and R5 (the six stations).

Most tests start from the "EVEN" game: ana, ben, cleo (stack bottom to top), all sacrifice 0,
every station bid 1+12, 2+11, ... = 13 by everybody, harvest dice 1, 2, 3. Worked by hand:

round 1 (red; nobody holds the figure, all on 0, so ties go to the higher marker: cleo, ben, ana)
  S1  13/13/13 -> cleo, ben, ana: cleo figure, 0 -> 1; ana old man
  S2  ana 12 (old man) -> cleo (figure), ben, ana: +3 cleo 4, +2 ben 2, +1 ana 1
  S3  same order: cleo builds a hut (default choice), ben takes the die
  S4  ben's dice window; cleo 14 (hut), ben 13, ana 12: 14 < 13 + 3 -> one cube each
  S5  +8 cleo 12, +4 ben 6, ana 1 - 2 -> 0 (cut off)
  S6  cleo takes the high card, ben the low one (1 and 1: decks stay 1..12)
round 2 (red: leader cleo on 12, 12 % 3 == 0); ana returns with the old man
  S1  ana 14 (returning), ben 13, cleo 14 (hut) -> cleo (figure), ana, ben: cleo 13; ben old man
  S2  ana 13, ben 12, cleo 14 -> cleo 16, ana 2, ben 7
  S3  ana 13, ben 12, cleo 12 (hut -1) -> ana, cleo (figure), ben: ana hut, cleo die
  S4  ana 14, ben 12, cleo 14 -> cleo, ana: one cube each (row 1: cleo ben cleo ana)
  S5  +7 cleo 23, +3 ana 5, -2 ben 5
"""

from __future__ import annotations

import pytest

from companion.engine import view

from .helpers import EVEN, Game, pairs, started

THREE = ("ana", "ben", "cleo")


def even_round(**decisions) -> Game:
    g = started()
    g.play_round({}, **decisions)
    return g


# --- R3 --------------------------------------------------------------------------------


def test_r3_1_reveal_shows_every_players_cards_of_the_station() -> None:
    """R3.1: a station's cards of all players become public at its reveal."""
    g = started()
    g.setup()
    ana = pairs((12, 11), (1, 2), (3, 4), (5, 6), (7, 8), (9, 10))
    g.bid_red({"ana": ana, "ben": EVEN, "cleo": EVEN})
    revealed = [e for e in g.of_type("revealed") if e["station"] == 1][0]
    assert revealed["cards"] == {"ana": [12, 11], "ben": [1, 12], "cleo": [1, 12]}
    assert g.state["revealed"]["1"] == revealed["cards"]
    # Station 4 is not revealed yet (the game waits at station 3's city choice).
    assert "4" not in g.state["revealed"]
    assert view(g.state, "ben")["revealed"]["1"]["ana"] == [12, 11]


def test_r3_2_bonus_dice_are_added_and_leave_the_player() -> None:
    """R3.2: a holder decides how many dice to use; their roll adds to the bid; used dice go.

    EVEN round, ben holds the city die from station 3 and uses it at station 4, rolling 5:
    ben 13 + 5 = 18 >= cleo 14 + 3, so ben places both cubes (R5.4)."""
    g = started()
    g.setup()
    g.bid_red({p: EVEN for p in THREE})
    g.decide(until_station=4)
    assert g.pending() == [{"type": "dice", "player": "ben"}]
    g.do({"type": "dice", "player": "ben", "count": 1})
    assert g.pending() == [{"type": "roll", "player": "ben"}]
    g.do({"type": "roll", "player": "ben", "values": [5]})
    ben = [e for e in g.ranking(4)["entries"] if e["player"] == "ben"][0]
    assert ben["dice"] == [5] and ben["total"] == 18 and ben["place"] == 1
    assert g.p("ben")["dice"] == 0
    assert g.state["pyramid"][0][:2] == ["ben", "ben"]
    # No holder left: station 5 opens no window.
    assert g.state["phase"] != "dice"


def test_r3_2_choosing_no_dice_keeps_them_and_skips_the_roll() -> None:
    """R3.2: 0 = none; the die stays with the holder and nothing is rolled."""
    g = even_round()
    assert g.p("ben")["dice"] == 1
    assert g.of_type("rolled") == []
    assert [e["choices"] for e in g.of_type("dice_choices")] == [{"ben": 0}] * 3


def test_r3_3_effective_bid_parts_and_a_new_hut_counts_at_once() -> None:
    """R3.3: effective bid = cards + modifiers + dice; the hut built at station 3 already
    counts at station 4 of the same round."""
    g = even_round()
    cleo4 = [e for e in g.ranking(4)["entries"] if e["player"] == "cleo"][0]
    assert (cleo4["cards_sum"], cleo4["huts"], cleo4["old_man"], cleo4["dice"], cleo4["total"]) == (
        13,
        1,
        0,
        [],
        14,
    )
    ana2 = [e for e in g.ranking(2)["entries"] if e["player"] == "ana"][0]
    assert (ana2["cards_sum"], ana2["old_man"], ana2["total"]) == (13, -1, 12)


def test_r3_4_equal_bids_higher_marker_in_the_stack_first() -> None:
    """R3.4: nobody holds the figure and all scores are 0: the higher marker comes first."""
    g = even_round()
    r1 = g.ranking(1)
    assert r1["order"] == ["cleo", "ben", "ana"]
    assert [(t["players"], t["rule"]) for t in r1["ties"]] == [
        (["cleo", "ben"], "stack"),
        (["ben", "ana"], "stack"),
    ]


def test_r3_4_equal_bids_figure_holder_first() -> None:
    """R3.4: the Chocolatl figure holder wins a tie."""
    g = even_round()
    r2 = g.ranking(2)
    assert r2["order"] == ["cleo", "ben", "ana"]
    assert r2["ties"][0]["players"] == ["cleo", "ben"] and r2["ties"][0]["rule"] == "figure"


def test_r3_4_equal_bids_lower_score_first() -> None:
    """R3.4: without the figure in the tie, the lower score comes first.

    4 players, harvest 1, 2, 6. S1 ana 23 takes the figure, dev 3 the old man. S2 ben 23 +6,
    cleo 19 +2, dev 6 +1. S3 ben 15 and cleo 15 tie, neither holds the figure, cleo (2) has
    the lower score than ben (6): cleo first."""
    g = started(("ana", "ben", "cleo", "dev"))
    g.setup(harvest=(1, 2, 6))
    g.bid_red(
        {
            "ana": pairs((12, 11), (1, 2), (3, 4), (5, 6), (7, 8), (9, 10)),
            "ben": pairs((3, 4), (12, 11), (7, 8), (1, 2), (5, 6), (9, 10)),
            "cleo": pairs((5, 6), (10, 9), (7, 8), (1, 2), (3, 4), (11, 12)),
            "dev": pairs((1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12)),
        }
    )
    assert g.scores() == {"ana": 1, "ben": 6, "cleo": 2, "dev": 1}
    r3 = g.ranking(3)
    assert g.totals(3) == {"ana": 7, "ben": 15, "cleo": 15, "dev": 10}
    assert r3["order"] == ["cleo", "ben", "dev", "ana"]
    assert [(t["players"], t["rule"]) for t in r3["ties"]] == [(["cleo", "ben"], "lower_score")]
    assert g.pending() == [{"type": "city", "player": "cleo"}]


def test_r3_4_holder_at_the_moment_of_ranking() -> None:
    """R3.4: the figure holder before station 1's effects wins a station-1 tie (round 2:
    cleo 14 with her hut ties ana 14 returning with the old man; cleo holds the figure)."""
    g = even_round()
    g.setup()
    g.bid_red({p: EVEN for p in THREE})
    g.do({"type": "dice", "player": "ben", "count": 0})  # ben's die from round 1
    r1 = g.ranking(1)
    assert g.totals(1) == {"ana": 14, "ben": 13, "cleo": 14}
    assert r1["order"] == ["cleo", "ana", "ben"]
    assert r1["ties"][0]["rule"] == "figure"


def test_r3_5_pyramid_row_tie_goes_to_the_lower_score() -> None:
    """R3.5: a tied row majority without the figure holder goes to the lower score.

    Profile: the bottom row has 2 cells worth 5. Harvest 1, 2, 6.
    S1 cleo 23 figure (1); ben 3 old man. S2 ana 23 +6, ben 18 +2, cleo 3 +1.
    S3 cleo 19 first: hut; ben second: die. S4 ben 20 - 1 = 19 ties ana 19; lower score ben
    (2 < 6) first; one cube each, ben lets ana place first: row [ana, ben] is full, 1:1, the
    figure (cleo) is not in the tie, ben has the lower score and scores 5."""
    g = started(profile={"pyramid_rows": [[2, 5], [12, 1]]})
    g.setup(harvest=(1, 2, 6))
    g.bid_red(
        {
            "cleo": pairs((12, 11), (1, 2), (10, 9), (3, 4), (5, 6), (7, 8)),
            "ana": pairs((5, 6), (12, 11), (1, 2), (9, 10), (3, 4), (7, 8)),
            "ben": pairs((1, 2), (10, 9), (3, 4), (12, 8), (5, 6), (7, 11)),
        }
    )
    g.decide(until_station=4)
    g.do({"type": "dice", "player": "ben", "count": 0})
    assert g.totals(4) == {"ana": 19, "ben": 19, "cleo": 8}
    assert g.ranking(4)["order"] == ["ben", "ana", "cleo"]
    assert g.scores() == {"ana": 6, "ben": 2, "cleo": 2}
    events = g.do({"type": "pyramid", "player": "ben", "first": "ana"})
    done = g.of_type("row_completed", events)
    assert len(done) == 1 and done[0]["row"] == 0 and done[0]["player"] == "ben"
    assert done[0]["bonus"] == 5 and done[0]["ties"][0]["rule"] == "lower_score"
    assert g.state["pyramid"][0] == ["ana", "ben"]
    assert g.p("ben")["score"] == 7


# --- R4 --------------------------------------------------------------------------------


def test_r4_1_old_man_minus_one_at_2_to_6_then_plus_one_at_station_1() -> None:
    """R4.1: this round's holder -1 at stations 2-6; next round +1 at station 1 only."""
    g = even_round()
    for s in range(1, 7):
        ana = [e for e in g.ranking(s)["entries"] if e["player"] == "ana"][0]
        assert ana["old_man"] == (0 if s == 1 else -1), s
    mark = len(g.events)
    g.setup()
    g.bid_red({p: EVEN for p in THREE})
    g.decide()
    later = g.events[mark:]
    olds = {
        s: {e["player"]: e["old_man"] for e in g.ranking(s, later)["entries"]} for s in range(1, 7)
    }
    assert olds[1] == {"ana": 1, "ben": 0, "cleo": 0}
    assert g.of_type("old_man", later)[0]["player"] == "ben"
    for s in range(2, 7):
        assert olds[s] == {"ana": 0, "ben": -1, "cleo": 0}, s


def test_r4_2_each_hut_plus_one_except_minus_one_at_station_3() -> None:
    """R4.2: +1 per hut at stations 1, 2, 4, 5, 6 and -1 at station 3."""
    g = even_round()
    mark = len(g.events)
    g.play_round({})
    later = g.events[mark:]
    huts = {
        s: [e["huts"] for e in g.ranking(s, later)["entries"] if e["player"] == "cleo"][0]
        for s in range(1, 7)
    }
    assert huts == {1: 1, 2: 1, 3: -1, 4: 1, 5: 1, 6: 1}


# --- R5 --------------------------------------------------------------------------------


def test_r5_1_first_takes_figure_and_scores_every_time_lowest_takes_old_man() -> None:
    """R5.1: round 1 cleo wins station 1 (figure, +1), ana is lowest (old man); round 2 cleo
    wins again while holding the figure and scores again; ben is lowest."""
    g = even_round()
    assert g.of_type("figure")[0]["player"] == "cleo"
    assert g.scored("chocolatl") == [("cleo", 1, 1)]
    g.play_round({})
    again = [(e["player"], e["score"]) for e in g.of_type("scored") if e["reason"] == "chocolatl"]
    assert again == [("cleo", 1), ("cleo", 13)]
    assert [e["player"] for e in g.of_type("old_man")] == ["ana", "ben"]
    assert g.state["chocolatl"] == "cleo"


def test_r5_2_harvest_first_three_score_high_middle_low() -> None:
    """R5.2: 4 players, EVEN, dice 2, 5, 4. S1 dev (top) figure, ana old man.
    S2: dev (figure), then cleo and ben at 0 (cleo higher in the stack), ana 12 last:
    dev +5, cleo +4, ben +2, ana nothing."""
    g = started(("ana", "ben", "cleo", "dev"))
    g.setup(harvest=(2, 5, 4))
    g.bid_red({p: EVEN for p in ("ana", "ben", "cleo", "dev")})
    assert g.ranking(2)["order"] == ["dev", "cleo", "ben", "ana"]
    assert g.scored("harvest") == [("dev", 5, 5), ("cleo", 4, 4), ("ben", 2, 2)]


@pytest.mark.parametrize("choice, hut, die", [("hut", "cleo", "ben"), ("die", "ben", "cleo")])
def test_r5_3_city_first_chooses_second_gets_the_other(choice: str, hut: str, die: str) -> None:
    """R5.3: first (cleo) chooses hut or die; second (ben) gets the other option."""
    g = started()
    g.setup()
    g.bid_red({p: EVEN for p in THREE})
    assert g.pending() == [{"type": "city", "player": "cleo"}]
    assert g.state["decision"]["first"] == "cleo" and g.state["decision"]["second"] == "ben"
    g.do({"type": "city", "player": "cleo", "choice": choice})
    assert g.p(hut)["huts"] == 1 and g.p(hut)["cubes_used"] == 1 and g.p(hut)["dice"] == 0
    assert g.p(die)["dice"] == 1 and g.p(die)["huts"] == 0
    assert g.p("ana")["huts"] == 0 and g.p("ana")["dice"] == 0


def test_r5_3_no_free_hut_space_first_takes_die_second_nothing() -> None:
    """R5.3: with no hut space the first-ranked takes the die, nobody is asked."""
    g = started(profile={"hut_spaces": 0})
    g.setup()
    events = g.bid_red({p: EVEN for p in THREE})
    assert g.of_type("city_choice", events) == []
    assert [e["player"] for e in g.of_type("die", events)] == ["cleo"]
    assert g.p("ben")["dice"] == 0 and g.p("ben")["huts"] == 0


# ana's plans for R5.4; ben and cleo bid EVEN. ana is lowest at S1 (3) and holds the old man;
# cleo has a hut from S3, so S4 is ana (cards - 1) vs cleo 14 vs ben 13.
ANA_S4_17 = pairs((1, 2), (3, 4), (5, 7), (12, 6), (8, 9), (10, 11))  # 18 - 1 = 17: +3
ANA_S4_16 = pairs((1, 2), (3, 4), (6, 7), (12, 5), (8, 9), (10, 11))  # 17 - 1 = 16: +2


def test_r5_4_first_places_two_cubes_when_3_ahead() -> None:
    """R5.4: ana 17 is exactly 3 more than cleo 14: ana places both cubes, bottom-left."""
    g = started()
    g.play_round({"ana": ANA_S4_17})
    assert g.totals(4) == {"ana": 17, "ben": 13, "cleo": 14}
    assert g.of_type("pyramid_order") == []
    cubes = [(e["player"], e["row"], e["cell"]) for e in g.of_type("cube")]
    assert cubes == [("ana", 0, 0), ("ana", 0, 1)]
    assert g.state["pyramid"][0] == ["ana", "ana", None, None, None]
    assert g.p("ana")["cubes_used"] == 2


@pytest.mark.parametrize("first, row", [("ana", ["ana", "cleo"]), ("cleo", ["cleo", "ana"])])
def test_r5_4_first_and_second_one_cube_each_first_decides_order(
    first: str, row: list[str]
) -> None:
    """R5.4: ana 16 is only 2 more than cleo 14: one cube each, ana decides who goes first."""
    g = started()
    g.setup()
    g.bid_red({"ana": ANA_S4_16, "ben": EVEN, "cleo": EVEN})
    g.decide(until_station=4)
    g.do({"type": "dice", "player": "ben", "count": 0})
    assert g.totals(4) == {"ana": 16, "ben": 13, "cleo": 14}
    assert g.pending() == [{"type": "pyramid", "player": "ana"}]
    g.refuse({"type": "pyramid", "player": "ana", "first": "ben"}, "ana or cleo")
    g.do({"type": "pyramid", "player": "ana", "first": first})
    assert g.state["pyramid"][0] == row + [None, None, None]
    assert g.p("ana")["cubes_used"] == 1 and g.p("cleo")["cubes_used"] == 2  # hut + cube


def test_r5_4_filled_row_pays_its_majority_at_once() -> None:
    """R5.4: a 2-cell bottom row filled by ana's two cubes pays ana its 5 at once, and the
    next cube would go to the row above."""
    g = started(profile={"pyramid_rows": [[2, 5], [3, 4]]})
    events = g.play_round({"ana": ANA_S4_17})
    done = g.of_type("row_completed", events)
    assert [(e["row"], e["player"], e["bonus"]) for e in done] == [(0, "ana", 5)]
    assert done[0]["counts"] == {"ana": 2}
    assert g.scored("pyramid_row") == [("ana", 5, 5)]
    assert g.state["pyramid"] == [["ana", "ana"], [None, None, None]]


def test_r5_4_cube_without_free_cell_is_not_placed() -> None:
    """R5.4: with a one-cell pyramid the second cube finds no cell and uses no cube."""
    g = started(profile={"pyramid_rows": [[1, 5]]})
    g.play_round({"ana": ANA_S4_17})
    cubes = [(e["player"], e["row"]) for e in g.of_type("cube")]
    assert cubes == [("ana", 0), ("ana", None)]
    assert g.p("ana")["cubes_used"] == 1
    assert g.state["pyramid"] == [["ana"]]


def test_r5_5_drink_round_schedule_and_lowest_loses() -> None:
    """R5.5: round 1 pays 8/4, round 2 pays 7/3; the lowest loses 2 (cut at 0 in round 1)."""
    g = even_round()
    assert g.scored("drink", "drink_penalty") == [("cleo", 8, 8), ("ben", 4, 4), ("ana", -2, -1)]
    mark = len(g.events)
    g.play_round({})
    drink = [
        (e["player"], e["points"], e["score"])
        for e in g.of_type("scored", g.events[mark:])
        if e["reason"] in ("drink", "drink_penalty")
    ]
    assert drink == [("cleo", 7, 23), ("ana", 3, 5), ("ben", -2, 5)]


def test_r5_5_custom_drink_schedule_from_profile() -> None:
    """R5.5: profile drink and drink_penalty replace the defaults."""
    g = started(profile={"drink": [[1, 1]], "drink_penalty": 0})
    g.play_round({})
    assert g.scored("drink", "drink_penalty") == [("cleo", 1, 1), ("ben", 1, 1), ("ana", 0, 0)]


def test_r5_6_tachli_improvement_cards_replace_lowest_card() -> None:
    """R5.6: not the last round: first takes the higher card (13), second the lower (10);
    each first discards the lowest card of their deck; decks stay at 12."""
    g = started()
    g.play_round({}, improvements=(10, 13))
    assert [(e["player"], e["card"]) for e in g.of_type("card_discarded")] == [
        ("cleo", 1),
        ("ben", 1),
    ]
    assert [(e["player"], e["card"]) for e in g.of_type("card_gained")] == [
        ("cleo", 13),
        ("ben", 10),
    ]
    assert g.p("cleo")["deck"] == list(range(2, 14))
    assert g.p("ben")["deck"] == [2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 11, 12]
    assert g.p("ana")["deck"] == list(range(1, 13))
    # The improved deck plays next round: ben uses both 10s.
    g.play_round({"ben": [(2, 12), (3, 11), (4, 10), (5, 10), (6, 9), (7, 8)]})
    assert g.state["round"] == 3


def test_r5_6_tachli_last_round_gives_points() -> None:
    """R5.6: in the last round first scores 6 and second 3; no cards change hands."""
    g = started(profile={"max_rounds": 1})
    g.play_round({})
    assert g.scored("tachli") == [("cleo", 6, 6), ("ben", 3, 3)]
    assert g.of_type("card_gained") == []
    assert g.scores() == {"ana": 0, "ben": 9, "cleo": 18}
