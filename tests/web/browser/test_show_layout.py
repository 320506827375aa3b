"""The show's screens fit the TV with five players of the longest names (layout.py checker).

A real game is played to round 2 (five players, 20-character names, the longest a name may
be); the display's frame is then fed the show's heaviest beats through its own frame path:
a station with every bid's parts, four ties and four results; the round's summary of six
stations with ties in every one; the last-round notice; the final scoring turned half way; and,
after the beats, the previous round's six stations with their tie reasons beside the offer.
Nothing may clip, scroll, leave the screen or fall under the display's smallest type, at
1920x1080 and 1280x720.
"""

from __future__ import annotations

import copy
from typing import Any

from live_server import Host, LiveServer, Peer, play, seat_phones
from playwright.sync_api import Error as PlaywrightError

from companion.web.i18n import LANGUAGES

from .conftest import ARTIFACTS
from .layout import mid_word_breaks, sweep
from .test_display_header import INLINE_CATALOGUES

NAMES = [
    "Maximiliana Eberhard",
    "Tomasz Wiśniewski-Ko",
    "Giulietta Castellani",
    "Annemarie Vandenberg",
    "Xochitl Quetzalcoatl",
]
RULES = ["figure", "lower_score", "stack", "stack"]
WORDS = ".past-station"  # the station names over the results' columns
SPOTLIGHT_KIND = (
    "() => { const s = document.getElementById('spotlight'); "
    "return s.hidden ? null : s.dataset.kind; }"
)


def ranking(station: int, seats: list[str]) -> dict[str, Any]:
    """A full ranking: every part of every bid, four ties (R3.4)."""
    entries = [
        {
            "player": p,
            "place": i + 1,
            "cards": [10 + i, 11],
            "huts": 2,
            "old_man": -1 if i == 4 else 0,
            "dice": [6, 5],
            "total": 30,
        }
        for i, p in enumerate(seats)
    ]
    ties = [{"players": [seats[i], seats[i + 1]], "rule": RULES[i], "value": 30} for i in range(4)]
    return {
        "type": "ranking",
        "station": station,
        "entries": entries,
        "ties": ties,
        "order": seats,
    }


def effects(seats: list[str]) -> list[dict[str, Any]]:
    return [
        {
            "type": "scored",
            "player": seats[0],
            "points": 6,
            "reason": "harvest",
            "from": 3,
            "score": 9,
        },
        {
            "type": "scored",
            "player": seats[1],
            "points": 5,
            "reason": "harvest",
            "from": 2,
            "score": 7,
        },
        {
            "type": "scored",
            "player": seats[2],
            "points": 4,
            "reason": "harvest",
            "from": 1,
            "score": 5,
        },
        {"type": "card_gained", "player": seats[3], "card": 15},
    ]


def test_the_show_fits_the_tv_with_five_long_names(tmp_path, browser) -> None:
    server = LiveServer(tmp_path, host_name="table.lan").start()  # pace "instant"
    peers: list[Peer] = []
    try:
        host = Host(server, "1")
        host.hello()
        peers.append(host)
        # Red boxes only: round 2 is bid as round 1 was (R2.3), so the phase panel is the same
        # in every run.
        assert host.act("set_track_colors", colors=["red"] * 60)["type"] == "ok"
        phones = seat_phones(server, "1", NAMES)
        peers += phones
        assert host.act("start", dice="digital")["type"] == "ok"
        for phone in phones:  # the game's first view (a phone may still hold the lobby's)
            if not (phone.view and phone.view["game"]):
                phone.until(lambda f: f["type"] == "view" and bool(f["game"]))
        # Round 2's bidding before anyone bid: the same screen whatever the cards dealt.
        for _ in range(200):
            play(phones, [], max_steps=0)  # every phone has the latest view
            view = phones[0].view["game"]["view"]
            bids = view["bid_status"] or {}
            if view["round"] == 2 and view["phase"] == "bid" and not any(bids.values()):
                break
            play(phones, [], max_steps=1)
        else:
            raise AssertionError("round 2's bidding never came")
        page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        page.goto(f"{server.base}/t/1/")
        page.wait_for_function("() => window.__display?.frame()?.game")
        base = page.evaluate("window.__display.frame()")
        # Every language's words in the page, for the summaries after the server has gone.
        page.evaluate(INLINE_CATALOGUES, list(LANGUAGES))
    finally:
        for p in peers:
            p.close()
        server.stop()
    seats = base["game"]["view"]["seats"]
    stations = [ranking(s, seats) for s in range(1, 7)]

    def frame(beats: list[dict[str, Any]], step: int, finished: bool = False) -> dict:
        f = copy.deepcopy(base)
        f["reason"] = "command"
        f["seq"] = base["seq"] + step
        f["events"] = []
        f["show"] = {**f["show"], "beats": beats, "elapsed": 0.2, "hold": 9999, "more": True}
        f["show"]["step"] = f["seq"]
        view = f["game"]["view"]
        # The same seat cards and track in every run (a random game's badges and stacks left
        # the results panel a column short in some runs, which the page rightly drops when
        # there is no room): the figure, the old man and his way back on three seats, one
        # marker a box. (With stacks of two on the track the earliest station goes at 1920x1080.)
        view.update(chocolatl=seats[0], old_man=seats[1], returning=seats[2])
        boxes = [9, 10, 11, 12, 13]
        view["track"] = {}
        for p, box in zip(seats, boxes, strict=True):
            view["players"][p]["score"] = box
            view["track"].setdefault(str(box), []).append(p)
        if finished:
            view.update(finished=True, phase="finished", winners=[seats[0]])
            view["last_round_reason"] = "end_score"
            for i, p in enumerate(seats):
                view["players"][p]["final"] = {
                    "track": 40 - i,
                    "stones": 3,
                    "pyramid_majority": 3,
                    "chocolatl": 3,
                    "old_man": -3,
                    "sacrifice": 4,
                    "sacrifice_bonus": 3,
                    "die": 6,
                    "total": 59 - i,
                }
        return f

    screens = {
        "station": frame(
            [
                {
                    "kind": "station",
                    "station": 2,
                    "seconds": 9999,
                    "ranking": stations[1],
                    "effects": effects(seats),
                }
            ],
            1,
        ),
        "summary": frame(
            [{"kind": "summary", "round": 1, "seconds": 9999, "rankings": stations}], 2
        ),
        "last_round": frame([{"kind": "last_round", "reason": "end_score", "seconds": 9999}], 3),
        "final": frame(
            [
                {"kind": "final_line", "player": p, "seconds": 0.1 if i < 2 else 9999}
                for i, p in enumerate(seats)
            ]
            + [{"kind": "winner", "seconds": 9999}],
            4,
            finished=True,
        ),
    }
    # After the beats: the previous round's six stations beside this round's offer.
    history = [
        {
            "type": "round_started",
            "round": 1,
            "mode": "red",
            "leader_box": 0,
            "leaders": seats,
            "last_round": False,
        },
        *stations,
        {"type": "round_ended", "round": 1},
        {
            "type": "round_started",
            "round": 2,
            "mode": "gold",
            "leader_box": 9,
            "leaders": [seats[0]],
            "last_round": False,
        },
    ]
    before_reveal = frame([], 5)
    before_reveal["game"]["view"].update(revealed={}, station=None)
    screens["previous_round"] = {
        **before_reveal,
        "history": history,
        "show": {**base["show"], "beats": [], "step": base["seq"] + 9},
    }

    shots = ARTIFACTS / "show-layout"
    shots.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    for label, f in screens.items():
        page.evaluate("(f) => window.__display.inject(f)", f)
        kind = page.evaluate(SPOTLIGHT_KIND)
        if label in ("station", "summary", "last_round"):
            assert kind == label, (label, kind)
        # Every bid, tie and result is in the page (fitting never drops any).
        if label == "station":
            assert page.locator("#spotlight tbody tr").count() == 5
            assert page.locator("#spotlight .ties li").count() == 4
            assert page.locator("#spotlight .effects li").count() == 4
        if label in ("summary", "previous_round"):
            # Every station's column (the page looks again at a panel it measured too early).
            shown = "document.querySelectorAll('.past-list thead th[data-station]').length === 6"
            try:
                page.wait_for_function(shown, timeout=5000)
            except PlaywrightError:
                pass  # the assertion below says what is missing
            assert page.locator(".past-list thead th[data-station]:visible").count() == 6, (
                label,
                page.evaluate("document.getElementById('reveal-panel').outerHTML.slice(0, 3000)"),
            )
            assert page.locator(".past-list tbody tr:visible").count() == 5, label
            assert page.locator(".past-list .past-tie:visible").count() == 24, label
        problems += sweep(page, "display", f"show-{label}", shots=shots)

    # The summary in every language at both sizes: a station's name too wide for its column
    # breaks where the word may (the catalogues' soft hyphens: "Kakao-trunk"), never before its
    # last letters ("Pyramid|e", "Kakaotr|unk" on a 1280x720 TV in German).
    def names_whole(page: Any) -> list[str]:
        return [f"a station's name broken in a word: {x}" for x in mid_word_breaks(page, WORDS)]

    for i, lang in enumerate(LANGUAGES):
        f = frame([{"kind": "summary", "round": 1, "seconds": 9999, "rankings": stations}], 10 + i)
        f["table"] = {**f["table"], "lang": lang}
        page.evaluate("(f) => window.__display.inject(f)", f)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        assert page.locator(f"{WORDS}:visible").count() >= 6, lang
        problems += sweep(page, "display", f"show-summary-{lang}", shots=shots, also=names_whole)
    assert not problems, "\n".join(problems)
