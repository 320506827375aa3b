"""Chaos at the table: seeded random games through the real pages in Chromium, doing what
people do in a row — tapping answers in any order, the host pressing Undo at random moments,
phones reloading and closing their tabs, the TV and the host's page reloading, a seat handed
to the companion and given back, a seat taken over by a new phone, End game, New game,
language and pace switches, the host ending beats early — with the table's invariants checked
after every action:

- **never stuck**: whenever the table waits for a seat, that seat's phone shows the question
  within the show's hold plus a few seconds;
- **no screen runs ahead**: no phone has a later view than the display, and the TV's log
  names the winner only once the winner's beat is up (the TV reloads now and then too);
- **the host's log keeps its numbers**: a line has the same number after the host's page
  reloaded (it does not count from 1 again at the round's start);
- **every seat plays**: while a game runs, each seat the display shows plays in it or is free
  for a new phone (a phone that takes over is the freed seat);
- **nothing overflows**: the display at 1280×720 (and now and then at 1920×1080, and held in
  a hand at 390×844) and a phone, each at 390×844 or 360×740 as it joined, sampled during the
  show's animations too;
- **the finale is seen**: the final scoring on the TV and the final result on every phone;
- **no secrets**: every websocket frame every page received, checked for another seat's
  unrevealed bid, sacrifice or dice decision (test_web_secrecy.check_frame);
- **nothing leaks**: the server holds one socket for each open screen (the display, the host's
  page, each phone), as the café admin's list counts them: a closed tab's, a reloaded page's
  or a freed seat's socket is gone within 20 s.

Seeds come from ``CHAOS_SEEDS`` (comma separated) or the defaults below; every failure names
its seed and action number, and the actions are logged to ``test-artifacts/chaos/``.
"""

from __future__ import annotations

import json
import os
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from live_server import LiveServer
from playwright.sync_api import Error as PlaywrightError
from test_web_secrecy import check_frame

from tests.web.browser.conftest import PHONE
from tests.web.browser.layout import PHONE_SIZES
from tests.web.browser.layout import check as layout_check
from tests.web.browser.layout import settle as layout_settle
from tests.web.browser.pads import LOG_KEY, describe, record
from tests.web.browser.tapping import HostPage, Player, join_by_taps, tid

SEEDS = [int(s) for s in os.environ.get("CHAOS_SEEDS", "11,13").split(",") if s.strip()]
ACTIONS = int(os.environ.get("CHAOS_ACTIONS", "260"))
NAMES = ["Maximiliane-Alexandra", "Jörg", "Xochi", "Bert", "Ana Lucía", "Wim", "Giulietta"]
COLOURS = ["orange", "sky", "green", "yellow", "blue"]
LANGS = ["en", "de", "nl", "it"]
# Which invariants to check (all by default; a subset helps to find which seed meets which
# break on an older tree, where the first break met stops the run).
CHECKS = set(
    os.environ.get("CHAOS_CHECKS", "stuck,ahead,seats,layout,finale,secrets,leaks").split(",")
)
GRACE_S = 8.0  # beyond the show's hold: how long a phone may take to show its question
# The fields of the host page's frame the checks read (status, who is awaited, the step).
HOST_FRAME = """() => {
  const f = window.__host?.frame();  // null until the page's script has run
  if (!f) return null;
  const g = f.game;
  return {
    seq: f.seq,
    seats: (f.seats || []).map((s) => ({id: s.id, companion: s.companion})),
    show: f.show ? {step: f.show.step, hold: f.show.hold, elapsed: f.show.elapsed} : null,
    game: g ? {id: g.id, status: g.status, view: {pending: g.view?.pending || []}} : null,
  };
}"""


@dataclass
class Phone:
    player: Player
    seat: str
    frames: list[dict[str, Any]] = field(default_factory=list)


class Chaos:
    """One server's table: the display, the host page and the phones, driven at random."""

    def __init__(self, server: LiveServer, browser: Any, seed: int, shots: Path) -> None:
        self.server = server
        self.browser = browser
        self.rng = random.Random(seed)
        self.sizes = random.Random(f"{seed} phone sizes")
        self.hosts = random.Random(f"{seed} host reloads")
        self.seed = seed
        self.shots = shots
        self.log: list[str] = []
        self.step = 0
        self.problems: list[str] = []
        self.display_frames: list[dict[str, Any]] = []
        self.display = self._page({"viewport": {"width": 1280, "height": 720}}, self.display_frames)
        self.display.goto(f"{server.base}/t/1/")  # the URL people open: no test parameters
        self.display.wait_for_selector("#seats li")
        self.host = HostPage(
            browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        )
        self.host.page.on("dialog", lambda d: d.accept())
        self.host.page.goto(server.host_url())
        self.phones: list[Phone] = []
        self.names = list(NAMES)
        self.rng.shuffle(self.names)
        for i in range(self.rng.choice([3, 4, 5])):
            self.join(self.names.pop(), COLOURS[i])
        self.games = 0
        self.finales = 0

    # -- pages ----------------------------------------------------------------------------
    def _page(self, options: dict[str, Any], frames: list[dict[str, Any]]) -> Any:
        page = self.browser.new_context(**options).new_page()
        record(page)

        def on_socket(ws: Any) -> None:
            ws.on("framereceived", lambda payload: frames.append(_json(payload)))

        page.on("websocket", on_socket)
        return page

    def join(self, name: str, colour: str | None) -> Phone:
        """A phone scans the QR code and takes a seat (``colour`` None: a freed seat in a
        running game, with the first colour the form offers)."""
        frames: list[dict[str, Any]] = []
        # People bring phones of both sizes the pages are made for (390×844 and 360×740),
        # drawn apart from the actions, so that a seed draws the same actions as before.
        w, hgt = self.sizes.choice(PHONE_SIZES)
        locale = self.rng.choice(["en-GB", "de-DE", "nl-NL"])
        self.say(f"{name} joins on a {w}×{hgt} phone ({locale})")
        page = self._page(
            {**PHONE, "viewport": {"width": w, "height": hgt}, "locale": locale}, frames
        )
        if colour is not None:
            join_by_taps(page, self.server.join_url(), name, colour)
        else:
            page.goto(self.server.join_url())
            page.wait_for_selector("#join-form:not([hidden])")
            # The page has looked up the colours taken and chosen a free one (a tap before
            # that can land on a colour about to be marked taken, and wait on it for ever).
            page.wait_for_selector('input[name="colour"]:checked', state="attached")
            page.locator(tid("join-name")).fill(name)
            free = page.locator(tid("join-colour") + ":not(.taken)")
            if free.count():
                free.first.tap()
            page.locator(tid("join-submit")).tap()
            page.wait_for_selector("#screen-game:not([hidden]), #screen-final:not([hidden])")
        page.wait_for_function("Boolean(window.__pad?.frame()?.you?.seat)")
        # People play differently: some take the city's die and keep their dice for later
        # stations (more dice windows, often with one holder), some build huts.
        player = Player(
            page,
            name,
            city=self.rng.choice(["die", "die", "hut"]),
            dice=self.rng.choice(["none", "none", "all"]),
        )
        phone = Phone(player, page.evaluate("window.__pad.frame().you.seat"), frames)
        self.phones.append(phone)
        return phone

    def say(self, text: str) -> None:
        self.log.append(f"[{self.step}] {text}")

    def fail(self, text: str) -> None:
        for name, page in [("display", self.display), ("host", self.host.page)] + [
            (p.seat, p.player.page) for p in self.phones
        ]:
            try:
                page.screenshot(path=str(self.shots / f"seed{self.seed}-fail-{name}.png"))
            except Exception:  # noqa: BLE001 - a closed page has nothing to show
                pass
        raise AssertionError(
            f"seed {self.seed}, action {self.step}: {text}\n" + "\n".join(self.log[-25:])
        )

    def host_frame(self) -> dict[str, Any]:
        """What the checks read of the host page's last frame (the whole frame, with the
        game's view and log, took 24 ms a read to pass from the page)."""
        return self.host.page.evaluate(HOST_FRAME) or {}

    def game_status(self) -> str | None:
        game = self.host_frame().get("game")
        return game["status"] if game else None

    # -- actions --------------------------------------------------------------------------
    def act(self) -> None:
        self.step += 1
        status = self.game_status()
        if status is None:
            self.start()
            return
        if status != "playing":
            self.after_game()
            return
        r = self.rng.random()
        if r < 0.70:
            self.tap()
        elif r < 0.76:
            self.undo()
        elif r < 0.81:
            self.reload()
        elif r < 0.84:
            self.close_and_reopen()
        elif r < 0.87:
            self.skip_or_give_back()
        elif r < 0.89:
            self.hand_to_new_phone()
        elif r < 0.93:
            self.switch_language()
        elif r < 0.97:
            self.switch_pace()
        elif r < 0.975:
            self.end_game()
        elif r < 0.99:
            self.reload_display()
        else:
            self.tap()

    def start(self) -> None:
        page = self.host.page
        page.wait_for_selector(tid("start") + ":not([disabled])")
        self.say(f"start with {len(self.phones)} phones")
        page.locator(tid("start")).click()
        page.wait_for_function("window.__host?.frame()?.game?.status === 'playing'")
        self.games += 1

    def tap(self) -> None:
        phones = self.phones[:]
        self.rng.shuffle(phones)
        for phone in phones:
            kind = phone.player.act()
            if kind:
                self.say(f"{phone.seat} answers {kind}")
                if self.rng.random() < 0.2:
                    # "Oops, not that": the host takes the answer back at once (when the
                    # host page offers it; the last move may be somebody else's by then).
                    self.undo()
                return
        self.say("nothing to tap")
        self.display.wait_for_timeout(150)

    def undo(self) -> None:
        button = self.host.page.locator("#undo")
        if not (button.is_visible() and button.is_enabled()):
            self.say("host: undo not offered")
            return
        self._tap_offered(button, "undo")  # a companion's move may take the offer back

    def reload(self) -> None:
        phone = self.rng.choice(self.phones)
        self.say(f"{phone.seat} reloads")
        phone.player.page.reload()
        phone.player.page.wait_for_function("Boolean(window.__pad?.frame())")

    def reload_display(self) -> None:
        """The TV's browser reloads the page (a refresh, the TV woken up): it comes back in the
        middle of whatever step is up."""
        self.say("the TV reloads")
        self.display.reload()
        self.display.wait_for_selector("#seats li")
        # Now and then the host refreshes the host's page too (drawn apart from the actions,
        # so that a seed draws the same actions as before): its log goes on with the same
        # numbers, and the page comes back to the same game.
        if self.hosts.random() < 0.5:
            self.reload_host()

    def reload_host(self) -> None:
        page = self.host.page
        before = self.host.log_lines()
        self.say("the host's page reloads")
        page.reload()
        page.wait_for_function("Boolean(window.__host?.frame())")
        if before:
            page.wait_for_function("document.querySelectorAll('#host-log .log-no').length > 0")
        after = self.host.log_lines()
        common = set(before) & set(after)
        if before and after and min(before) > 1 and not common:
            self.fail(f"the host's log starts again after a reload: {sorted(after)[:5]}")
        changed = [n for n in common if before[n] != after[n]]
        if changed:
            self.fail(
                "the host's log numbers other lines after a reload: "
                + "; ".join(f"{n}. {before[n]!r} now {after[n]!r}" for n in changed[:3])
            )

    def close_and_reopen(self) -> None:
        phone = self.rng.choice(self.phones)
        url = phone.player.page.url
        context = phone.player.page.context
        self.say(f"{phone.seat} closes the tab and opens it again")
        phone.player.page.close()
        page = context.new_page()
        record(page)
        page.on(
            "websocket",
            lambda ws: ws.on("framereceived", lambda payload: phone.frames.append(_json(payload))),
        )
        page.goto(url)
        page.wait_for_function("Boolean(window.__pad?.frame())")
        old = phone.player
        phone.player = Player(page, old.name, city=old.city, dice=old.dice)

    def _seat_button(self, name: str, testid: str) -> Any:
        row = self.host.page.locator("#host-seats li", has_text=name).first
        menu = row.locator(tid("seat-menu-open"))
        if menu.count() and not row.locator(tid(testid)).is_visible():
            try:
                menu.click(timeout=2000)  # the seat's actions menu (one per seat)
            except PlaywrightError:
                return None  # gone meanwhile: no game actions once the end is on screen
        button = row.locator(tid(testid))
        return button if button.count() and button.is_visible() else None

    def _tap_offered(self, button: Any, what: str) -> bool:
        """Tap a host control the page offered a moment ago. The page may take it back
        meanwhile (a beat ended by itself; the game's end came up on the screens, and a
        seat's menu offers no game actions then), as a host's finger can come a moment late."""
        try:
            button.click(timeout=2000)
        except PlaywrightError:
            self.say(f"host: {what} no longer offered")
            return False
        self.say(f"host: {what}")
        return True

    def skip_or_give_back(self) -> None:
        phone = self.rng.choice(self.phones)
        back = self._seat_button(phone.player.name, "resume")
        if back is not None:
            self._tap_offered(back, f"gives {phone.seat} back")
            return
        skip = self._seat_button(phone.player.name, "skip")
        if skip is not None:
            self._tap_offered(skip, f"lets the companion play for {phone.seat}")

    def hand_to_new_phone(self) -> None:
        if not self.names:
            return
        phone = self.rng.choice(self.phones)
        release = self._seat_button(phone.player.name, "release")
        if release is None:
            return
        if not self._tap_offered(release, f"frees {phone.seat}; a new phone takes it"):
            return
        phone.player.page.wait_for_function(
            "document.body.dataset.conn"
            " && !['open','connecting'].includes(document.body.dataset.conn)"
        )
        phone.player.page.context.close()
        self.phones.remove(phone)
        taken = self.join(self.names.pop(), None)
        self.say(f"the new phone holds {taken.seat}")

    def switch_language(self) -> None:
        lang = self.rng.choice(LANGS)
        if self.rng.random() < 0.5:
            self.say(f"display language {lang}")
            self.host.page.select_option("#display-lang", lang)
        else:
            phone = self.rng.choice(self.phones)
            self.say(f"{phone.seat} language {lang}")
            phone.player.page.select_option("#lang", lang)

    def switch_pace(self) -> None:
        pace = self.rng.choice(["quick", "quick", "normal"])
        self.say(f"pace {pace}")
        self.host.page.select_option("#pace", pace)

    def show_next(self) -> None:
        """The host ends the beat that is up, when the host page offers it."""
        button = self.host.page.locator("#show-next")
        if button.is_enabled():
            self._tap_offered(button, "next")

    def end_game(self) -> None:
        """End game, when the host page offers it (not for a game that finished by itself
        and is still on its way on the screens). The table may finish the game between the
        look and the tap (companion players' moves): then the offer goes, and the game stays
        shown as playing until the screens reach its end."""
        if not self._tap_offered(self.host.page.locator("#end-game"), "end game"):
            return
        self.host.page.wait_for_function(
            "() => { const f = window.__host?.frame();"
            " return f?.game?.status !== 'playing' || f?.host?.can_end === false; }"
        )

    def after_game(self) -> None:
        """The game is over: the finale must be seen everywhere, then a new game."""
        status = self.game_status()
        self.say(f"game over ({status})")
        if status == "finished" and "finale" in CHECKS:
            self.check_finale()
        self.say("host: new game")
        self.host.page.locator("#new-game").click()
        self.host.page.wait_for_function("window.__host && !window.__host.frame()?.game")

    # -- invariants -------------------------------------------------------------------------
    def check(self) -> None:
        if "stuck" in CHECKS:
            self.check_never_stuck()
        if "ahead" in CHECKS:
            self.check_no_screen_ahead()
            self.check_log_not_ahead()
        if "seats" in CHECKS:
            self.check_seats_play()
        if "layout" in CHECKS:
            self.check_layout()
        if "leaks" in CHECKS:
            self.check_no_socket_left()

    def awaited(self, frame: dict[str, Any]) -> set[str]:
        """The seats a person answers for that the host's view (the game as shown) waits on."""
        game = frame.get("game") or {}
        if game.get("status") != "playing":
            return set()
        companions = {s["id"] for s in frame.get("seats", []) if s.get("companion")}
        pending = (game.get("view") or {}).get("pending", [])
        return {str(e["player"]) for e in pending if e.get("player")} - companions

    def check_never_stuck(self) -> None:
        """Every phone the table waits for shows a question within the show's hold + grace.
        The hold is the one of the step the host's page has: when a newer step reaches it
        meanwhile (the answer that was just tapped puts up stations), its beats hold the
        questions too, and the deadline moves to their end."""
        frame = self.host_frame()
        deadline, step = self._hold_deadline(frame), _step_of(frame)
        # Some hosts end each beat once the table has read it (the host page's "Next").
        hurry = self.rng.random() < 0.5
        for seat in sorted(self.awaited(frame)):
            phone = next((p for p in self.phones if p.seat == seat), None)
            if phone is None:
                continue
            page = phone.player.page
            while True:
                shown = page.evaluate("document.body.dataset.task || ''")
                if shown not in ("", "none"):
                    break
                if hurry:
                    self.show_next()
                now = self.host_frame()
                if seat not in self.awaited(now):
                    break  # answered meanwhile (a companion, the autopilot, an undo)
                if _step_of(now) != step:
                    deadline, step = max(deadline, self._hold_deadline(now)), _step_of(now)
                if time.monotonic() > deadline:
                    self.fail(
                        f"the table waits for {seat} but the phone shows no question "
                        f"{GRACE_S:.1f} s after the show's hold:\n{describe(page)}"
                    )
                page.wait_for_timeout(200)

    @staticmethod
    def _hold_deadline(frame: dict[str, Any]) -> float:
        """When the step in ``frame`` stops holding the questions, plus the grace."""
        show = frame.get("show") or {}
        hold = max(0.0, float(show.get("hold") or 0) - float(show.get("elapsed") or 0))
        return time.monotonic() + hold + GRACE_S

    def check_no_screen_ahead(self) -> None:
        """No phone was sent a view the display was not sent: each phone's last view (recorded
        as it arrived, whatever the page's script is busy with) must be one the display's
        socket received too, or older than the display's last view of that game. Frames go to
        every screen at once; the display gets 10 s to receive one that is on its way (a
        display that stopped reading on a loaded machine is dropped after 10 s and gets the
        whole view back when it reconnects). The phone's last view is read again meanwhile
        (after an undo a phone still on the view before it is behind, not ahead)."""
        for phone in self.phones:
            deadline = time.monotonic() + 10.0
            while True:
                mine = _last_view(phone.frames)
                shown = _last_view(self.display_frames)
                if (
                    mine is None
                    or mine in _views(self.display_frames)
                    or (shown is not None and shown[0] == mine[0] and shown[1] >= mine[1])
                ):
                    break
                if time.monotonic() > deadline:
                    sockets = [
                        line
                        for line in getattr(self.display, LOG_KEY, [])
                        if line.startswith("ws ")
                    ]
                    self.fail(
                        f"{phone.seat}'s phone was sent view {mine[1]} of game {mine[0]}, "
                        f"which the display never was (its last: {shown}; its sockets: "
                        f"{sockets[-6:]})"
                    )
                self.display.wait_for_timeout(100)

    def check_log_not_ahead(self) -> None:
        """The TV's log tells the final scoring and the winner only once the winner's beat is
        up (or the step is read), also after the TV reloaded in the middle of the step: a page
        opened mid-step once told the whole step at once."""
        got = self.display.evaluate(
            "() => { const b = window.__display?.beat?.(); if (!b) return null;"
            " return {index: b.index, kind: b.index >= 0 ? b.beats[b.index] : null,"
            " types: [...document.querySelectorAll('#log li')].map((li) => li.dataset.type)}; }"
        )
        if not got or got["index"] < 0 or got["kind"] == "winner":
            return
        told = [t for t in got["types"] if t in ("final_scoring", "game_over")]
        if told:
            self.fail(f"the TV's log tells {told} while beat {got['index']} ({got['kind']}) is up")

    def check_no_socket_left(self) -> None:
        """One socket for each open screen: the display, the host's page and each phone (a
        page that reloads or reconnects may hold none or two for a moment; a display the
        server dropped for reading too slowly on a loaded machine comes back within its
        reconnect's back-off, a few seconds)."""
        want = {"display": 1, "host": 1, "seat": len(self.phones)}
        deadline = time.monotonic() + 20.0
        while (got := self.server.sockets()) != want:
            if time.monotonic() > deadline:
                self.fail(f"the server holds sockets {got} for the open screens {want}")
            self.display.wait_for_timeout(100)

    def check_seats_play(self) -> None:
        """Every seat the display shows while a game runs plays in it, or is free for a new
        phone: a phone that takes over is the freed seat, never a seat no game knows (its card
        would stay empty, and the table would wait on the freed seat for ever)."""
        frame = next((f for f in reversed(self.display_frames) if f.get("type") == "view"), {})
        game = frame.get("game") or {}
        if game.get("status") != "playing":
            return
        players = set((game.get("view") or {}).get("players") or {})
        strangers = [
            s["id"]
            for s in frame.get("seats") or []
            if s.get("state") != "vacant" and s["id"] not in players
        ]
        if strangers:
            self.fail(f"the display shows seats {strangers} in a game of {sorted(players)}")

    def check_layout(self) -> None:
        problems = [f"display: {p}" for p in layout_check(self.display, "display")]
        phone = self.rng.choice(self.phones)
        if phone.player.page.evaluate("!document.getElementById('screen-game')?.hidden"):
            problems += [
                f"{phone.seat}'s phone: {p}" for p in layout_check(phone.player.page, "phone")
            ]
        if self.step % 40 == 0:
            self.display.set_viewport_size({"width": 1920, "height": 1080})
            layout_settle(self.display)
            problems += [f"display 1920: {p}" for p in layout_check(self.display, "display")]
            self.display.screenshot(
                path=str(self.shots / f"seed{self.seed}-{self.step:03d}-1920.png")
            )
            self.display.set_viewport_size({"width": 1280, "height": 720})
            layout_settle(self.display)
        if self.step % 40 == 20:
            # The same page held in a hand (someone opens the display on a phone): one column
            # that scrolls, checked as a phone's page whatever the game is showing.
            self.display.set_viewport_size({"width": 390, "height": 844})
            layout_settle(self.display)
            problems += [f"display on a phone: {p}" for p in layout_check(self.display, "phone")]
            self.display.screenshot(
                path=str(self.shots / f"seed{self.seed}-{self.step:03d}-phone.png"), full_page=True
            )
            self.display.set_viewport_size({"width": 1280, "height": 720})
            layout_settle(self.display)
        if self.step % 10 == 0:
            self.display.screenshot(path=str(self.shots / f"seed{self.seed}-{self.step:03d}.png"))
            phone.player.page.screenshot(
                path=str(self.shots / f"seed{self.seed}-{self.step:03d}-{phone.seat}.png")
            )
        if problems:
            self.problems += [f"action {self.step}: {p}" for p in problems]

    def check_finale(self) -> None:
        """The final scoring is seen on the TV and on every phone (no line left 'secret')."""
        d = self.display
        deadline = time.monotonic() + 90
        seen = []
        while True:
            state = d.evaluate(
                "() => { const v = (id) => {"
                " const e = document.querySelector(`[data-testid=${id}]`);"
                " if (!e || e.hidden) return false; const r = e.getBoundingClientRect();"
                " if (!r.width || !r.height) return false;"
                " const top = document.elementFromPoint("
                "r.left + r.width / 2, r.top + Math.min(r.height / 2, 40));"
                " return Boolean(top && e.contains(top)); };"
                " return {final: v('final-scoring'), story: v('story')}; }"
            )
            seen.append(state)
            if state["final"]:
                break
            if time.monotonic() > deadline:
                self.fail(f"the display never showed the final scoring uncovered: {seen[-5:]}")
            d.wait_for_timeout(200)
        self.finales += 1
        d.screenshot(path=str(self.shots / f"seed{self.seed}-finale-{self.finales}.png"))
        # Then the winner's moment, on the TV and every phone (the story comes only after it).
        crowned = "document.querySelector('[data-testid=final-scoring]')?.dataset.crowned"
        for name, page in [("the display", d)] + [(p.seat, p.player.page) for p in self.phones]:
            try:
                page.wait_for_function(f"{crowned} === 'true'", timeout=90000)
            except Exception as exc:  # noqa: BLE001 - re-raised with the page's state
                self.fail(f"{name} never named the winner: {exc}")
            secret = page.evaluate(
                "() => [...document.querySelectorAll('[data-testid=final-scoring] *')].some("
                "(e) => e.children.length === 0"
                " && /^(secret|geheim|segreto)$/i.test(e.textContent.trim()))"
            )
            if secret and name != "the display":
                self.fail(f"{name}'s final result shows a 'secret' line")
        d.screenshot(path=str(self.shots / f"seed{self.seed}-winner-{self.finales}.png"))

    def check_secrets(self) -> None:
        for phone in self.phones:
            for f in phone.frames:
                if f.get("type") == "view":
                    check_frame(f, phone.seat, [], None)
        for f in self.display_frames:
            if f.get("type") == "view":
                check_frame(f, None, [], None)


def _last_view(frames: list[dict[str, Any]]) -> tuple[Any, int] | None:
    """(game id, seq) of the last view frame in ``frames``."""
    for f in reversed(frames):
        if f.get("type") == "view":
            return ((f.get("game") or {}).get("id"), int(f.get("seq") or 0))
    return None


def _step_of(frame: dict[str, Any]) -> tuple[Any, Any, Any, Any]:
    """Which step of which game a frame shows, and at which hold (a slower pace mid-step
    holds the rest of the step longer: the deadline moves with it)."""
    return (
        (frame.get("game") or {}).get("id"),
        frame.get("seq"),
        (frame.get("show") or {}).get("step"),
        (frame.get("show") or {}).get("hold"),
    )


def _views(frames: list[dict[str, Any]]) -> set[tuple[Any, int]]:
    """(game id, seq) of every view frame in ``frames``."""
    return {
        ((f.get("game") or {}).get("id"), int(f.get("seq") or 0))
        for f in list(frames)
        if f.get("type") == "view"
    }


def _json(payload: Any) -> dict[str, Any]:
    try:
        value = json.loads(payload if isinstance(payload, str) else payload.decode())
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


@pytest.fixture
def chaos_server(tmp_path: Path):
    srv = LiveServer(tmp_path, host_name="table.lan", extra=["--pace", "quick"])
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


# A whole seeded run: 260 actions through the pages take 3–4 minutes on a quiet 2-core
# machine; the suite's 300 s limit per test is for tests that do one thing.
@pytest.mark.timeout(1200)
@pytest.mark.parametrize("seed", SEEDS)
def test_chaos_at_the_table(
    chaos_server: LiveServer, browser: Any, artifacts: Path, seed: int
) -> None:
    shots = artifacts / "chaos"
    shots.mkdir(exist_ok=True)
    table = Chaos(chaos_server, browser, seed, shots)
    try:
        for _ in range(ACTIONS):
            table.act()
            table.check()
        if "secrets" in CHECKS:
            table.check_secrets()
    finally:
        (shots / f"seed{seed}-actions.txt").write_text("\n".join(table.log), encoding="utf-8")
    assert table.games >= 1
    # Every layout problem met on the way, listed for a person to look at, fails the run.
    (shots / f"seed{seed}-layout.txt").write_text("\n".join(table.problems), encoding="utf-8")
    assert not table.problems, f"seed {seed}: screens did not fit:\n" + "\n".join(
        table.problems[:20]
    )
