""" "No dice" only where no roll can matter, checked against the stations' own code (R3.2,
R3.4, R5, R6.1).

Random legal games (companion.players.random_games) are played to every bonus dice window.
Wherever the table would answer "no dice" for a holder (bonusdice.nothing_to_decide), the
station is resolved by ``companion.engine.stations`` itself for every total the holder could
reach with dice against many totals of the others (each from its base to base + 6 a die):
what the station leaves behind (scores and the stack, the figure and the old man, huts,
dice, decks, each player's cubes a pyramid row) must be the same as without the holder's
dice. At the pyramid the decision goes the table's way (first places first, R5.4) and at
the city both choices are tried (R5.3).
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from typing import Any

from companion.engine import apply_in_place, new_game
from companion.engine import stations as st
from companion.engine.bonusdice import bid_parts, nothing_to_decide
from companion.engine.ranking import tie_key
from companion.players.random_games import random_command, random_players

SAMPLES = 40  # others' totals tried a window (all of them when fewer)


def resolve(state: dict[str, Any], station: int, totals: dict[str, int], city: str) -> str:
    """``station``'s effects for these effective bids, as the engine applies them; the
    outcome as comparable text (cubes counted per row: only counts score, R5.4, R7)."""
    s = copy.deepcopy(state)
    order = sorted(totals, key=lambda p: (-totals[p], *tie_key(s, p)))  # R3.4
    events: list[Any] = []
    if station == 1:
        st.chocolatl(s, order, events)
    elif station == 2:
        st.harvest(s, order, events)
    elif station == 3:
        if st.free_hut_spaces(s) > 0:
            st.city(s, order[0], order[1], city, events)  # type: ignore[arg-type]
        else:
            st.take_die(s, order[0], events)
    elif station == 4:
        if totals[order[0]] - totals[order[1]] >= 3:
            st.place_cube(s, order[0], events)
            st.place_cube(s, order[0], events)
        else:
            st.place_cube(s, order[0], events)
            st.place_cube(s, order[1], events)
    elif station == 5:
        st.drink(s, order, events)
    else:
        st.tachli(s, order, events)
    rows = [{p: row.count(p) for p in s["players"]} for row in s["pyramid"]]
    players = {
        p: (ps["score"], ps["huts"], ps["dice"], sorted(ps["deck"]))
        for p, ps in s["players"].items()
    }
    return json.dumps(
        [players, s["track"], s["chocolatl"], s["old_man"], rows, s["last_round"]], sort_keys=True
    )


def check_window(state: dict[str, Any], holder: str, rng: random.Random) -> int:
    station = state["dice_window"]["station"]
    parts = bid_parts(state, station)
    base = {p: b["base"] for p, b in parts.items()}
    ranges = {
        p: range(base[p], base[p] + 6 * state["players"][p]["dice"] + 1)
        for p in base
        if p != holder
    }
    configs = list(itertools.islice(itertools.product(*ranges.values()), 5000))
    if len(configs) > SAMPLES:
        configs = rng.sample(configs, SAMPLES)
    checked = 0
    for values in configs:
        others = dict(zip(ranges, values, strict=True))
        for city in ("hut", "die"):
            without = resolve(state, station, {**others, holder: base[holder]}, city)
            for extra in range(1, 6 * state["players"][holder]["dice"] + 1):
                with_dice = resolve(state, station, {**others, holder: base[holder] + extra}, city)
                assert with_dice == without, (station, holder, base, others, extra)
                checked += 1
            if station != 3:
                break
    return checked


def test_no_dice_only_where_no_roll_can_change_what_a_station_gives() -> None:
    rng = random.Random(5)
    windows = checked = 0
    for game in range(60):
        k = 3 + game % 3
        players = random_players(k)
        state = new_game(players, players)
        while not state["finished"]:
            if state["phase"] == "dice":
                for e in state["pending"]:
                    if e["type"] == "dice" and nothing_to_decide(state, e["player"]):
                        windows += 1
                        checked += check_window(state, e["player"], rng)
            apply_in_place(state, random_command(state, rng))
    assert windows >= 100 and checked >= 1000, (windows, checked)
