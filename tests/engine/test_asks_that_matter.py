"""Nobody is asked what cannot matter (companion.engine.bonusdice, companion.engine.stakes):
a bonus dice question only when using dice can change what the station gives (R3.2, R5), a
pyramid order only when the two cubes would not land in one row (R5.4); the city's choice
always (R5.3).

Every situation is played through the engine (helpers.Game). Sacrifices are 0, so every deck
is 1..12; the stack starts ana (bottom) .. eve (top). In each case the holder's place CAN
change (``fixed`` is False: the old rule asked), but no place within reach gives anything
else.
"""

from __future__ import annotations

from companion.engine.bonusdice import nothing_to_decide, outlook
from companion.engine.stakes import place_gains, pyramid_order_matters
from companion.table import dealer

from .helpers import Game, pairs

FOUR = ("ana", "ben", "cleo", "dora")
FIVE = ("ana", "ben", "cleo", "dora", "eve")
RED = {"track_colors": ["red"]}  # every round red (R2.3): one bid a round, R2.4

# Round 1 for five: dora wins the city (11+12) and takes its die (R5.3); eve is lowest at S1
# (the old man, R4.1) and second at the city (a hut, R4.2).
ROUND1 = {
    "ana": pairs((6, 12), (1, 2), (3, 4), (10, 11), (5, 7), (8, 9)),
    "ben": pairs((7, 11), (3, 4), (5, 6), (9, 10), (1, 2), (8, 12)),
    "cleo": pairs((8, 10), (5, 6), (1, 9), (4, 7), (11, 12), (2, 3)),
    "dora": pairs((5, 9), (8, 10), (11, 12), (2, 6), (4, 7), (1, 3)),
    "eve": pairs((1, 2), (11, 12), (9, 10), (3, 4), (5, 6), (7, 8)),
}


def bases(g: Game, station: int) -> dict[str, int]:
    return {p: b["base"] for p, b in outlook(g.state, station).items()}


def round1(station: int, improvements: tuple[int, int] = (5, 9)) -> Game:
    """ROUND1 played up to the bonus dice window of ``station`` (dora's die unused)."""
    g = Game(FIVE, stack=list(FIVE))
    g.sacrifice_all(0)
    g.setup(improvements=improvements)
    g.bid_red(ROUND1)
    g.decide(city="die", until_station=station)
    assert g.state["phase"] == "dice" and g.state["station"] == station
    assert {p: ps["dice"] for p, ps in g.state["players"].items() if ps["dice"]} == {"dora": 1}
    return g


def test_r5_4_fourth_to_third_at_the_pyramid_is_not_asked() -> None:
    """R5.4: only first and second place cubes. dora (8, one die) is 4th; a six lifts her to
    3rd (14 > cleo's 11) but not near ben's 19: third gives nothing, like fourth."""
    g = round1(4)
    assert bases(g, 4) == {"ana": 21, "ben": 19, "cleo": 11, "dora": 8, "eve": 7}
    dora = outlook(g.state, 4)["dora"]
    assert (dora["place"], dora["best"], dora["fixed"]) == (4, {"1": 3}, False)
    assert dora["matters"] is False and nothing_to_decide(g.state, "dora")
    assert dealer.no_dice(g.state) == {"type": "dice", "player": "dora", "count": 0}


def test_r5_6_fifth_to_fourth_at_tachli_is_not_asked() -> None:
    """R5.6: the face-up cards 9 and 5 go to first and second. dora (4) is 5th; a six gives
    her 10, 4th behind eve's 15: nothing either way."""
    g = round1(6)
    assert bases(g, 6) == {"ana": 17, "ben": 20, "cleo": 5, "dora": 4, "eve": 15}
    dora = outlook(g.state, 6)["dora"]
    assert (dora["place"], dora["best"], dora["fixed"]) == (5, {"1": 4}, False)
    assert nothing_to_decide(g.state, "dora")


def test_r5_6_equal_cards_make_first_and_second_the_same() -> None:
    """R5.6: with two equal face-up cards (1 and 1) first and second gain the same card and
    drop their lowest card."""
    gains = place_gains(round1(6, improvements=(1, 1)).state, 6)["ana"]
    assert gains[0] == gains[1] == ("card", 1) and gains[2] == gains[3] == gains[4] == ()


# Round 1 for four: dora is lowest at S1 (the old man, R4.1), then wins the city (11+12) and
# takes its die (R5.3); ben is second at the city (a hut). After it: cleo holds the figure.
FOUR_ROUND1 = {
    "ana": pairs((6, 12), (1, 2), (3, 4), (10, 11), (5, 7), (8, 9)),
    "ben": pairs((7, 11), (3, 4), (5, 6), (9, 10), (1, 2), (8, 12)),
    "cleo": pairs((8, 10), (5, 6), (1, 9), (4, 7), (11, 12), (2, 3)),
    "dora": pairs((1, 2), (8, 10), (11, 12), (3, 6), (4, 7), (5, 9)),
}
FOUR_ROUND2 = {
    "ana": pairs((11, 12), (1, 2), (3, 4), (5, 6), (7, 8), (9, 10)),
    "ben": pairs((6, 9), (1, 2), (3, 4), (5, 10), (7, 8), (11, 12)),
    "cleo": pairs((4, 5), (1, 2), (3, 6), (9, 10), (7, 8), (11, 12)),
}


def round2_station1(dora_s1: tuple[int, int]) -> Game:
    g = Game(FOUR, stack=list(FOUR), profile=RED)
    g.sacrifice_all(0)
    g.setup()
    g.bid_red(FOUR_ROUND1)
    g.decide(city="die")
    assert g.state["round"] == 2 and g.state["returning"] == "dora"
    rest = [c for c in range(1, 13) if c not in dora_s1]
    dora = pairs(dora_s1, *zip(rest[::2], rest[1::2], strict=True))
    g.setup(harvest=(2, 5, 6))
    g.bid_red({**FOUR_ROUND2, "dora": dora})
    assert g.state["phase"] == "dice" and g.state["station"] == 1
    return g


def test_r5_1_third_to_second_at_the_chocolatl_station_is_not_asked() -> None:
    """R5.1: the figure and a point go to first, the old man to the lowest; the places in
    between give nothing. dora (5+6, +1 returning with the old man, R4.1) is 3rd; a six
    lifts her to 2nd (18 > 16) but not to ana's 23, and cleo (9, no dice) cannot make her
    lowest."""
    g = round2_station1((5, 6))
    assert bases(g, 1) == {"ana": 23, "ben": 16, "cleo": 9, "dora": 12}
    dora = outlook(g.state, 1)["dora"]
    assert (dora["place"], dora["best"], dora["fixed"]) == (3, {"1": 2}, False)
    assert nothing_to_decide(g.state, "dora")


def test_r5_1_escaping_the_old_man_is_asked() -> None:
    """R5.1: the same table with dora 1+2 (4): lowest takes the old man, and a die can lift
    her to 3rd (cleo's 9): her answer can matter."""
    g = round2_station1((1, 2))
    assert bases(g, 1) == {"ana": 23, "ben": 16, "cleo": 9, "dora": 4}
    assert outlook(g.state, 1)["dora"]["matters"] is True
    assert not nothing_to_decide(g.state, "dora") and dealer.no_dice(g.state) is None


def round4_station5() -> Game:
    """Three rounds in which every holder uses a die in every window it can, then round 4
    with dora first at the city (her die)."""
    g = Game(FOUR, stack=list(FOUR), profile=RED)
    g.sacrifice_all(0)
    for _ in range(3):
        g.play_round({}, city="die", dice={p: 1 for p in FOUR})
    assert g.state["round"] == 4 and not any(ps["dice"] for ps in g.state["players"].values())
    g.setup()
    g.bid_red(
        {
            "ana": pairs((1, 2), (3, 4), (5, 6), (7, 8), (11, 12), (9, 10)),
            "ben": pairs((1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12)),
            "cleo": pairs((1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12)),
            "dora": pairs((1, 2), (3, 4), (11, 12), (5, 6), (8, 10), (7, 9)),
        }
    )
    g.decide(city="die", until_station=5)
    assert g.state["phase"] == "dice" and g.state["station"] == 5
    return g


def test_r5_5_third_to_second_at_the_drink_from_round_4_is_not_asked() -> None:
    """R5.5: from round 4 second scores 0 at the cacao drink, like every place but first and
    lowest. dora (8+10, +1 hut) is 3rd; a six lifts her to 2nd (25 > ben's 20) but not past
    ana (25 too: the lower score wins the tie, R3.4), and cleo (18, no dice) stays lowest."""
    g = round4_station5()
    assert bases(g, 5) == {"ana": 25, "ben": 20, "cleo": 18, "dora": 19}
    dora = outlook(g.state, 5)["dora"]
    assert (dora["place"], dora["best"], dora["fixed"]) == (3, {"1": 2}, False)
    assert place_gains(g.state, 5)["dora"][1] == ()  # R5.5 round 4: 5/0
    assert nothing_to_decide(g.state, "dora")


# --- the pyramid's order (R5.4) ------------------------------------------------------------


def to_pyramid(g: Game) -> None:
    g.setup()
    g.bid_red(FOUR_ROUND1)
    g.decide(city="die", until_station=4)
    g.do({"type": "dice", "player": "dora", "count": 0})


def test_r5_4_the_order_of_two_cubes_in_one_row_is_not_asked() -> None:
    """R5.4: ana 21 and ben 19 + 1 hut: a lead of 1, so each places one cube and ana decides
    who goes first. On an empty pyramid both land in the bottom row: the order gives nobody
    anything, so the table places ana's first without asking."""
    g = Game(FOUR, stack=list(FOUR), profile=RED)
    g.sacrifice_all(0)
    to_pyramid(g)
    assert g.state["phase"] == "pyramid"
    assert g.state["decision"] == {"type": "pyramid", "first": "ana", "second": "ben"}
    assert not pyramid_order_matters(g.state)
    assert dealer.no_choice(g.state) == {"type": "pyramid", "player": "ana", "first": "ana"}
    assert dealer.unasked(g.state) == (dealer.no_choice(g.state), dealer.NO_CHOICE)


def test_r5_4_the_order_is_asked_when_the_first_cube_fills_a_row() -> None:
    """R5.4: two rounds of the same bids leave four cubes in the bottom row; in round 3 the
    first cube fills it (its majority scores at once) and the second starts the next row:
    the order matters, and the first player is asked."""
    g = Game(FOUR, stack=list(FOUR), profile=RED)
    g.sacrifice_all(0)
    g.play_round(FOUR_ROUND1, city="die")
    g.play_round(FOUR_ROUND1, city="die")
    assert g.state["round"] == 3
    assert [cell is not None for cell in g.state["pyramid"][0]] == [True] * 4 + [False]
    to_pyramid(g)
    assert g.state["phase"] == "pyramid"
    assert pyramid_order_matters(g.state)
    assert dealer.no_choice(g.state) is None and dealer.unasked(g.state) is None


def test_r5_3_the_city_is_always_asked() -> None:
    """R5.3: a hut and a die are never the same, so first's city choice is always asked."""
    g = Game(FOUR, stack=list(FOUR), profile=RED)
    g.sacrifice_all(0)
    g.setup()
    g.bid_red(FOUR_ROUND1)
    assert g.state["pending"] == [{"type": "city", "player": "dora"}]
    assert dealer.unasked(g.state) is None


# --- a place that gives the holder nothing more can still matter (R3.6) --------------------


def test_r3_6_passing_a_player_onto_the_drinks_penalty_is_asked() -> None:
    """R5.5, R6.1: dora is lowest at the drink with a score of 0, so the penalty costs her
    nothing (cut off at 0), and 3rd gives nothing in round 1 either. But a six lifts her past
    ana (16 < 20), who would then lose 2 instead: dora's answer can change what the station
    gives, so she is asked. She cannot reach ben's 22 (4 points for second)."""
    g = Game(FOUR, stack=list(FOUR))
    g.sacrifice_all(0)
    g.setup(harvest=(1, 2, 3))
    g.bid_red(
        {
            "ana": pairs((11, 12), (3, 4), (1, 2), (5, 6), (7, 9), (8, 10)),
            "ben": pairs((5, 6), (7, 8), (4, 12), (1, 2), (10, 11), (3, 9)),
            "cleo": pairs((3, 4), (9, 10), (1, 2), (5, 6), (11, 12), (7, 8)),
            "dora": pairs((1, 2), (3, 4), (11, 12), (5, 6), (7, 8), (9, 10)),
        }
    )
    g.decide(city="die", until_station=5)
    assert g.scores()["dora"] == 0 and g.scores()["ana"] > 0
    assert bases(g, 5) == {"ana": 16, "ben": 22, "cleo": 23, "dora": 14}
    dora = outlook(g.state, 5)["dora"]
    assert (dora["place"], dora["best"], dora["fixed"]) == (4, {"1": 3}, False)
    gains = place_gains(g.state, 5)
    assert gains["dora"][2] == gains["dora"][3] == ()  # nothing either way for her
    assert gains["ana"][3][:2] == ("points", -min(2, g.scores()["ana"]))  # but ana loses
    assert dora["matters"] is True and not nothing_to_decide(g.state, "dora")
