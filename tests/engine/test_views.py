"""What each seat may see (DESIGN.md "Engine"): own secrets yes, others' secrets never before
they are public (R1.2 sacrifice, R2.4-R2.6 unrevealed bids, R3.2 undecided dice)."""

from __future__ import annotations

import json

import pytest

from companion.engine import view, visible_events

from .helpers import EVEN, single_round_game, started

THREE = ("ana", "ben", "cleo")
ANA = [(12, 11), (1, 2), (3, 4), (5, 6), (7, 8), (9, 10)]


def test_r1_2_deck_and_sacrifice_are_private_until_the_end() -> None:
    g = started(sacrifices={"ana": 7, "ben": 0, "cleo": 12})
    for seat in ("ben", "cleo", None):
        theirs = view(g.state, seat)["players"]["ana"]
        assert theirs["sacrifice"] is None and theirs["deck"] is None
        assert theirs["deck_size"] == 12
    mine = view(g.state, "ana")["players"]["ana"]
    assert mine["sacrifice"] == 7 and 7 not in mine["deck"] and len(mine["deck"]) == 12
    events = visible_events(g.events, "ben")
    anas = [e for e in events if e["type"] == "sacrificed" and e["player"] == "ana"]
    assert len(anas) == 1 and "card" not in anas[0] and "7" not in json.dumps(anas[0])
    assert any(e.get("card") == 0 for e in events if e["type"] == "sacrificed")  # ben's own


def test_r2_4_red_bids_are_secret_until_revealed() -> None:
    g = started()
    g.setup()
    g.bid_red({"ana": ANA})
    ben_view = view(g.state, "ben")
    assert ben_view["players"]["ana"]["bids"] is None
    assert ben_view["bid_status"] == {"ana": True, "ben": False, "cleo": False}
    assert view(g.state, "ana")["players"]["ana"]["bids"]["1"] == [12, 11]
    placed = [e for e in visible_events(g.events, "ben") if e["type"] == "bid_placed"]
    assert placed and all("bids" not in e for e in placed)
    # Nothing of ana's cards appears anywhere in the public view.
    assert "[12, 11]" not in json.dumps(view(g.state, None))


def test_r2_5_green_second_cards_stay_secret_after_the_first_reveal() -> None:
    g = started(profile={"track_colors": ["green"]})
    g.setup()
    g.bid_green({p: EVEN for p in THREE}, 0)
    g.do(
        {
            "type": "bid",
            "player": "ana",
            "bids": {s: [c] for s, c in zip("123456", (12, 11, 10, 9, 8, 7), strict=True)},
        }
    )
    ben_view = view(g.state, "ben")
    assert ben_view["revealed"]["1"] == {"ana": [1], "ben": [1], "cleo": [1]}  # first cards
    assert ben_view["players"]["ana"]["bids"] is None
    assert view(g.state, "ana")["players"]["ana"]["bids"]["1"] == [1, 12]


def test_r2_6_gold_next_station_bid_is_secret() -> None:
    g = started(profile={"track_colors": ["gold"]})
    g.setup()
    g.bid_gold({p: EVEN for p in THREE}, 1)
    g.do({"type": "bid", "player": "ana", "bids": {"2": [2, 11]}})
    ben_view = view(g.state, "ben")
    assert set(ben_view["revealed"]) == {"1"}
    assert ben_view["players"]["ana"]["bids"] is None


def test_r3_2_dice_decisions_are_secret_until_everyone_decided() -> None:
    """Round 2 of the EVEN game: ben (die from round 1) and cleo (die from round 2's city) both
    hold a die at station 4 and decide at the same time."""
    g = started()
    g.play_round({})
    g.setup()
    g.bid_red({p: EVEN for p in THREE})
    g.decide(until_station=4)
    assert g.pending() == [{"type": "dice", "player": "ben"}, {"type": "dice", "player": "cleo"}]
    g.do({"type": "dice", "player": "cleo", "count": 1})
    for seat in ("ana", "ben", None):
        window = view(g.state, seat)["dice_window"]
        assert window["choices"] == {}, seat
        assert window["decided"]["cleo"] is True and window["decided"]["ben"] is False
    assert view(g.state, "cleo")["dice_window"]["choices"] == {"cleo": 1}
    decided = [e for e in visible_events(g.events, "ben") if e["type"] == "dice_decided"]
    assert all("count" not in e for e in decided if e["player"] == "cleo")
    g.do({"type": "dice", "player": "ben", "count": 0})
    assert view(g.state, "ana")["dice_window"]["choices"] == {"ben": 0, "cleo": 1}
    assert g.pending() == [{"type": "roll", "player": "cleo"}]


def test_projection_hides_others_sacrifices_and_unrolled_dice() -> None:
    g = started(sacrifices={"ana": 7, "ben": 0, "cleo": 12})
    g.play_round(
        {
            "ana": [(0, 12), (1, 11), (2, 10), (3, 9), (4, 8), (5, 6)],
            "cleo": [(0, 11), (1, 10), (2, 9), (3, 8), (4, 7), (5, 6)],
        }
    )
    projection = view(g.state, "ana")["projection"]
    assert projection["ana"]["sacrifice"] == 7
    assert projection["cleo"]["sacrifice"] is None
    assert all(line["sacrifice_bonus"] is None for line in projection.values())
    holders = [p for p in THREE if g.p(p)["dice"]]
    assert holders and all(projection[p]["die"] is None for p in holders)


def test_everything_is_public_once_the_game_is_over() -> None:
    g = single_round_game(sacrifices={"ana": 0, "ben": 0, "cleo": 0})
    g.play_round({})
    assert g.state["finished"]
    ben_view = view(g.state, "ben")
    assert ben_view["players"]["ana"]["sacrifice"] == 0
    assert ben_view["players"]["ana"]["deck"] == list(range(1, 13))
    assert ben_view["players"]["cleo"]["final"] == g.p("cleo")["final"]


def test_unknown_seat_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown seat"):
        view(started().state, "zed")
