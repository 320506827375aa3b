"""The table's show: how long each committed step stays on every screen (pure, no clock).

The engine resolves a command at once; people at a table need time to read what it revealed.
A *step* is one committed command and the events it caused; the show puts the steps on the
screens one after the other and holds each for :func:`hold` seconds (DESIGN.md "The show").
Everything here is a function of events and a pace: the driver (``companion.table.stage``)
owns the clock.

>>> hold([{"type": "bid_placed", "player": "ana"}], "normal")
0.0
>>> hold([{"type": "ranking", "station": 1}, {"type": "ranking", "station": 2}], "quick")
4.0
>>> [b["kind"] for b in beats([{"type": "ranking", "station": 3}, {"type": "last_round",
...     "reason": "cubes", "round": 4}], "normal")]
['station', 'last_round']
>>> [b["kind"] for b in beats([{"type": "pyramid_order", "player": "ana", "first": "ben"},
...     {"type": "cube", "player": "ben", "row": 0, "cell": 1}], "quick")]
['decision']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# Seconds a station's result (or a final-scoring line) stays up, by the host's pace.
PACES: dict[str, float] = {"instant": 0.0, "quick": 2.0, "normal": 6.0, "relaxed": 10.0}
DEFAULT_PACE = "normal"
# A test-only pace: any number of seconds written as "test:<s>" (e.g. "test:0.8").
TEST_PREFIX = "test:"


def pace_seconds(pace: Any) -> float:
    """Seconds per beat of ``pace``; an unknown pace is the default one.

    >>> pace_seconds("relaxed"), pace_seconds("test:0.5"), pace_seconds("bogus")
    (10.0, 0.5, 6.0)
    """
    if isinstance(pace, str) and pace in PACES:
        return PACES[pace]
    if isinstance(pace, str) and pace.startswith(TEST_PREFIX):
        try:
            seconds = float(pace[len(TEST_PREFIX) :])
        except ValueError:
            return PACES[DEFAULT_PACE]
        if 0 <= seconds <= 60:
            return seconds
    return PACES[DEFAULT_PACE]


def valid_pace(pace: Any) -> bool:
    """The host may choose the named paces; tests may also choose ``test:<seconds>``."""
    if not isinstance(pace, str):
        return False
    if pace in PACES:
        return True
    if pace.startswith(TEST_PREFIX):
        try:
            return 0 <= float(pace[len(TEST_PREFIX) :]) <= 60
        except ValueError:
            return False
    return False


def beats(events: list[dict[str, Any]], pace: Any) -> list[dict[str, Any]]:
    """What a step shows one after the other, with the seconds each stays up: every station
    resolved (R3.3 ranking, R4 what it gave), the last-round notice (R6.3), each player's
    final-scoring line (R7, the sacrifices turned one at a time) and the winner."""
    seconds = pace_seconds(pace)
    out: list[dict[str, Any]] = []
    ranked = False
    for i, e in enumerate(events):
        kind = e["type"]
        if kind in DECISIONS and not ranked:  # R5.3, R5.4: the rest of a station's result
            out.append(
                {
                    "kind": "decision",
                    "station": DECISIONS[kind],
                    "player": e["player"],
                    "seconds": seconds,
                    "effects": _effects(events[i:]),
                }
            )
        if kind == "ranking":
            ranked = True
            out.append(
                {
                    "kind": "station",
                    "station": e["station"],
                    "seconds": seconds,
                    "ranking": e,
                    "effects": _effects(events[i + 1 :]),
                }
            )
        elif kind == "last_round":
            out.append({"kind": "last_round", "reason": e["reason"], "seconds": seconds})
        elif kind == "round_started" and e.get("last_round"):  # R2.1: the last by count
            out.append({"kind": "last_round", "reason": "max_rounds", "seconds": seconds})
        elif kind == "round_ended":  # the round's summary, all six stations
            out.append({"kind": "summary", "round": e["round"], "seconds": seconds})
        elif kind == "final_scoring":
            # R7: lowest total first, the winner's line last (the higher sacrifice wins a tie).
            lines = e["lines"]
            for player in sorted(lines, key=lambda p: (lines[p]["total"], lines[p]["sacrifice"])):
                out.append({"kind": "final_line", "player": player, "seconds": seconds})
        elif kind == "game_over":
            out.append({"kind": "winner", "winners": e["winners"], "seconds": seconds})
    return out


# A tie's decision that completes a station's result: the city (R5.3), the pyramid (R5.4).
DECISIONS = {"city_choice": 3, "pyramid_order": 4}

# What a station's result gave (R4, R5): shown with its ranking. Never a private event.
EFFECTS = {
    "scored",
    "figure",
    "old_man",
    "hut",
    "die",
    "cube",
    "row_completed",
    "card_discarded",
    "card_gained",
    "city_choice",
    "pyramid_order",
    "last_round",
}


def _effects(after: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The public events that follow a ranking up to the next station or the round's end."""
    out: list[dict[str, Any]] = []
    for e in after:
        if e["type"] in ("ranking", "revealed", "round_ended", "first_cards_revealed"):
            break
        if e["type"] in EFFECTS and "private" not in e:
            out.append({k: v for k, v in e.items() if k != "text"})
    return out


def hold(events: list[dict[str, Any]], pace: Any) -> float:
    """Seconds a step stays on the screens before the next one is shown."""
    return float(sum(b["seconds"] for b in beats(events, pace)))


def block(
    steps: Sequence[list[dict[str, Any]]], shown: int, pace: Any, elapsed: float
) -> dict[str, Any]:
    """What every frame says about the show (the live stage's and a replay's alike): the pace,
    the beats of step ``shown`` of ``steps`` (each committed step's events), their hold and how
    far into them the show is (screens count down from their own clocks).

    >>> steps = [[{"type": "bid_placed", "player": "ana"}], [{"type": "ranking", "station": 2}]]
    >>> b = block(steps, 2, "quick", 9.0)
    >>> b["step"], [x["kind"] for x in b["beats"]], b["hold"], b["elapsed"], b["more"]
    (2, ['station'], 2.0, 2.0, False)
    """
    current = steps[shown - 1] if 0 < shown <= len(steps) else []
    out = beats(current, pace)
    total = sum(b["seconds"] for b in out)
    for beat in out:
        if beat["kind"] == "summary":
            beat["rankings"] = round_rankings(steps[:shown], beat["round"])
    return {
        "pace": pace,
        "seconds": pace_seconds(pace),
        "step": shown,
        "beats": out,
        "hold": total,
        # Past the hold it stays at the hold: a read of a quiet table is the same twice.
        "elapsed": round(min(total, max(0.0, elapsed)), 3),
        "more": shown < len(steps),
    }


def round_rankings(steps: Sequence[list[dict[str, Any]]], number: int) -> list[dict[str, Any]]:
    """Every station's ranking of round ``number`` in ``steps`` (R3.3), oldest first."""
    out: list[dict[str, Any]] = []
    for events in reversed(steps):
        for e in reversed(events):
            if e["type"] == "ranking":
                out.append({k: v for k, v in e.items() if k != "text"})
            elif e["type"] == "round_started" and e["round"] == number:
                return out[::-1]
    return out[::-1]
