"""The café: every table of one server, each with its own name, path, secrets and games."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from companion.board.follow import TableBoard
from companion.cafe.reviews import Reviewer
from companion.store import Store
from companion.table import DICE_MODES, TABLE_NAME, Table
from companion.table.bot_driver import BotDriver
from companion.table.show import DEFAULT_PACE
from companion.table.stage import Stage

log = logging.getLogger(__name__)


class ConfigError(ValueError):
    """A server or table setting that cannot be used; the message says which and why."""


@dataclass
class TableConfig:
    """One table of the café as configured (``--tables N`` or a JSON file)."""

    name: str
    title: str | None = None
    board: str = "none"  # serial port, "sim" or "none"
    dice: str = "digital"

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not TABLE_NAME.fullmatch(self.name):
            raise ConfigError(f"table name {self.name!r} must match [a-z0-9][a-z0-9-]{{0,31}}")
        if self.dice not in DICE_MODES:
            raise ConfigError(f"table {self.name}: dice must be 'digital' or 'table'")
        if not isinstance(self.board, str) or not self.board:
            raise ConfigError(f"table {self.name}: board must be a serial port, sim or none")


class Cafe:
    """Tables by name, loaded (and unfinished games replayed) when the server starts."""

    def __init__(
        self,
        store: Store,
        tables: list[TableConfig],
        with_boards: bool = True,
        with_bots: bool | None = None,
        pace: str = DEFAULT_PACE,
    ) -> None:
        # Only the process that drives the tables runs their boards and companion players
        # (``with_bots`` follows ``with_boards`` unless given).
        with_bots = with_boards if with_bots is None else with_bots
        self.store = store
        self.tables: dict[str, Table] = {}
        self.boards: list[Any] = []
        # Companion players of every table think in one pool (started on first use).
        self.bots: BotDriver | None = BotDriver() if with_bots else None
        # Every game over is reviewed in the same low-priority pool (cafe/reviews.py).
        self.reviewer: Reviewer | None = Reviewer(store, self.bots) if self.bots else None
        for cfg in tables:
            table = Table(cfg.name, store, title=cfg.title, dice=cfg.dice, board=cfg.board)
            self.tables[cfg.name] = table
            # The show (what the screens show when) before the board, which follows it.
            table.stage = Stage(table, pace)
            if with_boards:
                table.stage.start()
            if self.bots is not None:
                # A restarted server's companions pick up where they were (catch_up).
                table.subscribe(self.bots.observe, catch_up=True)
            if self.reviewer is not None:
                self.reviewer.watch(table)
            if with_boards and cfg.board != "none":
                self.boards.append(_board_for(table, cfg.board))
        if self.reviewer is not None:
            self.reviewer.start()  # the store's queue, once every table is watched

    def get(self, name: str) -> Table | None:
        return self.tables.get(name)

    def close(self) -> None:
        """Stop the café: the screens hear "table closed" first, then the parts stop. Stopping
        a part may take seconds (a board's link, the companion players' process finishing
        its job), and the server kills its worker 3 s after asking it to stop: told last,
        a phone could see a plain drop instead (``test_web_shutdown.py``)."""
        for table in self.tables.values():
            try:
                table.close()
            except Exception:  # noqa: BLE001 - closing must reach every table
                log.exception("closing table %s", table.name)
        for board in self.boards:
            try:
                board.close()
            except Exception:  # noqa: BLE001 - closing must reach every board and table
                log.exception("closing a board")
        self.boards = []
        for table in self.tables.values():
            if table.stage is not None:
                try:
                    table.stage.close()
                except Exception:  # noqa: BLE001 - closing must reach the bots and tables
                    log.exception("closing the show of table %s", table.name)
        if self.reviewer is not None:
            self.reviewer.close()
        if self.bots is not None:
            self.bots.close()


def _board_for(table: Table, port: str) -> Any:
    """The table's LED board (one port per table; ``sim`` runs the simulated board). A board
    that cannot start never stops the table: its status says why."""

    try:
        return TableBoard(table, port).start()
    except Exception as exc:  # noqa: BLE001
        log.exception("table %s: LED board %s did not start", table.name, port)
        table.board_status = {"mode": "serial", "connected": False, "detail": str(exc)}
        return _NoBoard()


class _NoBoard:
    def close(self) -> None:
        pass
