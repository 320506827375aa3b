"""The services an app owns, read through typed accessors (never ``app.extensions`` by
string elsewhere): the café of tables, each table's hub, the webhook outbox, the admin token,
the throttle of wrong guesses and the admin's replays. Each accessor reads the current app
unless one is given (start-up and shutdown code outside a request)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from flask import Flask, current_app

from companion.cafe import Cafe
from companion.cafe.outbox import Outbox
from companion.web.config import ServerConfig
from companion.web.guard import GuessThrottle

if TYPE_CHECKING:
    from companion.web.hub import Hub
    from companion.web.mdns import Announcer
    from companion.web.replay_sessions import Replays


def _ext(app: Flask | None, key: str) -> Any:
    """What ``install`` put under ``key``; each accessor below names its type."""
    return (app or current_app).extensions[key]


def install(
    app: Flask,
    *,
    cafe: Cafe,
    outbox: Outbox,
    admin_token: str,
    guesses: GuessThrottle,
    replays: Replays,
) -> None:
    """Put the app's services in place (create_app); hubs come with :func:`install_hubs`."""
    app.extensions.update(
        cafe=cafe, outbox=outbox, admin_token=admin_token, guesses=guesses, replays=replays
    )


def install_hubs(app: Flask, hubs: dict[str, Hub]) -> None:
    app.extensions["hubs"] = hubs


def install_mdns(app: Flask, announcer: Announcer) -> None:
    app.extensions["mdns"] = announcer


def cafe_of(app: Flask | None = None) -> Cafe:
    return cast(Cafe, _ext(app, "cafe"))


def outbox_of(app: Flask | None = None) -> Outbox:
    return cast(Outbox, _ext(app, "outbox"))


def hubs_of(app: Flask | None = None) -> dict[str, Hub]:
    return cast("dict[str, Hub]", _ext(app, "hubs"))


def hub_of(name: str, app: Flask | None = None) -> Hub | None:
    return hubs_of(app).get(name)


def admin_token_of(app: Flask | None = None) -> str:
    return cast(str, _ext(app, "admin_token"))


def guesses_of(app: Flask | None = None) -> GuessThrottle:
    return cast(GuessThrottle, _ext(app, "guesses"))


def replays_of(app: Flask | None = None) -> Replays:
    return cast("Replays", _ext(app, "replays"))


def config_of(app: Flask | None = None) -> ServerConfig:
    return cast(ServerConfig, (app or current_app).config["COMPANION"])


def service_of(name: str, app: Flask | None = None) -> Any:
    """An optional service (``mdns``) or None."""
    return (app or current_app).extensions.get(name)
