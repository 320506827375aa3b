"""Whole games played only by tapping the pages, as a table of people would, with every
screen checked on the sizes it is used at (tests/web/browser/layout.py).

- Three phones (English, German, Dutch; one 20-letter name without spaces), the display in
  Italian, real dice and cards typed in on the host page: red, green and gold rounds as the
  track decides, every decision kind (sacrifice, bids, black dice, rolls, city, pyramid), a
  reload mid-bid, a skip and a resume, to the final scoring.
- Five phones with long names (English, German, Dutch, Italian, English), digital dice, the
  display in German, to the final scoring.

The phones are browser contexts of one Chromium, driven in turn. Every new kind of screen is
checked on the phone at 390×844 and 360×740, every new display phase at 1920×1080 and
1280×720, by resizing the page; screenshots land in test-artifacts/.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.browser.conftest import PHONE
from tests.web.browser.layout import sweep
from tests.web.browser.tapping import HostPage, Player, join_by_taps, play, task, tid

DISPLAY = {"viewport": {"width": 1920, "height": 1080}}


class Table:
    """Phones, host page and display of one game, and the layout problems seen so far."""

    def __init__(
        self,
        server,
        browser,
        artifacts: Path,
        prefix: str,
        players: list[tuple[str, str, str]],
        display_lang: str,
    ) -> None:
        self.shots = artifacts
        self.prefix = prefix
        self.problems: list[str] = []
        self.seen: set[str] = set()
        self.modes: set[str] = set()
        self.display = browser.new_context(**DISPLAY).new_page()
        # The final scoring stays for the checks (the story follows 20 s after the winner).
        self.display.goto(f"{server.base}/t/1/")
        self.display.wait_for_selector("#seats li")
        url = server.join_url()
        self.players = []
        for name, colour, locale in players:
            page = browser.new_context(**PHONE, locale=locale).new_page()
            if not self.players:
                page.goto(url)
                page.wait_for_selector("#screen-join:not([hidden])")
                self.check_phone(page, "join")
            join_by_taps(page, url, name, colour)
            self.players.append(Player(page, name))
        self.check_phone(self.players[0].page, "lobby")
        self.check_display("lobby")
        self.host = HostPage(
            browser.new_context(viewport={"width": 1280, "height": 900}).new_page(),
            harvest=(5, 3, 2),
            cards=(12, 10),
        )
        self.host.page.goto(server.host_url())
        self.host.page.wait_for_selector(tid("start") + ":not([disabled])")
        self.host.page.select_option("#display-lang", display_lang)
        self.display.wait_for_function(f"document.documentElement.lang === '{display_lang}'")

    def check_phone(self, page, label: str) -> None:
        if label in self.seen:
            return
        self.seen.add(label)
        self.problems += sweep(page, "phone", f"{self.prefix}-phone-{label}", shots=self.shots)

    def check_display(self, label: str | None = None) -> None:
        if label is None:
            d = self.display
            state = d.evaluate(
                "(() => { const v = window.__display.frame()?.game?.view; const c ="
                " document.body.classList; return v ? [v.phase, v.step || '',"
                " c.contains('revealing') ? 'reveal' : '', c.contains('finished') ? 'end' : '']"
                ".filter(Boolean).join('-') : 'lobby'; })()"
            )
            label = state
        key = f"display:{label}"
        if key in self.seen:
            return
        self.seen.add(key)
        self.problems += sweep(
            self.display, "display", f"{self.prefix}-display-{label}", shots=self.shots
        )

    def on_screen(self, player: Player, kind: str) -> None:
        view = player.view() or {}
        if view.get("mode"):
            self.modes.add(view["mode"])
        step = view.get("step") if kind == "bid" else ""
        step = step if step in ("all", "first", "second", None, "") else "station"
        self.check_phone(player.page, f"{kind}{'-' + step if step else ''}")
        self.check_display()

    def finished(self) -> bool:
        # Over: straight to the final checks (the story covers the final scoring 20 s after
        # the winner is named, show.STORY_AFTER), the display's final screen is checked there.
        if self.display.evaluate("Boolean(window.__display.frame()?.game?.view?.finished)"):
            return True
        self.check_display()
        return False


def _final_checks(table: Table) -> None:
    d = table.display
    d.wait_for_selector(tid("final-scoring") + ":not([hidden])")
    view = d.evaluate("window.__display.frame().game.view")
    totals = d.locator(f"{tid('final-scoring')} tr.total td").all_inner_texts()
    assert totals == [str(view["players"][p]["final"]["total"]) for p in view["seats"]]
    assert d.locator(f"{tid('final-scoring')} tbody tr").count() == 9  # R7's 8 lines + total
    # The top bar no longer says which round it is (the game is over).
    # (the review's progress badge beside it may count percent)
    label = d.evaluate(
        "[...document.getElementById('round').childNodes]"
        ".filter(n => !(n.classList && n.classList.contains('review-status')))"
        ".map(n => n.textContent).join('')"
    )
    assert label and not any(ch.isdigit() for ch in label), label
    table.check_display("final")
    for pl in table.players:
        pl.page.wait_for_selector(tid("final-scoring"))
        cards = pl.page.locator(f"{tid('final-scoring')} {tid('final-total')}")
        assert cards.count() == len(table.players)
        assert sorted(int(x) for x in cards.all_inner_texts()) == sorted(
            view["players"][p]["final"]["total"] for p in view["seats"]
        )
        assert pl.page.locator(".pad-round .badge.last").count() == 0
    for i, pl in enumerate(table.players):
        table.check_phone(pl.page, f"final-{i}")


def test_three_phones_table_dice_every_decision_skip_resume_reload(server, browser, artifacts):
    table = Table(
        server,
        browser,
        artifacts,
        "t3",
        [
            ("Ana", "orange", "en-GB"),
            ("Bartholomewmaximilia", "purple", "de-DE"),
            ("Cleo", "green", "nl-NL"),
        ],
        display_lang="it",
    )
    ana, bart, cleo = table.players
    # Different tastes, so every decision kind comes up.
    ana.city, bart.city, cleo.city = "die", "hut", "die"
    bart.pyramid = "other"
    # Box 0 red, every other box green: round 1 is red, the next ones green (R2.3).
    table.host.track_colours(["red"] + ["green"] * 24)
    table.host.start("table")
    assert table.host.page.locator(tid("dice-table")).is_checked()

    # Round 1: a reload mid-bid keeps the cards already placed.
    play(
        table.players, table.host, until=lambda: task(ana.page) == "bid", on_screen=table.on_screen
    )
    ana.wait_for_card()
    ana.page.locator(tid("card", ":not([disabled])")).first.tap()
    placed = ana.page.locator(tid("slot")).first.inner_text()
    ana.page.reload()
    ana.page.wait_for_function("document.body.dataset.task === 'bid'")
    assert ana.page.locator(tid("slot")).first.inner_text() == placed

    # Round 2: the host hands Cleo to the companion; everybody sees it; then gives her back.
    play(
        table.players,
        table.host,
        on_screen=table.on_screen,
        until=lambda: (ana.view() or {}).get("round", 0) >= 2,
    )
    host = table.host.page
    # The host's page reloaded in round 2 numbers its log on from the game's start: the same
    # line has the same number, not "1." again at the round's start.
    before = table.host.log_lines()
    host.reload()
    host.wait_for_function("document.querySelectorAll('#host-log .log-no').length > 0")
    after = table.host.log_lines()
    assert min(after) > 1, after
    common = set(before) & set(after)
    assert common and all(before[n] == after[n] for n in common), (before, after)
    host.locator(f".host-seats li[data-seat={cleo.me()}] {tid('seat-menu-open')}").click()
    host.locator(f".host-seats li[data-seat={cleo.me()}] {tid('skip')}").click()
    cleo.page.wait_for_selector(tid("auto-note"))
    table.display.wait_for_selector(f"#seats li[data-seat={cleo.me()}] {tid('seat-auto')}")
    table.check_display("skipped")
    table.check_phone(cleo.page, "skipped")
    # Until the next round (or the end, should the game be over that soon).
    play(
        table.players,
        table.host,
        on_screen=table.on_screen,
        until=lambda: (ana.view() or {}).get("round", 0) >= 3 or table.finished(),
    )
    if table.finished():
        pytest.fail("the game ended before the seat could be given back")
    host.locator(f".host-seats li[data-seat={cleo.me()}] {tid('resume')}").click()  # menu open
    table.display.wait_for_selector(
        f"#seats li[data-seat={cleo.me()}] {tid('seat-auto')}", state="detached"
    )
    cleo.page.wait_for_selector(tid("auto-note"), state="detached")

    play(table.players, table.host, on_screen=table.on_screen, until=table.finished)
    _final_checks(table)
    assert table.modes >= {"red", "green"}, table.modes
    done = {k for pl in table.players for k in pl.done}
    assert {"sacrifice", "bid", "city"} <= done, done
    assert table.problems == [], "\n".join(table.problems)


def test_five_phones_long_names_digital_dice(server, browser, artifacts):
    table = Table(
        server,
        browser,
        artifacts,
        "t5",
        [
            ("Evangelina Fortunata", "orange", "en-US"),
            ("Annabellarosalindeee", "sky", "de-AT"),
            ("Dragomirovichenko", "yellow", "nl-BE"),
            ("Giuseppina-Mariella", "vermilion", "it-IT"),
            ("Bo", "blue", "en-GB"),
        ],
        display_lang="de",
    )
    for pl in table.players[1:3]:
        pl.dice = "none"
    table.players[0].pyramid = "other"
    # Box 0 gold: round 1 is played station by station (R2.6); later rounds as the track says.
    table.host.track_colours(["gold", "gold", "green", "red"])
    table.host.start("digital")
    play(table.players, table.host, on_screen=table.on_screen, until=table.finished)
    _final_checks(table)
    assert "gold" in table.modes, table.modes
    assert table.problems == [], "\n".join(table.problems)
