"""Play by tapping the pages, as people do: every action goes through a visible element found
by its ``data-testid`` (companion/web/static/README.md lists them), never through the socket.

``Player.act()`` does what the phone asks right now (sacrifice, bid, dice, city, pyramid,
roll); ``HostPage.type_in()`` types the real dice and cards into the host page. ``play()``
loops both until a condition holds and calls ``on_screen`` for every new screen, so a test can
check layouts as it goes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page

from .pads import ASKED

# What a phone page holds when a tap fails: its command in flight, the seq and its questions.
PAD_STATE = """() => JSON.stringify({asking: window.__pad?.asking?.(),
  seq: window.__pad?.frame()?.seq, pending: window.__pad?.frame()?.you?.pending,
  outbox: window.__pad?.conn?.outbox?.size, socket: document.body.dataset.conn,
  task: document.body.dataset.task})"""


def tid(name: str, extra: str = "") -> str:
    return f"[data-testid={name}]{extra}"


def join_by_taps(page: Page, url: str, name: str, colour: str) -> None:
    page.goto(url)
    page.wait_for_selector("#screen-join:not([hidden])")
    page.locator(tid("join-name")).fill(name)
    page.locator(tid("join-colour", f"[data-value={colour}]")).tap()
    page.locator(tid("join-submit")).tap()
    page.wait_for_selector("#screen-lobby:not([hidden])")


def task(page: Page) -> str:
    return page.evaluate("document.body.dataset.task || ''")


@dataclass
class Player:
    """One phone. ``bid_first`` values are placed first when possible (e.g. both 11s)."""

    page: Page
    name: str
    bid_first: list[int] = field(default_factory=list)
    city: str = "hut"
    dice: str = "all"  # "all" or "none"
    pyramid: str = "me"  # "me" or "other"
    done: list[str] = field(default_factory=list)

    def view(self) -> dict | None:
        return self.page.evaluate("window.__pad.frame()?.game?.view || null")

    def state(self) -> dict:
        """What the pad shows now (for failure messages)."""
        return self.page.evaluate("""() => ({task: document.body.dataset.task,
            conn: document.body.dataset.conn, sending: !!document.querySelector('.sending'),
            review: !!document.querySelector('[data-testid=review]'),
            enabled: document.querySelectorAll('[data-testid=card]:not([disabled])').length,
            cards: document.querySelectorAll('[data-testid=card]').length,
            pending: window.__pad.frame()?.you?.pending, seq: window.__pad.frame()?.seq,
            error: document.querySelector('#task .error')?.textContent || ''})""")

    def wait_for_card(self, timeout: float = 30000) -> None:
        """Wait until a card can be placed; the failure message says what the pad showed."""
        try:
            self.page.wait_for_selector(tid("card", ":not([disabled])"), timeout=timeout)
        except Exception as exc:  # noqa: BLE001 - re-raised with the pad's state
            raise AssertionError(f"no card can be placed: {self.state()}") from exc

    def me(self) -> str:
        return self.page.evaluate("window.__pad.frame()?.you?.seat")

    def act(self, only: str | None = None) -> str | None:
        """Answer what the pad asks now, by taps; returns the kind answered (or None).
        ``only``: answer only that kind (what the caller saw; the pad may have moved on)."""
        p = self.page
        kind = p.evaluate(ASKED)  # one look at the page (pads.ASKED)
        if only is not None and kind != only:
            return None
        tap = self._tap
        if kind == "sacrifice":
            if not tap(p.locator(tid("choice", "[data-kind=sacrifice]")).first, kind):
                return None
        elif kind == "bid":
            if not self.fill_bid() or not tap(p.locator(tid("review")), kind):
                return None
        elif kind == "dice":
            options = p.locator(tid("choice", "[data-kind=dice]"))
            if not tap(options.last if self.dice == "all" else options.first, kind):
                return None
        elif kind == "city":
            if not tap(p.locator(tid("choice", f"[data-kind=city][data-value={self.city}]")), kind):
                return None
        elif kind == "pyramid":
            options = p.locator(tid("choice", "[data-kind=pyramid]"))
            first = self.pyramid == "me" or options.count() == 1
            if not tap(options.first if first else options.last, kind):
                return None
        elif kind == "roll":
            inputs = p.locator("#task input.die-input")
            # The heading counts the dice in words that fit the number ("your black die").
            heading = p.locator("#task h2").first.inner_text()
            assert (str(inputs.count()) in heading) == (inputs.count() > 1), heading
            for i in range(inputs.count()):
                inputs.nth(i).fill(str(3 + i % 3))
            try:
                p.locator("#task form.roll-form button[type=submit]").tap()
            except PlaywrightError as e:  # say what the pad held (it once stayed disabled)
                raise AssertionError(f"{self.name}: {p.evaluate(PAD_STATE)}") from e
        else:
            return None
        if kind != "roll" and not tap(p.locator(tid("lock-in")), kind):
            return None
        self.done.append(kind)
        return kind

    def _tap(self, locator: Locator, kind: str) -> bool:
        """Tap ``locator`` while the pad asks ``kind``; False when the question went meanwhile
        (the host let the companion play the seat, or took a move back), as a person's finger
        can come a moment late. A control that stays away while it is asked fails after 30 s."""
        deadline = time.monotonic() + 30
        while True:
            try:
                locator.tap(timeout=2000)
                return True
            except PlaywrightError:
                if self.page.evaluate("document.body.dataset.task || ''") != kind:
                    return False
                if time.monotonic() > deadline:
                    raise

    def fill_bid(self) -> bool:
        """Tap cards into the slots: the wanted values first, then the first free cards.
        False if the pad stopped asking for a bid meanwhile (nothing left to do)."""
        p = self.page
        review = p.locator(tid("review"))
        for value in self.bid_first:
            if review.is_enabled():
                break
            card = p.locator(tid("card", f"[data-value='{value}']:not([disabled])")).first
            if card.count():
                card.tap()
        while task(p) == "bid" and review.count() and not review.is_enabled():
            free = p.locator(tid("card", ":not([disabled])"))
            try:
                assert free.count(), f"a slot is empty but no card can be placed: {self.state()}"
                free.first.tap()
            except (AssertionError, PlaywrightError):
                # The pad may stop asking between two looks (the host handed the seat to a
                # companion player, who bid, then gave it back): then there is nothing to do.
                if task(p) != "bid":
                    return False
                raise
        return task(p) == "bid" and review.count() > 0 and review.is_enabled()


class HostPage:
    """The host page: start, dice source, typed-in dice and cards, skip/resume."""

    def __init__(
        self,
        page: Page,
        harvest: tuple[int, int, int] = (6, 3, 1),
        cards: tuple[int, int] = (11, 10),
    ) -> None:
        self.page = page
        self.harvest = harvest
        self.cards = cards

    def start(self, dice: str = "digital") -> None:
        self.page.locator(tid(f"dice-{dice}")).check()
        self.page.wait_for_function(f"window.__host?.frame()?.table?.dice === '{dice}'")
        self.page.locator(tid("start")).click()

    def log_lines(self) -> dict[int, str]:
        """The host's log lines by their number ("12. Ana sacrifices …")."""
        return {
            int(no.rstrip(".")): text
            for no, text in self.page.evaluate(
                "() => [...document.querySelectorAll('#host-log li')].map((li) =>"
                " [li.querySelector('.log-no').textContent,"
                " li.textContent.slice(li.querySelector('.log-no').textContent.length)])"
            )
        }

    def track_colours(self, colours: list[str]) -> None:
        """Correct the score track's box colours on the host page (R2.3) and save them."""
        page = self.page
        page.locator("#track-length").fill(str(len(colours)))
        page.locator("#track-length").dispatch_event("change")
        for box, colour in enumerate(colours):
            select = page.locator(f"#track-boxes select[data-box='{box}']")
            if select.input_value() != colour:
                select.select_option(colour)
        page.locator("#track-save").click()
        page.wait_for_function(
            "JSON.stringify(window.__host?.frame()?.host?.profile?.saved) === "
            + repr(__import__("json").dumps(colours, separators=(",", ":")))
        )

    def type_in(self) -> bool:
        """Fill in the first form the host is asked for; True if one was sent."""
        # Players roll their own black dice on their phones; the host types the round's setup.
        form = self.page.locator(
            "#host-inputs:not([hidden]) form.host-input"
            ":is([data-kind=harvest], [data-kind=improvements])"
        ).first
        if not form.count():
            return False
        kind = form.get_attribute("data-kind")
        form = self.page.locator(f"#host-inputs form.host-input[data-kind={kind}]").first
        if kind == "harvest":
            selects = form.locator("select")
            for i, v in enumerate(self.harvest):
                selects.nth(i).select_option(str(v))
        else:
            inputs = form.locator("input")
            for i in range(inputs.count()):
                inputs.nth(i).fill(str(self.cards[i % 2]))
        form.locator("button[type=submit]").click()
        # Until the table has it: the page must not be read again before its next view.
        self.page.wait_for_function(
            "k => !(window.__host?.frame()?.host?.inputs || []).some(e => e.type === k)", arg=kind
        )
        return True


def play(
    players: list[Player],
    host: HostPage | None,
    until: Callable[[], bool],
    on_screen: Callable[[Player, str], None] | None = None,
    timeout: float = 240,
) -> None:
    """Tap through the game until ``until()`` holds. ``on_screen(player, kind)`` runs before a
    player answers (to check that screen; it decides itself what it has seen already)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if until():
            return
        acted = False
        for pl in players:
            kind = task(pl.page)
            # Checked after that look and before every tap sequence, which answers only what
            # was seen: never act past the point (a question that came after the check was
            # answered at once, and the test never saw the pad at its point).
            if until():
                return
            if kind in ("", "none"):
                continue
            if on_screen:
                on_screen(pl, kind)
            if pl.act(only=kind):
                acted = True
        if host is not None and host.type_in():
            acted = True
        if not acted:
            players[0].page.wait_for_timeout(100)
    raise TimeoutError("the game did not reach the expected point in time")
