"""A player holding two cards of the same value can play both (the blocker of issue 7).

After Tachli a deck often holds two 11s (R5.6: the winner takes the higher face-up card and
discards their lowest). The host types in improvement cards 11 and 10, so the station 6 winner
of round 1 holds two 11s and the second two 10s. Everything is done by tapping the pages; the
half-placed bid with both 11s survives a closed tab."""

from __future__ import annotations

from collections import Counter

from tests.web.browser.conftest import PHONE
from tests.web.browser.layout import sweep
from tests.web.browser.tapping import HostPage, Player, join_by_taps, play, task, tid

NAMES = (("Ana", "orange"), ("Ben", "sky"), ("Cleo", "green"))


def test_both_copies_of_a_value_can_be_bid_and_survive_a_closed_tab(server, browser, artifacts):
    url = server.join_url()
    contexts, players = [], []
    for name, colour in NAMES:
        ctx = browser.new_context(**PHONE)
        page = ctx.new_page()
        join_by_taps(page, url, name, colour)
        contexts.append(ctx)
        players.append(Player(page, name))
    host = HostPage(
        browser.new_context(viewport={"width": 1280, "height": 900}).new_page(),
        harvest=(6, 3, 1),
        cards=(11, 10),
    )
    host.page.goto(server.host_url())
    host.page.wait_for_selector(tid("start") + ":not([disabled])")
    host.start("table")

    def dup_holder() -> Player | None:
        for pl in players:
            view = pl.view()
            if view and view["round"] == 2 and task(pl.page) == "bid":
                deck = Counter(view["players"][pl.me()]["deck"])
                if deck[11] == 2:
                    return pl
        return None

    play(players, host, until=lambda: dup_holder() is not None)
    holder = dup_holder()
    assert holder is not None
    page = holder.page
    elevens = page.locator(tid("card", "[data-value='11']"))
    assert elevens.count() == 2
    # Both copies are playable: tapping one leaves the other free.
    page.locator(tid("card", "[data-value='11']:not([disabled])")).first.tap()
    assert page.locator(tid("card", "[data-value='11'].picked")).count() == 1
    page.locator(tid("card", "[data-value='11']:not([disabled])")).first.tap()
    assert page.locator(tid("card", "[data-value='11'].picked")).count() == 2
    assert page.locator(tid("slot")).all_inner_texts()[:2] == ["11", "11"]
    problems = sweep(page, "phone", "dup-bid", shots=artifacts)

    # Close the tab mid-bid and open the pad again: both 11s are still placed.
    ctx = page.context
    seat_url = page.url
    page.close()
    page = ctx.new_page()
    page.goto(seat_url)
    page.wait_for_function("document.body.dataset.task === 'bid'")
    assert page.locator(tid("slot")).all_inner_texts()[:2] == ["11", "11"]
    assert page.locator(tid("card", "[data-value='11'].picked")).count() == 2
    holder.page = page

    holder.fill_bid()
    assert page.locator(tid("review")).is_enabled()
    page.locator(tid("review")).tap()
    page.locator(tid("lock-in")).tap()
    page.wait_for_function("['none', 'auto'].includes(document.body.dataset.task)")
    assert not page.locator("#task .error").count()
    assert page.evaluate(f"window.__pad.frame().game.view.bid_status['{holder.me()}']") is True
    assert problems == [], "\n".join(problems)
