"""Flask app factory: the café of tables, the page and JSON blueprint, the websockets."""

from __future__ import annotations

import logging
import threading
from urllib.parse import urlsplit

from flask import Flask, Response, request

from companion.cafe import Cafe
from companion.cafe.outbox import Outbox
from companion.store import Store
from companion.table import Outcome
from companion.web import admin, cafe_pages, pages, replay_routes, reviews, services, sockets
from companion.web.config import ServerConfig
from companion.web.guard import GuessThrottle, host_allowed
from companion.web.hub import Hub
from companion.web.mdns import Announcer, local_addresses
from companion.web.mdns import base_url as mdns_base
from companion.web.netaddr import public_base
from companion.web.replay_sessions import Replays
from companion.web.shown import ahead_of_screens


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
    services.install(
        app,
        cafe=cafe,
        outbox=_outbox(config, cafe),
        admin_token=cafe.store.admin_token(),
        guesses=GuessThrottle(),
        replays=Replays(),
    )
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
    app.register_blueprint(reviews.bp)
    app.register_blueprint(replay_routes.bp)
    app.register_blueprint(sockets.bp)
    sockets.sock.init_app(app)
    # Each table's connections; its links come from the app's URL map (url_for's builder).
    urls = app.url_map.bind("localhost")
    services.install_hubs(
        app, {name: Hub(table, urls, base) for name, table in cafe.tables.items()}
    )

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
    """Results and webhook deliveries; a finished game wakes the recorder when it commits
    and at each beat of its end on the screens, so its result is recorded and sent the
    moment the end is shown (a game the host ends is found by the recorder's look within
    seconds)."""
    outbox = Outbox(
        config.database,
        config.webhooks,
        config.webhook_secret,
        titles={name: t.title for name, t in cafe.tables.items()},
        first_retry=config.webhook_retry,
        retention_days=config.retention_days,
        delete_games=cafe.store.delete_games,
        # A result goes out when the table has shown the end, not when the store has it.
        ahead=lambda: ahead_of_screens(cafe.tables.values()),
    )

    def on_commit(_table: object, outcome: Outcome) -> None:
        if outcome.state is not None and outcome.state.get("finished"):
            outbox.notify()

    for table in cafe.tables.values():
        table.subscribe(on_commit)
        if table.stage is not None:  # and again at each beat of the end, for its last one
            table.stage.subscribe(on_commit)
    return outbox


def start_background(app: Flask) -> None:
    """What runs beside the requests in the server's worker: the outbox's sender, the
    companion players' processes (they review every finished game) and the mDNS
    announcement."""
    services.outbox_of(app).start()
    bots = services.cafe_of(app).bots
    if bots is not None:
        bots.start()
    start_mdns(app)


MDNS_RECHECK_S = 30.0


def start_mdns(app: Flask) -> None:
    """Announce ``<mdns>.local`` (in the server's worker, on a thread: probing the name takes
    a few seconds and the tables must not wait). When multicast DNS cannot run, the tables'
    links fall back to the plain address rather than to a name nobody answers."""
    config = services.config_of(app)
    if not config.mdns:
        return
    announcer = Announcer(config.mdns, config.port, local_addresses(config.host))
    services.install_mdns(app, announcer)

    def run() -> None:
        if not announcer.start():
            if not config.public_url:
                fallback = public_base(config.host, config.port)
                for hub in services.hubs_of(app).values():
                    hub.base_url = fallback
            return
        # Follow address changes (a new DHCP lease, the Pi's own hotspot coming up).
        while not announcer.stopped.wait(MDNS_RECHECK_S):
            try:
                announcer.refresh(local_addresses(config.host))
            except Exception:  # noqa: BLE001 - keep the old announcement
                logging.getLogger(__name__).exception("mDNS: address refresh failed")

    threading.Thread(target=run, name="mdns", daemon=True).start()


cafe_of = services.cafe_of  # the café of an app (companion.web.services has every service)
