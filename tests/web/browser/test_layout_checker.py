"""The layout checker (layout.py) can fail: a phone's page wider than its screen is found.

A phone's browser zooms out to a page wider than the screen, and then its ``innerWidth`` is the
page's width: measured against it, no phone page ever scrolled sideways, while the bonus-dice
tables of a long name went 25 px off a 390 px screen and the host page was 391 px wide at 360.
"""

from __future__ import annotations

from typing import Any

from tests.web.browser.conftest import PHONE
from tests.web.browser.layout import check

PAGE = """<!doctype html><html><head>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0;font-size:18px"><p>{}</p></body></html>"""


def test_a_phone_page_wider_than_the_screen_is_found(browser: Any) -> None:
    page = browser.new_context(**PHONE).new_page()
    page.set_content(PAGE.format("A line that fits."))
    assert check(page, "phone") == []
    page.set_content(PAGE.format('<span style="display:inline-block;width:430px">wide</span>'))
    assert page.evaluate("window.innerWidth") > PHONE["viewport"]["width"]  # zoomed out
    problems = check(page, "phone")
    assert any("page scrolls sideways" in p and "in 390px" in p for p in problems), problems


TABLE = """<!doctype html><html><head>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0;font-size:18px"><table style="width:300px;table-layout:fixed">
<tr><td>{}</td><td>7</td><td>12</td></tr></table></body></html>"""


def test_text_running_into_the_next_cell_is_found(browser: Any) -> None:
    """A cell draws what does not fit over its neighbour (cells do not clip): a name too
    long for its column covers the figures beside it, and the page never gets wider."""
    page = browser.new_context(**PHONE).new_page()
    page.set_content(TABLE.format("Ana"))
    assert check(page, "phone") == []
    page.set_content(TABLE.format("Maximilianealexandra"))
    problems = check(page, "phone")
    assert any("runs out of its cell" in p and "Maximilianealexandra" in p for p in problems), (
        problems
    )


COLUMNS = """<!doctype html><html><head>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0;font-size:18px"><div style="display:flex;gap:8px">
<p style="width:150px;margin:0">{}</p><p style="margin:0">beside</p></div>
<h2 style="position:absolute;width:1px;height:1px;overflow:visible;clip-path:inset(50%);
white-space:nowrap">A heading for screen readers only</h2></body></html>"""


def test_a_word_drawn_past_its_box_is_found(browser: Any) -> None:
    """A box narrower than its longest word draws the word over its neighbour, whatever the
    box is (here a paragraph in a row); a heading clipped away for screen readers is not."""
    page = browser.new_context(**PHONE).new_page()
    page.set_content(COLUMNS.format("Ana Lucía"))
    assert check(page, "phone") == []
    page.set_content(COLUMNS.format("Konstantinopelüberallxyz"))
    problems = check(page, "phone")
    assert any("past its edge" in p and "Konstantinopel" in p for p in problems), problems
    assert not any("screen readers" in p for p in problems), problems
