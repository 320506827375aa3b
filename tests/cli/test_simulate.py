"""`companion simulate`: random legal games end, and the report says what it measured."""

from __future__ import annotations

import re
import subprocess
import sys


def run_simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", "simulate", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_simulate_reports_speed_rounds_endings_and_scores() -> None:
    result = run_simulate("--games", "40", "--players", "5", "--seed", "7")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "games: 40 with 5 players, seed 7" in out
    assert re.search(r"speed: [\d,]+ games/s", out)
    rounds = dict(
        map(int, pair.split(": "))
        for pair in re.search(r"rounds played: (.*)", out).group(1).split(", ")
    )
    assert sum(rounds.values()) == 40
    assert all(1 <= r <= 7 for r in rounds)  # R2.1: never more than max_rounds
    endings = re.search(r"ended because: (.*)", out).group(1)
    counts = [int(n) for n in re.findall(r": (\d+)", endings)]
    assert sum(counts) == 40
    assert set(re.findall(r"(\w+): \d+", endings)) <= {
        "end_score",
        "pyramid_full",
        "cubes",
        "max_rounds",
    }
    scores = re.search(r"final scores: min (-?\d+), quartiles .*, max (-?\d+)", out)
    assert int(scores.group(1)) <= int(scores.group(2))


def test_simulate_is_reproducible_by_seed() -> None:
    first = run_simulate("--games", "15", "--players", "3", "--seed", "3").stdout
    again = run_simulate("--games", "15", "--players", "3", "--seed", "3").stdout
    strip = re.compile(r"speed: .*\n")
    assert strip.sub("", first) == strip.sub("", again)


def test_simulate_refuses_a_bad_player_count() -> None:
    result = run_simulate("--games", "1", "--players", "6")
    assert result.returncode == 2
    assert "--players" in result.stderr
