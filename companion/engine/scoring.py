"""Final scoring (R7): line by line, plain sums, every tie in a bonus scores."""

from __future__ import annotations

from collections.abc import Mapping

from companion.engine.types import Event, FinalLine, PlayerState, State

LINES = (
    "track",
    "stones",
    "pyramid_majority",
    "chocolatl",
    "old_man",
    "sacrifice",
    "sacrifice_bonus",
    "die",
)


def score_lines(
    state: State, sacrifices: Mapping[str, int | None], die_rolls: Mapping[str, int | None]
) -> dict[str, FinalLine]:
    """Each player's R7 lines. A ``None`` sacrifice or die roll leaves that line unknown (None),
    which is how a projection "if the game ended now" hides what a seat may not see."""
    stones: dict[str, int] = {p: 0 for p in state["players"]}
    for row in state["pyramid"]:
        for owner in row:
            if owner is not None:
                stones[owner] += 1
    most = max(stones.values())
    known = [v for v in sacrifices.values() if v is not None]
    top_sacrifice = max(known) if len(known) == len(sacrifices) else None
    lines: dict[str, FinalLine] = {}
    for p, ps in state["players"].items():
        sac = sacrifices[p]
        die = die_rolls[p]
        total = (
            ps["score"]
            + stones[p]
            + (3 if most > 0 and stones[p] == most else 0)
            + (3 if state["chocolatl"] == p else 0)
            - (3 if state["old_man"] == p else 0)
            + (sac or 0)
            + (3 if top_sacrifice is not None and sac == top_sacrifice else 0)
            + (die or 0)
        )
        lines[p] = {
            "track": ps["score"],
            "stones": stones[p],
            "pyramid_majority": 3 if most > 0 and stones[p] == most else 0,
            "chocolatl": 3 if state["chocolatl"] == p else 0,
            "old_man": -3 if state["old_man"] == p else 0,
            "sacrifice": sac,
            "sacrifice_bonus": None
            if top_sacrifice is None
            else (3 if sac == top_sacrifice else 0),
            "die": die,
            "total": total,  # the sum of the known lines
        }
    return lines


def final_total(player: PlayerState) -> int:
    """A player's final score (R7); only a finished game has one."""
    final = player["final"]
    if final is None:
        raise ValueError("the game is not finished: no final scores yet")
    return final["total"]


def final_scoring(state: State, rolls: dict[str, int], events: list[Event]) -> None:
    """Write every player's ``final`` lines and the winners, and finish the game."""
    sacrifices = {p: ps["sacrifice"] or 0 for p, ps in state["players"].items()}
    dice = {p: (rolls.get(p, 0) if ps["dice"] else 0) for p, ps in state["players"].items()}
    lines = score_lines(state, sacrifices, dice)
    for p, line in lines.items():
        state["players"][p]["final"] = line
    best = max(line["total"] for line in lines.values())
    top = [p for p, line in lines.items() if line["total"] == best]
    best_sac = max(sacrifices[p] for p in top)  # R7: a tied total goes to the higher sacrifice
    winners = [p for p in top if sacrifices[p] == best_sac]
    state["winners"] = winners
    state["finished"] = True
    state["phase"] = "finished"
    state["pending"] = []
    events.append({"type": "final_scoring", "lines": lines})
    events.append({"type": "game_over", "winners": winners, "tied_on_points": top, "total": best})
