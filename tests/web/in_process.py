"""The server's Flask app in the test process, for checks that need no server process:
plain HTTP requests and answers (pages, headers, JSON API, Host refusals) through Flask's
test client, and ``companion serve`` refusing to start, run as a function.

Everything about processes, sockets, real websocket clients, signals and timeouts stays on
the live server (live_server.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.cli import main as cli_main
from companion.web import serve
from companion.web.app import create_app
from companion.web.config import ServerConfig, tables_from_count

# The port the app believes it serves on (nothing listens: requests never leave the process).
PORT = 8123


@contextlib.contextmanager
def in_process_client(data: Path, tables: int = 1, **settings: Any) -> Iterator[FlaskClient]:
    """The app ``companion serve --host 127.0.0.1`` would run, on a fresh data directory,
    with its test client; the café and its store are closed afterwards."""
    Path(data).mkdir(parents=True, exist_ok=True)
    settings.setdefault("max_per_address", 1000)  # as live_server.py: every client is local
    settings.setdefault("pace", "instant")  # as live_server.py: each step shown at once
    config = ServerConfig(
        host="127.0.0.1", port=PORT, data=Path(data), tables=tables_from_count(tables), **settings
    )
    app = create_app(config)
    try:
        yield app.test_client()
    finally:
        app.extensions["outbox"].close()
        app.extensions["cafe"].close()
        app.extensions["cafe"].store.close()


def join(
    client: FlaskClient, table: str, name: str, colour: str, secret: str | None = None
) -> dict:
    """``POST /t/<table>/api/join`` as a phone's join form sends it; the answer with its
    status (as ``LiveServer.join``)."""
    if secret is None:
        secret = join_secret(client, table)
    r = client.post(f"/t/{table}/api/join", json={"secret": secret, "name": name, "colour": colour})
    body = r.get_json()
    body["status"] = r.status_code
    return body


def join_secret(client: FlaskClient, table: str) -> str:
    frame = client.get(f"/t/{table}/api/state").get_json()
    return frame["table"]["urls"]["join"].rsplit("/", 1)[1]


class _MustNotStart:
    """Stands in for gunicorn: a start that should have been refused fails the test at
    once instead of serving in the test process."""

    def __init__(self, config: ServerConfig) -> None:
        raise AssertionError("companion serve got past its start-up checks")


def serve_in_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str]:
    """``companion serve ARGS`` run as a function up to where it would start serving:
    its exit status and what it printed on stderr (for starts that must be refused)."""
    monkeypatch.setattr(serve, "GunicornServer", _MustNotStart)
    capsys.readouterr()
    try:
        code = cli_main(["serve", *args])
    finally:
        # A refused start in its own process frees the data directory's lock by exiting.
        if serve._DATA_LOCK is not None:
            serve._DATA_LOCK.release()
            serve._DATA_LOCK = None
    return code, capsys.readouterr().err
