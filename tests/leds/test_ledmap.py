"""hardware/LED_MAP.md is generated from the default layout and must stay in step with it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from companion.leds.layout import layout_from_dict, load_layout
from companion.leds.ledmap import ledmap_markdown, main

from .builders import small_dict

ROOT = Path(__file__).resolve().parents[2]


def test_committed_led_map_matches_the_default_layout():
    committed = (ROOT / "hardware" / "LED_MAP.md").read_text(encoding="utf-8")
    assert committed == ledmap_markdown(load_layout()), (
        "hardware/LED_MAP.md is stale: run `python -m companion.leds.ledmap > hardware/LED_MAP.md`"
    )


def test_module_command_prints_the_map():
    out = subprocess.run(
        [sys.executable, "-m", "companion.leds.ledmap"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out == ledmap_markdown(load_layout())
    assert "| **strip length (highest index + 1)** | **208** |" in out
    assert "| 59 | 177 | 178 | 179 |" in out


def test_map_of_another_layout_names_reversed_runs_and_dark_leds(tmp_path, capsys):
    d = small_dict(status={})
    d["pyramid"] = [[40, 41], [42]]
    path = tmp_path / "b.json"
    path.write_text(json.dumps(d))
    assert main([str(path)]) == 0
    out = capsys.readouterr().out
    assert out == ledmap_markdown(layout_from_dict(d), str(path))
    assert "| 2 | 3-5 | 9-17 | against the track (reversed) |" in out
    assert "| 3 | 17 | 16 | 15 |" in out
    assert "Always dark: 18, 19," in out
    assert "This layout has no status LEDs." in out
