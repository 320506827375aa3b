"""Live server fixtures: a real ``companion serve`` process per test module; and the app in
this process (``app_client``) for plain HTTP checks that need no server process."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from in_process import in_process_client
from live_server import LiveServer

TABLES = 16


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("data"), tables=TABLES).start()
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture(scope="module")
def _table_names() -> Iterator[str]:
    return (str(i) for i in itertools.count(1))


@pytest.fixture
def table(server: LiveServer, _table_names: Iterator[str]) -> str:
    """A table of the module's server that no other test has used."""
    name = next(_table_names)
    assert int(name) <= TABLES, "raise TABLES in tests/web/conftest.py"
    return name


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[FlaskClient]:
    """The server's app in this process with Flask's test client: for plain HTTP checks that
    need no server process (one table, ``1``, on a fresh data directory)."""
    with in_process_client(tmp_path / "data") as client:
        yield client
