"""Plain English for every event: what happened and which rule decided it.

The engine's events are structured data; this module is their English reading, used by the
command line and as the fallback text on screens (the web layer translates from the same
fields).

>>> describe({"type": "scored", "player": "ana", "points": -2, "reason": "drink_penalty",
...           "from": 1, "score": 0})
'ana loses 2 (lowest bid at the cacao drink): 1 -> 0, cut off at 0 (R6.1)'
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine.types import (
    CubeEvent,
    Event,
    FinalScoringEvent,
    GameOverEvent,
    RankingEntry,
    RankingEvent,
    RowCompletedEvent,
    ScoredEvent,
    Tie,
)

TIE_RULES = {
    "figure": "holds the Chocolatl figure (R3.4)",
    "lower_score": "has the lower score (R3.4)",
    "stack": "is higher in the stack on the same box (R3.4)",
}
SCORE_REASONS = {
    "chocolatl": "won the Chocolatl station",
    "harvest": "harvest",
    "pyramid_row": "majority in a completed pyramid row",
    "drink": "cacao drink",
    "drink_penalty": "lowest bid at the cacao drink",
    "tachli": "Tachli in the last round",
}
LAST_ROUND_REASONS = {
    "end_score": "a score reached the end score",
    "pyramid_full": "the pyramid is full",
    "cubes": "a player has used all their cubes",
    "max_rounds": "it is the last possible round",
}
FINAL_LINES = {
    "track": "score track",
    "stones": "own cubes in the pyramid",
    "pyramid_majority": "most cubes in the pyramid",
    "chocolatl": "Chocolatl figure",
    "old_man": "old man",
    "sacrifice": "sacrifice",
    "sacrifice_bonus": "highest sacrifice",
    "die": "leftover black die",
}


def tie_text(tie: Tie) -> str:
    a, b = tie["players"]
    return f"{a} ahead of {b} (both {tie['value']}): {a} {TIE_RULES[tie['rule']]}"


def _join(values: Sequence[object]) -> str:
    return ", ".join(map(str, values))


def _scored(e: ScoredEvent) -> str:
    verb = "scores" if e["points"] >= 0 else "loses"
    cut = ", cut off at 0 (R6.1)" if e["score"] - e["from"] != e["points"] else ""
    return (
        f"{e['player']} {verb} {abs(e['points'])} ({SCORE_REASONS[e['reason']]}): "
        f"{e['from']} -> {e['score']}{cut}"
    )


def _entry(e: RankingEntry) -> str:
    parts = ["+".join(map(str, e["cards"]))]
    if e["huts"]:
        parts.append(f"huts {e['huts']:+d}")
    if e["old_man"]:
        parts.append(f"old man {e['old_man']:+d}")
    if e["dice"]:
        parts.append(f"dice {'+'.join(map(str, e['dice']))}")
    return f"{e['place']}. {e['player']} {e['total']} ({', '.join(parts)})"


def _ranking(e: RankingEvent) -> str:
    text = f"Station {e['station']}: " + "; ".join(_entry(x) for x in e["entries"])
    if e["ties"]:
        text += ". Ties: " + "; ".join(tie_text(t) for t in e["ties"])
    return text


def _row(e: RowCompletedEvent) -> str:
    why = f" ({tie_text(e['ties'][0])})" if e["ties"] else ""
    return (
        f"Pyramid row {e['row'] + 1} is full: {e['player']} has the most cubes there{why} "
        f"and scores {e['bonus']}"
    )


def _final(e: FinalScoringEvent) -> str:
    out = []
    for p, lines in e["lines"].items():
        items = ", ".join(f"{FINAL_LINES[k]} {v}" for k, v in lines.items() if k != "total")
        out.append(f"{p}: {items} = {lines['total']}")
    return "Final scoring (R7): " + "; ".join(out)


def _game_over(e: GameOverEvent) -> str:
    win = " and ".join(e["winners"])
    how = ""
    if len(e["tied_on_points"]) > 1:
        how = (
            " (a tie on points, won by the higher sacrifice)"
            if len(e["winners"]) == 1
            else " (tied on points and sacrifice: a shared win)"
        )
    return f"{win} win{'s' if len(e['winners']) == 1 else ''} with {e['total']}{how}"


def _cube(e: CubeEvent) -> str:
    row, cell = e["row"], e["cell"]
    if row is None or cell is None:
        return f"The pyramid is full: {e['player']}'s cube is not placed (R5.4)"
    return f"{e['player']} places a cube in pyramid row {row + 1}, cell {cell + 1}"


def describe(event: Event) -> str:
    """One English sentence for ``event`` (only the fields present: redacted stays redacted).

    The branches test ``event["type"]`` itself, so each reads its own event's fields.
    """
    e = event
    if e["type"] == "scored":
        return _scored(e)
    if e["type"] == "ranking":
        return _ranking(e)
    if e["type"] == "bid_placed":
        return f"{e['player']} has bid"
    if e["type"] == "revealed":
        return f"Station {e['station']} revealed: " + ", ".join(
            f"{p} {'+'.join(map(str, c))}" for p, c in e["cards"].items()
        )
    if e["type"] == "dice_decided":
        count = f" ({e['count']})" if "count" in e else ""
        return f"{e['player']} has decided on bonus dice{count}"
    if e["type"] == "dice_choices":
        return "Bonus dice: " + ", ".join(f"{p} uses {c}" for p, c in e["choices"].items())
    if e["type"] == "rolled":
        return f"{e['player']} rolls {_join(e['values'])}"
    if e["type"] == "cube":
        return _cube(e)
    if e["type"] == "sacrificed":
        card = f" (card {e['card']})" if "card" in e else ""
        return f"{e['player']} has made a sacrifice{card}"
    if e["type"] == "round_started":
        return (
            f"Round {e['round']} is a {e['mode']} round: the leading marker "
            f"({_join(e['leaders'])}) stands on box {e['leader_box']}, a {e['mode']} box (R2.3)"
        )
    if e["type"] == "harvest_dice":
        return f"Harvest dice: {_join(e['dice'])}"
    if e["type"] == "improvement_cards":
        return f"Improvement cards on offer: {_join(e['cards'])}"
    if e["type"] == "first_cards_revealed":
        return "Everyone's first cards are revealed (R2.5)"
    if e["type"] == "figure":
        return f"{e['player']} takes the Chocolatl figure (R5.1)"
    if e["type"] == "old_man":
        return f"{e['player']} takes the old man: -1 at stations 2-6 (R4.1)"
    if e["type"] == "city_choice":
        return f"{e['player']} chooses the {e['choice']}"
    if e["type"] == "hut":
        return f"{e['player']} builds a hut (now {e['huts']})"
    if e["type"] == "die":
        return f"{e['player']} takes the city's black die (now {e['dice']})"
    if e["type"] == "pyramid_order":
        return f"{e['player']} lets {e['first']} place first"
    if e["type"] == "row_completed":
        return _row(e)
    if e["type"] == "card_discarded":
        return f"{e['player']} discards card {e['card']} (R5.6)"
    if e["type"] == "card_gained":
        return f"{e['player']} gains improvement card {e['card']}"
    if e["type"] == "last_round":
        return f"Round {e['round']} is the last one: {LAST_ROUND_REASONS[e['reason']]} (R6.3)"
    if e["type"] == "round_ended":
        return f"Round {e['round']} is over"
    if e["type"] == "final_scoring":
        return _final(e)
    return _game_over(e)
