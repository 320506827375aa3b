"""`companion review FILE`: an arena log reviewed in a subprocess, as JSON and as text."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]
LOG = ROOT / "tests/players/logs/arena-3p-1.json"


def companion(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )


def test_review_json_has_the_documented_shape_and_repeats_by_seed() -> None:
    run = companion("review", str(LOG), "--json", "--budget", "1", "--seed", "4")
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    log = json.loads(LOG.read_text())
    assert set(doc["players"]) == set(log["players"])
    assert doc["seed"] == 4 and doc["lang"] == "en" and doc["playouts"] >= 1
    for p, pr in doc["players"].items():
        assert pr["kind"] == log["meta"]["seats"][p]
        assert isinstance(pr["decisions"], int) and pr["decisions"] > 0
        assert isinstance(pr["mean_loss"], float) and pr["mean_loss"] >= 0
        for w in pr["worst"]:
            assert {"round", "station", "made", "better", "loss", "reason"} <= set(w)
            assert w["player"] == p and w["made"] != w["better"]
    again = companion("review", str(LOG), "--json", "--budget", "1", "--seed", "4")
    assert again.stdout == run.stdout


def test_review_speaks_the_chosen_language() -> None:
    english = json.loads(companion("review", str(LOG), "--json", "--budget", "1").stdout)
    german = companion("review", str(LOG), "--json", "--budget", "1", "--lang", "de")
    assert german.returncode == 0, german.stderr
    german_doc = json.loads(german.stdout)
    pairs = [
        (e["reason"], g["reason"])
        for e, g in zip(english["decisions"], german_doc["decisions"], strict=True)
        if e["label"] != "good"
    ]
    assert pairs and all(en != de for en, de in pairs)
    assert [d["reason_key"] for d in english["decisions"]] == [
        d["reason_key"] for d in german_doc["decisions"]
    ]


def test_review_text_names_every_player_and_their_costliest_decisions() -> None:
    run = companion("review", str(LOG), "--budget", "1", "--lang", "it")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    for p, kind in json.loads(LOG.read_text())["meta"]["seats"].items():
        assert f"{p} ({kind}): " in out
    assert "mean loss" in out and "round " in out


def test_review_refuses_bad_input_with_the_reason(tmp_path: Path) -> None:
    missing = companion("review", str(tmp_path / "none.json"))
    assert missing.returncode == 1 and "cannot read" in missing.stderr
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    run = companion("review", str(garbage))
    assert run.returncode == 1 and "not JSON" in run.stderr and run.stdout == ""
    refused = tmp_path / "refused.json"
    doc = json.loads(LOG.read_text())
    doc["commands"][3] = {"type": "harvest", "dice": [7, 1, 1]}
    refused.write_text(json.dumps(doc))
    run = companion("review", str(refused))
    assert run.returncode == 1 and "command 3" in run.stderr
    budget = companion("review", str(LOG), "--budget", "0")
    assert budget.returncode == 1 and "budget" in budget.stderr
    lang = companion("review", str(LOG), "--lang", "fr")
    assert lang.returncode == 2 and "fr" in lang.stderr
