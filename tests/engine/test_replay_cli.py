"""The ``companion replay`` contract (SCENARIO.md "replay command"), run in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
STATE_KEYS = {
    "round",
    "mode",
    "last_round",
    "finished",
    "pending",
    "chocolatl",
    "old_man",
    "players",
    "track",
    "pyramid",
    "winners",
}
PLAYER_KEYS = {"score", "deck", "huts", "dice", "cubes_used", "sacrifice", "final"}
FINAL_KEYS = {
    "track",
    "stones",
    "pyramid_majority",
    "chocolatl",
    "old_man",
    "sacrifice",
    "sacrifice_bonus",
    "die",
    "total",
}


def replay(*files: Path | str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", "replay", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


def load(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / name).read_text(encoding="utf-8"))


def prefix(tmp_path: Path, name: str, n: int) -> Path:
    """The scenario ``name`` cut after its first ``n`` commands, as a new file."""
    document = load(name)
    document["commands"] = document["commands"][:n]
    path = tmp_path / f"{Path(name).stem}-{n}.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_one_file_prints_one_json_state_and_exits_0() -> None:
    """One JSON object on one line; every documented key with its documented meaning."""
    run = replay(SCENARIOS / "red_one_round.json")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 1 and run.stdout.endswith("\n")
    state = json.loads(lines[0])
    assert STATE_KEYS <= set(state)
    assert set(state["players"]) == {"ana", "ben", "cleo"}
    for ps in state["players"].values():
        assert PLAYER_KEYS <= set(ps)
        assert set(ps["final"]) == FINAL_KEYS
        assert ps["final"]["total"] == sum(v for k, v in ps["final"].items() if k != "total")
    # The hand-worked end of tests/engine/test_worked_games.py (red game).
    assert state["finished"] is True and state["pending"] == []
    assert state["winners"] == ["ana"]
    assert {p: ps["final"]["total"] for p, ps in state["players"].items()} == {
        "ana": 22,
        "ben": 20,
        "cleo": 21,
    }
    assert state["track"] == {"0": ["ana"], "13": ["ben"], "20": ["cleo"]}
    assert [len(row) for row in state["pyramid"]] == [5, 4, 3, 2]
    assert state["pyramid"][0] == ["ana", "ben", None, None, None]
    assert {p: ps["sacrifice"] for p, ps in state["players"].items()} == {
        "ana": 12,
        "ben": 6,
        "cleo": 1,
    }


def test_several_files_print_one_line_each_in_order() -> None:
    names = ["green_one_round.json", "red_one_round.json", "gold_two_rounds.json"]
    run = replay(*(SCENARIOS / n for n in names))
    assert run.returncode == 0, run.stderr
    states = [json.loads(line) for line in run.stdout.splitlines()]
    assert [s["mode"] for s in states] == ["green", "red", "gold"]
    assert [s["winners"] for s in states] == [["dev"], ["ana"], ["ana"]]
    assert [len(s["players"]) for s in states] == [4, 3, 3]


def test_refused_command_exits_1_naming_file_index_and_reason(tmp_path: Path) -> None:
    document = load("red_one_round.json")
    document["commands"].insert(4, {"type": "bid", "player": "ana", "bids": {"1": [13, 0]}})
    bad = tmp_path / "bad-game.json"
    bad.write_text(json.dumps(document), encoding="utf-8")
    run = replay(bad)
    assert run.returncode == 1
    assert "bad-game.json" in run.stderr
    assert "command 4" in run.stderr
    assert "six stations" in run.stderr  # the reason itself
    assert "Traceback" not in run.stderr
    # A good file next to a bad one: still exit 1, and only the bad file is named.
    run = replay(SCENARIOS / "red_one_round.json", bad)
    assert run.returncode == 1
    assert "bad-game.json" in run.stderr and "red_one_round" not in run.stderr


def test_card_not_in_deck_reason_reaches_stderr(tmp_path: Path) -> None:
    document = load("red_one_round.json")
    bid = document["commands"][4]
    bid["bids"]["1"] = [12, 10]  # ana sacrificed her 12
    path = tmp_path / "sacrificed-card.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    run = replay(path)
    assert run.returncode == 1
    assert "command 4" in run.stderr and "card 12 is not in your deck" in run.stderr


def test_unreadable_documents_exit_1_with_a_reason(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    two = tmp_path / "two-players.json"
    two.write_text(json.dumps({"players": ["ana", "ben"], "commands": []}), encoding="utf-8")
    for path, words in (
        (broken, "broken.json"),
        (two, "3 to 5 players"),
        (tmp_path / "missing.json", "missing.json"),
    ):
        run = replay(path)
        assert run.returncode == 1, path
        assert words in run.stderr, run.stderr
        assert "Traceback" not in run.stderr
        assert run.stdout == ""


def test_state_meaning_along_a_game(tmp_path: Path) -> None:
    """Round 0 and mode null before round 1; host inputs pending without player; old man null
    from the start of a round until station 1; decks sorted; stacks bottom to top; final null
    and no winners before the end; secrets included (a host tool)."""
    files = [
        prefix(tmp_path, "gold_two_rounds.json", 0),  # nothing played
        prefix(tmp_path, "gold_two_rounds.json", 3),  # all sacrifices made
        prefix(tmp_path, "gold_two_rounds.json", 27),  # round 2 started, awaiting its dice
        prefix(tmp_path, "gold_two_rounds.json", 30),  # two of three station-1 bids given
        prefix(tmp_path, "gold_two_rounds.json", 31),  # round 2 station 1 played
        prefix(tmp_path, "red_one_round.json", 8),  # red round, station 4 dice window
    ]
    run = replay(*files)
    assert run.returncode == 0, run.stderr
    s0, s3, s27, s30, s31, red8 = (json.loads(line) for line in run.stdout.splitlines())

    assert s0["round"] == 0 and s0["mode"] is None
    assert s0["pending"] == [{"type": "sacrifice", "player": p} for p in ("ana", "ben", "cleo")]
    assert s0["track"] == {"0": ["cleo", "ana", "ben"]}
    assert all(
        ps["deck"] == list(range(13)) and ps["sacrifice"] is None for ps in s0["players"].values()
    )
    assert s0["pyramid"] == [[None] * 5, [None] * 4, [None] * 3, [None] * 2]

    assert s3["round"] == 1 and s3["mode"] == "gold"
    assert s3["pending"] == [{"type": "harvest"}, {"type": "improvements"}]
    assert s3["players"]["ana"]["deck"] == [0, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    assert s3["players"]["ben"]["sacrifice"] == 7  # the whole state, secrets included

    assert s27["round"] == 2 and s27["old_man"] is None and s27["chocolatl"] == "ben"
    assert s27["players"]["ana"]["deck"] == [1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14]
    assert s27["players"]["cleo"]["deck"] == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11, 12]
    assert s27["pending"] == [{"type": "harvest"}]  # last possible round: no cards laid
    assert s27["last_round"] is True and s27["finished"] is False
    assert s27["winners"] == [] and all(ps["final"] is None for ps in s27["players"].values())

    assert s30["pending"] == [{"type": "bid", "player": "cleo"}]
    assert s30["old_man"] is None and s30["chocolatl"] == "ben"
    assert s31["old_man"] == "ben" and s31["chocolatl"] == "ana"

    assert red8["track"] == {"2": ["ana"], "6": ["cleo", "ben"]}  # ben landed on cleo
    assert red8["pending"] == [{"type": "dice", "player": "ana"}]
    assert red8["players"]["ana"]["dice"] == 1 and red8["players"]["cleo"]["huts"] == 1
