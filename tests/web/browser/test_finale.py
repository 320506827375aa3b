"""The finale as a moment: the TV (1280x720, opened as people open it, `/t/1/`) and a phone
(390x844) sampled every ~0.2 s through a whole game's last step at the normal pace.

Three players (Ana on the phone, her seat then played by the companion, and two companion
players) play a game; the host's "next" hurries the show through every step before the last
one. From the last step on, at the normal pace (6 s a beat, so a busy machine's stall never
hides a beat), both pages are read every ~0.2 s and photographed whenever what
they show changes (test-artifacts/finale/). The order must be: the last round's stations, then
every final-scoring line (R7) one by one, then the winner, then the story of the game, which
never covers a line or the winner's moment still due and whose chart ends at the final totals
its headline names. The phone never shows a final result with a line reading "secret".

A page opened in the middle of a step tells no more than one that watched it come: on a step
that reveals several stations at once, a second TV opened and the phone reloaded while its
first station is up show, beat by beat, the log of the TV that watched and no later station's
result; on the last step, a TV opened and the phone reloaded as it comes up never name the
winner before the winner's beat (a page opened mid-step once told the whole step at once).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from live_server import Host, LiveServer

from . import pads
from .conftest import ARTIFACTS, PHONE

SAMPLE = 0.2  # seconds between two reads of the pages
TV = {"viewport": {"width": 1280, "height": 720}}


@pytest.fixture
def paced(tmp_path: Path):
    srv = LiveServer(tmp_path, host_name="table.lan", extra=["--pace", "relaxed"])
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


READ_TV = r"""() => {
  const texts = (root, sel) => [...root.querySelectorAll(sel)].map((x) => x.textContent.trim());
  const vis = (el) => Boolean(el && !el.hidden && el.checkVisibility());
  const b = window.__display.beat();
  const f = window.__display.frame();
  const final = document.getElementById('final-panel');
  const story = document.getElementById('story-panel');
  const spot = document.getElementById('spotlight');
  const crowned = final && final.querySelector('.winners:not(.pending)');
  const review = document.querySelector('[data-testid=review-status]');
  return {
    step: b.step,
    index: b.index,
    kind: b.index >= 0 ? b.beats[b.index] : null,
    kinds: b.beats,
    finished: Boolean(f?.game?.view?.finished),
    final: vis(final),
    totals: vis(final) ? texts(final, '.final-table tr.total td') : [],
    finalText: vis(final) ? final.innerText : '',
    faceDown: vis(final) ? final.querySelectorAll('.final-table td.face-down').length : 0,
    crowned: vis(crowned) ? crowned.textContent : null,
    story: vis(story),
    headline: vis(story) ? story.querySelector('.story-headline')?.textContent || '' : null,
    ends: vis(story) ? texts(story, '.story-svg .end-score').map(Number) : [],
    spot: vis(spot) ? spot.dataset.kind : null,
    review: vis(review) ? review.textContent : null,
    log: texts(document, '#log li'),
    logTypes: [...document.querySelectorAll('#log li')].map((li) => li.dataset.type),
    reviewing: Boolean(f?.review),
    text: document.body.innerText,
  };
}"""

READ_PHONE = r"""() => {
  const screen = document.getElementById('screen-final');
  const shown = Boolean(screen && !screen.hidden);
  const texts = (sel) => [...screen.querySelectorAll(sel)].map((x) => x.textContent.trim());
  return {
    shown,
    cards: shown ? [...screen.querySelectorAll('.final-card')].map((c) => c.dataset.player) : [],
    totals: shown ? texts('[data-testid=final-total]') : [],
    lead: shown ? screen.querySelector('.lead')?.textContent || null : null,
    text: shown ? screen.innerText : '',
  };
}"""


RECORD = """() => {
  const read = %(read)s;
  const stamped = () => ({ ...read(), at: Math.round(performance.now()) });
  window.__finale = [stamped()];
  setInterval(() => window.__finale.push(stamped()), %(ms)d);
}"""


LOG = "() => [...document.querySelectorAll('#log li')].map((li) => li.textContent)"
# The stations whose results the phone shows now.
PHONE_RANKINGS = (
    "() => [...document.querySelectorAll('[data-testid=ranking]')]"
    ".filter((e) => e.checkVisibility()).map((e) => Number(e.dataset.station))"
)


def _to_the_last_step(
    host: Host, deadline: float, on_stations: Callable[[dict[str, Any]], None]
) -> None:
    """The host's "next" ends beat after beat until the step that ends the game is up (its
    beats hold the final-scoring lines, R7). The relaxed pace (10 s a beat) keeps the show's
    own clock from moving on between a look and a "next". The first step that reveals more
    than one station is handed to ``on_stations`` (its show block) while its first beat is up.
    """
    seen = False
    while time.monotonic() < deadline:
        view = host.view or {}
        show = view.get("show") or {}
        kinds = [b["kind"] for b in show.get("beats", [])]
        if "final_line" in kinds:
            return
        if not seen and kinds.count("station") > 1 and kinds.index("station") == 0:
            seen = True
            on_stations(show)
            continue
        assert host.act("show_next")["type"] == "ok"
        time.sleep(0.06)  # stay below the socket's message rate (PROTOCOL.md, 20 a second)
        host.poll(0.0)
    raise AssertionError("the game's last step never came up")


def _same_log(tv: Any, other: Any, what: str) -> None:
    """Both TVs' logs read the same within a few seconds (each renders on its own clock)."""
    deadline = time.monotonic() + 5
    while (a := tv.evaluate(LOG)) != (b := other.evaluate(LOG)):
        assert time.monotonic() < deadline, f"{what}: the TV that watched {a[:6]}, opened {b[:6]}"
        time.sleep(0.1)


def _opened_mid_step(host: Host, tv: Any, phone: Any, base: str, browser: Any) -> Callable:
    """The check of a step that reveals several stations at once (``_to_the_last_step``): a
    TV opened and the phone reloaded while its first beat is up tell, beat by beat, what the
    TV that watched tells (the log) and no later station's result (the phone's ranking)."""

    def check(show: dict[str, Any]) -> None:
        step = show["step"]
        # Two minutes a beat while the pages open and are compared (a busy machine may take
        # longer than a relaxed beat to load them); the host's "next" ends each beat.
        assert host.act("set_pace", pace="test:120")["type"] == "ok"
        tv2 = browser.new_context(**TV).new_page()
        tv2.goto(f"{base}/t/1/")
        phone.reload()
        phone.wait_for_function("Boolean(window.__pad?.frame())")
        rankings_seen = []
        for i, b in enumerate(show["beats"]):
            key = f"{step}:{i}"
            for page in (tv, tv2):
                page.wait_for_function(
                    "k => window.__display?.beatKey?.() === k", arg=key, timeout=15000
                )
            phone.wait_for_function("k => window.__pad?.beatKey?.() === k", arg=key)
            _same_log(tv, tv2, f"step {step} beat {i} ({b['kind']})")
            if b["kind"] == "station":
                # The phone renders the beat within a quarter of a second; a later station's
                # result would stay the whole beat.
                deadline = time.monotonic() + 3
                while (shown := phone.evaluate(PHONE_RANKINGS)) != [b["station"]]:
                    assert all(s <= b["station"] for s in shown), (
                        f"step {step} beat {i}: the phone shows station {shown} "
                        f"while station {b['station']} is up"
                    )
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.1)
                rankings_seen += shown
            assert host.act("show_next")["type"] == "ok"
            time.sleep(0.06)  # below the socket's message rate
            host.poll(0.0)
        assert rankings_seen, "the phone never showed a station's result"
        tv2.context.close()
        assert host.act("set_pace", pace="relaxed")["type"] == "ok"

    return check


def _shoot(page: Any, out: Path, prefix: str, n: int, label: str) -> None:
    page.screenshot(path=str(out / f"{prefix}-{n:02d}-{label}.png"))


def test_the_finale_comes_line_by_line_then_the_winner_then_the_story(
    paced: LiveServer, browser
) -> None:
    out = ARTIFACTS / "finale"
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.png"):
        old.unlink()
    phone = browser.new_context(**PHONE).new_page()
    pads.join(phone, paced.join_url("1"), "Ana", "orange")
    host = Host(paced, "1")
    host.hello()
    for name in ("Ben", "Cleo"):
        assert host.act("add_bot", level="plain", name=name)["type"] == "ok"
    tv = browser.new_context(**TV).new_page()
    tv.goto(f"{paced.base}/t/1/")  # the address people open: no test parameter
    tv.wait_for_function("() => window.__display?.beat")
    assert host.act("start", dice="digital")["type"] == "ok"
    assert host.act("hand_to_bot", seat="ana", level="plain")["type"] == "ok"
    _to_the_last_step(
        host, time.monotonic() + 240, _opened_mid_step(host, tv, phone, paced.base, browser)
    )
    # A TV opened and the phone reloaded as the last step comes up (checked below: neither
    # names the winner before its beat), its first beat held while they load.
    assert host.act("set_pace", pace="test:120")["type"] == "ok"
    tv2 = browser.new_context(**TV).new_page()
    tv2.goto(f"{paced.base}/t/1/")
    tv2.wait_for_function("() => window.__display?.beat")
    phone.reload()
    phone.wait_for_function("Boolean(window.__pad?.frame())")
    assert host.act("set_pace", pace="normal")["type"] == "ok"  # 6 s a beat from here on
    print("last step up:", (host.view or {}).get("show"))
    # Each page reads itself every ~0.2 s (a recorder in the page, so a slow screenshot or a
    # busy machine on this side never leaves a gap in the samples).
    for page, read in ((tv, READ_TV), (tv2, READ_TV), (phone, READ_PHONE)):
        page.evaluate(RECORD % {"read": read, "ms": int(SAMPLE * 1000)})

    # Photographs whenever what a page shows changes, until the story has stayed a while.
    tv_key = phone_key = None
    shots = 0
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        s = tv.evaluate("window.__finale.at(-1) || null")
        p = phone.evaluate("window.__finale.at(-1) || null")
        if s is not None:
            key = (s["index"], s["final"], sum(1 for x in s["totals"] if x), bool(s["crowned"]))
            if (*key, s["story"]) != tv_key:
                tv_key, shots = (*key, s["story"]), shots + 1
                label = "story" if s["story"] else s["kind"] or "read"
                _shoot(tv, out, "tv", shots, label)
        if p is not None:
            pkey = (p["shown"], len(p["cards"]), bool(p["lead"]))
            if pkey != phone_key:
                phone_key, shots = pkey, shots + 1
                label = (
                    "winner" if p["lead"] else f"cards{len(p['cards'])}" if p["shown"] else "game"
                )
                _shoot(phone, out, "phone", shots, label)
        if tv.evaluate("window.__finale.filter((s) => s.story).length") >= 5:
            break
        time.sleep(SAMPLE)
    tv_samples: list[dict[str, Any]] = tv.evaluate("window.__finale")
    opened: list[dict[str, Any]] = tv2.evaluate("window.__finale")
    phone_samples: list[dict[str, Any]] = phone.evaluate("window.__finale")
    n = min(len(tv_samples), len(phone_samples))

    # What was read, one line a sample (kept beside the pictures for whoever looks into it).
    trace = [
        f"{i:3d} t={s['at']} tv beat={s['index']}:{s['kind']} final={s['final']} "
        f"totals={s['totals']} crowned={bool(s['crowned'])} story={s['story']} "
        f"spot={s['spot']} | phone shown={q['shown']} cards={q['cards']} lead={bool(q['lead'])}"
        for i, (s, q) in enumerate(zip(tv_samples[:n], phone_samples[:n], strict=True))
    ]
    (out / "samples.txt").write_text("\n".join(trace) + "\n")
    frame = tv.evaluate("window.__display.frame()")
    view = frame["game"]["view"]
    order = view["seats"]
    totals = {p: view["players"][p]["final"]["total"] for p in order}
    winners = view["winners"]
    assert view["finished"] and winners

    # --- the TV ---
    storied = [i for i, s in enumerate(tv_samples) if s["story"]]
    crowned = [i for i, s in enumerate(tv_samples) if s["crowned"]]
    assert storied, "the story never came up"
    assert crowned, "the winner's moment was never shown"
    first_story, first_crown = storied[0], crowned[0]
    # Every final-scoring line appears on the TV, one more at a time, before the winner (a
    # busy machine may stall a page past a beat, so a count may be skipped, never reversed).
    counts = [sum(1 for x in s["totals"] if x) for s in tv_samples[:first_crown] if s["final"]]
    assert counts and counts == sorted(counts), counts
    assert counts[0] < len(order) and len(set(counts)) >= 2, counts  # not all at once
    for col, p in enumerate(order):
        assert any(
            s["final"] and s["totals"][col] == str(totals[p]) for s in tv_samples[:first_crown]
        ), f"{p}'s final line never showed"
    # The winner comes once every line is up, and nothing names them before.
    assert tv_samples[first_crown]["totals"] == [str(totals[p]) for p in order]
    for s in tv_samples[:first_crown]:
        assert "Winner" not in s["text"] and "Shared win" not in s["text"], s["text"][:300]
        # A line not turned yet is a blank face, never the word "secret" (nothing is secret
        # at the end: it is only still face down).
        assert "secret" not in s["finalText"].lower(), s["finalText"][:300]
    assert any(s["faceDown"] for s in tv_samples[:first_crown] if s["final"])
    # Then the story, never while a line or the winner's moment is still due.
    assert first_story > first_crown
    for i in storied:
        s = tv_samples[i]
        assert s["index"] == -1, s["kind"]  # the step's beats are all read
    assert all(s["story"] for s in tv_samples[first_story:])  # it stays
    # The review's progress in the top bar waits for the end to be shown, as the story does
    # (it said "each phone has its review" under the final lines still turning).
    assert any(s["reviewing"] for s in tv_samples[:first_story]), "no review under way"
    assert not any(s["review"] for s in tv_samples[:first_story]), [
        (i, s["kind"], s["review"]) for i, s in enumerate(tv_samples[:first_story]) if s["review"]
    ][:3]
    assert tv_samples[-1]["review"], "the review's status never showed"
    # The last step's stations were seen in the spotlight, with no final panel or story over.
    for s in tv_samples:
        if s["kind"] == "station":
            assert s["spot"] == "station" and not s["final"] and not s["story"]
    # The chart ends at the final totals, and its headline names the winner's total.
    s = tv_samples[-1]
    assert sorted(s["ends"]) == sorted(totals.values())
    points = re.findall(r"·\s*(\d+)", s["headline"])
    assert points and int(points[0]) == totals[winners[0]] == max(s["ends"]), s["headline"]

    # Neither TV's log names the winner (or the final scores) before the winner's beat, and
    # both do once it is up.
    for name, samples in (("the TV that watched", tv_samples), ("the TV opened", opened)):
        early = [
            (i, s["kind"], s["log"][:3])
            for i, s in enumerate(samples)
            if s["index"] >= 0
            and s["kind"] != "winner"
            and any(t in ("game_over", "final_scoring") for t in s["logTypes"])
        ]
        assert not early, f"{name} told the end before the winner's beat: {early[:3]}"
        assert "game_over" in samples[-1]["logTypes"], f"{name}: {samples[-1]['log'][:3]}"

    # --- the phone ---
    for q in phone_samples:
        assert "secret" not in q["text"].lower(), q["text"][:300]
        # The final result comes with its first line: never an empty one.
        assert q["cards"] or not q["shown"], q["text"][:300]
        assert len(q["totals"]) == len(q["cards"])
    lead = [i for i, q in enumerate(phone_samples) if q["lead"]]
    assert lead, "the phone never named the winner"
    for q in phone_samples[: lead[0]]:
        assert "Winner" not in q["text"] and "Shared win" not in q["text"], q["text"][:300]
    # The lines one by one (a card each), never taken back.
    cards = [len(q["cards"]) for q in phone_samples[: lead[0]] if q["shown"]]
    assert cards and cards == sorted(cards) and cards[0] < len(order), cards
    assert len(set(cards)) >= 2, cards
    for p in order:
        assert any(p in q["cards"] for q in phone_samples[: lead[0]]), f"{p}'s card never came"
    assert len(phone_samples[lead[0]]["cards"]) == len(order)  # then the winner
