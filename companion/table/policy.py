"""Who may send what (PROTOCOL.md 3.1-3.3): the one place that decides it.

A phone plays only for its own seat and only the decisions of players; the host types in what
the real dice and cards showed and runs the table; the display only listens.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.table.model import TableError

SEAT_KINDS = ("sacrifice", "bid", "dice", "city", "pyramid")  # a phone may send these
HOST_KINDS = ("harvest", "improvements", "roll")  # typed in from the real dice and cards
HOST_ACTIONS = (
    "start",
    "set_dice",
    "set_companion_dice",
    "set_track_colors",
    "set_language",
    "undo",
    "skip_seat",
    "resume_seat",
    "release_seat",
    "remove_seat",
    "end_game",
    "new_game",
    "rotate_join",
    "add_bot",
    "hand_to_bot",
    "set_hints",
    "set_pace",
    "show_next",
    "set_board_drawing",
)
SEAT_MESSAGES = ("hello", "command", "leave", "ping", "hint", "showing")
HOST_MESSAGES = ("hello", "command", "ping", *HOST_ACTIONS)
# The display may choose its own language (kept in the table's settings, like the host's choice).
DISPLAY_MESSAGES = ("ping", "set_language")


def command_for(
    source: str,
    command: Mapping[str, object],
    dice: str,
    companion_seats: frozenset[str] = frozenset(),
) -> Mapping[str, object]:
    """The command as the engine gets it from ``source`` (``seat:<id>`` or ``host``), or
    ``not_allowed``. A seat's command is always for that seat (its ``player`` filled in); a
    seat a companion player plays now takes no phone commands."""
    kind = command["type"]
    if source.startswith("seat:"):
        seat = source[5:]
        if seat in companion_seats:
            raise TableError(
                "not_allowed", "a companion player plays this seat now; the host can give it back"
            )
        if kind not in SEAT_KINDS and not (kind == "roll" and dice == "table"):
            raise TableError("not_allowed", f"a phone cannot send {kind!r} here")
        if command.get("player", seat) != seat:
            raise TableError("not_allowed", "a phone can only play for its own seat")
        return {**command, "player": seat}
    if source == "host":
        if kind not in HOST_KINDS:
            raise TableError(
                "not_allowed", f"the host cannot send {kind!r}; players send their own moves"
            )
        return command
    raise TableError("not_allowed", f"{source!r} cannot send commands")
