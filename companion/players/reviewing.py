"""A finished game's review in parts: the pool rates a few decisions at a time.

:func:`companion.players.review.review_game` rates a whole log in one call. A café reviews a
game in the companion players' low-priority pool (thinker.py), where bot decisions of other
tables must not wait behind a whole review: the decisions are cut into :func:`parts`, each
rated by one pool job (:func:`rate_part`), and :func:`assemble` makes the review document from
the rated parts, exactly as ``review_game`` with the same seed and playouts would.

The café's budget (seconds of the reference machine for a whole game) comes from the
``COMPANION_REVIEW_BUDGET`` environment variable (default :data:`CAFE_BUDGET`); tests set a
small one to stay quick.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from companion.players import review
from companion.players.review import (
    DecisionReview,
    ReviewDocument,
    ReviewError,
    StoredDecision,
    StoredReviewDocument,
)

CAFE_BUDGET = 4.0  # seconds (reference machine) for a whole game; a loaded core takes longer
MAX_BUDGET = 120.0  # seconds: a review's pool time stays bounded whatever is configured
PART = 6  # decisions rated per pool job: a bot waits at most one part for the pool
BUDGET_ENV = "COMPANION_REVIEW_BUDGET"


def cafe_budget() -> float:
    """The budget from the environment, or the default; a bad value is refused by name. The
    bound above keeps one review from holding the pool (bots and other reviews wait on it)."""
    raw = os.environ.get(BUDGET_ENV)
    if raw is None or raw == "":
        return CAFE_BUDGET
    try:
        value = float(raw)
    except ValueError:
        raise ReviewError(f"{BUDGET_ENV} must be a number of seconds, not {raw!r}") from None
    if not 0 < value <= MAX_BUDGET:  # also refuses nan and inf
        raise ReviewError(
            f"{BUDGET_ENV} must be more than 0 and at most {MAX_BUDGET:g} seconds, not {raw!r}"
        )
    return value


def parts(
    document: Mapping[str, object], budget: float, size: int = PART
) -> tuple[list[list[int]], int]:
    """The decisions' command indices cut into parts, and the playouts each decision gets."""
    found = review.decisions_of(document)
    playouts = review.playouts_for(budget, len(found))
    indices = [index for index, _seat, _view, _command in found]
    return [indices[i : i + size] for i in range(0, len(indices), size)], playouts


def rate_part(
    document: Mapping[str, object], seed: int, playouts: int, only: list[int]
) -> list[DecisionReview]:
    """The ratings of the decisions at ``only`` (runs in the pool's process)."""
    return review.review_game(document, seed=seed, playouts=playouts, only=set(only))["decisions"]


def assemble(
    document: Mapping[str, object],
    seed: int,
    budget: float,
    playouts: int,
    rated: list[DecisionReview],
) -> ReviewDocument:
    """The review document from every part's ratings (the same as one ``review_game``)."""
    rated = sorted(rated, key=lambda d: d["index"])
    return review.assemble(document, seed, budget, playouts, "en", rated)


def older(document: StoredReviewDocument) -> bool:
    """A stored review rated by the older method (the seat's own points, a raw mean per
    player): stored before reviews named their method, or by another one. Its numbers are
    not comparable with the current ones, and the screens say so."""
    return document.get("method", review.OLDER_METHOD) != review.METHOD


def reasons(decision: StoredDecision) -> dict[str, str]:
    """A decision's reason in every language the review knows (a phone picks its own)."""
    key = decision["reason_key"]
    return {lang: review.render(key, lang) for lang in review.LANGUAGES}
