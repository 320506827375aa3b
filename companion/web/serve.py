"""``companion serve``: the table server under gunicorn (one process, many threads).

The tables live in memory in one worker process; each websocket holds one of its threads
(gunicorn's gthread worker). The app, the database and the replay of unfinished games are made
in the worker, after the fork.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import signal
import sqlite3
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from companion.players import reviewing
from companion.players.review import ReviewError
from companion.store import DamagedRow, datadir
from companion.store.migrations import DatabaseRefused
from companion.table import TableError, show
from companion.web.config import (
    ConfigError,
    ServerConfig,
    tables_from_count,
    tables_from_file,
)
from companion.web.mdns import check_name
from companion.web.netaddr import public_base
from companion.web.services import cafe_of, service_of
from companion.web.wifi import WifiConfig


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default all)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--data",
        default="data",
        metavar="DIR",
        help="data directory with the SQLite database (default ./data)",
    )
    parser.add_argument(
        "--tables", type=int, default=1, metavar="N", help="number of tables named 1..N (default 1)"
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        help='JSON file with named tables: {"tables": [{"name": "oak", '
        '"title": "Oak", "board": "sim", "dice": "digital"}]}',
    )
    parser.add_argument(
        "--board",
        default="sim",
        metavar="PORT|sim|none",
        help="LED board of table 1: a serial port (a /dev/serial/by-id path or "
        "usb:VID:PID[:SERIAL]), sim (a simulated board, the default) or "
        "none",
    )
    parser.add_argument(
        "--dice",
        default="digital",
        choices=["digital", "table"],
        help="default for new games: the companion rolls (digital) or the "
        "host types in the real dice and cards (table)",
    )
    parser.add_argument(
        "--public-url",
        metavar="URL",
        help="base URL for the QR code (default http://<LAN address>:<port>)",
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another origin allowed to open websockets (repeatable)",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another host name phones may use to reach this server (the "
        "public URL's name, localhost and this machine's addresses are "
        "always allowed; repeatable)",
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        default=4000,
        metavar="N",
        help="most open connections (websockets and requests; default 4000); see --max-per-address",
    )
    parser.add_argument(
        "--max-per-address",
        type=int,
        default=64,
        metavar="N",
        help="most open connections from one client address (default 64; "
        "raise it when many phones reach the server through one NAT)",
    )
    parser.add_argument(
        "--pace",
        default=show.DEFAULT_PACE,
        choices=[p for p in show.PACES],
        help="how long each station's result stays on the screens of a table whose host "
        "has not chosen (quick 2 s, normal 6 s, relaxed 10 s; instant: no pause, for tests)",
    )
    parser.add_argument(
        "--worker",
        default="gevent",
        choices=["gevent", "gthread"],
        help="gevent (default: one greenlet per connection) or gthread (one "
        "thread per connection, --threads of them; for comparison)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=256,
        help="with --worker gthread: threads = most open websockets (default 256)",
    )
    parser.add_argument(
        "--mdns",
        metavar="NAME",
        help="announce NAME.local on the LAN (multicast DNS) and use it in the "
        "QR code and links; the plain address is the fallback",
    )
    parser.add_argument(
        "--wifi",
        metavar="SSID",
        help="show a second QR code in the lobby that joins this Wi-Fi network",
    )
    parser.add_argument("--wifi-password", metavar="PASSWORD", help="the Wi-Fi password")
    parser.add_argument(
        "--wifi-security",
        default="WPA",
        choices=["WPA", "WEP", "nopass"],
        help="the network's security (default WPA; nopass for an open one)",
    )
    parser.add_argument(
        "--webhook",
        action="append",
        default=[],
        metavar="URL",
        help="POST every finished or ended game's result here (repeatable; "
        "PROTOCOL.md 'Result webhooks')",
    )
    parser.add_argument(
        "--webhook-secret",
        metavar="SECRET",
        default=os.environ.get("CHOCOLATL_WEBHOOK_SECRET"),
        help="key of the X-Chocolatl-Signature HMAC (default: the environment "
        "variable CHOCOLATL_WEBHOOK_SECRET)",
    )
    parser.add_argument(
        "--retention-days",
        type=int,
        metavar="N",
        help="delete games (logs, results) that ended more than N days ago; default: keep them all",
    )
    parser.add_argument(
        "--webhook-retry",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="first retry of a failed delivery after this long, then doubling "
        "up to 15 minutes (default 5)",
    )


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    if not 1 <= args.port <= 65535:
        raise ConfigError("--port must be from 1 to 65535")
    if args.threads < 8:
        raise ConfigError("--threads must be at least 8")
    if not 100 <= args.max_connections <= 100_000:
        raise ConfigError("--max-connections must be from 100 to 100000")
    if not 4 <= args.max_per_address <= args.max_connections:
        raise ConfigError("--max-per-address must be from 4 to --max-connections")
    tables = (
        tables_from_file(args.config)
        if args.config
        else tables_from_count(args.tables, board=args.board, dice=args.dice)
    )
    try:
        mdns = check_name(args.mdns) if args.mdns else None
        wifi = (
            WifiConfig(args.wifi, args.wifi_password, args.wifi_security)
            if args.wifi is not None
            else None
        )
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if wifi is None and args.wifi_password:
        raise ConfigError("--wifi-password needs --wifi SSID")
    for url in args.webhook:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ConfigError(f"--webhook {url!r} must be an http:// or https:// URL")
    if args.webhook and not args.webhook_secret:
        raise ConfigError(
            "--webhook needs --webhook-secret (or CHOCOLATL_WEBHOOK_SECRET): "
            "receivers check the signature"
        )
    if args.retention_days is not None and not 1 <= args.retention_days <= 36500:
        raise ConfigError("--retention-days must be from 1 to 36500")
    if not 0.1 <= args.webhook_retry <= 3600:
        raise ConfigError("--webhook-retry must be from 0.1 to 3600 seconds")
    try:
        reviewing.cafe_budget()  # read again by the worker: refused here, before it forks
    except ReviewError as exc:
        raise ConfigError(str(exc)) from None
    return ServerConfig(
        host=args.host,
        port=args.port,
        data=Path(args.data),
        tables=tables,
        public_url=args.public_url.rstrip("/") if args.public_url else None,
        allowed_origins=list(args.allow_origin),
        allowed_hosts=list(args.allow_host),
        threads=args.threads,
        worker=args.worker,
        max_connections=args.max_connections,
        max_per_address=args.max_per_address,
        mdns=mdns,
        wifi=wifi,
        webhooks=list(dict.fromkeys(args.webhook)),
        webhook_secret=args.webhook_secret,
        webhook_retry=args.webhook_retry,
        retention_days=args.retention_days,
        pace=args.pace,
    )


def announce(config: ServerConfig) -> list[str]:
    """The lines printed at start-up: display, host and overview URLs per table. Creates the
    tables' secrets in the database if this is its first start."""
    from companion.cafe import Cafe
    from companion.store import Store
    from companion.web.app import base_url

    base = base_url(config)
    store = Store(config.database)
    try:
        cafe = Cafe(store, config.tables, with_boards=False)  # the worker drives them
        lines = [f"Chocolatl companion on {base}  (data: {config.data})"]
        if config.mdns and not config.public_url:
            lines.append(f"  (by address: {public_base(config.host, config.port)})")
        for t in cafe.tables.values():
            lines.append(f"Table {t.name} display: {base}/t/{t.name}/")
            lines.append(f"Table {t.name} host:    {base}/t/{t.name}/host?token={t.host_token}")
        if len(config.tables) > 1:
            lines.append(f"Café overview: {base}/")
        lines.append(f"Café admin:      {base}/admin?token={store.admin_token()}")
    finally:
        store.close()
    return lines


_DATA_LOCK: datadir.DataDirLock | None = None


def run(args: argparse.Namespace) -> int:
    global _DATA_LOCK
    try:
        config = config_from_args(args)
        datadir.prepare(config.data)
        _DATA_LOCK = datadir.DataDirLock(config.data).acquire()  # held until we exit
        try:
            lines = announce(config)
        except (sqlite3.Error, OSError, TableError, DatabaseRefused, DamagedRow) as exc:
            # A damaged table setting or current game: one sentence, as for other damage.
            raise datadir.database_problem(config.database, exc) from None
    except (ConfigError, datadir.DataDirError, OSError) as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    for line in lines:
        print(line, flush=True)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    GunicornServer(config).run()
    return 0


def _gunicorn_base() -> type:
    from gunicorn.app.base import BaseApplication

    base: type = BaseApplication
    return base


class GunicornServer(_gunicorn_base()):  # type: ignore[misc]
    """gunicorn driven from code: one worker (gevent by default) that builds the app after
    the fork."""

    def __init__(self, config: ServerConfig) -> None:
        self.config_ = config
        self.app: Any = None
        super().__init__()

    def load_config(self) -> None:
        c = self.config_
        host = f"[{c.host}]" if ":" in c.host else c.host
        options = {
            "bind": f"{host}:{c.port}",
            "workers": 1,  # the tables live in this one process's memory
            # gevent: a connection is a greenlet, so slow clients cost memory, not service
            # (companion/web/worker.py says why, with the per-address cap and timeouts).
            "worker_class": (
                "companion.web.worker.CafeWorker" if c.worker == "gevent" else "gthread"
            ),
            "threads": c.threads,
            "worker_connections": c.max_connections,
            "timeout": 60,
            "graceful_timeout": 3,
            "keepalive": 5,
            "accesslog": None,
            "errorlog": "-",
            "loglevel": "warning",
            "proc_name": "companion",
            "worker_exit": _worker_exit,
            "post_worker_init": _post_worker_init,
        }
        for key, value in options.items():
            self.cfg.set(key, value)
        if c.worker == "gevent":
            from companion.web.worker import CafeWorker

            CafeWorker.max_per_address = c.max_per_address  # read by the forked worker

    def load(self) -> Any:
        from companion.web.app import create_app, start_background

        self.app = create_app(self.config_)
        _APPS.append(self.app)
        start_background(self.app)
        settle_memory()
        return self.app


_APPS: list[Any] = []


def settle_memory() -> None:
    """Move everything the worker made while starting (the imported modules, the app, the
    tables and their games) out of the garbage collector's way. Python's full collection
    walks every tracked object, and under gevent the whole worker waits for it: with 20
    tables playing, full collections paused every table for 55-67 ms
    (``benchmarks/bench_server.py``, README). Frozen objects are never walked again, so a
    collection only looks at what was made while serving; they are never freed either,
    which is what they are for (they live as long as the worker)."""
    gc.collect()
    gc.freeze()


def _close_tables() -> None:
    """Tell every display and phone the table is closing (idempotent)."""
    for app in _APPS:
        try:
            cafe_of(app).close()
        except Exception:  # noqa: BLE001
            logging.getLogger(__name__).exception("closing the café")


TRACE_ENV = "COMPANION_TRACEMALLOC"  # a directory: memory snapshots on SIGUSR2 (README)


def _trace_memory(directory: str) -> None:
    """Where memory goes, for a soak (benchmarks/bench_cafe_day.py): trace the worker's
    allocations and write a ``tracemalloc`` snapshot into ``directory`` at each SIGUSR2
    (``snapshot-<n>.pickle``), to be diffed offline. Off unless the variable is set: tracing
    costs time and memory."""
    import tracemalloc

    tracemalloc.start(12)
    count = [0]

    def dump(signum: int, frame: Any) -> None:
        count[0] += 1
        gc.collect()
        path = Path(directory) / f"snapshot-{count[0]}.pickle"
        tracemalloc.take_snapshot().dump(str(path))
        path.with_suffix(".done").touch()  # the snapshot is whole

    signal.signal(signal.SIGUSR2, dump)


def _post_worker_init(worker: Any) -> None:
    """On SIGTERM (systemd stop, kill) close the tables at once: gunicorn would otherwise wait
    for the open websockets until its graceful timeout and then kill the worker, and phones
    would see a plain drop instead of "table closed"."""
    if os.environ.get(TRACE_ENV):
        _trace_memory(os.environ[TRACE_ENV])
    signal.signal(signal.SIGTERM, on_term(signal.getsignal(signal.SIGTERM), _close_tables))


def on_term(previous: Any, close: Any) -> Any:
    """The SIGTERM handler: ``close()``, then the handler that was there before (gunicorn's).

    Under gevent the handler runs in whichever greenlet the signal interrupted: the event loop
    (where nothing may wait) or a table's own thread, such as a board's link, which closing
    joins ("cannot join current thread": the board was left open). So under gevent the closing
    always runs in a greenlet of its own."""

    def close_then_stop(signum: int, frame: Any) -> None:
        close()
        if callable(previous):
            previous(signum, frame)

    def handler(signum: int, frame: Any) -> None:
        gevent = sys.modules.get("gevent")
        if gevent is not None and _threads_are_greenlets():
            gevent.spawn(close_then_stop, signum, frame)
        else:
            close_then_stop(signum, frame)

    return handler


def _threads_are_greenlets() -> bool:
    """Whether gevent has patched ``threading`` (the gevent worker), so that every thread of
    the tables is a greenlet of the one process thread the signal handler runs on."""
    monkey = sys.modules.get("gevent.monkey")
    return bool(monkey is not None and monkey.is_module_patched("threading"))


def _worker_exit(server: Any, worker: Any) -> None:
    _close_tables()
    for app in _APPS:
        for name in ("mdns", "outbox"):
            service = service_of(name, app)
            if service is not None:
                service.close()  # mDNS: phones forget the name at once
    for app in _APPS:
        try:
            cafe_of(app).store.close()
        except Exception:  # noqa: BLE001
            logging.getLogger(__name__).exception("closing the store")
