"""The whole suite's settings.

Having this file in ``tests/`` (no ``__init__.py``) puts ``tests/`` on ``sys.path``, so every
test imports the shared helpers (``waiting.wait_for``) by their module name.

``make test`` runs the suite on several pytest-xdist workers with ``--dist loadgroup``: each
test module is one group, kept on one worker (its tests share the module's server), except
the tests named in ``APART``, each a group of its own (the chaos seeds: minutes each, so they
run beside the rest instead of one after the other). On the workers the slowest groups go
first, so the last minutes are not one long test running alone.
"""

from __future__ import annotations

import pytest

# Modules whose tests are each a group of their own (independent: every test starts its own
# server).
APART = ("tests/web/browser/test_chaos.py",)
APART_TIMEOUT_S = 900  # as test_display_fit.py's own mark

# The slowest modules (README, "where the time goes"), started first on the workers.
SLOWEST = (
    "tests/web/browser/test_chaos.py",
    "tests/web/browser/test_display_fit.py",
    "tests/web/browser/test_table_games.py",
    "tests/web/browser/test_finale.py",
    "tests/web/browser/test_show.py",
)


def _module(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Groups for ``--dist loadgroup`` (a test's own ``xdist_group`` mark wins); on xdist's
    workers, the slowest modules first."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        module = _module(item)
        if module in APART and item.get_closest_marker("timeout") is None:
            # Minutes alone, more beside other workers on two cores: the hang guard
            # (pytest-timeout, 300 s) would stop a seed that is only slow.
            item.add_marker(pytest.mark.timeout(APART_TIMEOUT_S))
        if item.get_closest_marker("xdist_group") is None:
            group = item.nodeid if module in APART else module
            item.add_marker(pytest.mark.xdist_group(group))
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the order it is given work
        rank = {module: i for i, module in enumerate(SLOWEST)}
        items.sort(key=lambda item: rank.get(_module(item), len(SLOWEST)))
