"""The whole suite's settings.

Having this file in ``tests/`` (no ``__init__.py``) puts ``tests/`` on ``sys.path``, so every
test imports the shared helpers (``waiting.wait_for``) by their module name.

``make test`` runs the suite on several pytest-xdist workers with ``--dist loadgroup``: each
test module is one group, kept on one worker (its tests share the module's server). The
browser tests are ``BROWSER_LANES`` groups (2 unless the environment says), lanes that run
beside each other and beside the rest: a browser test drives Chromium and a server, and on
two cores their timing checks need the cores more than other tests do. Each chaos seed heads
a lane of its own; on the workers the lanes go first, so the last minutes are not one long
test running alone.
"""

from __future__ import annotations

import os

import pytest

BROWSER = "tests/web/browser/"
# The chaos seeds (minutes each): one at the head of each browser lane.
APART = ("tests/web/browser/test_chaos.py",)
APART_TIMEOUT_S = 900  # as test_display_fit.py's own mark
# The other slow browser modules, dealt to the lanes in turn after the seeds (the rest of the
# browser modules follow, dealt the same way).
SLOWEST = (
    "tests/web/browser/test_display_fit.py",
    "tests/web/browser/test_table_games.py",
    "tests/web/browser/test_finale.py",
    "tests/web/browser/test_show.py",
)
# How many browser lanes (``make test BROWSER_LANES=1`` runs one browser test at a time).
# The emulated RP2040 boards (tests/firmware/): one group, one emulator at a time (each takes a
# core; three at once on two cores missed the watchdog tests' deadlines).
FIRMWARE = "tests/firmware/"
LANES = tuple(f"browser-{k + 1}" for k in range(max(1, int(os.environ.get("BROWSER_LANES", "2")))))


def _module(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def _lanes(items: list[pytest.Item]) -> dict[str, str]:
    """The browser lane of each browser test (node id): a chaos seed heads each lane, then the
    slowest modules and the rest, dealt in turn (a module stays in one lane)."""
    seeds = [i.nodeid for i in items if _module(i) in APART]
    modules = sorted({_module(i) for i in items if _module(i).startswith(BROWSER)} - set(APART))
    order = [m for m in SLOWEST if m in modules] + [m for m in modules if m not in SLOWEST]
    lane_of = {seed: LANES[k % len(LANES)] for k, seed in enumerate(seeds)}
    lane_of.update({m: LANES[k % len(LANES)] for k, m in enumerate(order)})
    return lane_of


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Groups for ``--dist loadgroup`` (a test's own ``xdist_group`` mark wins); on xdist's
    workers, the browser lanes first, each seed at the head of its lane."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    lane_of = _lanes(items)
    for item in items:
        module = _module(item)
        if module in APART and item.get_closest_marker("timeout") is None:
            # Minutes alone, more beside other workers on two cores: the hang guard
            # (pytest-timeout, 300 s) would stop a seed that is only slow.
            item.add_marker(pytest.mark.timeout(APART_TIMEOUT_S))
        if item.get_closest_marker("xdist_group") is None:
            group = lane_of.get(item.nodeid) or lane_of.get(module) or module
            if module.startswith(FIRMWARE):
                group = FIRMWARE
            item.add_marker(pytest.mark.xdist_group(group))
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the order it is given work
        rank = {m: k for k, m in enumerate([*APART, *SLOWEST])}
        items.sort(
            key=lambda i: (
                not _module(i).startswith(BROWSER),
                rank.get(_module(i), len(rank)),
            )
        )


# -- where the time goes ---------------------------------------------------------------------
# The seconds each folder's tests took (set-up, call and tear-down), printed at the end of every
# run: the README's figures for the suite come from CI's output of this table.
_SECONDS: dict[str, float] = {}
_COUNT: dict[str, int] = {}


def _folder(nodeid: str) -> str:
    path = nodeid.split("::", 1)[0]
    parts = path.split("/")
    if path in APART:
        return path  # the chaos seeds on their own line
    return "/".join(parts[:3] if parts[:3] == ["tests", "web", "browser"] else parts[:2])


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    folder = _folder(report.nodeid)
    _SECONDS[folder] = _SECONDS.get(folder, 0.0) + report.duration
    if report.when == "call":
        _COUNT[folder] = _COUNT.get(folder, 0) + 1


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not _SECONDS:
        return
    terminalreporter.section("seconds by folder")
    total = sum(_SECONDS.values())
    for folder, seconds in sorted(_SECONDS.items(), key=lambda kv: -kv[1]):
        share = 100 * seconds / total if total else 0
        terminalreporter.write_line(
            f"{seconds:8.1f} s {share:5.1f} %  {_COUNT.get(folder, 0):5d} tests  {folder}"
        )
    terminalreporter.write_line(f"{total:8.1f} s  (summed over workers)")
