"""R1 (components and setup) and R2 (round structure), one or more tests per rule."""

from __future__ import annotations

import pytest

from companion.engine import (
    DEFAULT_PROFILE,
    PLACEHOLDERS,
    InvalidSetup,
    make_profile,
    new_game,
    view,
)

from .helpers import EVEN, Game, pairs, started

THREE = ("ana", "ben", "cleo")


# --- R1 --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [THREE, THREE + ("dev",), THREE + ("dev", "eli")])
def test_r1_1_three_to_five_players_with_full_decks(players: tuple[str, ...]) -> None:
    """R1.1: 3 to 5 players, each with cards 0..12, nine cubes, a marker on 0."""
    state = new_game(list(players))
    assert list(state["players"]) == list(players)
    for ps in state["players"].values():
        assert ps["deck"] == list(range(13))
        assert ps["score"] == 0 and ps["cubes_used"] == 0 and ps["huts"] == 0
    assert state["profile"]["cubes"] == 9


@pytest.mark.parametrize("players", [["ana", "ben"], ["ana", "ben", "cleo", "dev", "eli", "fay"]])
def test_r1_1_two_or_six_players_are_refused(players: list[str]) -> None:
    """R1.1: fewer than 3 or more than 5 players cannot set up a game."""
    with pytest.raises(InvalidSetup, match="3 to 5 players"):
        new_game(players)


def test_r1_2_sacrifice_leaves_twelve_cards_and_stays_hidden_until_final_scoring() -> None:
    """R1.2: the sacrificed card leaves the deck, is hidden from the others, counts at R7."""
    g = Game(THREE, profile={"max_rounds": 1})
    g.do({"type": "sacrifice", "player": "ana", "card": 5})
    assert g.p("ana")["deck"] == [c for c in range(13) if c != 5]
    assert g.p("ana")["sacrifice"] == 5
    assert view(g.state, "ana")["players"]["ana"]["sacrifice"] == 5
    for seat in ("ben", "cleo", None):
        assert view(g.state, seat)["players"]["ana"]["sacrifice"] is None
    g.do({"type": "sacrifice", "player": "ben", "card": 0})
    g.do({"type": "sacrifice", "player": "cleo", "card": 12})
    assert [len(ps["deck"]) for ps in g.state["players"].values()] == [12, 12, 12]
    assert g.state["round"] == 1
    # ana's deck lacks 5: 0..4, 6..12 are her twelve cards.
    ana = pairs((0, 12), (1, 11), (2, 10), (3, 9), (4, 8), (6, 7))
    cleo = pairs((0, 11), (1, 10), (2, 9), (3, 8), (4, 7), (5, 6))
    g.play_round({"ana": ana, "ben": EVEN, "cleo": cleo})
    assert g.state["finished"]
    assert g.p("ana")["final"]["sacrifice"] == 5
    assert g.p("cleo")["final"]["sacrifice"] == 12
    assert view(g.state, "ben")["players"]["ana"]["sacrifice"] == 5  # public once over


def test_r1_3_initial_stack_is_given_bottom_to_top_or_seating_order() -> None:
    """R1.3: all markers on box 0 in one stack; the scenario's order, else seating order."""
    assert new_game(list(THREE), ["cleo", "ana", "ben"])["track"] == {"0": ["cleo", "ana", "ben"]}
    assert new_game(list(THREE))["track"] == {"0": ["ana", "ben", "cleo"]}


def test_r1_4_nobody_holds_figure_or_old_man_at_start() -> None:
    """R1.4: no Chocolatl figure holder and no old man holder at the start."""
    g = started()
    assert g.state["chocolatl"] is None and g.state["old_man"] is None
    assert new_game(list(THREE))["chocolatl"] is None


def test_r1_5_supply_defaults_and_placeholder_decks() -> None:
    """R1.5: seven hut spaces, two improvement decks of six cards (placeholders)."""
    assert DEFAULT_PROFILE["hut_spaces"] == 7
    decks = DEFAULT_PROFILE["improvement_decks"]
    assert len(decks) == 2 and [len(d) for d in decks] == [6, 6]
    assert "improvement_decks" in PLACEHOLDERS
    assert make_profile({"hut_spaces": 2})["hut_spaces"] == 2


def test_r1_5_hut_spaces_limit_huts() -> None:
    """R1.5 with R5.3: once the profile's hut spaces are used, no more huts are built.

    Round 1 (EVEN): cleo is first at station 3 and builds the only hut, ben takes the die.
    Round 2 (EVEN): station 3 totals ana 13, ben 13 - 1 (old man) = 12, cleo 13 - 1 (hut) = 12:
    ana is first, no space is free, so she takes the die without being asked.
    """
    g = started(profile={"hut_spaces": 1, "track_colors": ["red"]})
    g.play_round({})
    assert g.p("cleo")["huts"] == 1 and g.p("ben")["dice"] == 1
    mark = len(g.events)
    g.play_round({})
    round2 = g.events[mark:]
    assert g.totals(3) == {"ana": 13, "ben": 12, "cleo": 12}
    assert g.of_type("city_choice", round2) == [] and g.of_type("hut", round2) == []
    assert [e["player"] for e in g.of_type("die", round2)] == ["ana"]
    assert sum(ps["huts"] for ps in g.state["players"].values()) == 1
    assert g.p("ana")["dice"] == 1


# --- R2 --------------------------------------------------------------------------------


def test_r2_1_round_max_rounds_is_the_last() -> None:
    """R2.1: with max_rounds 2 the game ends after round 2; round 2 is last from its start."""
    g = started(profile={"max_rounds": 2})
    g.play_round({})
    assert g.state["round"] == 2 and g.state["last_round"] is True
    started_events = g.of_type("round_started")
    assert [e["last_round"] for e in started_events] == [False, True]
    g.play_round({})
    assert g.state["finished"] and g.state["round"] == 2
    assert g.state["pending"] == []


def test_r2_1_default_is_seven_rounds() -> None:
    """R2.1: seven rounds at most by default; round 7 starts as the last round."""
    assert DEFAULT_PROFILE["max_rounds"] == 7
    # A huge end score and a big pyramid keep R6.3 away: only the round limit ends the game.
    g = started(profile={"end_score": 10_000, "pyramid_rows": [[40, 1]], "cubes": 99})
    rounds = 0
    while not g.state["finished"]:
        g.play_round({})
        rounds += 1
    assert rounds == 7 and g.state["round"] == 7


def test_r2_2_setup_comes_before_bidding_in_any_order() -> None:
    """R2.2: harvest dice and face-up cards are awaited (host inputs, no player) before bids."""
    g = started()
    assert g.pending() == [{"type": "harvest"}, {"type": "improvements"}]
    g.refuse({"type": "bid", "player": "ana", "bids": {"1": [1, 2]}}, "bid", "awaited")
    g.do({"type": "improvements", "cards": [14, 11]})
    assert g.pending() == [{"type": "harvest"}]
    g.refuse({"type": "bid", "player": "ana", "bids": {"1": [1, 2]}}, "awaited")
    g.do({"type": "harvest", "dice": [6, 1, 4]})
    assert g.state["harvest"] == [6, 1, 4] and g.state["improvements"] == [14, 11]
    assert g.pending_types() == ["bid", "bid", "bid"]


def test_r2_2_last_possible_round_lays_no_improvement_cards() -> None:
    """R2.2: in round max_rounds only the harvest dice are awaited."""
    g = started(profile={"max_rounds": 1})
    assert g.pending() == [{"type": "harvest"}]
    g.refuse({"type": "improvements", "cards": [13, 10]}, "improvements")


def test_r2_2_old_man_returns_at_round_start() -> None:
    """R2.2: the old man goes back to station 1; its holder is remembered as returning."""
    g = started()
    g.play_round({})  # EVEN: ana is lowest at station 1 (bottom of the stack) -> old man
    assert g.of_type("old_man")[0]["player"] == "ana"
    assert g.state["round"] == 2
    assert g.state["old_man"] is None
    assert g.state["returning"] == "ana"


def test_r2_3_box_zero_is_red_and_profile_colours_decide() -> None:
    """R2.3: round 1 starts with everybody on box 0, which is red by default."""
    assert started().state["mode"] == "red"
    assert started(profile={"track_colors": ["gold"]}).state["mode"] == "gold"
    assert started(profile={"track_colors": ["green", "red"]}).state["mode"] == "green"


def test_r2_3_mode_follows_the_leaders_box() -> None:
    """R2.3: the leader's box colour at the start of a round sets the mode.

    EVEN bids with harvest dice 1, 2, 4: cleo (top of the stack, then figure holder) wins
    every station: 1 (Chocolatl) + 4 (harvest) + 8 (drink) = 13; 13 % 3 == 1 -> gold.
    """
    g = started()
    g.play_round({}, harvest=(1, 2, 4))
    assert g.scores() == {"ana": 0, "ben": 6, "cleo": 13}
    assert g.state["mode"] == "gold"
    assert g.of_type("round_started")[-1]["leader_box"] == 13


def test_r2_4_red_round_all_cards_at_once_then_stations_in_order() -> None:
    """R2.4: all twelve cards are bid at the start; nothing is revealed before every bid;
    then stations 1 to 6 are revealed and resolved in order."""
    g = started()
    g.setup()
    assert g.state["mode"] == "red"
    g.bid_red({"ana": EVEN, "ben": EVEN})
    assert g.of_type("revealed") == [] and g.state["revealed"] == {}
    assert g.pending() == [{"type": "bid", "player": "cleo"}]
    events = g.bid_red({"cleo": EVEN})
    kinds = [(e["type"], e["station"]) for e in events if e["type"] in ("revealed", "ranking")]
    # Station 3 waits for cleo's city choice.
    assert kinds == [
        ("revealed", 1),
        ("ranking", 1),
        ("revealed", 2),
        ("ranking", 2),
        ("revealed", 3),
        ("ranking", 3),
    ]
    g.decide()
    kinds = [e["station"] for e in g.events if e["type"] == "ranking"]
    assert kinds == [1, 2, 3, 4, 5, 6]


def test_r2_5_green_first_cards_together_then_second_cards() -> None:
    """R2.5: one card per station, all first cards shown together, then a second card each."""
    g = started(profile={"track_colors": ["green"]})
    g.setup()
    assert g.state["step"] == "first"
    ana = pairs((12, 1), (2, 11), (3, 10), (4, 9), (5, 8), (6, 7))
    plan = {"ana": ana, "ben": EVEN, "cleo": EVEN}
    g.bid_green({"ana": ana, "ben": EVEN}, 0)
    assert g.of_type("first_cards_revealed") == []
    events = g.bid_green({"cleo": EVEN}, 0)
    shown = g.of_type("first_cards_revealed", events)
    assert len(shown) == 1
    assert shown[0]["cards"]["1"] == {"ana": [12], "ben": [1], "cleo": [1]}
    assert shown[0]["cards"]["6"] == {"ana": [6], "ben": [6], "cleo": [6]}
    assert g.of_type("ranking") == []
    assert g.state["step"] == "second" and g.pending_types() == ["bid"] * 3
    g.bid_green(plan, 1)
    # Station 1: ana 12 + 1 = 13 ties ben and cleo at 13 -> cleo (top of stack) first.
    assert g.ranking(1)["entries"][0]["player"] == "cleo"
    assert g.totals(1) == {"ana": 13, "ben": 13, "cleo": 13}
    assert g.ranking(1)["entries"][-1]["player"] == "ana"
    assert sorted(g.ranking(1)["entries"][-1]["cards"]) == [1, 12]


def test_r2_6_gold_station_by_station() -> None:
    """R2.6: two cards for station s, reveal, resolve s, then bids for s + 1."""
    g = started(profile={"track_colors": ["gold"]})
    g.setup()
    assert g.state["step"] == 1
    g.refuse({"type": "bid", "player": "ana", "bids": {"2": [1, 2]}}, "station 1")
    g.refuse({"type": "bid", "player": "ana", "bids": {"1": [1, 2], "2": [3, 4]}}, "station 1")
    plan = {"ana": [(12, 11), (1, 2)], "ben": EVEN, "cleo": EVEN}
    events = g.bid_gold(plan, 1)
    assert [e["station"] for e in g.of_type("ranking", events)] == [1]
    assert g.state["chocolatl"] == "ana"  # 23 beats 13
    assert g.state["step"] == 2 and g.pending_types() == ["bid"] * 3
    # R2.7: ana's 12 went to station 1.
    g.refuse({"type": "bid", "player": "ana", "bids": {"2": [12, 3]}}, "12", "already used")
    g.bid_gold(plan, 2)
    assert [e["station"] for e in g.of_type("ranking")] == [1, 2]
    assert g.state["step"] == 3


def test_r2_7_a_bid_cannot_be_changed() -> None:
    """R2.7: a second bid for the same step is refused."""
    g = started()
    g.setup()
    g.bid_red({"ana": EVEN})
    msg = g.refuse(
        {
            "type": "bid",
            "player": "ana",
            "bids": {s: list(p) for s, p in zip("123456", EVEN, strict=True)},
        },
        "ana",
        "already bid",
    )
    assert "bid" in msg


def test_r2_7_card_once_per_round_sum_of_two_and_cards_return() -> None:
    """R2.7: a card is used once per round, a bid is the sum of its two cards and the cards
    are back in the deck next round."""
    g = started()
    g.setup()
    dup = {s: list(p) for s, p in zip("123456", EVEN, strict=True)}
    dup["6"] = [1, 7]  # 1 already at station 1
    g.refuse({"type": "bid", "player": "ana", "bids": dup}, "card 1", "already used")
    g.bid_red({p: EVEN for p in THREE})
    g.decide()
    assert g.ranking(1)["entries"][0]["cards_sum"] == 13
    assert g.state["round"] == 2
    assert g.p("ana")["used"] == []
    g.play_round({"ana": EVEN})  # the same cards again
    assert g.state["round"] == 3
