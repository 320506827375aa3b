"""The story of a game on the display: a whole game played by five companion players to its
end, the final scoring first, then the story (score chart, turning points, stations won and,
once the review is ready, each player's review headline),
checked against the frame's numbers and for legibility and fit at 1920×1080 and 1280×720 with
five 24-character names (the longest allowed), in English and German; and the story of a game
the host ends while a station's result is up, over the whole TV with the LED board drawn."""

from __future__ import annotations

from typing import Any

from live_server import Host
from waiting import wait_for

from companion.engine.colours import SCREEN_COLOURS
from tests.web.browser.conftest import PHONE
from tests.web.browser.layout import DISPLAY_SIZES, PHONE_SIZES, mid_word_breaks, settle, sweep
from tests.web.browser.page_numbers import one_decimal
from tests.web.browser.tapping import Player, join_by_taps, tid

DISPLAY = {"viewport": {"width": 1920, "height": 1080}}
NAMES = [  # 24 characters each, the longest a seat may be named: the worst case for the layout
    "Evangelina Fortunata Xyz",
    "Annabellarosalindeeeeeee",
    "Dragomirovichenko Wwwwww",
    "Giuseppina-Mariella Abcd",
    "Bartholomew Q. Whitfield",
]


def all_of(page, selector: str, script: str):
    """``script`` over every element matching ``selector``, found and read in one synchronous
    script: the display redraws on every frame, so elements found earlier may be gone."""
    return page.evaluate(f"([sel]) => ({script})([...document.querySelectorAll(sel)])", [selector])


def _hex_to_rgb(hex_: str) -> str:
    r, g, b = (int(hex_[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


def test_the_story_follows_the_final_scoring(server, browser, artifacts):
    host = Host(server, "1")
    host.hello()
    for name in NAMES:
        assert host.act("add_bot", level="plain", name=name)["type"] == "ok"
    page = browser.new_context(**DISPLAY).new_page()
    page.goto(f"{server.base}/t/1/")
    page.wait_for_function("window.__display?.frame()")
    assert host.act("start", dice="digital")["type"] == "ok"
    # The final scoring comes first, the story not yet.
    page.wait_for_selector("#final-panel:not([hidden])", timeout=120_000)
    assert page.locator("#story-panel").is_hidden()
    page.screenshot(path=str(artifacts / "story-final-first.png"))
    # Then, once the winner's moment has been (show.STORY_AFTER), the story takes its place
    # and stays.
    page.wait_for_selector("#story-panel:not([hidden])", timeout=40_000)
    assert page.locator("#final-panel").is_hidden()
    # Once the game's review is ready, each player's headline (points of margin lost a
    # decision in the common mix) stands in the stations table, the lowest marked.
    page.wait_for_selector("[data-testid=story-review]", timeout=120_000)
    frame = page.evaluate("window.__display.frame()")
    headlines = {p["seat"]: p["mean_loss"] for p in frame["review"]["players"]}
    shown = all_of(
        page,
        "[data-testid=story-stats] tbody tr[data-player]",
        "rs => rs.map(r => [r.dataset.player, "
        "r.querySelector('[data-testid=story-review]').textContent, "
        "r.querySelector('[data-testid=story-review]').classList.contains('most')])",
    )
    assert {p: text for p, text, _ in shown} == {p: one_decimal(v) for p, v in headlines.items()}
    fewest = min(headlines.values())
    assert {p for p, _, most in shown if most} == {p for p, v in headlines.items() if v == fewest}
    assert frame["review"]["older"] is False
    story, view = frame["story"], frame["game"]["view"]
    players = view["seats"]
    # The chart: one thick line per player in their screen colour, ending on the final total
    # (R7).
    hexes = page.evaluate(
        "ids => ids.map(id => getComputedStyle("
        "document.querySelector(`.story-svg .line[data-player='${id}']`)).stroke)",
        players,
    )
    colours = {s["id"]: s["colour"] for s in frame["seats"]}
    for p, stroke in zip(players, hexes, strict=True):
        assert stroke == _hex_to_rgb(SCREEN_COLOURS[colours[p]]), (p, stroke)
    widths = all_of(
        page, ".story-svg .line", "ls => ls.map(l => parseFloat(l.getAttribute('stroke-width')))"
    )
    assert len(widths) == len(players) and min(widths) >= 4
    ends = all_of(page, ".story-svg .end-score", "ts => ts.map(t => Number(t.textContent))")
    assert sorted(ends) == sorted(view["players"][p]["final"]["total"] for p in players)
    rounds = all_of(page, ".story-svg .round-label", "ts => ts.length")
    assert rounds == view["round"]
    # The turning points: the biggest gain first, naming its player.
    turns = page.locator("[data-testid=story-turns] li")
    assert turns.count() >= 1
    first = story["turning_points"][0]
    assert first["kind"] == "gain"
    name = {s["id"]: s["name"] for s in frame["seats"]}[first["player"]]
    assert name in turns.first.inner_text() and str(first["points"]) in turns.first.inner_text()
    # Stations won: one row per player; each station's wins add up to its plays (R3.4).
    rows = page.locator("[data-testid=story-stats] tbody tr[data-player]")
    assert rows.count() == len(players)
    wins = all_of(
        page,
        "[data-testid=story-stats] tbody tr[data-player]",
        "rs => rs.map(r => [...r.querySelectorAll('td')].slice(0, 6)"
        ".map(c => Number(c.textContent)))",
    )
    for station in range(6):
        assert sum(row[station] for row in wins) == story["stations"][station]["played"]
    # Legible from two metres: chart labels at least the display's minimum text size.
    for w, h in DISPLAY_SIZES:
        page.set_viewport_size({"width": w, "height": h})
        settle(page)
        sizes = all_of(
            page, ".story-svg text", "ts => ts.map(t => parseFloat(getComputedStyle(t).fontSize))"
        )
        assert sizes and min(sizes) >= 20 * w / 1920 - 0.01, (w, sizes)
    page.set_viewport_size(DISPLAY["viewport"])
    # Five 24-character names and the figures' headings whole and nothing clipped, in English
    # and, chosen by the host, in every other language (Dutch broke "Kaarte n" at 1280×720).
    problems: list[str] = []
    for lang in ("en", "de", "nl", "it"):
        if lang != "en":
            assert host.act("set_language", lang=lang)["type"] == "ok"
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        page.wait_for_selector("#story-panel:not([hidden]) .story-svg")
        legend = page.locator(".story-legend").inner_text()
        assert all(legend.count(name) == 1 for name in NAMES), legend
        problems += sweep(page, "display", f"story-{lang}", shots=artifacts, also=_whole_names)
    assert problems == [], "\n".join(problems)


def _whole_names(page: Any) -> list[str]:
    """Names wrap between words or shrink, never break inside a word: only a word too long
    for the column even at the display's smallest text may break (the table is then marked
    squeezed and its names are at that size). The same for the figures' headings, which take
    room from the names first (``squeezed-heads`` when even that is not enough)."""
    problems = [
        f"a name broken inside a word: {x}"
        for x in mid_word_breaks(page, ".story-stats:not(.squeezed) .who-name")
    ] + [
        f"a heading broken inside a word: {x}"
        for x in mid_word_breaks(page, ".story-stats:not(.squeezed-heads) thead th")
    ]
    sizes = page.evaluate(
        "() => [...document.querySelectorAll('.story-stats.squeezed .who-name')].map("
        "(n) => parseFloat(getComputedStyle(n).fontSize) / "
        "parseFloat(getComputedStyle(document.getElementById('story-panel')).fontSize))"
    )
    return problems + [f"a squeezed name at {r:.2f} of the panel's size" for r in sizes if r > 0.81]


# The story panel and the grid it should fill, and what the top bar shows of the show.
ENDED_SCREEN = """() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height];
  };
  const countdown = document.getElementById('show-countdown');
  return {
    grid: box(document.querySelector('.display-grid')),
    story: box(document.getElementById('story-panel')),
    body: document.body.className,
    beat: window.__display.beat().index,
    countdown: Boolean(countdown && !countdown.hidden && countdown.getBoundingClientRect().width),
  };
}"""


def test_a_game_the_host_ends_tells_its_story_over_the_whole_screen(server, browser, artifacts):
    """The host ends a game while a step's results are coming up, with the LED board drawn on
    the TV: the story takes the whole screen below the top bar at once (the board's layout
    once squeezed it into the centre column, the top half of the TV left empty, until a new
    game), and the step's beats still to come are not counted down under it."""
    host = Host(server, "1")
    host.hello()
    for name in NAMES[:2]:
        assert host.act("add_bot", level="plain", name=name)["type"] == "ok"
    # Ana on her phone holds the game at her next question (companions do not wait for the
    # show); each beat is held for two minutes (a test pace), so the game ends while one is up.
    phone = browser.new_context(**PHONE).new_page()
    join_by_taps(phone, server.join_url(), NAMES[2], "green")
    ana = Player(phone, NAMES[2], city="die")
    assert host.act("set_pace", pace="test:120")["type"] == "ok"
    page = browser.new_context(**DISPLAY).new_page()
    page.goto(f"{server.base}/t/1/")  # the URL people open
    page.wait_for_function("window.__display?.frame()")
    assert host.act("start", dice="digital")["type"] == "ok"

    def a_result_is_up() -> bool:
        ana.act()  # whatever her phone asks (a bid, a choice), tapped
        return bool(page.evaluate("window.__display.beat().index >= 0"))

    wait_for(a_result_is_up, "a station's result on the TV", timeout=60, every=0.2)
    ended = host.act("end_game")
    assert ended["type"] == "ok", ended
    page.wait_for_selector("#story-panel:not([hidden])")
    settle(page)
    got = page.evaluate(ENDED_SCREEN)
    page.screenshot(path=str(artifacts / "story-ended-1920x1080.png"))
    assert "leds-shown" in got["body"].split(), got  # the layout that squeezed it
    gx, gy, gw, gh = got["grid"]
    sx, sy, sw, sh = got["story"]
    assert sw >= 0.95 * gw and sh >= 0.95 * gh, f"the story fills {got['story']} of {got['grid']}"
    assert got["beat"] >= 0, "the step's beat should still be running under the story"
    assert not got["countdown"], "the top bar counts down a beat the story covers"
    problems = sweep(page, "display", "story-ended", DISPLAY_SIZES, shots=artifacts)
    # The same page opened on a phone is one column that scrolls, read as a phone's page.
    problems += sweep(
        page, "phone", "story-ended-phone", PHONE_SIZES, shots=artifacts, also=_phone_story
    )
    assert problems == [], "\n".join(problems)
    # Back on the TV: the table holds every figure, and no lines below it.
    assert page.locator(tid("story-players")).is_hidden()
    assert page.locator(".story-stats th.extra").first.is_visible()


def _phone_story(page) -> list[str]:
    """Held in a hand the stations table keeps the stations' columns, and each player's other
    figures are a line under their name, no word of them broken (in the table's narrow
    columns "Huts" read "Hut s")."""
    got = page.evaluate(
        """() => ({
        extras: [...document.querySelectorAll('.story-stats .extra')].filter(
          (e) => e.getClientRects().length).length,
        players: [...document.querySelectorAll('[data-testid=story-players] li')].map(
          (li) => li.dataset.player),
        rows: [...document.querySelectorAll('.story-stats tbody tr[data-player]')].map(
          (tr) => tr.dataset.player),
        items: document.querySelectorAll('[data-testid=story-players] .extra-item').length,
      })"""
    )
    problems = [f"the table still shows {got['extras']} other figures"] if got["extras"] else []
    if got["players"] != got["rows"] or got["items"] < 4 * len(got["rows"]):
        problems.append(f"the players' lines {got}")
    problems += [
        f"breaks inside a word: {x}"
        for x in mid_word_breaks(page, ".story-stats thead th, .extra-label, .extra-item b")
    ]
    return problems
