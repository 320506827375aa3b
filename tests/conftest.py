"""The whole suite's settings.

Having this file in ``tests/`` (no ``__init__.py``) puts ``tests/`` on ``sys.path``, so every
test imports the shared helpers (``waiting.wait_for``) by their module name.

``make test`` runs the suite on several pytest-xdist workers with ``--dist loadgroup``: each
test module is one group, kept on one worker (its tests share the module's server), and each
chaos seed is a group of its own. The groups are handed out longest first (``SECONDS``, the
seconds each slow module takes alone), so a worker that is free takes the longest work left
and the run does not end on one long test running alone (longest-processing-time-first).
"""

from __future__ import annotations

from pathlib import Path

import pytest

# The chaos seeds (minutes each): a group each, so the two run side by side.
APART = ("tests/web/browser/test_chaos.py",)
APART_TIMEOUT_S = 900  # as test_display_fit.py's own mark
# The emulated RP2040 boards (tests/firmware/): one group, one emulator at a time (each takes a
# core; beside other workers the watchdog tests miss their deadlines, so ``make test`` runs
# this folder before the rest, with only the tests that compute on the other core).
FIRMWARE = "tests/firmware/"
# Seconds a module's tests took in a five-worker CI run (a chaos seed: each), for the order the
# groups are handed out in; a module not listed weighs DEFAULT_S. Rough figures suffice: they
# only order the work (every run writes them to test-artifacts/seconds-by-module.txt).
SECONDS = {
    "tests/web/browser/test_chaos.py": 179,
    "tests/web/browser/test_table_games.py": 121,
    "tests/web/browser/test_display_fit.py": 90,
    "tests/web/browser/test_replay_play.py": 64,
    "tests/web/browser/test_display_header.py": 51,
    "tests/web/browser/test_words.py": 47,
    "tests/web/browser/test_finale.py": 47,
    "tests/web/browser/test_deciding_words.py": 43,
    "tests/cafe/test_damaged_rows.py": 39,
    "tests/players/test_review.py": 37,
    "tests/web/test_web_show.py": 34,
    "tests/cafe/test_webhook_live.py": 33,
    "tests/web/browser/test_replay_display.py": 33,
    "tests/web/browser/test_pad_sound.py": 32,
    "tests/cafe/test_reviews_durable.py": 32,
    "tests/web/browser/test_reconnect.py": 31,
    "tests/web/browser/test_show.py": 30,
    "tests/web/browser/test_display_walk.py": 28,
    "tests/web/browser/test_story.py": 27,
    "tests/cafe/test_deploy_service.py": 22,
    "tests/web/test_web_damaged_db.py": 22,
    "tests/web/browser/test_host.py": 21,
    "tests/web/test_web_bots.py": 20,
    "tests/web/test_web_slow_clients.py": 20,
    "tests/web/browser/test_review_screen.py": 18,
    "tests/players/test_players.py": 16,
    "tests/cafe/test_reviews_live.py": 16,
    "tests/web/test_web_game.py": 15,
    "tests/web/browser/test_game_flow.py": 14,
    "tests/cafe/test_mdns_wifi.py": 14,
    "tests/web/browser/test_duplicates.py": 13,
    "tests/web/test_web_cafe_day.py": 13,
    "tests/web/browser/test_pad_features.py": 12,
    "tests/web/test_web_floods.py": 12,
    "tests/web/browser/test_pad_news.py": 11,
    "tests/cafe/test_replay_play.py": 11,
    "tests/web/browser/test_display_board.py": 11,
    "tests/web/browser/test_full_game.py": 11,
    "tests/web/test_web_spoilers.py": 10,
    "tests/web/test_frame_types.py": 9,
    "tests/web/browser/test_admin_live.py": 9,
    "tests/web/test_web_hardening.py": 9,
    "tests/players/test_reviewing.py": 9,
    "tests/web/browser/test_host_seats.py": 9,
    "tests/cafe/test_outbox_slow_endpoints.py": 9,
    "tests/web/browser/test_admin_damaged.py": 8,
    "tests/web/browser/test_companions.py": 8,
    "tests/web/browser/test_pages_details.py": 8,
    "tests/cafe/test_admin_history.py": 8,
    "tests/cli/test_review.py": 8,
    "tests/web/browser/test_display_screens.py": 8,
    "tests/web/browser/test_modules.py": 8,
}
DEFAULT_S = 3
# Modules that mostly wait on a show's clock (alone, their CPU is half their wall time or less:
# paced beats, a replay at its pace, the finale's lines). Handed out one after every two other
# groups rather than together: four of them at once left the two cores idle for half a minute.
WAITING = {
    "tests/web/browser/test_replay_play.py",
    "tests/web/browser/test_show.py",
    "tests/web/browser/test_finale.py",
    "tests/web/test_web_show.py",
    "tests/web/browser/test_words.py",
    "tests/web/browser/test_deciding_words.py",
    "tests/cafe/test_webhook_live.py",
    "tests/web/browser/test_pad_sound.py",
    "tests/web/browser/test_display_walk.py",
    "tests/web/browser/test_story.py",
    "tests/web/browser/test_review_screen.py",
    "tests/web/test_web_spoilers.py",
}


def _module(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def _group(item: pytest.Item) -> str:
    """The item's ``xdist_group``: its own mark, else its module (a chaos seed: itself)."""
    mark = item.get_closest_marker("xdist_group")
    if mark is not None:
        return str(mark.args[0] if mark.args else mark.kwargs.get("name"))
    module = _module(item)
    if module.startswith(FIRMWARE):
        return FIRMWARE
    return item.nodeid if module in APART else module


@pytest.hookimpl(tryfirst=True)  # before xdist's, which reads the marks into the node ids
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Groups for ``--dist loadgroup`` (a test's own ``xdist_group`` mark wins); on xdist's
    workers, the groups longest first (the scheduler hands them out in the order collected,
    with ``--no-loadscope-reorder``)."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        if _module(item) in APART and item.get_closest_marker("timeout") is None:
            # Minutes alone, more beside other workers on two cores: the hang guard
            # (pytest-timeout, 300 s) would stop a seed that is only slow.
            item.add_marker(pytest.mark.timeout(APART_TIMEOUT_S))
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(_group(item)))
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the order it is given work
        weight: dict[str, float] = {}
        for item in items:
            group = _group(item)
            weight[group] = SECONDS.get(_module(item), DEFAULT_S)
        first = {g: k for k, g in enumerate(dict.fromkeys(_group(i) for i in items))}
        longest = sorted(weight, key=lambda g: (-weight[g], first[g]))
        rank = {g: k for k, g in enumerate(_spread(longest, WAITING))}
        items.sort(key=lambda i: rank[_group(i)])  # stable: a group's tests keep their order


def _spread(groups: list[str], waiting: set[str]) -> list[str]:
    """``groups`` (longest first) with the waiting ones each after two others, in order.

    >>> _spread(["a", "w1", "w2", "b", "c", "d", "e"], {"w1", "w2"})
    ['a', 'b', 'w1', 'c', 'd', 'w2', 'e']
    """
    busy = [g for g in groups if g not in waiting]
    idle = [g for g in groups if g in waiting]
    out: list[str] = []
    while busy or idle:
        out += busy[:2]
        del busy[:2]
        if idle:
            out.append(idle.pop(0))
    return out


# -- where the time goes ---------------------------------------------------------------------
# The seconds each folder's tests took (set-up, call and tear-down), printed at the end of every
# run: the README's figures for the suite come from CI's output of this table. Each module's
# seconds go to test-artifacts/seconds-by-module.txt (what SECONDS above is updated from).
_SECONDS: dict[str, float] = {}
_COUNT: dict[str, int] = {}
_BY_MODULE: dict[str, float] = {}


def _folder(nodeid: str) -> str:
    path = nodeid.split("::", 1)[0]
    parts = path.split("/")
    if path in APART:
        return path  # the chaos seeds on their own line
    return "/".join(parts[:3] if parts[:3] == ["tests", "web", "browser"] else parts[:2])


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    folder = _folder(report.nodeid)
    _SECONDS[folder] = _SECONDS.get(folder, 0.0) + report.duration
    module = report.nodeid.split("::", 1)[0]
    _BY_MODULE[module] = _BY_MODULE.get(module, 0.0) + report.duration
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
    artifacts = Path(__file__).resolve().parents[1] / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    (artifacts / "seconds-by-module.txt").write_text(
        "".join(
            f"{sec:8.1f}  {mod}\n" for mod, sec in sorted(_BY_MODULE.items(), key=lambda kv: -kv[1])
        )
    )
