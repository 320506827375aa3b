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
from typing import Any, Literal, TypeVar, cast

from companion.engine.types import Event, RankingEvent
from companion.table.frame_types import Beat, ShowInfo

E = TypeVar("E", bound=Event)

# Seconds a station's result (or a final-scoring line) stays up, by the host's pace.
PACES: dict[str, float] = {"instant": 0.0, "quick": 2.0, "normal": 6.0, "relaxed": 10.0}
DEFAULT_PACE = "normal"
# A test-only pace: any number of seconds written as "test:<s>" (e.g. "test:0.8"), up to
# TEST_MAX_S (a layout test keeps one station's result up while it looks at it in every
# language at both TV sizes, which takes more than a minute on a busy machine).
TEST_PREFIX = "test:"
TEST_MAX_S = 600.0
# Seconds the winner's moment stays before the story of the game may cover the final scoring
# (R7), counted from the winner's beat; at least that beat's own seconds.
STORY_AFTER = 20.0


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
        if 0 <= seconds <= TEST_MAX_S:
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
            return 0 <= float(pace[len(TEST_PREFIX) :]) <= TEST_MAX_S
        except ValueError:
            return False
    return False


def beats(events: list[Event], pace: Any) -> list[Beat]:
    """What a step shows one after the other, with the seconds each stays up: every station
    resolved (R3.3 ranking, R4 what it gave), the last-round notice (R6.3), each player's
    final-scoring line (R7, the sacrifices turned one at a time) and the winner."""
    seconds = pace_seconds(pace)
    out: list[Beat] = []
    ranked = False
    for i, e in enumerate(events):
        # Each test reads e["type"] itself, so the type checker knows the event's fields.
        if (e["type"] == "city_choice" or e["type"] == "pyramid_order") and not ranked:
            out.append(  # R5.3, R5.4: the rest of a station's result
                {
                    "kind": "decision",
                    "station": DECISIONS[e["type"]],
                    "player": e["player"],
                    "seconds": seconds,
                    "effects": _effects(events[i:]),
                }
            )
        if e["type"] == "ranking":
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
        elif e["type"] == "last_round":
            out.append({"kind": "last_round", "reason": e["reason"], "seconds": seconds})
        elif e["type"] == "round_started" and e.get("last_round"):  # R2.1: the last by count
            out.append({"kind": "last_round", "reason": "max_rounds", "seconds": seconds})
        elif e["type"] == "round_ended":  # the round's summary, all six stations
            out.append({"kind": "summary", "round": e["round"], "seconds": seconds})
        elif e["type"] == "final_scoring":
            # R7: lowest total first, the winner's line last (the higher sacrifice wins a tie).
            lines = e["lines"]
            for player in sorted(lines, key=lambda p: (lines[p]["total"], lines[p]["sacrifice"])):
                out.append({"kind": "final_line", "player": player, "seconds": seconds})
        elif e["type"] == "game_over":
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


def _effects(after: list[Event]) -> list[Event]:
    """The public events that follow a ranking up to the next station or the round's end."""
    out: list[Event] = []
    for e in after:
        if e["type"] in ("ranking", "revealed", "round_ended", "first_cards_revealed"):
            break
        if e["type"] in EFFECTS and "private" not in e:
            out.append(without_text(e))
    return out


def without_text(e: E) -> E:
    """An event without the English ``text`` that games stored before 2026 may carry."""
    return cast(E, {k: v for k, v in e.items() if k != "text"})


def hold(events: list[Event], pace: Any) -> float:
    """Seconds a step stays on the screens before the next one is shown."""
    return held(beats(events, pace))


def held(step_beats: list[Beat]) -> float:
    """Seconds a step's beats take together (its hold)."""
    return float(sum(b["seconds"] for b in step_beats))


def beat_at(step_beats: list[Beat], elapsed: float) -> int:
    """Index of the beat up ``elapsed`` seconds into a step (-1: all read, or none).

    >>> b = [{"seconds": 2.0}, {"seconds": 2.0}]
    >>> beat_at(b, 0.0), beat_at(b, 2.5), beat_at(b, 4.0), beat_at([], 0.0)
    (0, 1, -1, -1)
    """
    t = elapsed
    for i, b in enumerate(step_beats):
        if t < b["seconds"]:
            return i
        t -= b["seconds"]
    return -1


def story_at(step_beats: list[Beat]) -> float | None:
    """Seconds into a step at which the story of the game may come up: only a step that
    names the winner (R7) has one, :data:`STORY_AFTER` after the winner's beat began, so the
    story never covers a final-scoring line or the winner's moment still due.

    >>> story_at([{"kind": "final_line", "seconds": 2.0}, {"kind": "winner", "seconds": 2.0}])
    22.0
    >>> story_at([{"kind": "winner", "seconds": 30.0}])
    30.0
    >>> story_at([{"kind": "station", "seconds": 2.0}]) is None
    True
    """
    start = 0.0
    for b in step_beats:
        if b["kind"] == "winner":
            return start + max(float(b["seconds"]), STORY_AFTER)
        start += b["seconds"]
    return None


def rebased(old: list[Beat], new: list[Beat], elapsed: float) -> float:
    """How far into a step the show is once the pace changes from the one of ``old`` beats to
    the one of ``new`` (the same step's beats): on the same beat, as far into it. A step whose
    beats were over stays over, and a story already up stays up, so a pace change never takes
    a screen back a beat nor holds again a question a phone already asks.

    >>> quick = [{"kind": "station", "seconds": 2.0}, {"kind": "station", "seconds": 2.0}]
    >>> normal = [{"kind": "station", "seconds": 6.0}, {"kind": "station", "seconds": 6.0}]
    >>> rebased(quick, normal, 3.0), rebased(normal, quick, 7.5)  # half into the 2nd beat
    (9.0, 2.5)
    >>> rebased(quick, normal, 5.0)  # over for a second: still over
    13.0
    >>> end = [{"kind": "winner", "seconds": 6.0}]
    >>> rebased(end, [{"kind": "winner", "seconds": 2.0}], 20.0)  # the story is up: it stays
    20.0
    """
    old_hold, new_hold = held(old), held(new)
    if elapsed >= old_hold or len(old) != len(new):
        if elapsed < old_hold:  # other beats (never seen): as far in, within the new hold
            return min(elapsed, new_hold)
        out = new_hold + (elapsed - old_hold)
        old_story, new_story = story_at(old), story_at(new)
        if old_story is not None and new_story is not None and elapsed >= old_story:
            out = max(out, new_story)
        return out
    start = new_start = 0.0
    for o, n in zip(old, new, strict=True):
        if elapsed < start + o["seconds"]:
            into = (elapsed - start) / o["seconds"] if o["seconds"] else 0.0
            return new_start + into * float(n["seconds"])
        start += o["seconds"]
        new_start += n["seconds"]
    return new_hold


def beat_ends(step_beats: list[Beat]) -> list[float]:
    """Seconds into the step at which each beat ends.

    >>> beat_ends([{"seconds": 2.0}, {"seconds": 3.0}])
    [2.0, 5.0]
    """
    out: list[float] = []
    end = 0.0
    for b in step_beats:
        end += b["seconds"]
        out.append(end)
    return out


# A station's result starts with its cards turned (or, with dice, its rolls).
_STATION_OPENERS = ("revealed", "first_cards_revealed", "dice_choices", "rolled")


def told(events: list[Event], step_beats: list[Beat], index: int) -> int:
    """How many of a step's events the screens have told once beat ``index`` is up: stations
    of later beats, the round's end and the final scoring wait for their own beats (every
    frame carries it with each beat, ``told``, so the pages' logs run as far as the beat up,
    and ``staging`` stages each beat's view with it). ``index`` -1 (all read) tells
    everything.

    >>> ev = [{"type": "ranking", "station": 5}, {"type": "scored"},
    ...       {"type": "revealed", "station": 6}, {"type": "ranking", "station": 6},
    ...       {"type": "round_ended", "round": 1}]
    >>> b = beats(ev, "quick")
    >>> [told(ev, b, i) for i in (0, 1, 2, -1)]
    [2, 4, 5, 5]

    A tie's decision: the next station's cards turn once it has been read (R5.3).

    >>> ev = [{"type": "city_choice", "player": "ana", "choice": "hut"}, {"type": "hut"},
    ...       {"type": "revealed", "station": 4}]
    >>> b = beats(ev, "quick")
    >>> [told(ev, b, i) for i in (0, -1)]
    [2, 3]

    The last step's leftover dice come with the first final line, the winner's name with the
    winner's beat (R7):

    >>> ev = [{"type": "rolled", "player": "ana", "values": [5]},
    ...       {"type": "final_scoring", "lines": {"ana": {"total": 9, "sacrifice": 1}}},
    ...       {"type": "game_over", "winners": ["ana"]}]
    >>> b = beats(ev, "quick")
    >>> [x["kind"] for x in b], [told(ev, b, i) for i in range(len(b))]
    (['final_line', 'winner'], [1, 3])
    """
    if index < 0 or index >= len(step_beats):
        return len(events)
    upto, later = step_beats[: index + 1], step_beats[index + 1 :]
    done = sum(1 for b in upto if b["kind"] == "station")
    later_notes = any(b["kind"] not in ("station", "last_round") for b in later)
    # R7: the dice rolled after the last station's ranking of a step that ends the game are
    # the final scoring's (its leftover black dice), told with its first line, not a station's.
    final = any(b["kind"] in ("final_line", "winner") for b in step_beats)
    last_ranking = max((i for i, e in enumerate(events) if e["type"] == "ranking"), default=-1)
    seen = 0
    for i, e in enumerate(events):
        kind = e["type"]
        if kind == "ranking":
            seen += 1
        opens = kind in _STATION_OPENERS and not (final and i > last_ranking)
        # The next station's cards (or rolls) are told with its own beat or, when it waits
        # for a decision or dice, once the step has been read.
        if seen > done or (seen >= done and opens):
            return i
        if later_notes and kind in ("round_ended", "final_scoring"):
            return i
    return len(events)


def block(steps: Sequence[list[Event]], shown: int, pace: Any, elapsed: float) -> ShowInfo:
    """What every frame says about the show (the live stage's and a replay's alike): the pace,
    the beats of step ``shown`` of ``steps`` (each committed step's events), their hold and how
    far into them the show is (screens count down from their own clocks).

    >>> steps = [[{"type": "bid_placed", "player": "ana"}], [{"type": "ranking", "station": 2}]]
    >>> b = block(steps, 2, "quick", 9.0)
    >>> b["step"], [x["kind"] for x in b["beats"]], b["hold"], b["elapsed"], b["more"]
    (2, ['station'], 2.0, 2.0, False)
    >>> b["beats"][0]["untold"]
    0

    The step that names the winner says when the story may come up (``story_at``, seconds
    into the step), and its ``elapsed`` runs on to that moment:

    >>> over = [[{"type": "final_scoring", "lines": {"a": {"total": 5, "sacrifice": 1}}},
    ...          {"type": "game_over", "winners": ["a"]}]]
    >>> b = block(over, 1, "quick", 12.0)
    >>> [x["kind"] for x in b["beats"]], b["hold"], b["story_at"], b["elapsed"]
    (['final_line', 'winner'], 4.0, 22.0, 12.0)
    """
    current = steps[shown - 1] if 0 < shown <= len(steps) else []
    out = beats(current, pace)
    total = held(out)
    for beat in out:
        if beat["kind"] == "summary":
            beat["rankings"] = round_rankings(steps[:shown], beat["round"])
    for i, beat in enumerate(out):
        # How many of the step's last events the beat does not tell yet (the pages' logs hide
        # them; the staged views and the LED board use ``told`` itself).
        beat["untold"] = len(current) - told(current, out, i)
    if shown < len(steps):
        announce_decision(out, steps[shown])
    story = story_at(out)
    # Past the hold (or the story's moment) it stays there: a read of a quiet table is the
    # same twice.
    until = total if story is None else max(total, story)
    info: ShowInfo = {
        "pace": pace,
        "seconds": pace_seconds(pace),
        "step": shown,
        "beats": out,
        "hold": total,
        "elapsed": round(min(until, max(0.0, elapsed)), 3),
        "more": shown < len(steps),
    }
    if story is not None:
        info["story_at"] = story
    return info


def announce_decision(step_beats: list[Beat], following: Sequence[Event]) -> None:
    """Name on the step's last station beat the decision that completes its result when
    that decision is already the next step (R5.3, R5.4): a companion's or the table's answer
    comes in at once, but is told with its own beat after this one. Without it the beat had
    no effects and said the station gave nothing, while its cubes were on their way.

    >>> b = [{"kind": "station", "station": 4, "effects": []}]
    >>> announce_decision(b, [{"type": "pyramid_order", "player": "ana", "first": "ana"}])
    >>> b[0]["next"]
    {'type': 'pyramid', 'player': 'ana'}
    """
    stations = [b for b in step_beats if b["kind"] == "station"]
    first = following[0] if following else None
    if not stations or first is None:
        return
    if first["type"] != "city_choice" and first["type"] != "pyramid_order":
        return
    last = stations[-1]
    if last["station"] != DECISIONS[first["type"]]:
        return
    if any(e["type"] in DECISIONS for e in last.get("effects") or []):
        return  # the decision was made in this step and is one of its effects
    kind: Literal["city", "pyramid"] = "city" if first["type"] == "city_choice" else "pyramid"
    last["next"] = {"type": kind, "player": first["player"]}


def mark_table_answers(info: ShowInfo, answered: bool, answers_next: bool) -> None:
    """Mark the table's own answers (``dealer.TABLE_ANSWERS``) on a :func:`block`: the step up
    is one (``answered``: its decision beat was nobody's, R3.6), or the next step is one
    (``answers_next``: the station's decision it names is the table's, R5.4)."""
    for beat in info["beats"]:
        if answered and beat["kind"] == "decision":
            beat["asked"] = False
        if answers_next and "next" in beat:
            beat["next"]["asked"] = False


def round_rankings(steps: Sequence[list[Event]], number: int) -> list[RankingEvent]:
    """Every station's ranking of round ``number`` in ``steps`` (R3.3), oldest first."""
    out: list[RankingEvent] = []
    for events in reversed(steps):
        for e in reversed(events):
            if e["type"] == "ranking":
                out.append(without_text(e))
            elif e["type"] == "round_started" and e["round"] == number:
                return out[::-1]
    return out[::-1]
