"""The display shows the LED board's status and, when the board is simulated, its LEDs laid
out like the real board (track boxes, pyramid rows, status lights)."""

from __future__ import annotations

from companion.leds import load_layout
from companion.tableboard import layout_summary

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
        " return b && b.connected === true && (b.pixels || []).length === n; }", arg=count)
    display.wait_for_selector("#leds-panel:not([hidden])")
    assert display.locator("#leds .led").count() == count
    # Then frames injected into the page check the drawing LED by LED.
    pixels = ["#000000"] * count
    for led in layout["track"][0]:
        pixels[led] = "#e69f00"  # box 0 lit in orange
    for led in layout["pyramid"][0]:
        pixels[led] = "#56b4e9"
    status = {"mode": "simulated", "connected": True, "detail": "simulated",
              "pixels": pixels, "layout": layout}
    display.evaluate(
        "b => { const f = structuredClone(window.__display.frame());"
        " f.board = b; f.events = []; delete f.history; window.__display.inject(f); }", status)
    display.wait_for_selector("#leds-panel:not([hidden])")
    assert display.locator("#leds .led").count() == count
    lit = display.locator("#leds .led-box").first.locator(".led")
    assert lit.count() == len(layout["track"][0])
    colour = lit.first.evaluate("e => getComputedStyle(e).backgroundColor")
    assert colour == "rgb(230, 159, 0)"
    assert "simulated" in display.locator("#board-status").inner_text()
    display.screenshot(path=str(artifacts / "display-leds.png"))

    # A serial board that is unplugged: status says so, and no simulated LEDs are drawn.
    display.evaluate(
        "() => { const f = structuredClone(window.__display.frame());"
        " f.board = {mode: 'serial', connected: false, detail: 'unplugged'};"
        " f.events = []; window.__display.inject(f); }")
    display.wait_for_selector("#leds-panel[hidden]", state="attached")
    assert display.locator("#board-status").get_attribute("data-state") == "disconnected"
