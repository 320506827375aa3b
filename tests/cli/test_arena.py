"""`companion arena` and the game logs it writes (SCENARIO.md `meta`), replayed by
`companion replay` in a subprocess."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]


def companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )


def rows(out: str) -> dict[str, list[str]]:
    table = {}
    for line in out.splitlines():
        m = re.match(r"(random|plain|good|strong)\s+(.*)", line)
        if m:
            table[m.group(1)] = m.group(2).split()
    return table


def test_arena_reports_and_logs_replay(tmp_path: Path) -> None:
    run = companion(
        "arena",
        "--players",
        "good,random,plain",
        "--games",
        "6",
        "--seed",
        "3",
        "--logs",
        str(tmp_path),
    )
    assert run.returncode == 0, run.stderr
    table = rows(run.stdout)
    assert set(table) == {"good", "random", "plain"}
    shares = [float(r[1].rstrip("%")) for r in table.values()]
    assert abs(sum(shares) - 100.0) < 0.5  # shared wins are split, every game has a winner
    for r in table.values():
        low, high = (float(x.rstrip("%")) for x in r[2].split("-"))
        assert low <= float(r[1].rstrip("%")) <= high
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 6
    seatings = set()
    for f in files:
        doc = json.loads(f.read_text())
        assert set(doc) == {"players", "stack", "meta", "commands"}
        seats = doc["meta"]["seats"]
        assert sorted(seats) == sorted(doc["players"])
        assert sorted(seats.values()) == ["good", "plain", "random"]
        seatings.add(tuple(seats[p] for p in doc["players"]))
    assert len(seatings) == 3  # seating rotates: every kind sits in every seat
    replayed = companion("replay", *map(str, files))
    assert replayed.returncode == 0, replayed.stderr
    states = [json.loads(line) for line in replayed.stdout.splitlines()]
    assert len(states) == 6 and all(s["finished"] and s["winners"] for s in states)
    # The report's win shares are those of the logged games.
    wins = {"good": 0.0, "random": 0.0, "plain": 0.0}
    for f, s in zip(files, states, strict=True):
        seats = json.loads(f.read_text())["meta"]["seats"]
        for w in s["winners"]:
            wins[seats[w]] += 1 / len(s["winners"])
    for kind, r in table.items():
        assert abs(float(r[1].rstrip("%")) - 100 * wins[kind] / 6) < 0.1


def test_arena_is_reproducible_by_seed() -> None:
    first = companion(
        "arena", "--players", "good,random,random,random", "--games", "5", "--seed", "9"
    )
    again = companion(
        "arena", "--players", "good,random,random,random", "--games", "5", "--seed", "9"
    )

    def strip(out: str) -> list[list[str]]:
        return [r[:4] for r in rows(out).values()]  # times differ, results do not

    assert first.returncode == 0 and strip(first.stdout) == strip(again.stdout)


def test_arena_refuses_bad_players() -> None:
    for players, words in (("good,random", "3 to 5"), ("good,random,wizard", "wizard")):
        run = companion("arena", "--players", players, "--games", "1")
        assert run.returncode != 0
        assert words in run.stderr


def test_replay_accepts_meta_and_refuses_other_unknown_keys(tmp_path: Path) -> None:
    """SCENARIO.md "Document": `meta` is ignored, any other unknown top-level key refused."""
    base = json.loads((ROOT / "tests/scenarios/red_one_round.json").read_text())
    with_meta = tmp_path / "meta.json"
    with_meta.write_text(json.dumps(base | {"meta": {"seats": {"ana": "strong"}}}))
    plain = companion("replay", str(ROOT / "tests/scenarios/red_one_round.json"))
    run = companion("replay", str(with_meta))
    assert run.returncode == 0, run.stderr
    assert run.stdout == plain.stdout
    for key, value in (("profil", {}), ("meta", ["not", "an", "object"])):
        bad = tmp_path / f"bad-{key}.json"
        bad.write_text(json.dumps(base | {key: value}))
        run = companion("replay", str(bad))
        assert run.returncode == 1
        assert str(bad) in run.stderr and key in run.stderr
        assert run.stdout == ""
