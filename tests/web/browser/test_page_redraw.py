"""A frame redraws only the panels whose markup it changes (static/js/dom.js ``fill``).

Every frame draws every panel; a panel put in again unchanged was styled, laid out and
painted again for nothing (the display's panels were a third of its drawing cost in the
display tests). ``fill`` now leaves a panel's children in place when their markup is what it
put there last, puts in again a subtree with a listener (its handler may close over the
newest frame) or a field, tick or folded section a person may have changed in place, and
forgets a panel's markup when ``refill`` says the children were changed
since (the display drops log lines and stations that do not fit).
"""

from __future__ import annotations

from live_server import Host, play, seat_phones

from tests.web.browser.conftest import PHONE
from tests.web.browser.tapping import join_by_taps

DOM = """async (run) => {
    const src = document.querySelector('script[type=module]').src;
    const { fill, h, refill } = await import(new URL('dom.js', src).href);
    const box = document.createElement('div');
    document.body.append(box);
    const first = (el) => el.firstChild;
    fill(box, h('p', { class: 'x' }, 'one'));
    const a = first(box);
    fill(box, h('p', { class: 'x' }, 'one'));
    const same = first(box) === a;
    fill(box, h('p', { class: 'x' }, 'two'));
    const changed = first(box) !== a && box.textContent === 'two';
    const b = first(box);
    refill(box);
    fill(box, h('p', { class: 'x' }, 'two'));
    const refilled = first(box) !== b;
    let clicked = '';
    fill(box, h('button', { onclick: () => { clicked = 'old'; } }, 'go'));
    const c = first(box);
    fill(box, h('button', { onclick: () => { clicked = 'new'; } }, 'go'));
    const listenerReplaced = first(box) !== c;
    first(box).click();
    fill(box, h('input', { type: 'checkbox', checked: true }));
    const d = first(box);
    d.checked = false;  // a person's tick, which the table has not taken
    fill(box, h('input', { type: 'checkbox', checked: true }));
    const fieldReplaced = first(box) !== d && first(box).checked;
    fill(box);
    const emptied = box.childNodes.length === 0;
    box.remove();
    return { same, changed, refilled, listenerReplaced, clicked, fieldReplaced, emptied };
}"""


def test_fill_keeps_unchanged_markup_and_puts_in_what_changed(browser, shared_server, table):
    page = browser.new_context().new_page()
    page.goto(f"{shared_server.base}/t/{table}/")
    page.wait_for_function("() => window.__display?.frame()")
    assert page.evaluate(DOM) == {
        "same": True,
        "changed": True,
        "refilled": True,
        "listenerReplaced": True,
        "clicked": "new",
        "fieldReplaced": True,
        "emptied": True,
    }


KEEP = """async (run) => {
    const src = document.querySelector('script[type=module]').src;
    const { delegate, fill, h } = await import(new URL('dom.js', src).href);
    const box = document.createElement('div');
    document.body.append(box);
    const field = (key) => h('input', { type: 'number', dataset: { keep: key } });
    fill(box, h('p', {}, 'Roll'), field('a'));
    const a = box.querySelector('input');
    a.focus();
    a.value = '5';  // typed, not yet sent
    fill(box, h('p', {}, 'Roll'), field('a'));
    const kept = box.querySelector('input') === a && a.value === '5';
    fill(box, h('p', {}, 'Würfle'), field('a'));
    const b = box.querySelector('input');
    const carried = b !== a && b.value === '5' && document.activeElement === b;
    fill(box, h('p', {}, 'Würfle'), field('another question'));
    const fresh = box.querySelector('input').value === '';
    const seen = [];
    delegate(box, { go: (el) => seen.push(el.dataset.n), send: (form) => seen.push('form') });
    fill(box, h('button', { dataset: { act: 'go', n: '1' } }, h('b', {}, 'tap')),
         h('button', { dataset: { act: 'go', n: '2' }, disabled: true }, 'no'),
         h('form', { dataset: { act: 'send' } }, h('button', { type: 'submit' }, 'ok')));
    const button = box.querySelector('button');
    box.querySelector('b').click();
    fill(box, h('button', { dataset: { act: 'go', n: '1' } }, h('b', {}, 'tap')),
         h('button', { dataset: { act: 'go', n: '2' }, disabled: true }, 'no'),
         h('form', { dataset: { act: 'send' } }, h('button', { type: 'submit' }, 'ok')));
    const stays = box.querySelector('button') === button;
    box.querySelectorAll('button')[1].click();
    box.querySelector('form button').click();
    box.remove();
    return { kept, carried, fresh, stays, seen, url: location.href.endsWith('/') };
}"""


def test_typed_fields_are_kept_and_controls_answer_through_one_listener(
    browser, shared_server, table
):
    """A `data-keep` field is the person's until sent: an unchanged panel keeps it, a panel
    drawn again carries its value and focus to the same key's field; `delegate` runs a
    control's `data-act` (not a disabled one's), so a panel with controls is kept in place."""
    page = browser.new_context().new_page()
    page.goto(f"{shared_server.base}/t/{table}/")
    page.wait_for_function("() => window.__display?.frame()")
    assert page.evaluate(KEEP) == {
        "kept": True,
        "carried": True,
        "fresh": True,
        "stays": True,
        "seen": ["1", "form"],
        "url": True,  # the form's submit did not load a page
    }


def test_a_frame_redraws_only_the_panels_it_changes(browser, shared_server, table):
    """A pace switch changes no panel of the game's view: the track and the log stay the
    same nodes. A language switch changes the log's words: its lines are new."""
    phones = seat_phones(shared_server, table, ["Ana", "Ben", "Cleo"])
    host = Host(shared_server, table)
    try:
        host.hello()
        assert host.act("start", dice="digital")["type"] == "ok"
        play(phones, [], host, max_steps=8)  # the sacrifices and some bids: lines in the log
        page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        page.goto(f"{shared_server.base}/t/{table}/")
        page.wait_for_selector("#log li")
        page.wait_for_selector("#track > *")

        def mark() -> None:
            page.evaluate(
                """() => {
                window.__marked = { track: document.querySelector('#track > *'),
                                    log: document.querySelector('#log li'),
                                    frame: window.__display.frame() };
            }"""
            )

        def next_frame() -> None:
            page.wait_for_function("() => window.__display.frame() !== window.__marked.frame")

        kept = """() => ({
            track: document.querySelector('#track > *') === window.__marked.track,
            log: document.querySelector('#log li') === window.__marked.log,
            lang: document.documentElement.lang })"""
        mark()
        assert host.act("set_pace", pace="normal")["type"] == "ok"
        next_frame()
        assert page.evaluate(kept) == {"track": True, "log": True, "lang": "en"}
        mark()
        assert host.act("set_language", lang="de")["type"] == "ok"
        next_frame()
        page.wait_for_function("document.documentElement.lang === 'de'")
        assert page.evaluate(kept)["log"] is False
    finally:
        host.close()
        for phone in phones:
            phone.close()


WATCH_WHO = """() => {
    const who = document.getElementById('who');
    window.__whoFits = [];
    new MutationObserver((changes) => window.__whoFits.push(...changes.map((c) => c.attributeName)))
        .observe(who, { attributes: true, attributeFilter: ['style', 'class'] });
    return who.style.fontSize;
}"""


def test_the_name_is_fitted_again_only_when_it_or_its_room_changes(browser, shared_server, table):
    """The header is drawn with every frame; fitting a name too long for it takes its size
    back and lays the page out once for every pixel it shrinks. A frame that leaves the name
    and its room alone leaves the fitted size alone; a turned phone fits it again."""
    page = browser.new_context(**PHONE).new_page()
    join_by_taps(page, shared_server.join_url(table), "Konstantinopelüberallxyz", "blue")
    page.wait_for_function("document.getElementById('who').style.fontSize !== ''")
    fitted = page.evaluate(WATCH_WHO)
    others = seat_phones(shared_server, table, ["Ben"])
    try:
        # A new seat in the lobby: a new frame, the same header.
        page.wait_for_function("document.querySelector('.lobby-seats')?.children.length === 2")
        assert page.evaluate("window.__whoFits") == []
        assert page.evaluate("document.getElementById('who').style.fontSize") == fitted
        page.set_viewport_size({"width": 844, "height": 390})
        page.wait_for_function("window.__whoFits.length > 0")
        page.wait_for_function("document.getElementById('who').style.fontSize === ''")
    finally:
        for phone in others:
            phone.close()


NAME_FITS = """() => {
    const name = document.querySelector('#who .chip-name');
    return Boolean(name) && name.scrollWidth <= name.clientWidth + 0.5;
}"""


def test_the_name_is_fitted_again_when_the_companion_mark_takes_its_room(
    browser, shared_server, table
):
    """The host hands the seat to a companion player: the header's chip gains the ⚙ beside
    the name, which leaves the name less room in a header as wide as before. The name is
    fitted again (a fit keyed on the header's width alone left "Maximiliane-Alexandra" with
    136 px of words in a 115 px box, under the ⚙)."""
    page = browser.new_context(**PHONE).new_page()
    join_by_taps(page, shared_server.join_url(table), "Maximiliane-Alexandra", "blue")
    others = seat_phones(shared_server, table, ["Ben", "Cleo"])
    host = Host(shared_server, table)
    try:
        host.hello()
        assert host.act("start", dice="digital")["type"] == "ok"
        page.wait_for_function("window.__pad?.frame()?.game?.status === 'playing'")
        page.wait_for_function(NAME_FITS)
        seat = page.evaluate("window.__pad.frame().you.seat")
        assert host.act("skip_seat", seat=seat)["type"] == "ok"
        page.wait_for_selector("#who .companion-mark")
        page.wait_for_function(NAME_FITS, timeout=5000)
    finally:
        host.close()
        for phone in others:
            phone.close()
