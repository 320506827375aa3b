"""Every phone is told what happened to it, in the page, at 390x844 and 360x740: its undone bid,
what a companion player bid for it, the bonus dice window with effective bids and what a die
could change, a window it was not asked in and why, the standings of an ended game, and its
removal by the host. Ana plays in Chromium; Ben and Cleo are websocket phones; the host types
the real dice in.

Ana's bid is the plain companion's (sacrifice 0, then lowest cards: S1 1+2 ... S6 11+12).
S1: ana 3 is lowest (the old man, -1 from S2 on, R4.1). S3: ana 11-1 = 10 beats ben 9 and
cleo 8: she takes the die, ben builds the hut (R5.3). S4: ana 14, ben 15+1 = 16, cleo 13: a
six lifts her to 1st, so she is asked (R3.2). S5 (ana 18 against 12 and 12) and S6 (22
against 20 and 19): no roll changes her 1st place, the table answers "no dice" for her.
Ben (16) leads Ana by 2 at S4: one cube each, both in the bottom row, so nobody is asked the
order (R5.4).
"""

from __future__ import annotations

import pytest
from live_server import Host, LiveServer, Phone, settle

from tests.web.browser.conftest import PHONE
from tests.web.browser.layout import sweep
from tests.web.browser.pads import join

BEN = {"1": [2, 9], "2": [3, 10], "3": [1, 8], "4": [4, 11], "5": [5, 6], "6": [7, 12]}
CLEO = {"1": [3, 9], "2": [4, 10], "3": [2, 6], "4": [1, 12], "5": [5, 7], "6": [8, 11]}


@pytest.fixture
def server(shared_server: LiveServer) -> LiveServer:
    """This module's tests share one server, each on a table of its own (``table``)."""
    return shared_server


def seated(server: LiveServer, table: str, browser):
    ana = browser.new_context(**PHONE).new_page()
    join(ana, server.join_url(table), "Ana", "orange")
    others = []
    for name, colour in (("Ben", "sky"), ("Cleo", "green")):
        seat = server.join(table, name, colour)
        phone = Phone(server, table, seat)
        phone.hello()
        others.append(phone)
    host = Host(server, table)
    host.hello()
    assert host.act("start", dice="table")["type"] == "ok"
    ana.wait_for_function("document.body.dataset.task === 'sacrifice'")
    return ana, others, host


def wait_task(page, task: str) -> None:
    page.wait_for_function(f"document.body.dataset.task === '{task}'")


def covered(page, selector: str) -> float:
    """How many pixels of ``selector`` lie under the sticky tray, lock-in bar or screen edge."""
    return page.evaluate(
        """(sel) => {
          const el = document.querySelector(sel);
          const covers = [...document.querySelectorAll('#deck, #task .lockbar')]
            .filter((c) => c.offsetParent && getComputedStyle(c).position === 'sticky');
          const top = Math.min(innerHeight, ...covers.map((c) => c.getBoundingClientRect().top));
          return Math.max(0, el.getBoundingClientRect().bottom - top);
        }""",
        selector,
    )


# Where the note of what was not asked and the last ranking stand on the screen (px).
NOTE_AND_RANKING = """() => {
  const note = document.querySelector('#task [data-testid=dice-not-asked]');
  const ranking = document.querySelector('#task [data-testid=ranking]');
  if (!note || !ranking) return null;
  return {
    header: document.querySelector('.padbar').getBoundingClientRect().bottom,
    note: note.getBoundingClientRect().top,
    ranking: ranking.getBoundingClientRect().top,
    height: window.innerHeight,
    scrollY: window.scrollY,
  };
}"""


def test_the_pad_tells_its_player_what_happened(server, table, browser, artifacts):
    ana, (ben, cleo), host = seated(server, table, browser)
    ana.locator("#task .hand .card-btn[data-card='0']").tap()
    ana.locator("#lock-in").tap()
    for phone in (ben, cleo):
        phone.command({"type": "sacrifice", "card": 0})
        phone.until(lambda f: f["type"] == "ack")
    assert host.command({"type": "harvest", "dice": [1, 2, 3]})["type"] == "ack"
    assert host.command({"type": "improvements", "cards": [1, 1]})["type"] == "ack"
    wait_task(ana, "bid")

    # Six taps: the slot being filled stays above the card tray (it was covered).
    for card in range(1, 7):
        ana.locator(f"#deck .card-btn[data-card='{card}']").tap()
    assert ana.locator("#task .slot.active").count() == 1
    assert covered(ana, "#task .slot.active") == 0
    ana.screenshot(path=str(artifacts / "pad-bid-six-taps-390x844.png"))
    for card in range(7, 13):
        ana.locator(f"#deck .card-btn[data-card='{card}']").tap()
    ana.locator("#review").tap()
    ana.locator("#lock-in").tap()
    wait_task(ana, "none")

    # The host undoes it: her pad says so, and asks again.
    assert host.undo()["type"] == "ok"
    ana.wait_for_selector("[data-testid=notice]")
    assert "undid your bid" in ana.locator("[data-testid=notice]").inner_text()
    wait_task(ana, "bid")
    problems = sweep(ana, "phone", "pad-undone", shots=artifacts)

    # A companion player bids for her; the seat comes back: she is told what was bid.
    assert host.act("skip_seat", seat="ana")["type"] == "ok"
    assert host.act("resume_seat", seat="ana")["type"] == "ok"
    ana.wait_for_selector("[data-testid=companion-moves]")
    moves = ana.locator("[data-testid=companion-moves]").inner_text()
    assert "bid 1+2 for you at" in moves and "11+12" in moves
    problems += sweep(ana, "phone", "pad-companion-moves", shots=artifacts)

    for phone, bids in ((ben, BEN), (cleo, CLEO)):
        phone.command({"type": "bid", "bids": bids})
        phone.until(lambda f: f["type"] == "ack")
    wait_task(ana, "city")
    assert covered(ana, "#task .choices") == 0
    ana.locator("button[data-choice='die']").tap()
    ana.locator("#lock-in").tap()

    # S4: the window shows effective bids (not card sums) and what her die could do.
    wait_task(ana, "dice")
    rows = ana.locator("[data-testid=dice-bids] tr")
    effective = {
        rows.nth(i).get_attribute("data-player"): rows.nth(i)
        .locator("[data-testid=effective]")
        .inner_text()
        for i in range(rows.count())
    }
    assert effective == {"ben": "16", "ana": "14", "cleo": "13"}
    outlook = ana.locator("[data-testid=dice-outlook]").inner_text()
    assert "2nd" in outlook and "One die could lift you to 1st" in outlook
    assert covered(ana, "#task .choices") == 0
    problems += sweep(ana, "phone", "pad-dice-window", shots=artifacts)
    # The stations' results stay up a while, as at a table (the note is read beside them).
    assert host.act("set_pace", pace="test:2")["type"] == "ok"
    ana.set_viewport_size({"width": 360, "height": 740})  # the smaller phone: less room above
    ana.locator("button[data-count='0']").tap()
    ana.locator("#lock-in").tap()

    # Ben (16) leads Ana by 2: one cube each, both in the bottom row, so the order is not
    # asked (R5.4) and his frame says so; S5 and S6 need nothing from Ana: her pad says why.
    ben.until(
        lambda f: (
            f["type"] == "view"
            and {"station": 4, "place": 1, "kind": "pyramid"} in f["you"]["not_asked"]
        ),
        timeout=60,
    )
    ana.wait_for_function(
        "document.querySelector('[data-testid=dice-not-asked]')?.innerText.includes('6')",
        timeout=60000,
    )
    said = ana.locator("[data-testid=dice-not-asked]").inner_text()
    assert "6" in said and "1st" in said and "not asked" in said
    # A station's ranking came up while she watched: the phone brought it into view with the
    # note above it (scrolled to the ranking's top, the note sat under the header).
    place = ana.wait_for_function(NOTE_AND_RANKING, timeout=60000).json_value()
    assert place["note"] >= place["header"] and place["ranking"] < place["height"], place
    assert host.act("set_pace", pace="instant")["type"] == "ok"
    ana.set_viewport_size(PHONE["viewport"])
    problems += sweep(ana, "phone", "pad-not-asked", shots=artifacts)

    # The host ends the game: the standings at that moment.
    assert host.act("end_game")["type"] == "ok"
    ana.wait_for_selector("[data-testid=standings]")
    settle(server, table, [ben])
    scores = {p: s["score"] for p, s in ben.view["game"]["view"]["players"].items()}
    shown = ana.locator("[data-testid=standings] tr")
    assert shown.count() == 3
    for i in range(3):
        row = shown.nth(i)
        assert str(scores[row.get_attribute("data-player")]) in row.inner_text()
    problems += sweep(ana, "phone", "pad-ended", shots=artifacts)
    assert not problems, problems


def test_a_removed_phone_says_the_host_removed_it(server, table, browser, artifacts):
    ana, _others, host = seated(server, table, browser)
    assert host.act("release_seat", seat="ana")["type"] == "ok"
    ana.wait_for_selector("#screen-status[data-kind=removed]")
    assert "host removed you" in ana.locator("#screen-status").inner_text()
    assert "another device" not in ana.locator("#screen-status").inner_text()
    problems = sweep(ana, "phone", "pad-removed", shots=artifacts)
    assert not problems, problems


# Italian pyramid: Ana's bid is the plain companion's again; Ben is first at the city and
# builds the hut, so Ana (second) gets the die (R5.3). S4: Ana 7+8-1 = 14, Ben 4+8+1 = 13: her
# lead is settled but a six would make it 3 (R5.4), so she is asked; without dice she leads
# by one and decides who places first.
BEN_IT = {"1": [2, 9], "2": [3, 10], "3": [1, 11], "4": [4, 8], "5": [5, 6], "6": [7, 12]}
CLEO_IT = {"1": [3, 9], "2": [4, 10], "3": [2, 6], "4": [1, 5], "5": [7, 8], "6": [11, 12]}


ASK_PYRAMID = """() => {
  const f = structuredClone(window.__pad.frame());
  const ask = [{ type: "pyramid", player: "ana" }];
  f.seq += 1;
  f.reason = "command";
  f.events = [];
  f.you.pending = ask;
  f.you.not_asked = [];
  f.game.view.pending = ask;
  f.game.view.phase = "pyramid";
  f.game.view.decision = { type: "pyramid", first: "ana", second: "ben" };
  f.game.view.pyramid[0] = ["ben", "cleo", "ana", "ben", null];
  f.game.view.pyramid[1] = [null, null, null, null];
  window.__pad.conn.onFrame(f);
}"""


def test_italian_pyramid_choices_stay_above_the_tray(server, table, browser, artifacts):
    ana = browser.new_context(**PHONE, locale="it-IT").new_page()
    join(ana, server.join_url(table), "Ana", "orange")
    others = []
    for name, colour in (("Ben", "sky"), ("Cleo", "green")):
        phone = Phone(server, table, server.join(table, name, colour))
        phone.hello()
        others.append(phone)
    ben, cleo = others
    host = Host(server, table)
    host.hello()
    assert host.act("set_hints", level="good")["type"] == "ok"
    assert host.act("start", dice="table")["type"] == "ok"
    wait_task(ana, "sacrifice")
    # The hint button looks like a button one can tap (it was a grey, disabled-looking box).
    button = ana.locator(".hint-button")
    style = button.evaluate(
        "b => { const s = getComputedStyle(b); return [s.borderTopColor, s.opacity, s.color,"
        " b.getBoundingClientRect().height] }"
    )
    assert style[0] == "rgb(240, 179, 84)" and style[1] == "1" and style[3] >= 44, style
    assert not button.is_disabled()
    ana.screenshot(path=str(artifacts / "pad-hint-button-390x844.png"))
    assert host.act("set_hints", level=None)["type"] == "ok"

    ana.locator("#task .hand .card-btn[data-card='0']").tap()
    ana.locator("#lock-in").tap()
    for phone in (ben, cleo):
        phone.command({"type": "sacrifice", "card": 0})
        phone.until(lambda f: f["type"] == "ack")
    assert host.command({"type": "harvest", "dice": [1, 2, 3]})["type"] == "ack"
    assert host.command({"type": "improvements", "cards": [1, 1]})["type"] == "ack"
    assert host.act("skip_seat", seat="ana")["type"] == "ok"
    assert host.act("resume_seat", seat="ana")["type"] == "ok"
    for phone, bids in ((ben, BEN_IT), (cleo, CLEO_IT)):
        phone.command({"type": "bid", "bids": bids})
        phone.until(lambda f: f["type"] == "ack")
    ben.until(
        lambda f: (
            f["type"] == "view" and f["you"]["pending"][:1] == [{"type": "city", "player": "ben"}]
        )
    )
    ben.command({"type": "city", "choice": "hut"})
    ben.until(lambda f: f["type"] == "ack")
    wait_task(ana, "dice")
    ana.locator("button[data-count='0']").tap()
    ana.locator("#lock-in").tap()
    # Both cubes land in the bottom row, so the table placed them without asking (R5.4); the
    # question comes when the first cube fills a row (four cubes in it, from round 3 on). Its
    # screen is checked with this table's frame as it would be then: four cubes in the bottom
    # row, Ana asked the order, fed through the page's own frame path.
    ana.wait_for_function(
        "() => (window.__pad?.frame()?.you?.not_asked || []).some((x) => x.kind === 'pyramid')"
    )
    ana.evaluate(ASK_PYRAMID)
    wait_task(ana, "pyramid")
    assert ana.locator("#task .choices button").count() == 2
    problems = []
    for size in ((390, 844), (360, 740)):
        ana.set_viewport_size({"width": size[0], "height": size[1]})
        ana.evaluate("window.scrollTo(0, 0)")
        for i in range(2):
            assert covered(ana, f"#task .choices button:nth-child({i + 1})") == 0, size
    problems += sweep(ana, "phone", "pad-pyramid-it", shots=artifacts)
    assert not problems, problems


KEPT = """(mark) => {
  const now = { die: document.querySelector("#task button[data-choice='die']"),
                form: document.querySelector('#task form.roll-form') };
  if (mark) { window.__kept = now; window.__keptFrame = window.__pad.frame(); return null; }
  const field = document.querySelector('#task input.die-input');
  return { die: now.die !== null && now.die === window.__kept.die,
           form: now.form !== null && now.form === window.__kept.form,
           value: field ? field.value : null,
           focused: field !== null && document.activeElement === field };
}"""


def test_a_question_stays_put_and_typed_dice_stay_typed_while_frames_come(
    server, table, browser, artifacts
):
    """A frame that changes nothing on a phone leaves its question's buttons in place (a tap
    once chased buttons drawn again at every beat), and the dice a player is typing stay typed
    and focused through frames, even one that redraws the question (a roll form once came
    back empty mid-typing). Same deal as above: Ana takes the die at S3, then rolls at S4."""
    ana, (ben, cleo), host = seated(server, table, browser)

    def frame_comes(act: str, **fields: str) -> None:
        ana.evaluate(KEPT, True)
        assert host.act(act, **fields)["type"] == "ok"
        ana.wait_for_function("() => window.__pad.frame() !== window.__keptFrame")

    ana.locator("#task .hand .card-btn[data-card='0']").tap()
    ana.locator("#lock-in").tap()
    for phone in (ben, cleo):
        phone.command({"type": "sacrifice", "card": 0})
        phone.until(lambda f: f["type"] == "ack")
    assert host.command({"type": "harvest", "dice": [1, 2, 3]})["type"] == "ack"
    assert host.command({"type": "improvements", "cards": [1, 1]})["type"] == "ack"
    wait_task(ana, "bid")
    for card in range(1, 13):
        ana.locator(f"#deck .card-btn[data-card='{card}']").tap()
    ana.locator("#review").tap()
    ana.locator("#lock-in").tap()
    for phone, bids in ((ben, BEN), (cleo, CLEO)):
        phone.command({"type": "bid", "bids": bids})
        phone.until(lambda f: f["type"] == "ack")

    wait_task(ana, "city")
    frame_comes("set_pace", pace="quick")  # a view for every screen, the same question
    assert ana.evaluate(KEPT, False)["die"] is True
    ana.locator("button[data-choice='die']").tap()
    ana.locator("#lock-in").tap()
    wait_task(ana, "dice")
    ana.locator("button[data-count='1']").tap()
    ana.locator("#lock-in").tap()

    wait_task(ana, "roll")
    field = ana.locator("#task input.die-input")
    assert field.count() == 1
    field.tap()
    ana.keyboard.type("6")
    frame_comes("set_pace", pace="instant")
    assert ana.evaluate(KEPT, False) == {"die": False, "form": True, "value": "6", "focused": True}
    # The phone's language changes the question's words: it is drawn again, with what was typed.
    ana.evaluate(KEPT, True)
    ana.evaluate(
        """async () => {
        const src = document.querySelector('script[type=module]').src;
        await (await import(new URL('i18n.js', src).href)).setLanguage('de');
    }"""
    )
    ana.wait_for_function("document.documentElement.lang === 'de'")
    assert ana.evaluate(KEPT, False) == {"die": False, "form": False, "value": "6", "focused": True}
    problems = sweep(ana, "phone", "pad-roll-typed-de", shots=artifacts)  # both phone sizes
    assert not problems, problems
    assert ana.locator("#task input.die-input").input_value() == "6"
    ana.locator("#task input.die-input").tap()
    ana.keyboard.press("Enter")  # the phone's keyboard sends the form
    ben.until(
        lambda f: any(
            e["type"] == "ranking"
            and e["station"] == 4
            and any(x["player"] == "ana" and x["dice"] == [6] for x in e["entries"])
            for e in f.get("events", [])
        )
    )
