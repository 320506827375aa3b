"""Flask app factory: the café of tables, the page and JSON blueprint, the websockets."""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, request

from companion.cafe import Cafe
from companion.cafe.history import admin_token
from companion.cafe.outbox import Outbox
from companion.store import Store
from companion.web import admin, cafe_pages, pages, sockets
from companion.web.config import ServerConfig
from companion.web.guard import GuessThrottle, host_allowed
from companion.web.hub import Hub
from companion.web.mdns import Announcer, local_addresses
from companion.web.mdns import base_url as mdns_base
from companion.web.netaddr import public_base


def create_app(config: ServerConfig, cafe: Cafe | None = None) -> Flask:
    """A ready app. The café (tables, store, replayed games) is built here unless given."""
    app = Flask(__name__)
    base = base_url(config)
    if cafe is None:
        cafe = Cafe(Store(config.database), config.tables, pace=config.pace)
    app.config["COMPANION"] = config
    app.config["MAX_CONTENT_LENGTH"] = 16 * 1024
    app.config["SOCK_SERVER_OPTIONS"] = {
        # Above this the socket is closed with 1009; up to it we answer too_large ourselves.
        "max_message_size": 64 * 1024,
        "ping_interval": config.ping_interval,
    }
    app.extensions["cafe"] = cafe
    app.extensions["outbox"] = _outbox(config, cafe)
    app.extensions["admin_token"] = admin_token(config.database)
    app.extensions["guesses"] = GuessThrottle()
    names = allowed_host_names(config, base)

    @app.before_request
    def _check_host():  # type: ignore[no-untyped-def]
        # DNS rebinding: a page on another site whose name now points here would read the
        # join URL from /api/state. Only our own addresses and names are served.
        if not host_allowed(request.headers.get("Host"), names):
            return Response(
                "this server does not answer to that host name; start it with "
                "--allow-host NAME to allow it",
                status=403,
                mimetype="text/plain",
            )
        if request.headers.get("Upgrade", "").lower() == "websocket":
            # The worker times out idle request reads quickly (worker.py); an upgraded socket
            # is idle between frames and its peer answers our pings, so only silence past two
            # pings ends it.
            raw = request.environ.get("gunicorn.socket")
            if raw is not None:
                raw.settimeout(config.ping_interval * 2 + 5)
        return None

    app.register_blueprint(pages.bp)
    app.register_blueprint(cafe_pages.bp)
    app.register_blueprint(admin.bp)
    app.register_blueprint(sockets.bp)
    sockets.sock.init_app(app)
    # Each table's connections; its links come from the app's URL map (url_for's builder).
    urls = app.url_map.bind("localhost")
    app.extensions["hubs"] = {name: Hub(table, urls, base) for name, table in cafe.tables.items()}

    @app.after_request
    def _headers(response):  # type: ignore[no-untyped-def]
        # Join secrets and tokens travel in URLs: never leak them to other sites.
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response

    return app


def allowed_host_names(config: ServerConfig, base: str) -> set[str]:
    """Names (not addresses: those are checked against the machine's own) that requests may
    carry in ``Host``: localhost, the public URL's and bind address's names, --allow-host."""
    import socket

    names = {"localhost", "localhost.localdomain", config.host.lower()}
    for url in (base, config.public_url or ""):
        host = urlsplit(url).hostname
        if host:
            names.add(host.lower())
    try:
        hostname = socket.gethostname().lower()
        names |= {hostname, f"{hostname}.local"}
    except OSError:
        pass
    names |= {h.lower() for h in config.allowed_hosts}
    if config.mdns:
        names.add(f"{config.mdns}.local")
    return names


def base_url(config: ServerConfig) -> str:
    """Base of the QR code and links: ``--public-url``, else ``http://<mdns>.local``, else the
    LAN address."""
    if config.public_url:
        return config.public_url
    if config.mdns:
        return mdns_base(config.mdns, config.port)
    return public_base(config.host, config.port)


def _outbox(config: ServerConfig, cafe: Cafe) -> Outbox:
    """Results and webhook deliveries; a finished game wakes the sender at once (a game the
    host ends is found by the sender's reconciling within seconds)."""
    outbox = Outbox(
        config.database,
        config.webhooks,
        config.webhook_secret,
        titles={name: t.title for name, t in cafe.tables.items()},
        first_retry=config.webhook_retry,
        retention_days=config.retention_days,
        delete_games=cafe.store.delete_games,
    )

    def on_commit(table: object, state: Mapping[str, Any], events: list[dict[str, Any]]) -> None:
        if state.get("finished"):
            outbox.notify()

    for table in cafe.tables.values():
        table.observers.append(on_commit)
    return outbox


def start_background(app: Flask) -> None:
    """What runs beside the requests in the server's worker: the outbox's sender and the
    mDNS announcement."""
    app.extensions["outbox"].start()
    start_mdns(app)


MDNS_RECHECK_S = 30.0


def start_mdns(app: Flask) -> None:
    """Announce ``<mdns>.local`` (in the server's worker, on a thread: probing the name takes
    a few seconds and the tables must not wait). When multicast DNS cannot run, the tables'
    links fall back to the plain address rather than to a name nobody answers."""
    config: ServerConfig = app.config["COMPANION"]
    if not config.mdns:
        return
    announcer = Announcer(config.mdns, config.port, local_addresses(config.host))
    app.extensions["mdns"] = announcer

    def run() -> None:
        if not announcer.start():
            if not config.public_url:
                fallback = public_base(config.host, config.port)
                for hub in app.extensions["hubs"].values():
                    hub.base_url = fallback
            return
        # Follow address changes (a new DHCP lease, the Pi's own hotspot coming up).
        while not announcer.stopped.wait(MDNS_RECHECK_S):
            try:
                announcer.refresh(local_addresses(config.host))
            except Exception:  # noqa: BLE001 - keep the old announcement
                logging.getLogger(__name__).exception("mDNS: address refresh failed")

    threading.Thread(target=run, name="mdns", daemon=True).start()


def cafe_of(app: Flask) -> Cafe:
    return app.extensions["cafe"]
