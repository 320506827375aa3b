"""Server settings: where it listens, where it keeps its data, which tables it runs.

Tables come from ``--tables N`` (named ``1``..``N``) or from a JSON file
``{"tables": [{"name": "oak", "title": "Oak", "board": "sim", "dice": "digital"}]}``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.cafe import ConfigError, TableConfig
from companion.web.wifi import WifiConfig

__all__ = ["ConfigError", "ServerConfig", "TableConfig", "tables_from_count", "tables_from_file"]


@dataclass
class ServerConfig:
    host: str = "0.0.0.0"
    port: int = 8000
    data: Path = Path("data")
    tables: list[TableConfig] = field(default_factory=lambda: [TableConfig("1")])
    public_url: str | None = None  # base of the join URLs; found from the LAN address if None
    allowed_origins: list[str] = field(default_factory=list)
    allowed_hosts: list[str] = field(default_factory=list)  # extra names for the Host header
    threads: int = 256  # gthread worker only: one per open websocket, plus page requests
    worker: str = "gevent"  # "gevent" | "gthread"
    max_connections: int = 4000  # open connections of the worker (gevent)
    max_per_address: int = 64  # open connections of one client address
    max_message: int = 4096  # bytes per client message (PROTOCOL.md section 3)
    rate: float = 20.0  # messages per second per connection ...
    burst: int = 40  # ... with this burst
    ping_interval: float = 25.0  # websocket pings find dead phones
    mdns: str | None = None  # announce <mdns>.local on the LAN and use it in links
    wifi: WifiConfig | None = None  # a second QR code on the lobby display: join this network
    webhooks: list[str] = field(default_factory=list)  # results are POSTed here
    webhook_secret: str | None = None  # signs them (HMAC-SHA256)
    webhook_retry: float = 5.0  # first retry after this many seconds, then doubling
    retention_days: int | None = None  # delete games that ended longer ago (None: keep all)
    pace: str = "normal"  # the show's pace of a table whose host has not chosen one

    @property
    def database(self) -> Path:
        return Path(self.data) / "companion.sqlite3"


def tables_from_count(count: int, board: str = "none", dice: str = "digital") -> list[TableConfig]:
    """``--tables N``: tables ``1``..``N``; ``--board`` applies to table 1."""
    if not 1 <= count <= 100:
        raise ConfigError("--tables must be from 1 to 100")
    return [
        TableConfig(str(i), board=board if i == 1 else "none", dice=dice)
        for i in range(1, count + 1)
    ]


def tables_from_file(path: str | Path) -> list[TableConfig]:
    """Named tables from a JSON config file."""
    try:
        raw: Any = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ConfigError(f"cannot read table config {path}: {exc}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("tables"), list) or not raw["tables"]:
        raise ConfigError(f'{path}: expected {{"tables": [{{"name": ...}}, ...]}}')
    out = []
    for entry in raw["tables"]:
        if not isinstance(entry, dict) or set(entry) - {"name", "title", "board", "dice"}:
            raise ConfigError(f"{path}: each table is an object with name, title, board, dice")
        out.append(TableConfig(**entry))
    if len({t.name for t in out}) != len(out):
        raise ConfigError(f"{path}: table names must be different")
    return out
