"""The café: every table of one server, each with its own name, path, secrets and games."""

from __future__ import annotations

import logging
from typing import Any

from companion.store import Store
from companion.tables import Table
from companion.web.config import TableConfig

log = logging.getLogger(__name__)


class Cafe:
    """Tables by name, loaded (and unfinished games replayed) when the server starts."""

    def __init__(self, store: Store, tables: list[TableConfig], base_url: str) -> None:
        self.store = store
        self.tables: dict[str, Table] = {}
        for cfg in tables:
            self.tables[cfg.name] = Table(cfg.name, store, base_url, title=cfg.title,
                                          dice=cfg.dice, board=cfg.board)

    def get(self, name: str) -> Table | None:
        return self.tables.get(name)

    def summaries(self) -> list[dict[str, Any]]:
        return [t.summary(with_join=False) for t in self.tables.values()]

    def close(self) -> None:
        for table in self.tables.values():
            try:
                table.close()
            except Exception:  # noqa: BLE001 - closing must reach every table
                log.exception("closing table %s", table.name)
