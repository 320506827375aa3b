"""The rulebook's pyramid example, built by five real station-4 resolutions (R5.4, R3.5).

Orange ends up with the majority of the bottom row and scores its 5; green and purple hold two
cubes each in the second row and green takes its 4 because green holds the Chocolatl figure.

Profile: no hut spaces (no hut modifiers to track), a far end score. Every deck stays 1..12
(Tachli cards 1 and 1 replace the discarded 1s). Green wins station 1 every round (23) and so
holds the figure throughout. Worked by hand, station 4 of each round:

round 1  orange 23, purple 7 - 1 (old man), green 3: 23 >= 6 + 3 -> orange, orange
round 2  green 19, orange 19 - 1 (old man), purple 3: one each, green places first -> G, O
round 3  purple 22 - 1 (old man), green 19: one each, purple first -> P fills row 1:
         orange 3, green 1, purple 1 -> orange +5; then G opens row 2
round 4  purple 23 - 1 (old man), green 3, orange 3: two cubes -> P, P
round 5  green 19, orange 18, purple 7 - 1: one each, green first -> G fills row 2:
         green 2, purple 2, tie broken by the figure (green) -> green +4; then O to row 3
"""

from __future__ import annotations

from .helpers import Game, pairs

PLAYERS = ("orange", "green", "purple")

ROUNDS = [
    {  # 1
        "orange": pairs((3, 4), (1, 2), (5, 6), (12, 11), (7, 8), (9, 10)),
        "green": pairs((12, 11), (3, 4), (5, 6), (1, 2), (7, 8), (9, 10)),
        "purple": pairs((1, 2), (5, 6), (7, 8), (3, 4), (9, 10), (11, 12)),
    },
    {  # 2: purple returns (+1 at S1: 8), orange is lowest (3) and holds the old man
        "orange": pairs((1, 2), (3, 4), (5, 6), (12, 7), (8, 9), (10, 11)),
        "green": pairs((12, 11), (1, 2), (3, 4), (10, 9), (5, 6), (7, 8)),
        "purple": pairs((3, 4), (5, 6), (7, 8), (1, 2), (9, 10), (11, 12)),
    },
    {  # 3: orange returns (8), purple lowest (3)
        "orange": pairs((3, 4), (5, 6), (7, 8), (1, 2), (9, 10), (11, 12)),
        "green": pairs((12, 11), (1, 2), (3, 4), (10, 9), (5, 6), (7, 8)),
        "purple": pairs((1, 2), (3, 4), (5, 6), (12, 10), (7, 8), (9, 11)),
    },
    {  # 4: purple returns (4) and is lowest again
        "orange": pairs((3, 4), (5, 6), (7, 8), (1, 2), (9, 10), (11, 12)),
        "green": pairs((12, 11), (3, 4), (5, 6), (1, 2), (7, 8), (9, 10)),
        "purple": pairs((1, 2), (3, 4), (5, 6), (12, 11), (7, 8), (9, 10)),
    },
    {  # 5: purple returns (4) and is lowest again
        "orange": pairs((3, 4), (1, 2), (5, 7), (12, 6), (8, 9), (10, 11)),
        "green": pairs((12, 11), (1, 2), (3, 4), (10, 9), (5, 6), (7, 8)),
        "purple": pairs((1, 2), (5, 6), (7, 8), (3, 4), (9, 10), (11, 12)),
    },
]
# Station 4 of each round: (totals, who places first when both place one cube).
EXPECTED_S4 = [
    ({"orange": 23, "green": 3, "purple": 6}, None),
    ({"orange": 18, "green": 19, "purple": 3}, "green"),
    ({"orange": 3, "green": 19, "purple": 21}, "purple"),
    ({"orange": 3, "green": 3, "purple": 22}, None),
    ({"orange": 18, "green": 19, "purple": 6}, "green"),
]
PYRAMID_AFTER = [
    [["orange", "orange", None, None, None], [None] * 4, [None] * 3, [None] * 2],
    [["orange", "orange", "green", "orange", None], [None] * 4, [None] * 3, [None] * 2],
    [
        ["orange", "orange", "green", "orange", "purple"],
        ["green", None, None, None],
        [None] * 3,
        [None] * 2,
    ],
    [
        ["orange", "orange", "green", "orange", "purple"],
        ["green", "purple", "purple", None],
        [None] * 3,
        [None] * 2,
    ],
    [
        ["orange", "orange", "green", "orange", "purple"],
        ["green", "purple", "purple", "green"],
        ["orange", None, None],
        [None] * 2,
    ],
]


def test_rulebook_pyramid_example() -> None:
    """R5.4 / R3.5: orange 5 for the bottom row's majority, green 4 for the second row by the
    figure against purple."""
    g = Game(PLAYERS, profile={"hut_spaces": 0, "end_score": 1000})
    g.sacrifice_all(0)
    completed = []
    for number, plan in enumerate(ROUNDS, 1):
        assert g.state["round"] == number
        mark = len(g.events)
        g.play_round(plan, pyramid_first=lambda d: d["first"])
        events = g.events[mark:]
        totals, first = EXPECTED_S4[number - 1]
        assert g.totals(4) == totals, number
        assert g.ranking(1, events)["order"][0] == "green"
        orders = g.of_type("pyramid_order", events)
        assert [e["first"] for e in orders] == ([first] if first else [])
        assert g.state["pyramid"] == PYRAMID_AFTER[number - 1], number
        assert g.state["chocolatl"] == "green"
        completed += [(number, e) for e in g.of_type("row_completed", events)]
    assert [(n, e["row"], e["player"], e["bonus"]) for n, e in completed] == [
        (3, 0, "orange", 5),
        (5, 1, "green", 4),
    ]
    bottom, second = completed[0][1], completed[1][1]
    assert bottom["counts"] == {"orange": 3, "green": 1, "purple": 1}
    assert bottom["ties"] == []
    assert second["counts"] == {"green": 2, "purple": 2}
    assert [(t["players"], t["rule"]) for t in second["ties"]] == [(["green", "purple"], "figure")]
    assert g.scored("pyramid_row") == [("orange", 5, 5), ("green", 4, 4)]
