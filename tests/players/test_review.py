"""Game review (companion/players/review.py): decisions rated from the deciding seat's view.

The logs in tests/players/logs were written by ``companion arena --logs`` (strong against
random, good and plain players). Reviews here run a small fixed number of playouts.
"""

from __future__ import annotations

import json
import random
import re
import string
from pathlib import Path
from typing import Any

import pytest

from companion.engine import apply_in_place, game_from_document, view
from companion.players import review as rv
from companion.players.common import PLAYER_KINDS

LOGS = Path(__file__).parent / "logs"


def log(name: str) -> dict[str, Any]:
    return json.loads((LOGS / f"{name}.json").read_text())


def arena_logs() -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted(LOGS.glob("arena-*.json"))]


# --- what a seat could not see changes nothing -------------------------------------------


def state_before(document: dict[str, Any], index: int) -> dict[str, Any]:
    state = game_from_document(document)
    for command in document["commands"][:index]:
        apply_in_place(state, command)
    return state


def swap_cards(command: dict[str, Any], a: int, b: int) -> dict[str, Any]:
    """The command with the card values ``a`` and ``b`` exchanged."""

    def swap(c: int) -> int:
        return b if c == a else a if c == b else c

    out = dict(command)
    if command["type"] == "sacrifice":
        out["card"] = swap(command["card"])
    elif command["type"] == "bid":
        out["bids"] = {k: [swap(c) for c in v] for k, v in command["bids"].items()}
    return out


def hidden_variant(
    document: dict[str, Any], index: int, rng: random.Random, attempts: int = 10
) -> dict[str, Any] | None:
    """:func:`one_hidden_change`, tried a few times."""
    for _ in range(attempts):
        variant = one_hidden_change(document, index, rng)
        if variant is not None:
            return variant
    return None


def one_hidden_change(
    document: dict[str, Any], index: int, rng: random.Random
) -> dict[str, Any] | None:
    """The log up to decision ``index`` with something the deciding seat cannot see changed:
    another seat's cards relabelled in its sacrifice and bids (R1.2, R2.4-R2.6), or another
    seat's dice decision in the open window (R3.2). ``None`` when the change would be visible
    or illegal (checked by replaying and comparing the seat's view)."""
    commands = document["commands"][: index + 1]
    seat = commands[index]["player"]
    others = [p for p in document["players"] if p != seat]
    q = rng.choice(others)
    changed = list(commands)
    before = state_before(document, index)
    window = before["dice_window"]
    if before["phase"] == "dice" and window and q in window["choices"] and rng.random() < 0.5:
        held = before["players"][q]["dice"]
        count = rng.choice([n for n in range(held + 1) if n != window["choices"][q]] or [0])
        at = max(
            i for i, c in enumerate(commands[:index]) if c["type"] == "dice" and c["player"] == q
        )
        changed[at] = {**commands[at], "count": count}
    else:
        a, b = rng.sample(range(13), 2)
        changed = [
            swap_cards(c, a, b) if c.get("player") == q and i < index else c
            for i, c in enumerate(commands)
        ]
    variant = {**document, "commands": changed}
    try:
        after = state_before(variant, index)
    except ValueError:
        return None
    if view(after, seat) != view(before, seat):
        return None  # the change was visible to the seat: not what this test is about
    if after == before:
        return None
    return variant


def decision_indices(document: dict[str, Any]) -> list[int]:
    return [
        i
        for i, c in enumerate(document["commands"])
        if c["type"] in PLAYER_KINDS and c.get("player")
    ]


@pytest.mark.parametrize("name", ["arena-3p-1", "arena-5p-1"])
def test_what_a_seat_could_not_see_changes_nothing_in_its_rating(name: str) -> None:
    document = log(name)
    rng = random.Random(name)
    indices = decision_indices(document)
    tried = 0
    kinds = set()
    for index in rng.sample(indices, len(indices)):
        variant = hidden_variant(document, index, rng)
        if variant is None:
            continue
        prefix = {**document, "commands": document["commands"][: index + 1]}
        plain = rv.review_game(prefix, seed=5, playouts=60, only={index})
        hidden = rv.review_game(variant, seed=5, playouts=60, only={index})
        assert plain["decisions"] == hidden["decisions"], f"decision {index} of {name}"
        assert plain["decisions"][0]["index"] == index
        kinds.add(plain["decisions"][0]["kind"])
        tried += 1
        if tried == 12:
            break
    assert tried >= 8, f"only {tried} decisions of {name} could hide a change"
    assert "bid" in kinds


def test_the_hidden_variants_really_differ_from_the_log() -> None:
    """The variants above change the full state (else the property would be empty)."""
    document = log("arena-5p-1")
    rng = random.Random(1)
    found = 0
    for index in decision_indices(document)[5:25]:
        variant = hidden_variant(document, index, rng)
        if variant is not None:
            assert state_before(variant, index) != state_before(document, index)
            found += 1
    assert found >= 10


# --- strong decisions rate better than random ones ---------------------------------------


def test_strong_loses_far_fewer_points_per_decision_than_random() -> None:
    losses: dict[str, list[float]] = {"strong": [], "random": []}
    for document in arena_logs():
        result = rv.review_game(document, seed=0, playouts=100)
        for p, pr in result["players"].items():
            if pr["kind"] in losses:
                losses[pr["kind"]] += [
                    d["loss"] for d in result["decisions"] if d["player"] == p and not d["forced"]
                ]
    strong = sum(losses["strong"]) / len(losses["strong"])
    randomly = sum(losses["random"]) / len(losses["random"])
    assert randomly > 3 * strong and randomly - strong > 1.5, (strong, randomly)


# --- a hand-built blunder ----------------------------------------------------------------


def green_last_round(second: dict[str, list[int]]) -> dict[str, Any]:
    """One green round that is also the last (profile: R2.1, R2.3). After the first cards
    (R2.5) ana's 8 on the drink (5) needs her 11 to beat 11 + anything the others have left
    (their unseen cards are 1..7), while her 12 on Tachli (6) already beats their 0 + 7 with
    any card: the 11 belongs on station 5, the 4 on station 6."""
    first = {"1": [12], "2": [10], "3": [9], "4": [8], "5": [11], "6": [0]}
    commands: list[dict[str, Any]] = [
        {"type": "sacrifice", "player": "ana", "card": 6},
        {"type": "sacrifice", "player": "ben", "card": 1},
        {"type": "sacrifice", "player": "cleo", "card": 1},
        {"type": "harvest", "dice": [3, 4, 5]},
        {
            "type": "bid",
            "player": "ana",
            "bids": {"1": [0], "2": [1], "3": [2], "4": [3], "5": [8], "6": [12]},
        },
        {"type": "bid", "player": "ben", "bids": first},
        {"type": "bid", "player": "cleo", "bids": first},
        {"type": "bid", "player": "ana", "bids": second},
    ]
    return {
        "players": ["ana", "ben", "cleo"],
        "profile": {"max_rounds": 1, "track_colors": ["green"]},
        "commands": commands,
    }


WASTED = {"1": [5], "2": [7], "3": [9], "4": [10], "5": [4], "6": [11]}
RIGHT = {"1": [5], "2": [7], "3": [9], "4": [10], "5": [11], "6": [4]}


def test_the_11_spent_where_the_4_wins_the_same_place_is_a_blunder() -> None:
    wasted = rv.review_game(green_last_round(WASTED), seed=0, playouts=600, only={7})
    (d,) = wasted["decisions"]
    assert d["player"] == "ana" and d["step"] == "second"
    assert d["label"] == "blunder", d
    assert d["loss"] > rv.NOISE_SES * d["se"]
    assert d["better"]["bids"]["5"] == [11] and d["better"]["bids"]["6"] == [4]
    assert d["reason_key"] == {"key": "review.bid_shift", "params": {"up": 5, "down": 6}}
    assert "Cacao drink" in d["reason"] and "Tachli" in d["reason"]
    # The right move in the same position is no blunder and loses far less.
    right = rv.review_game(green_last_round(RIGHT), seed=0, playouts=600, only={7})
    (r,) = right["decisions"]
    assert r["label"] in ("good", "inaccuracy", "mistake"), r
    assert d["loss"] - r["loss"] > 3.0, (d, r)


# --- the document --------------------------------------------------------------------------


def test_same_log_and_seed_give_the_same_review() -> None:
    document = log("arena-3p-2")
    first = rv.review_game(document, seed=3, playouts=40)
    assert rv.review_game(document, seed=3, playouts=40) == first
    assert json.loads(json.dumps(first)) == first  # plain JSON


def test_the_review_document_covers_every_decision_and_sums_up_each_player() -> None:
    document = log("arena-3p-1")
    result = rv.review_game(document, seed=0, playouts=40, lang="nl")
    indices = decision_indices(document)
    assert [d["index"] for d in result["decisions"]] == indices
    kinds = {d["kind"] for d in result["decisions"]}
    assert {"sacrifice", "bid"} <= kinds
    for p, pr in result["players"].items():
        mine = [d for d in result["decisions"] if d["player"] == p]
        chosen = [d for d in mine if not d["forced"]]
        assert pr["decisions"] == len(chosen) and pr["forced"] == len(mine) - len(chosen)
        assert pr["raw_mean_loss"] == pytest.approx(
            sum(d["loss"] for d in chosen) / len(chosen), abs=1e-3
        )
        assert pr["mean_loss"] == rv.headline(chosen)
        assert sum(k["decisions"] for k in pr["by_kind"].values()) == len(chosen)
        assert sum(pr["labels"].values()) == len(chosen)
        losses = [w["loss"] for w in pr["worst"]]
        assert losses == sorted(losses, reverse=True) and len(losses) <= rv.WORST
        assert all(w["better"] != w["made"] and w["reason"] for w in pr["worst"])
    assert result["method"] == rv.METHOD and result["mix"] == rv.MIX
    for d in result["decisions"]:
        assert d["loss"] >= 0 and d["se"] >= 0
        if d["label"] != "good":
            assert d["loss"] > rv.NOISE_SES * d["se"]
        assert "player" not in d["made"]


@pytest.mark.parametrize("budget", [0.3, 4.0])
def test_a_review_costs_what_its_budget_says(budget: float) -> None:
    """Every decision plays out at most its share of the budget (two moves of MIN_ROUNDS
    states at the least): a small budget rates the made move against fewer candidates
    instead of MIN_ROUNDS for each of them (0.3 s ran 5,224 playouts for 1,200 before).
    Twelve decisions of each arena game, rated one by one as the pool rates them."""
    for document in arena_logs():
        found = rv.decisions_of(document)
        share = rv.playouts_for(budget, len(found))
        rng = random.Random(budget)
        weighed = 0
        for index, _seat, seen, made in rng.sample(found, 12):
            d = rv.rate(seen, made, index, seed=1, playouts=share)
            assert d["playouts"] <= max(share, 2 * rv.MIN_ROUNDS), d
            assert d["forced"] or d["options"] >= 2, d
            weighed = max(weighed, d["options"])
        if budget == 4.0:
            assert weighed > 2  # a budget that pays for more candidates weighs them


def test_budget_turns_into_playouts_without_a_clock() -> None:
    document = log("arena-3p-1")
    n = len(decision_indices(document))
    assert rv.playouts_for(10.0, n) == int(10.0 * rv.REFERENCE_RATE / n)
    with pytest.raises(rv.ReviewError, match="budget"):
        rv.playouts_for(0, n)


def test_a_refused_command_is_named() -> None:
    document = log("arena-3p-1")
    bad = json.loads(json.dumps(document))
    bad["commands"][0]["card"] = 13
    with pytest.raises(rv.ReviewError, match="command 0"):
        rv.review_game(bad, playouts=10)
    with pytest.raises(rv.ReviewError, match="no review texts"):
        rv.review_game(document, playouts=10, lang="fr")


# --- the texts ---------------------------------------------------------------------------


def test_every_language_has_every_text_with_the_same_placeholders() -> None:
    texts = rv._TEXTS
    assert set(texts) == set(rv.LANGUAGES)
    english = texts["en"]
    for lang, catalogue in texts.items():
        assert set(catalogue) == set(english), lang
        for key, value in catalogue.items():
            fields = {f for _, f, _, _ in string.Formatter().parse(value) if f}
            english_fields = {f for _, f, _, _ in string.Formatter().parse(english[key]) if f}
            assert fields == english_fields, (lang, key)
            if lang != "en" and not key.startswith("station."):
                assert value != english[key] or re.fullmatch(r"[a-z]+", value), (lang, key)


@pytest.mark.parametrize("lang", rv.LANGUAGES)
def test_every_reason_renders_in_every_language(lang: str) -> None:
    params = {"made": 3, "better": 5, "station": 6, "up": 5, "down": 2}
    for key in rv._TEXTS["en"]:
        if key.startswith("review."):
            line = rv.render({"key": key, "params": params}, lang)
            assert "{" not in line and "\n" not in line


# --- what wins: the margin over the best other seat (R7) ----------------------------------


def finished_state(document: dict[str, Any]) -> dict[str, Any]:
    state = game_from_document(document)
    for command in document["commands"]:
        apply_in_place(state, command)
    return state


def test_a_finished_playout_scores_the_margin_over_the_best_other_seat() -> None:
    state = finished_state(log("arena-3p-1"))
    assert state["finished"]
    totals = {p: ps["final"]["total"] for p, ps in state["players"].items()}
    for p, total in totals.items():
        best_other = max(t for q, t in totals.items() if q != p)
        assert rv.outcome(state, p) == (total - best_other, total)
    # The winner's margin is positive, everyone else's is not (R7: highest total wins).
    (winner,) = state["winners"]
    assert rv.outcome(state, winner)[0] > 0
    assert all(rv.outcome(state, p)[0] <= 0 for p in totals if p != winner)


def test_the_better_move_is_the_one_that_wins_not_the_one_that_scores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two moves on the same samples: the made one scores the seat more points but lets the
    leader score even more; the other keeps the leader down. The review calls the second
    better by the margin, and keeps the points the made move scored beside the loss."""
    document = log("arena-3p-1")
    index, _seat, seen, made = next(
        f for f in rv.decisions_of(document) if f[3]["type"] == "bid" and len(f[3]["bids"]) > 1
    )
    calls: list[int] = []

    def samples(view, moves, rng, rounds, score):  # (margin, own points) per move
        calls.append(len(moves))
        rows = []
        for r in range(rounds):
            row: list[tuple[float, float] | None] = [(-1.0 + r % 3, 30.0)] * len(moves)
            row[0] = (-5.0 + r % 3, 34.0)  # the made move: +4 points, -4 margin
            rows.append(row)
        return rows

    monkeypatch.setattr(rv.strong, "candidates", lambda v, rng: [made, *other_moves(made)])
    monkeypatch.setattr(rv.strong, "playout_scores", samples)
    d = rv.rate(seen, made, index, seed=0, playouts=200)
    assert calls and d["made"] != d["better"]
    assert d["loss"] == pytest.approx(4.0) and d["se"] == 0.0
    assert d["points_loss"] == pytest.approx(-4.0)  # the better move scores fewer own points
    assert d["label"] == "blunder"


def other_moves(made: dict[str, Any]) -> list[dict[str, Any]]:
    bids = made["bids"]
    a, b = sorted(bids)[:2]
    swapped = dict(bids)
    swapped[a], swapped[b] = bids[b], bids[a]
    return [{**made, "bids": swapped}]


# --- the headline: a common mix of decisions ---------------------------------------------


def rated(kind: str, step: Any, loss: float) -> rv.DecisionReview:
    """A rated decision with only what the headline reads filled in meaningfully."""
    return {
        "index": 0,
        "player": "ana",
        "kind": kind,
        "round": 1,
        "station": None,
        "step": step,
        "made": {},
        "better": {},
        "loss": loss,
        "se": 0.0,
        "points_loss": 0.0,
        "label": "good",
        "forced": False,
        "options": 2,
        "playouts": 10,
        "reason": "",
        "reason_key": {"key": "review.best", "params": {}},
    }


def test_the_headline_weighs_kinds_by_the_common_mix_not_by_how_often_they_came() -> None:
    """A player who faced many cheap dice windows (plain takes the die at every city) and a
    careful one with few: the raw mean ranks the first better, the common mix does not."""
    busy = [rated("dice", "all", 0.1)] * 16 + [rated("bid", "all", 2.0)] * 5
    careful = [rated("dice", "all", 0.1)] * 2 + [rated("bid", "all", 1.6)] * 5
    raw = [sum(d["loss"] for d in ds) / len(ds) for ds in (busy, careful)]
    assert raw[0] < raw[1]
    assert rv.headline(busy) > rv.headline(careful)
    # The value: each kind's mean weighed by MIX, a kind never faced adding nothing.
    weights = sum(rv.MIX.values())
    assert rv.headline(busy) == pytest.approx(
        (rv.MIX["dice"] * 0.1 + rv.MIX["bid"] * 2.0) / weights, abs=1e-3
    )
    # How often a kind came does not change the headline; its losses do.
    assert rv.headline(busy[:1] + busy[16:]) == rv.headline(busy)
    assert rv.headline([]) == 0.0


def test_a_kind_never_faced_adds_nothing_to_the_headline() -> None:
    """A player who never held a die (no dice windows) is not charged for them, and is not
    judged on its costly kinds alone: the careful bidder stays ahead of the one who bid
    worse but also met many cheap dice windows."""
    bids_only = [rated("bid", "all", 1.5)] * 5 + [rated("bid", 2, 0.5)] * 4
    with_dice = [rated("bid", "all", 2.0)] * 5 + [rated("bid", 2, 0.5)] * 4
    with_dice += [rated("dice", None, 0.0)] * 16
    assert rv.headline(bids_only) < rv.headline(with_dice)
    assert rv.headline(bids_only) == pytest.approx(
        (rv.MIX["bid"] * 1.5 + rv.MIX["gold"] * 0.5) / sum(rv.MIX.values()), abs=1e-3
    )


def test_a_gold_step_is_its_own_kind_of_decision() -> None:
    assert rv.kind_of(rated("bid", 3, 1.0)) == "gold"  # R2.6: one station's bid
    assert rv.kind_of(rated("bid", "all", 1.0)) == "bid"  # R2.4
    assert rv.kind_of(rated("bid", "second", 1.0)) == "bid"  # R2.5
    assert rv.kind_of(rated("city", None, 1.0)) == "city"
    only_gold = [rated("bid", 3, 1.0), rated("bid", 4, 3.0)]
    assert rv.headline(only_gold) == round(rv.MIX["gold"] * 2.0 / sum(rv.MIX.values()), 3)
