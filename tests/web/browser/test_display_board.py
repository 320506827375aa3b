"""The display shows the LED board's status and, when the board is simulated, its LEDs laid
out like the real board (track boxes, pyramid rows, status lights)."""

from __future__ import annotations

from companion.board.follow import layout_summary
from companion.leds import load_layout

DISPLAY = {"viewport": {"width": 1920, "height": 1080}}


def test_simulated_board_is_drawn_led_by_led(server, browser, artifacts):
    display = browser.new_context(**DISPLAY).new_page()
    display.goto(f"{server.base}/t/1/")
    display.wait_for_function("window.__display && window.__display.frame()")
    layout = layout_summary(load_layout())
    count = layout["led_count"]
    # The server's own simulated board comes up first (its status settles once the link has
    # shaken hands); its LEDs are drawn from the real frames.
    display.wait_for_function(
        "n => { const b = window.__display.frame()?.board;"
        " return b && b.connected === true && (b.pixels || []).length === n; }",
        arg=count,
    )
    display.wait_for_selector("#leds-panel:not([hidden])")
    assert display.locator("#leds .led").count() == count
    # Then a frame injected into the page checks the drawing LED by LED. The real board keeps
    # sending frames, so injecting and reading happen in one synchronous script: no frame can
    # arrive in between (rendering is synchronous).
    pixels = ["#000000"] * count
    for led in layout["track"][0]:
        pixels[led] = "#e69f00"  # box 0 lit in orange
    for led in layout["pyramid"][0]:
        pixels[led] = "#56b4e9"
    status = {
        "mode": "simulated",
        "connected": True,
        "detail": "simulated",
        "pixels": pixels,
        "layout": layout,
    }
    drawn = display.evaluate(
        """b => { const f = structuredClone(window.__display.frame());
          f.board = b; f.events = []; delete f.history; window.__display.inject(f);
          const box = document.querySelector('#leds .led-box');
          return { hidden: document.getElementById('leds-panel').hidden,
                   count: document.querySelectorAll('#leds .led').length,
                   box: [...box.querySelectorAll('.led')].map(
                     e => getComputedStyle(e).backgroundColor),
                   colours: Object.fromEntries([...document.querySelectorAll('#leds .led')].map(
                     e => [e.dataset.led, getComputedStyle(e).backgroundColor])),
                   status: document.getElementById('board-status').innerText }; }""",
        status,
    )
    assert not drawn["hidden"]
    assert drawn["count"] == count
    assert drawn["box"] == ["rgb(230, 159, 0)"] * len(layout["track"][0])
    for led in layout["pyramid"][0]:
        assert drawn["colours"][str(led)] == "rgb(86, 180, 233)"
    dark = set(range(count)) - set(layout["track"][0]) - set(layout["pyramid"][0])
    assert {drawn["colours"][str(i)] for i in dark} == {"rgb(0, 0, 0)"}
    assert "simulated" in drawn["status"]
    display.screenshot(path=str(artifacts / "display-leds.png"))

    # A serial board that is unplugged: status says so, and no simulated LEDs are drawn.
    unplugged = display.evaluate(
        "() => { const f = structuredClone(window.__display.frame());"
        " f.board = {mode: 'serial', connected: false, detail: 'unplugged'};"
        " f.events = []; window.__display.inject(f);"
        " return { hidden: document.getElementById('leds-panel').hidden,"
        "          state: document.getElementById('board-status').dataset.state }; }"
    )
    assert unplugged == {"hidden": True, "state": "disconnected"}
