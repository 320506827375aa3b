"""R6 (score track and end of game) and R7 (final scoring and the winner), worked by hand."""

from __future__ import annotations

from companion.engine import track_colour, view

from .helpers import EVEN, Game, pairs, single_round_game, started

THREE = ("ana", "ben", "cleo")
FIVE = ("ana", "ben", "cleo", "dev", "eli")


# --- R6.1 ------------------------------------------------------------------------------


def test_r6_1_a_moved_marker_goes_on_top() -> None:
    """R6.1: two EVEN rounds. Round 2 station 5: ana 2 -> 5 (second, +3), then ben 7 -> 5
    (lowest, -2): ben lands on top of ana."""
    g = started()
    g.play_round({})
    g.play_round({})
    assert g.scores() == {"ana": 5, "ben": 5, "cleo": 23}
    assert g.state["track"] == {"5": ["ana", "ben"], "23": ["cleo"]}


def test_r6_1_no_change_keeps_the_place_and_losses_stop_at_zero() -> None:
    """R6.1: a loss at 0 changes nothing and the marker keeps its place under ben.

    5 players EVEN except ben, who bids 12 at S5 and 14 at S6. S1 eli figure, ana old man.
    S2 eli +3, dev +2, cleo +1 (ana and ben stay on box 0, ana below). S3 eli hut, ben die.
    S5 eli 14, cleo 13, dev 13, ben 12, ana 11: ana is lowest and loses 2 at 0: no move.
    """
    g = started(FIVE)
    ben = pairs((1, 12), (2, 11), (3, 10), (4, 9), (5, 7), (6, 8))
    g.play_round({"ben": ben})
    penalty = [e for e in g.of_type("scored") if e["reason"] == "drink_penalty"]
    assert [(e["player"], e["points"], e["from"], e["score"]) for e in penalty] == [
        ("ana", -2, 0, 0)
    ]
    assert g.scores() == {"ana": 0, "ben": 0, "cleo": 5, "dev": 2, "eli": 12}
    assert g.state["track"] == {"0": ["ana", "ben"], "2": ["dev"], "5": ["cleo"], "12": ["eli"]}


def test_r6_1_a_loss_is_cut_off_at_zero() -> None:
    """R6.1: ana on 1 loses 2 at the drink and stops at 0."""
    g = started()
    g.play_round({})
    assert g.scored("drink_penalty") == [("ana", -2, -1)]
    assert g.p("ana")["score"] == 0


# --- R6.2 ------------------------------------------------------------------------------


def test_r6_2_scores_are_not_capped() -> None:
    """R6.2: with a 50/20 drink cleo goes 4 -> 54 -> 60 (Tachli, last round): no cap."""
    g = single_round_game(profile={"drink": [[50, 20]]})
    g.play_round({})
    assert g.scores() == {"ana": 0, "ben": 25, "cleo": 60}
    assert g.state["track"]["60"] == ["cleo"]
    assert g.p("cleo")["final"]["track"] == 60
    # The colour wraps: box 60 is coloured like box 0.
    assert track_colour(g.state["profile"], 60) == track_colour(g.state["profile"], 0)


# --- R6.3 / R6.4 -----------------------------------------------------------------------


def test_r6_3_reaching_end_score_makes_the_round_the_last() -> None:
    """R6.3: cleo reaches 12 >= 10 at station 5 of round 1: round 1 is the last, it is played
    to its end and Tachli gives points (cleo 18, ben 9), no cards."""
    g = started(profile={"end_score": 10})
    assert "improvements" in g.pending_types()  # round 1 < max_rounds still lays cards
    g.play_round({})
    last = g.of_type("last_round")
    assert [(e["reason"], e["round"]) for e in last] == [("end_score", 1)]
    kinds = [e["type"] for e in g.events]
    drink_at = [
        i
        for i, e in enumerate(g.events)
        if e["type"] == "scored" and e["reason"] == "drink" and e["player"] == "cleo"
    ][0]
    assert kinds.index("last_round") == drink_at + 1
    assert g.scored("tachli") == [("cleo", 6, 6), ("ben", 3, 3)]
    assert g.of_type("card_gained") == []
    assert g.state["finished"] and g.state["round"] == 1


def test_r6_3_full_pyramid_makes_the_round_the_last() -> None:
    """R6.3: a 2-cell pyramid filled at station 4 (cleo, ben; the figure holder cleo wins the
    1:1 row and scores 5) ends the game after round 1."""
    g = started(profile={"pyramid_rows": [[2, 5]]})
    g.play_round({})
    assert [e["reason"] for e in g.of_type("last_round")] == ["pyramid_full"]
    assert g.state["pyramid"] == [["cleo", "ben"]]
    done = g.of_type("row_completed")
    assert [(e["player"], e["bonus"]) for e in done] == [("cleo", 5)]
    assert done[0]["ties"][0]["rule"] == "figure"
    assert g.state["finished"] and g.state["round"] == 1


def test_r6_3_all_cubes_used_makes_the_round_the_last() -> None:
    """R6.3: with 2 cubes cleo uses her last at station 4 (hut, then a cube)."""
    g = started(profile={"cubes": 2})
    g.play_round({})
    assert [e["reason"] for e in g.of_type("last_round")] == ["cubes"]
    assert g.p("cleo")["cubes_used"] == 2
    assert g.state["finished"] and g.state["round"] == 1


def test_r6_4_no_cubes_left_still_builds_and_places() -> None:
    """R6.4: with 1 cube cleo's hut uses it; she still places a cube at station 4."""
    g = started(profile={"cubes": 1})
    g.play_round({})
    assert g.p("cleo")["huts"] == 1
    assert g.state["pyramid"][0][:2] == ["cleo", "ben"]
    assert g.p("cleo")["cubes_used"] == 2
    assert g.p("cleo")["final"]["stones"] == 1


# --- R7 --------------------------------------------------------------------------------

# ana: 11, 12, 22, 11, 11, 11 (the old man takes 1 from stations 2-6); the others (sacrifice 12)
# bid 0+11, 1+10, ... = 11 everywhere.
ANA_R7 = pairs((2, 9), (1, 11), (12, 10), (3, 8), (4, 7), (5, 6))


def test_r7_every_line_and_negative_totals() -> None:
    """R7 line by line (4 players, one round, harvest 1, 2, 3):

    S1 all 11: dev (top) figure +1, ana (bottom) old man.
    S2 all 11: dev (figure), cleo, ben (stack): dev 4, cleo 2, ben 1.
    S3 ana 21 first takes the die; dev second builds a hut.
    S4 dev 12, ben 11 (score 1 < cleo 2), cleo 11, ana 10: one cube each, dev then ben.
    S5 dev 12, ben 11, cleo 11, ana 10: dev 12, ben 5, ana stays 0.
    S6 (last round) cleo 11 now beats ben 11 on the lower score: dev 18, cleo 5.
    Final: ana rolls 1 for her die.
    """
    g = single_round_game(
        ("ana", "ben", "cleo", "dev"), sacrifices={"ana": 0, "ben": 12, "cleo": 12, "dev": 12}
    )
    g.play_round({"ana": ANA_R7}, city="die", final_rolls={"ana": 1})
    assert g.state["finished"]
    finals = {p: g.p(p)["final"] for p in g.players}
    assert finals["ana"] == {
        "track": 0,
        "stones": 0,
        "pyramid_majority": 0,
        "chocolatl": 0,
        "old_man": -3,
        "sacrifice": 0,
        "sacrifice_bonus": 0,
        "die": 1,
        "total": -2,
    }
    assert finals["ben"] == {
        "track": 5,
        "stones": 1,
        "pyramid_majority": 3,
        "chocolatl": 0,
        "old_man": 0,
        "sacrifice": 12,
        "sacrifice_bonus": 3,
        "die": 0,
        "total": 24,
    }
    assert finals["cleo"] == {
        "track": 5,
        "stones": 0,
        "pyramid_majority": 0,
        "chocolatl": 0,
        "old_man": 0,
        "sacrifice": 12,
        "sacrifice_bonus": 3,
        "die": 0,
        "total": 20,
    }
    assert finals["dev"] == {
        "track": 18,
        "stones": 1,
        "pyramid_majority": 3,
        "chocolatl": 3,
        "old_man": 0,
        "sacrifice": 12,
        "sacrifice_bonus": 3,
        "die": 0,
        "total": 40,
    }
    assert g.state["winners"] == ["dev"]
    assert g.state["track"] == {"0": ["ana"], "5": ["ben", "cleo"], "18": ["dev"]}


def test_r7_final_roll_awaited_from_each_leftover_die_holder() -> None:
    """R7: a holder of leftover dice rolls exactly one die; nothing else is awaited."""
    g = single_round_game()
    g.setup()
    g.bid_red({p: EVEN for p in THREE})
    g.decide(final_rolls={"ben": 4})
    assert g.state["finished"]
    assert [e["values"] for e in g.of_type("rolled")] == [[4]]
    assert g.p("ben")["final"]["die"] == 4 and g.p("cleo")["final"]["die"] == 0


def test_r7_final_roll_needs_one_value() -> None:
    """R7: the final roll is one die: two values are refused."""
    g = single_round_game()
    g.setup()
    g.bid_red({p: EVEN for p in THREE})
    g.decide(until_final=True)
    assert g.state["phase"] == "final_roll" and g.pending() == [{"type": "roll", "player": "ben"}]
    g.refuse({"type": "roll", "player": "ben", "values": [4, 4]}, "values")


def test_r7_old_man_line_is_the_last_rounds_holder() -> None:
    """R7: -3 to the holder after the last round's station 1 (ben in round 2, not ana)."""
    g = started(profile={"max_rounds": 2})
    g.play_round({})
    g.play_round({})
    assert g.p("ben")["final"]["old_man"] == -3 and g.p("ana")["final"]["old_man"] == 0
    assert g.p("cleo")["final"]["chocolatl"] == 3


def test_r7_no_majority_bonus_without_cubes() -> None:
    """R7: the most-cubes bonus needs at least one cube (projection before any cube)."""
    g = started()
    lines = view(g.state, None)["projection"]
    assert all(line["pyramid_majority"] == 0 and line["stones"] == 0 for line in lines.values())


BEN_SAC1 = pairs((2, 11), (3, 10), (4, 9), (0, 12), (5, 8), (6, 7))


def _tie_game(ben_sacrifice: int, ben_roll: int) -> Game:
    """One round; cleo (sacrifice 12, bids 11 everywhere) is always lowest.

    S1 ana 13, ben 13: ben higher in the stack takes the figure (1). S2 ben 4, ana 2, cleo 1.
    S3 ben chooses the die, ana builds a hut. S4 ana 14, ben 12 or 13: one cube each.
    S5 ana 10, ben 8, cleo 0. S6 ana 16, ben 11. ana: 16 + 1 + 3 = 20.
    ben: 11 + 1 + 3 + 3 (figure) + sacrifice + roll. cleo: -3 + 12 + 3 = 12.
    """
    g = single_round_game(sacrifices={"ana": 0, "ben": ben_sacrifice, "cleo": 12})
    plan = {"ana": EVEN, "ben": BEN_SAC1 if ben_sacrifice == 1 else EVEN}
    g.play_round(plan, city="die", final_rolls={"ben": ben_roll})
    return g


def test_r7_winner_has_the_highest_total() -> None:
    """R7: ben 11 + 1 + 3 + 3 + 0 + 3 = 21 beats ana 20."""
    g = _tie_game(0, 3)
    assert {p: g.p(p)["final"]["total"] for p in THREE} == {"ana": 20, "ben": 21, "cleo": 12}
    assert g.state["winners"] == ["ben"]


def test_r7_tied_total_goes_to_the_higher_sacrifice() -> None:
    """R7: ana 20 and ben 11 + 1 + 3 + 3 + 1 (sacrifice) + 1 (roll) = 20 tie; ben sacrificed
    1 > 0 and wins alone."""
    g = _tie_game(1, 1)
    assert {p: g.p(p)["final"]["total"] for p in THREE} == {"ana": 20, "ben": 20, "cleo": 12}
    assert g.state["winners"] == ["ben"]
    over = g.of_type("game_over")[0]
    assert sorted(over["tied_on_points"]) == ["ana", "ben"]


def test_r7_tied_total_and_sacrifice_share_the_win() -> None:
    """R7: ana 20 and ben 18 + 2 (roll) = 20, both sacrificed 0: a shared win."""
    g = _tie_game(0, 2)
    assert {p: g.p(p)["final"]["total"] for p in THREE} == {"ana": 20, "ben": 20, "cleo": 12}
    assert sorted(g.state["winners"]) == ["ana", "ben"]
    assert g.p("cleo")["final"]["sacrifice_bonus"] == 3
    assert g.p("ana")["final"]["sacrifice_bonus"] == 0
