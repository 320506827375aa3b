"""Learning-mode hints (a suggestion and a reason in the four catalogues) and the separate
process where companion players think at a table."""

from __future__ import annotations

import os
import random
import threading

import pytest

from companion.engine import apply, view
from companion.players import hints, thinker
from companion.players.common import awaited
from companion.web.i18n import LANGUAGES, catalogue
from tests.players.test_players import mid_game


def test_every_reason_has_a_text_in_every_language() -> None:
    for lang in LANGUAGES:
        texts = catalogue(lang)
        for key in (
            *hints.REASON_KEYS,
            "hint.button",
            "hint.on_display",
            "host.hints",
            "host.add_bot",
            "common.companion",
        ):
            assert texts.get(key), (lang, key)


def test_hints_are_legal_with_a_reason_whose_params_fill_the_text() -> None:
    seen = set()
    for seed in range(60):
        state = mid_game(seed, 4, seed * 3 % 180)
        for seat in state["players"]:
            v = view(state, seat)
            hint = hints.suggest(v, "good", random.Random(seed))
            if awaited(v, seat) is None:
                assert hint is None
                continue
            apply(state, hint["command"])
            key, params = hint["reason"]["key"], hint["reason"]["params"]
            seen.add(key)
            for lang in LANGUAGES:
                catalogue(lang)[key].format(**params)  # every placeholder is given
    assert len(seen) >= 5, seen


def test_hints_come_only_from_good_or_strong() -> None:
    state = mid_game(1, 4, 0)
    with pytest.raises(ValueError, match="good or strong"):
        hints.suggest(view(state, "ana"), "random", random.Random(0))


def test_thinker_runs_in_another_lower_priority_process() -> None:
    pool = thinker.Thinker(workers=1)
    try:
        state = mid_game(3, 4, 2)
        seat = next(p for p in state["players"] if awaited(view(state, p), p))
        got: list = []
        ready = threading.Event()
        pool.submit(
            thinker.decide,
            "good",
            view(state, seat),
            7,
            done=lambda result, error: (got.append((result, error)), ready.set()),
        )
        assert ready.wait(60)
        result, error = got[0]
        assert error is None
        hint = pool.submit(thinker.hint, "good", view(state, seat), 7).result(60)
        assert hint["command"] == result  # the same player, seed and view
        apply(state, result)  # legal
        pid, nice = pool.submit(_pid_and_nice).result(60)
        assert pid != os.getpid()
        assert nice >= min(19, os.nice(0) + thinker.NICE)
    finally:
        pool.close()


def _pid_and_nice() -> tuple[int, int]:
    return os.getpid(), os.nice(0)
