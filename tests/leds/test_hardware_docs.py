"""The maker's documents agree with the layout, the power estimate and each other."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.leds.layout import load_layout
from companion.leds.power import LIMITER_BUDGET_MA, worst_case_ma

HW = Path(__file__).resolve().parents[2] / "hardware"
SVG = "{http://www.w3.org/2000/svg}"


def text(name: str) -> str:
    return (HW / name).read_text(encoding="utf-8")


def svg_labels() -> str:
    root = ET.parse(HW / "wiring.svg").getroot()
    assert root.tag == f"{SVG}svg"
    return " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))


def test_wiring_diagram_shows_every_part_of_the_chain():
    labels = svg_labels()
    for must in (
        "Raspberry Pi Pico",
        "SC0915",
        "GP0 (pin 1)",
        "74AHCT125",
        "1: 1OE",
        "14: VCC",
        "R1 330 Ω",
        "R2",
        "10 kΩ",
        "C1 1000 µF",
        "F1 6.3 A",
        "DIN",
        "power injection",
        "common ground",
        "Raspberry Pi",
        "USB",
    ):
        assert must in labels, must


def test_wiring_diagram_piece_ranges_match_the_layout():
    layout = load_layout()
    labels = svg_labels()
    k = layout.leds_per_box
    for seg in layout.segments:
        lo, hi = seg.start, seg.start + seg.box_count * k - 1
        assert f"LEDs {lo}–{hi}" in labels
    pyr = sorted(i for row in layout.pyramid for i in row)
    assert f"LEDs {pyr[0]}–{pyr[-1]}" in labels
    assert f"{layout.led_count} WS2812B LEDs" in labels


def test_power_figures_are_the_computed_ones():
    layout = load_layout()
    power = text("POWER.md")
    assert f"**{worst_case_ma(layout.led_count) / 1000:.2f} A**" in power
    assert f"**{worst_case_ma(layout.led_count, layout.brightness_cap) / 1000:.2f} A**" in power
    assert f"**{LIMITER_BUDGET_MA} mA**" in power
    assert f"brightness cap {layout.brightness_cap}" in power


def test_bom_and_readme_use_the_layout_counts():
    layout = load_layout()
    bom, readme = text("BOM.md"), text("README.md")
    assert f"**{layout.led_count} WS2812B LEDs**" in bom
    for part in (
        "SC0915",
        "SN74AHCT125N",
        "1000 µF",
        "330 Ω",
        "10 kΩ",
        "GST60A05",
        "6.3 A slow-blow",
        "MicroPython v1.28.0",
    ):
        assert part in bom, part
    assert f"**{layout.led_count} LEDs**" in readme
    assert f"brightness cap of {layout.brightness_cap}" in readme


def test_pin_map_names_the_data_pins():
    pins = text("PINMAP.md")
    assert "**GP0**" in pins and "**GPIO 13**" in pins
    assert "U1 pin 2 (1A)" in pins or "U1 74AHCT125 pin 2 (1A)" in pins
    # the strip is bit-banged by machine.bitstream (not PIO) and 1A has a pull-down
    assert "machine.bitstream" in pins and "R2 10 kΩ" in pins


@pytest.mark.parametrize("name", ["README.md", "BOM.md", "PINMAP.md", "POWER.md", "ASSEMBLY.md"])
def test_local_links_resolve(name):
    for target in re.findall(r"\]\(([^)#:]+)\)", text(name)):
        assert (HW / target).exists(), f"{name} links to missing {target}"
