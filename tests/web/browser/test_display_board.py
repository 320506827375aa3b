"""The display shows the LED board's status and, when the board is simulated, its LEDs laid
out like the real board: the score track around the board (four sides of 15 boxes, numbers
every five), the pyramid rows, and the status lights with their labels; the host can hide it."""

from __future__ import annotations

from typing import Any

from live_server import Host

from companion.board.follow import layout_summary
from companion.leds import load_layout
from tests.web.browser.layout import DISPLAY_SIZES, check, led_marker_problems, settle

DISPLAY = {"viewport": {"width": 1920, "height": 1080}}

# Where every box, its number and the status lights are drawn (page coordinates).
GEOMETRY = """() => {
  const rect = (e) => { const r = e.getBoundingClientRect();
    return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const board = document.querySelector('#leds .led-board');
  return {
    board: rect(board),
    boxes: [...document.querySelectorAll('#leds .led-box')].map(
      e => ({box: Number(e.dataset.box), ...rect(e)})),
    numbers: [...document.querySelectorAll('#leds .led-box-no')].map(e => ({
      box: Number(e.dataset.boxNo), text: e.textContent, ...rect(e),
      size: parseFloat(getComputedStyle(e).fontSize), visible: e.checkVisibility()})),
    labels: Object.fromEntries([...document.querySelectorAll('#leds .led-status-row')].map(
      e => [e.dataset.status, {label: e.querySelector('.led-label').textContent,
        numbers: [...e.querySelectorAll('.led-no')].map(n => n.textContent),
        leds: e.querySelectorAll('.led').length}])),
    pyramid: document.querySelector('#leds .led-pyramid .led-label')?.textContent,
  };
}"""


def board_problems(g: dict[str, Any], boxes: int, min_text: float) -> list[str]:
    """What is wrong with the drawn track: every box on the board's edge, side by side in
    play order (box 0 top left, clockwise), a readable number on every fifth box."""
    out = []
    b = g["board"]
    drawn = sorted(g["boxes"], key=lambda x: x["box"])
    if [x["box"] for x in drawn] != list(range(boxes)):
        out.append(f"boxes drawn: {[x['box'] for x in drawn]}")
        return out
    # A box is narrow along its side and deep towards the centre; corner boxes are square.
    cell = min(drawn[1]["w"], drawn[1]["h"])
    tol = cell / 4
    for x in drawn:
        on_edge = (
            abs(x["x"] - b["x"]) < tol
            or abs(x["y"] - b["y"]) < tol
            or abs(x["x"] + x["w"] - b["x"] - b["w"]) < tol
            or abs(x["y"] + x["h"] - b["y"] - b["h"]) < tol
        )
        if not on_edge:
            out.append(f"box {x['box']} is not on the board's edge")
    for a, c in zip(drawn, drawn[1:], strict=False):
        # Neighbours touch: edge to edge, side by side along the board's edge.
        gap_x = max(a["x"] - c["x"] - c["w"], c["x"] - a["x"] - a["w"], 0)
        gap_y = max(a["y"] - c["y"] - c["h"], c["y"] - a["y"] - a["h"], 0)
        along_x = min(a["x"] + a["w"], c["x"] + c["w"]) - max(a["x"], c["x"])
        along_y = min(a["y"] + a["h"], c["y"] + c["h"]) - max(a["y"], c["y"])
        if max(gap_x, gap_y) > 2 or max(along_x, along_y) < cell * 0.8:
            out.append(f"boxes {a['box']} and {c['box']} are not neighbours")
    if abs(drawn[0]["x"] - b["x"]) > tol or abs(drawn[0]["y"] - b["y"]) > tol:
        out.append("box 0 is not in the top left corner")
    numbers = {n["box"]: n for n in g["numbers"]}
    if sorted(numbers) != list(range(0, boxes, 5)):
        out.append(f"numbered boxes: {sorted(numbers)}")
    for n in numbers.values():
        box = drawn[n["box"]]
        # Beside its box: the gap between the number and the box at most one box's width.
        near = max(
            n["x"] - box["x"] - box["w"],
            box["x"] - n["x"] - n["w"],
            n["y"] - box["y"] - box["h"],
            box["y"] - n["y"] - n["h"],
            0,
        )
        if n["text"] != str(n["box"]) or not n["visible"]:
            out.append(f"box {n['box']}: number {n['text']!r} visible={n['visible']}")
        if n["size"] < min_text - 0.05:  # the layout checker's margin
            out.append(f"box {n['box']}: number of {n['size']:.1f} px < {min_text:.1f} px")
        if near > cell:
            out.append(f"box {n['box']}: its number is {near:.0f} px away")
    return out


def test_simulated_board_is_drawn_led_by_led(server, browser, artifacts):
    display = browser.new_context(**DISPLAY).new_page()
    display.goto(f"{server.base}/t/1/")
    display.wait_for_function("window.__display?.frame()")
    layout = layout_summary(load_layout())
    count = layout["led_count"]
    # The server's own simulated board comes up first (its status settles once the link has
    # shaken hands); its LEDs are drawn from the real frames.
    display.wait_for_function(
        "n => { const b = window.__display?.frame()?.board;"
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
    # A board frame (the status alone, PROTOCOL.md 3.4: the server sends one per picture)
    # recolours the lights that changed, on the same elements, and leaves the view as it was.
    lit = list(pixels)
    for led in layout["track"][1]:
        lit[led] = "#009e73"  # box 1 lit in green
    after = display.evaluate(
        """b => { const before = [...document.querySelectorAll('#leds .led')];
          before.forEach((e) => { e.__kept = true; });
          const f = window.__display.frame();
          window.__display.inject({type: 'board', board: b});
          const now = [...document.querySelectorAll('#leds .led')];
          return { kept: now.length === before.length && now.every((e) => e.__kept),
                   view: window.__display.frame() === f && f.board === b,
                   colours: Object.fromEntries(now.map(
                     e => [e.dataset.led, getComputedStyle(e).backgroundColor])) }; }""",
        {**status, "pixels": lit},
    )
    assert after["kept"] and after["view"], after["kept"]
    assert {after["colours"][str(i)] for i in layout["track"][1]} == {"rgb(0, 158, 115)"}
    assert {after["colours"][str(i)] for i in layout["track"][0]} == {"rgb(230, 159, 0)"}
    display.screenshot(path=str(artifacts / "display-leds.png"))

    # Laid out as the physical board, readable at both TV sizes, with labelled status lights.
    for width, height in DISPLAY_SIZES:
        display.set_viewport_size({"width": width, "height": height})
        settle(display)
        g = display.evaluate(GEOMETRY)
        assert board_problems(g, len(layout["track"]), 20 * width / 1920) == []
        assert g["labels"]["mode"] == {"label": "Mode", "numbers": [], "leds": 1}
        assert g["labels"]["round"]["label"] == "Round"
        assert g["labels"]["round"]["numbers"] == [str(n) for n in range(1, 8)]
        assert g["labels"]["station"]["label"] == "Station"
        assert g["labels"]["station"]["numbers"] == [str(n) for n in range(1, 7)]
        assert g["pyramid"] == "Pyramid"
        assert check(display, "display") == []
        assert led_marker_problems(display) == []
        display.screenshot(path=str(artifacts / f"display-leds-{width}x{height}.png"))
    display.set_viewport_size(DISPLAY["viewport"])

    # A serial board that is unplugged: status says so, and no simulated LEDs are drawn.
    unplugged = display.evaluate(
        "() => { const f = structuredClone(window.__display.frame());"
        " f.board = {mode: 'serial', connected: false, detail: 'unplugged'};"
        " f.events = []; window.__display.inject(f);"
        " return { hidden: document.getElementById('leds-panel').hidden,"
        "          state: document.getElementById('board-status').dataset.state }; }"
    )
    assert unplugged == {"hidden": True, "state": "disconnected"}


def test_the_host_hides_and_shows_the_board_drawing(server, browser, artifacts):
    display = browser.new_context(**DISPLAY).new_page()
    display.goto(f"{server.base}/t/1/")
    display.wait_for_selector("#leds-panel:not([hidden]) .led-board")
    host = Host(server, "1")
    host.hello()
    assert host.act("set_board_drawing", shown="no")["code"] == "bad_message"
    assert host.act("set_board_drawing", shown=False)["type"] == "ok"
    display.wait_for_selector("#leds-panel[hidden]", state="attached")
    assert check(display, "display") == []
    display.screenshot(path=str(artifacts / "display-leds-hidden.png"))
    # Kept in the table's settings: a reloaded display still leaves it out.
    display.reload()
    display.wait_for_function("window.__display?.frame()?.board")
    display.wait_for_function("window.__display?.frame()?.table.board_drawing === false")
    assert display.locator("#leds-panel").is_hidden()
    # The host page's toggle shows it again.
    page = browser.new_context(**DISPLAY).new_page()
    page.goto(server.host_url("1"))
    toggle = page.locator("#board-drawing")
    toggle.wait_for()
    page.wait_for_function("!document.getElementById('board-drawing').checked")
    toggle.check()
    display.wait_for_selector("#leds-panel:not([hidden]) .led-board")
    page.locator("#board-drawing").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "host-board-drawing.png"))
    host.close()
