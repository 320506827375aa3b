"""Random legal commands for any state: the random players of ``simulate`` and the property
tests, and a host's random dice, from the full state (the random player kind, from one seat's
view, is companion.players.random_player). Randomness lives here, never in the engine."""

from __future__ import annotations

import random
from typing import Any

from companion.engine import Command, State, apply_in_place, new_game
from companion.engine.asks import bid_shape, free_cards


def random_command(state: State, rng: random.Random) -> Command:
    """A legal answer to one randomly chosen pending entry."""
    entry = rng.choice(state["pending"])
    kind = entry["type"]
    if kind == "harvest":
        return {"type": "harvest", "dice": [rng.randint(1, 6) for _ in range(3)]}
    if kind == "improvements":
        decks = state["profile"]["improvement_decks"]
        return {"type": "improvements", "cards": [rng.choice(decks[0]), rng.choice(decks[1])]}
    player = entry["player"]  # every other pending entry is a player's
    ps = state["players"][player]
    if kind == "sacrifice":
        return {"type": "sacrifice", "player": player, "card": rng.choice(ps["deck"])}
    if kind == "bid":
        free = free_cards(ps)
        rng.shuffle(free)
        step = state["step"]
        assert step is not None  # a bid is awaited
        shape = bid_shape(step)  # R2.4-R2.6
        bids = {k: [free.pop() for _ in range(shape["cards"])] for k in shape["stations"]}
        return {"type": "bid", "player": player, "bids": bids}
    if kind == "dice":
        return {"type": "dice", "player": player, "count": rng.randint(0, ps["dice"])}
    if kind == "roll":
        window = state["dice_window"]
        assert window is not None  # a roll is awaited in a dice window or the final roll
        n = 1 if state["phase"] == "final_roll" else window["choices"][player]
        return {"type": "roll", "player": player, "values": [rng.randint(1, 6) for _ in range(n)]}
    if kind == "city":
        return {"type": "city", "player": player, "choice": rng.choice(["hut", "die"])}
    if kind == "pyramid":
        d = state["decision"]
        assert d is not None  # the pyramid order is awaited
        return {"type": "pyramid", "player": player, "first": rng.choice([d["first"], d["second"]])}
    raise ValueError(f"no random answer for {kind!r}")


def random_players(k: int) -> list[str]:
    return ["ana", "ben", "cleo", "dev", "eli"][:k]


def random_document(rng: random.Random, k: int, max_commands: int = 10_000) -> dict[str, Any]:
    """A whole random game as a SCENARIO.md document, played to the end."""

    players = random_players(k)
    stack = list(players)
    rng.shuffle(stack)
    state = new_game(players, stack)
    commands: list[Command] = []
    while not state["finished"] and len(commands) < max_commands:
        command = random_command(state, rng)
        apply_in_place(state, command)
        commands.append(command)
    return {"players": players, "stack": stack, "commands": commands}
