"""What the table's screens have shown of a game, asked by every reader of a game that is
over: the replays, the logs, the reviews, the results and the café's history.

The store knows a game's end the moment its last command commits; the table sees it only
when the show has put the last step up and held its beats (R7's lines, the winner:
``Stage.end_shown``). Until then the game is still being played to every reader, so nothing
readable runs ahead of the screens (DESIGN.md "The show").
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.table import Table


def over_on_screens(table: Table | None, game_id: int) -> bool:
    """Whether game ``game_id`` of ``table`` is over on its screens (a table without a show,
    or no longer configured, shows nothing: its games are what the store says)."""
    stage = table.stage if table is not None else None
    return stage is None or bool(stage.end_shown(game_id))


def ahead_of_screens(tables: Iterable[Table]) -> set[int]:
    """The games the store has over whose end the screens have not shown yet (at most one a
    table: its current game)."""
    out: set[int] = set()
    for table in tables:
        g = table.game
        if g is not None and g.status != "playing" and not over_on_screens(table, g.id):
            out.add(g.id)
    return out
