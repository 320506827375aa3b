"""Writes the LED index map of a layout as Markdown (``hardware/LED_MAP.md`` is generated).

python -m companion.leds.ledmap > hardware/LED_MAP.md
python -m companion.leds.ledmap path/to/layout.json
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.leds.layout import DEFAULT_LAYOUT_PATH, Layout, load_layout


def ledmap_markdown(layout: Layout, source: str = "companion/leds/default_layout.json") -> str:
    """The Markdown LED map of ``layout``; ``source`` names the file it came from."""
    k = layout.leds_per_box
    lines = [
        "# LED map",
        "",
        f"Generated from `{source}` by `python -m companion.leds.ledmap`; do not edit by hand",
        "(a test checks that this file matches the layout).",
        "",
        f"Layout: {layout.name}.",
        "",
        "| part | LEDs |",
        "|---|---|",
        f"| track: {layout.boxes} boxes x {k} LEDs | {layout.track_led_count} |",
        f"| pyramid: rows of {', '.join(str(len(r)) for r in layout.pyramid)} cells "
        f"| {layout.pyramid_led_count} |",
        f"| status LEDs | {layout.status_led_count} |",
        f"| **strip length (highest index + 1)** | **{layout.led_count}** |",
        "",
        f"Brightness cap: {layout.brightness_cap:.2f} of full scale "
        f"(channel values never exceed {round(layout.brightness_cap * 255)}).",
        "",
        "Strip index 0 is the first LED after the data input (DIN). Slots inside a box are",
        f"numbered in the track direction (towards higher scores); slot {k - 1} is the box's",
        "front LED, which shows the top marker of the stack.",
        "",
        "## Track segments",
        "",
        "| segment | boxes | strip LEDs | strip runs |",
        "|---|---|---|---|",
    ]
    for n, seg in enumerate(layout.segments):
        lo = seg.start
        hi = seg.start + seg.box_count * k - 1
        way = "against the track (reversed)" if seg.reverse else "with the track"
        lines.append(f"| {n + 1} | {seg.first}-{seg.last} | {lo}-{hi} | {way} |")
    lines += [
        "",
        "## Track boxes",
        "",
        "| box | " + " | ".join(f"slot {s}" for s in range(k)) + " |",
        "|---|" + "---|" * k,
    ]
    for box, leds in enumerate(layout.box_leds):
        lines.append(f"| {box} | " + " | ".join(str(i) for i in leds) + " |")
    lines += [
        "",
        "## Pyramid",
        "",
        "Rows from the top down as the pyramid stands; cells left to right; the numbers are",
        "strip indices. Row 1 is the bottom row (5 bonus points by default, R5.4).",
        "",
        "```",
    ]
    width = max(len(r) for r in layout.pyramid)
    for r in range(len(layout.pyramid) - 1, -1, -1):
        row = layout.pyramid[r]
        pad = " " * (5 * (width - len(row)) // 2)
        lines.append(f"row {r + 1}: {pad}" + "".join(f"[{i:>3}]" for i in row))
    lines += ["```", ""]
    lines += ["| row | cell | LED |", "|---|---|---|"]
    for r, row in enumerate(layout.pyramid):
        for c, i in enumerate(row):
            lines.append(f"| {r + 1} | {c + 1} | {i} |")
    lines += ["", "## Status LEDs", ""]
    if layout.status_led_count == 0:
        lines.append("This layout has no status LEDs.")
    else:
        lines += ["| LED | shows |", "|---|---|"]
        if layout.status_mode is not None:
            lines.append(f"| {layout.status_mode} | bidding mode of the round (red, green, gold) |")
        for n, i in enumerate(layout.status_round):
            lines.append(f"| {i} | round {n + 1} |")
        for n, i in enumerate(layout.status_station):
            lines.append(f"| {i} | station {n + 1} being resolved |")
    unused = sorted(set(range(layout.led_count)) - set(layout.roles()))
    lines += ["", "## Unused LEDs", ""]
    lines.append(
        "None: every LED of the strip is used."
        if not unused
        else "Always dark: " + ", ".join(str(i) for i in unused) + "."
    )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else DEFAULT_LAYOUT_PATH
    source = str(path) if args else "companion/leds/default_layout.json"
    sys.stdout.write(ledmap_markdown(load_layout(path), source))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
