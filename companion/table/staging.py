"""The board as the screens show it part-way through a step: one fold, for every reader.

A step's events are told beat by beat (``show.told``); between the view before the step and
the view after it, the screens show the view *at the beat*: what the told events moved, and
nothing of what is still to come. This module is the only place that folds events onto a view
(DESIGN.md "The show"): the live frames (each beat's view, sent with the step), the LED board,
the replay's mid-command steps and its played steps all ask it. The pages only animate between
two views they are given. Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from companion.engine import Event, State, View
from companion.engine.types import PlayerView
from companion.table import show
from companion.table.frame_types import Beat, Staged, ViewChanges

# What belongs to the round: as before the step until the next round is told.
ROUND_FIELDS = ("round", "mode", "returning", "harvest", "improvements", "profile")
# What the board says of the round's moment: as before the step until the next round is told.
BOARD_FIELDS = ("station", "chocolatl", "old_man", "last_round", "last_round_reason")
# What a step asks next (the next station's cards, its dice window, a decision, the "if the
# game ended now"): as before the step while part of it is still to come, so nobody is asked
# anything and nothing is projected from what the table has not read yet.
STEP_FIELDS = (
    "phase",
    "step",
    "revealed",
    "bid_status",
    "bid_shape",
    "dice_window",
    "decision",
    "projection",
)
# A player's card fields that the step's events move (R3.2, R5.3, R5.4, R6.1, R6.4).
PLAYER_FIELDS: tuple[Literal["score", "huts", "dice", "cubes_used"], ...] = (
    "score",
    "huts",
    "dice",
    "cubes_used",
)
# Beats on which the game is over on the screens (R7: its final scoring has started).
FINALE_BEATS = ("final_line", "winner")


@dataclass(frozen=True)
class StepShown:
    """The step on the screens while its beats run: what every audience's frame stages."""

    before: State  # the game before the step
    events: list[Event]  # the step's events (redacted per audience when staged)
    beats: list[Beat]  # its beats (show.beats)


def at_beat(
    before: View,
    after: View,
    events: Sequence[Event],
    told: int,
    beat: Beat | None = None,
) -> View:
    """The view (one audience's: the display's public view or a seat's own) once the first
    ``told`` of a step's ``events`` are told, while ``beat`` is up: ``before`` with those
    events folded onto it as the engine applied them, the rest of ``after``. Everything told:
    ``after`` itself, with the station whose result (or decision) is up. A final-scoring beat
    is the game over on the screens (R7).

    >>> before = {"round": 1, "station": 5, "finished": False, "winners": [], "pending": [],
    ...     "track": {"3": ["a"], "5": ["b"]}, "pyramid": [[None]],
    ...     "players": {"a": {"score": 3, "huts": 0, "cubes_used": 0}, "b": {"score": 5}}}
    >>> after = {**before, "round": 2, "station": None, "track": {"9": ["b", "a"]},
    ...     "players": {"a": {"score": 9, "huts": 1, "cubes_used": 1}, "b": {"score": 9}}}
    >>> ev = [{"type": "ranking", "station": 5},
    ...       {"type": "scored", "player": "a", "from": 3, "score": 9},
    ...       {"type": "hut", "player": "a", "huts": 1}, {"type": "round_started", "round": 2}]
    >>> v = at_beat(before, after, ev, 3)
    >>> v["track"], v["round"], v["station"], v["players"]["a"]
    ({'5': ['b'], '9': ['a']}, 1, 5, {'score': 9, 'huts': 1, 'cubes_used': 1})
    >>> at_beat(before, after, ev, 4) == after
    True
    """
    kind = beat.get("kind") if beat else None
    if told >= len(events):
        out = after.copy()
        if beat and kind in ("station", "decision"):
            out["station"] = beat["station"]  # its result stays up (R2.4-R2.6, R3.2)
        return out
    return fold(before, after, events[:told], kind in FINALE_BEATS)


def fold(
    before: View,
    after: View,
    shown: Sequence[Event],
    finale: bool = False,
) -> View:
    """``before`` with the told events ``shown`` folded onto it as the engine applied them
    (:func:`at_beat` while part of the step is still to come); the rest of ``after``."""
    new_round = any(e["type"] == "round_started" for e in shown)
    out = after.copy()
    # The fields kept as before the step are copied by the names in the tuples above, which
    # the type checker cannot match to View's keys: so ``out`` itself, seen as a plain dict.
    # Each value is ``before``'s (a View too) under the same key, so ``out`` stays a View.
    fields = cast(dict[str, object], out)
    by_name: Mapping[str, object] = before
    if not new_round:
        fields.update({k: by_name[k] for k in (*ROUND_FIELDS, *BOARD_FIELDS) if k in before})
    fields.update({k: by_name[k] for k in STEP_FIELDS if k in before})
    out["pending"] = []  # nobody is asked anything while the table reads
    over = finale or any(e["type"] == "game_over" for e in shown)
    out["finished"] = bool(after.get("finished")) and over
    out["winners"] = list(after.get("winners") or []) if out["finished"] else []
    track = {box: list(stack) for box, stack in (before.get("track") or {}).items()}
    pyramid = [list(row) for row in (before.get("pyramid") or [])]
    was = before.get("players") or {}
    players = {p: _card(card, was.get(p)) for p, card in (after.get("players") or {}).items()}
    window = out.get("dice_window")
    if window:
        out["dice_window"] = {**window, "decided": dict(window.get("decided") or {})}
    if (status := out.get("bid_status")) is not None:
        out["bid_status"] = dict(status)
    for e in shown:
        _fold(out, e, players, track, pyramid, new_round)
    out.update({"track": track, "pyramid": pyramid, "players": players})
    return out


def _card(card: PlayerView, was: PlayerView | None) -> PlayerView:
    """A player's card after the step with the fields the step's events move as before it."""
    out = card.copy()
    for k in PLAYER_FIELDS:
        if k in card and was is not None and k in was:
            out[k] = was[k]
    return out


def _fold(
    out: View,
    e: Event,
    players: dict[str, PlayerView],
    track: dict[str, list[str]],
    pyramid: list[list[str | None]],
    new_round: bool,
) -> None:
    """One told event onto the view being staged, as the engine applied it."""
    player = e.get("player")
    card = players.get(player) if isinstance(player, str) else None
    if e["type"] == "scored" and card is not None:
        move_marker(track, e["player"], card["score"], e["score"])  # R6.1
        card["score"] = e["score"]
    elif e["type"] == "cube" and card is not None and e.get("row") is not None:
        # R5.4: a cube takes the lowest free cell; one that finds the pyramid full is not
        # placed and uses none (engine: place_cube).
        card["cubes_used"] = card.get("cubes_used", 0) + 1
        row, cell = e["row"], e["cell"]
        if row is not None and cell is not None and row < len(pyramid) and cell < len(pyramid[row]):
            pyramid[row][cell] = e["player"]
    elif e["type"] == "hut" and card is not None:
        card["huts"] = e["huts"]
        card["cubes_used"] = card.get("cubes_used", 0) + 1  # R6.4: a hut takes a cube
    elif e["type"] == "die" and card is not None:
        card["dice"] = e["dice"]
    elif e["type"] == "ranking":
        out["station"] = e["station"]  # the station whose result is up
        if (window := out.get("dice_window")) and window["station"] == e["station"]:
            # R3.2: its ranking closes the station's dice window; a phone kept showing that
            # station's table through the later stations the step told.
            out["dice_window"] = None
        for entry in e.get("entries") or []:  # R3.2: the dice rolled are spent
            spender = players.get(entry.get("player") or "")
            if spender is not None and entry.get("dice"):
                spender["dice"] = spender.get("dice", 0) - len(entry["dice"])
    elif e["type"] == "bid_placed" and (status := out.get("bid_status")) is not None:
        status[e["player"]] = True  # R2.7: that a bid came is public, never what
    elif e["type"] == "dice_decided" and (window := out.get("dice_window")):
        # R3.2: that a holder decided is public, never what.
        decided = window["decided"]
        if e.get("player") in decided:
            decided[e["player"]] = True
    elif new_round:
        return  # the next round is told: the board's moment is the view after the step
    elif e["type"] in ("figure", "old_man"):
        out["chocolatl" if e["type"] == "figure" else "old_man"] = e["player"]
    elif e["type"] == "last_round":  # R6.3
        out["last_round"], out["last_round_reason"] = True, e["reason"]


def move_marker(track: dict[str, list[str]], player: str, frm: int, to: int) -> None:
    """A marker that moves leaves its box and goes on top of the box it reaches; one that
    stays (no points, or cut at 0) keeps its place in its stack (R6.1, as the engine).

    >>> track = {"3": ["a", "b"]}
    >>> move_marker(track, "a", 3, 3); track
    {'3': ['a', 'b']}
    >>> move_marker(track, "a", 3, 5); track
    {'3': ['b'], '5': ['a']}
    """
    if frm == to:
        return
    stack = track.get(str(frm))
    if stack is not None and player in stack:
        stack.remove(player)
        if not stack:
            del track[str(frm)]
    track.setdefault(str(to), []).append(player)


def beat_views(
    before: View,
    after: View,
    events: Sequence[Event],
    step_beats: Sequence[Beat],
) -> Staged:
    """What a frame carries so a page can show every beat of its step without folding
    anything (PROTOCOL.md ``game.staged``): the view before the step and the view at each
    beat, each as its difference from ``after`` (the frame's own view; see :func:`patch`).

    >>> before = {"round": 1, "pending": [], "finished": False, "winners": [],
    ...     "track": {"0": ["a"]}, "pyramid": [], "players": {"a": {"score": 0, "dice": 0}}}
    >>> after = {**before, "track": {"4": ["a"]}, "players": {"a": {"score": 4, "dice": 0}}}
    >>> ev = [{"type": "ranking", "station": 1},
    ...       {"type": "scored", "player": "a", "from": 0, "score": 4},
    ...       {"type": "revealed", "station": 2}]
    >>> b = [{"kind": "station", "station": 1, "seconds": 2.0}]
    >>> beat_views(before, after, ev, b)
    {'before': {'track': {'0': ['a']}, 'players': {'a': {'score': 0}}}, 'beats': [{'station': 1}]}
    """
    views = [
        at_beat(
            before,
            after,
            events,
            show.told(list(events), list(step_beats), i),
            b,
        )
        for i, b in enumerate(step_beats)
    ]
    return {"before": diff(before, after), "beats": [diff(v, after) for v in views]}


def diff(view: Mapping[str, Any], after: Mapping[str, Any]) -> ViewChanges:
    """``view`` as its difference from ``after``: the keys whose values differ, and of
    ``players`` only the changed fields of each card (:func:`patch` undoes it).

    >>> diff({"a": 1, "b": 2, "players": {"x": {"s": 1, "t": 2}}},
    ...      {"a": 1, "b": 3, "players": {"x": {"s": 1, "t": 5}}})
    {'b': 2, 'players': {'x': {'t': 2}}}
    """
    out: ViewChanges = {}
    for key, value in view.items():
        if key == "players" and isinstance(value, Mapping):
            cards = after.get("players") or {}
            changed = {
                p: {f: v for f, v in card.items() if (cards.get(p) or {}).get(f) != v}
                for p, card in value.items()
            }
            if any(changed.values()):
                out["players"] = {p: c for p, c in changed.items() if c}
        elif after.get(key) != value:
            out[key] = value
    return out


def patch(after: View, changes: ViewChanges) -> View:
    """``after`` with a :func:`diff` put back: what a page does with a beat's view (show.js
    ``patch``).

    >>> a = {"a": 1, "b": 3, "players": {"x": {"s": 1, "t": 5}}}
    >>> patch(a, diff({"a": 1, "b": 2, "players": {"x": {"s": 1, "t": 2}}}, a))
    {'a': 1, 'b': 2, 'players': {'x': {'s': 1, 't': 2}}}
    """
    out: dict[str, object] = {**after, **changes}
    if "players" in changes:
        cards: Mapping[str, Mapping[str, object]] = after.get("players") or {}
        changed = cast(dict[str, dict[str, object]], changes["players"])  # as diff made them
        out["players"] = {
            **cards,
            **{p: {**(cards.get(p) or {}), **c} for p, c in changed.items()},
        }
    return cast(View, out)  # the view's keys, each changed one as a View held it (diff)
