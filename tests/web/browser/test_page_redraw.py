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
