"""What each station gives once it is ranked (R5). Decisions (city, pyramid order) pause here."""

from __future__ import annotations

from companion.engine.ranking import explain_ties, order_players
from companion.engine.state import add_score, end_this_round, pyramid_full, use_cube
from companion.engine.types import CityChoice, Event, State


def chocolatl(state: State, order: list[str], events: list[Event]) -> None:
    """R5.1: first takes the figure and scores; lowest takes the old man."""
    first, lowest = order[0], order[-1]
    state["chocolatl"] = first
    events.append({"type": "figure", "player": first})
    add_score(state, first, state["profile"]["chocolatl_points"], "chocolatl", events)
    state["old_man"] = lowest
    events.append({"type": "old_man", "player": lowest})


def harvest(state: State, order: list[str], events: list[Event]) -> None:
    """R5.2: first three score the dice from highest to lowest."""
    for player, value in zip(order, sorted(state["harvest"] or (), reverse=True), strict=False):
        add_score(state, player, value, "harvest", events)


def free_hut_spaces(state: State) -> int:
    return state["profile"]["hut_spaces"] - sum(p["huts"] for p in state["players"].values())


def build_hut(state: State, player: str, events: list[Event]) -> None:
    ps = state["players"][player]
    ps["huts"] += 1
    events.append({"type": "hut", "player": player, "huts": ps["huts"]})
    use_cube(state, player, events)  # R6.4: built even with no cubes left


def take_die(state: State, player: str, events: list[Event]) -> None:
    ps = state["players"][player]
    ps["dice"] += 1
    events.append({"type": "die", "player": player, "dice": ps["dice"]})


def city(state: State, first: str, second: str, choice: CityChoice, events: list[Event]) -> None:
    """R5.3 once first's choice is known."""
    if choice == "hut":
        build_hut(state, first, events)
        take_die(state, second, events)
    else:
        take_die(state, first, events)
        if free_hut_spaces(state) > 0:
            build_hut(state, second, events)


def place_cube(state: State, player: str, events: list[Event]) -> None:
    """R5.4: lowest row with a free cell, leftmost cell; a filled row pays its majority."""
    for r, row in enumerate(state["pyramid"]):
        if None in row:
            c = row.index(None)
            row[c] = player
            events.append({"type": "cube", "player": player, "row": r, "cell": c})
            if None not in row:
                _row_bonus(state, r, events)
                if r == len(state["pyramid"]) - 1 and pyramid_full(state):
                    end_this_round(state, "pyramid_full", events)
            use_cube(state, player, events)
            return
    events.append({"type": "cube", "player": player, "row": None, "cell": None})


def _row_bonus(state: State, r: int, events: list[Event]) -> None:
    row = state["pyramid"][r]
    counts: dict[str, int] = {}
    for owner in row:
        if owner is not None:  # a completed row has no empty cell
            counts[owner] = counts.get(owner, 0) + 1
    order = order_players(state, list(counts), counts)  # R3.5 breaks a tied majority
    winner = order[0]
    ties = [t for t in explain_ties(state, order, counts) if t["players"][0] == winner]
    bonus = state["profile"]["pyramid_rows"][r][1]
    events.append(
        {
            "type": "row_completed",
            "row": r,
            "player": winner,
            "bonus": bonus,
            "counts": counts,
            "ties": ties,
        }
    )
    add_score(state, winner, bonus, "pyramid_row", events)


def drink(state: State, order: list[str], events: list[Event]) -> None:
    """R5.5: first and second score the round's drink points, lowest loses the penalty."""
    prof = state["profile"]
    schedule = prof["drink"]
    first_pts, second_pts = schedule[min(state["round"], len(schedule)) - 1]
    add_score(state, order[0], first_pts, "drink", events)
    add_score(state, order[1], second_pts, "drink", events)
    add_score(state, order[-1], -prof["drink_penalty"], "drink_penalty", events)


def tachli(state: State, order: list[str], events: list[Event]) -> None:
    """R5.6: points in the last round, otherwise improvement cards replacing the lowest card."""
    if state["last_round"]:
        first_pts, second_pts = state["profile"]["tachli_last_round"]
        add_score(state, order[0], first_pts, "tachli", events)
        add_score(state, order[1], second_pts, "tachli", events)
        return
    high, low = sorted(state["improvements"] or (), reverse=True)  # R2.2: laid this round
    for player, card in ((order[0], high), (order[1], low)):
        deck = state["players"][player]["deck"]
        dropped = deck.pop(0)  # the deck is kept sorted: index 0 is the lowest card
        events.append({"type": "card_discarded", "player": player, "card": dropped})
        deck.append(card)
        deck.sort()
        events.append({"type": "card_gained", "player": player, "card": card})
