"""A review in parts (players/reviewing.py, the café's pool jobs) is the same review as one
``review_game`` call, and the café's budget setting is checked by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.players import review, reviewing

LOGS = Path(__file__).parent / "logs"


def test_parts_rated_apart_assemble_to_the_whole_review() -> None:
    document = json.loads((LOGS / "arena-3p-1.json").read_text(encoding="utf-8"))
    parts, playouts = reviewing.parts(document, budget=0.5, size=5)
    indices = [i for part in parts for i in part]
    assert len(parts) > 2 and all(len(p) <= 5 for p in parts)
    assert indices == [i for i, *_ in review.decisions_of(document)]
    rated = [
        d for part in reversed(parts) for d in reviewing.rate_part(document, 3, playouts, part)
    ]
    whole = review.review_game(document, seed=3, budget=0.5)
    assert reviewing.assemble(document, 3, 0.5, playouts, rated) == whole
    worst = whole["players"]["ana"]["worst"] or [whole["decisions"][0]]
    texts = reviewing.reasons(worst[0])
    assert set(texts) == {"en", "de", "nl", "it"} and texts["en"] == worst[0]["reason"]


def test_the_budget_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(reviewing.BUDGET_ENV, raising=False)
    assert reviewing.cafe_budget() == reviewing.CAFE_BUDGET
    monkeypatch.setenv(reviewing.BUDGET_ENV, "0.25")
    assert reviewing.cafe_budget() == 0.25
    for bad in ("fast", "0", "-1"):
        monkeypatch.setenv(reviewing.BUDGET_ENV, bad)
        with pytest.raises(review.ReviewError, match=reviewing.BUDGET_ENV):
            reviewing.cafe_budget()


def test_a_tables_log_assembles_with_each_seats_kind_as_the_whole_review_says() -> None:
    """A table's log names its seats as objects (``meta.seats``: name, colour, and the
    ``companion`` level of a seat a companion player played, store/results.meta); the café's
    review in parts gives each player the same ``kind`` as one ``review_game``: the level or
    nothing, never the seat's object."""
    document = json.loads((LOGS / "arena-3p-1.json").read_text(encoding="utf-8"))
    first, second, third = document["players"]
    document["meta"] = {
        "table": "t1",
        "date": "2026-11-26T08:00:00Z",
        "seats": {
            first: {"name": "Ana", "colour": "red"},
            second: {"name": "Xochi", "colour": "blue", "companion": "good"},
            third: {"name": "Cem", "colour": "green"},
        },
    }
    whole = review.review_game(document, seed=3, budget=0.5, playouts=2)
    parted = reviewing.assemble(document, 3, 0.5, 2, list(reversed(whole["decisions"])))
    assert {p: r["kind"] for p, r in parted["players"].items()} == {
        first: None,
        second: "good",
        third: None,
    }
    assert parted == whole
