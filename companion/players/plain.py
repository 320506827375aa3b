"""The plain player: today's predictable autopilot for skipped seats (lowest cards everywhere,
no bonus dice, the die at the city, first at the pyramid), as a player kind."""

from __future__ import annotations

import random

from companion.players.autopilot import move
from companion.players.common import Command, View


def choose(view: View, rng: random.Random) -> Command | None:
    """The autopilot's move; it reads only the seat's own deck and the public fields."""
    return move(view, view["me"])
