"""A layout checker for the pages, run inside the page: what a person would notice at once.

``check(page, kind)`` returns a list of problems (empty when the screen is fine):

- the page scrolls sideways (phones and display), or at all (display);
- a panel or any box that clips or scrolls its content (``overflow`` other than visible with
  more content than room), e.g. a ranking cut off or a name cut to "Bernh";
- something visible lies outside the screen (the display must show everything at once);
- running text below the minimum size (20 px on a 1920 px wide display, scaled with the width;
  14 px on phones);
- a tap target (button, link, input, select, colour option) smaller than 44 × 44 px on phones;
- on the display: an element cut by a box that clips it (named, beside the box itself);
  items of the top bar (badges, countdown, controls, status) over one another; panels over
  one another; an empty box (a visible panel that shows nothing but its headings).

Elements can opt out with ``data-layout-skip`` (e.g. screen-reader-only labels).
``sweep(page, kind, sizes, shoot)`` resizes one page through several sizes and checks each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from playwright.sync_api import Page

DISPLAY_SIZES = ((1920, 1080), (1280, 720))
PHONE_SIZES = ((390, 844), (360, 740))

_CHECK_JS = (Path(__file__).with_name("layout_check.js")).read_text(encoding="utf-8")


def limits(kind: str, width: int) -> dict[str, float]:
    """Minimum text size and tap size for a page kind at a viewport width."""
    if kind == "display":
        return {"minText": 20 * width / 1920, "minTap": 0}
    return {"minText": 14, "minTap": 44}


def check(page: Page, kind: str) -> list[str]:
    """Problems of the screen as it is now (``kind`` is "display" or "phone")."""
    width = page.viewport_size["width"] if page.viewport_size else 1920
    return page.evaluate(_CHECK_JS, {"kind": kind, "width": width, **limits(kind, width)})


def settle(page: Page) -> None:
    """Wait until layout has caught up with a resize (two animation frames)."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def sweep(
    page: Page,
    kind: str,
    label: str,
    sizes: Iterable[tuple[int, int]] | None = None,
    shots: Path | None = None,
    rerender: Callable[[Page], None] | None = None,
    also: Callable[[Page], list[str]] | None = None,
) -> list[str]:
    """Check one screen at every size by resizing the page; returns the problems, each
    prefixed with the screen and the size. Screenshots go to ``shots`` when given; ``also``
    adds a caller's own checks at each size (one resize serves them all)."""
    sizes = tuple(sizes or (DISPLAY_SIZES if kind == "display" else PHONE_SIZES))
    original = page.viewport_size
    problems: list[str] = []
    for w, hgt in sizes:
        page.set_viewport_size({"width": w, "height": hgt})
        if rerender:
            rerender(page)
        settle(page)
        found = check(page, kind) + (also(page) if also else [])
        problems += [f"{label} @{w}x{hgt}: {p}" for p in found]
        if shots is not None:
            page.screenshot(path=str(shots / f"{label}-{w}x{hgt}.png"), full_page=kind != "display")
    if original:
        page.set_viewport_size(original)
        if rerender:
            rerender(page)
    return problems


# The LED board drawing: every track LED's diameter and the height of the box numbers' digits
# as drawn (their ink, measured in the numbers' own font).
_LED_MARKERS_JS = """() => {
  const no = document.querySelector('#leds .led-box-no');
  const leds = [...document.querySelectorAll('#leds .led-box .led')];
  if (!no || !leds.length || !no.checkVisibility()) return null;
  const s = getComputedStyle(no);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
  const m = ctx.measureText('0123456789');
  const sizes = leds.map((e) => {
    const r = e.getBoundingClientRect();
    return Math.min(r.width, r.height);
  });
  const digits = m.actualBoundingBoxAscent + m.actualBoundingBoxDescent;
  return {digits, smallest: Math.min(...sizes)};
}"""


def led_marker_problems(page: Page) -> list[str]:
    """The drawn LED board's score markers are at least as large as the digits of the box
    numbers beside them (nothing when no board is drawn)."""
    got = page.evaluate(_LED_MARKERS_JS)
    if got is None or got["smallest"] >= got["digits"] - 0.5:
        return []
    return [f"LED markers {got['smallest']:.1f}px < box number digits {got['digits']:.1f}px"]


# A name broken inside a word: two letters of one word on different lines (a break after a
# space, a hyphen or a soft hyphen, which the browser draws as a hyphen there, is a word
# boundary).
_MID_WORD = """(selector) => {
  const bad = [];
  for (const el of document.querySelectorAll(selector)) {
    const text = el.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) continue;
    const s = text.textContent;
    let top = null;
    for (let i = 0; i < s.length; i += 1) {
      const r = document.createRange();
      r.setStart(text, i);
      r.setEnd(text, i + 1);
      // The character's own box: its last (right after a soft hyphen's break the range also
      // holds the hyphen drawn at the end of the line before).
      const rect = [...r.getClientRects()].filter((x) => x.width > 0).pop();
      if (!rect) continue;
      const boundary = /[\\s\\-\\u00ad]/.test(s[i - 1]);
      if (top !== null && rect.top > top + 2 && !boundary) bad.push(`${s} @ ${i}`);
      top = rect.top;
    }
  }
  return bad;
}"""


def mid_word_breaks(page: Page, selector: str) -> list[str]:
    """The texts of ``selector`` (names) that the page breaks inside a word."""
    return list(page.evaluate(_MID_WORD, selector))
