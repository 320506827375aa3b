"""One client must not slow a café: what it can repeat costs the server a frame at most, and
what it sends wrong gets a clear refusal. Each check runs against a live ``companion serve``
with real websocket and HTTP clients (the figures under load: benchmarks/bench_flood.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import requests
from live_server import ROOT, Host, LiveServer, Peer, Phone, free_port, play, seat_phones
from waiting import wait_for


def _display(server: LiveServer, table: str) -> Peer:
    peer = Peer(f"{server.ws_base}/t/{table}/ws/display")
    peer.until(lambda f: f["type"] == "view")
    return peer


def _answers(peer: Peer, count: int, pred: Any) -> list[dict[str, Any]]:
    """Poll until ``count`` frames for which ``pred`` holds have come; returns them."""
    got: list[dict[str, Any]] = []

    def enough() -> bool:
        frame = peer.poll(0.2)
        if frame is not None and pred(frame):
            got.append(frame)
        return len(got) >= count

    wait_for(enough, what=f"{count} answers")
    return got


# -- 1: set_language ---------------------------------------------------------------------------
def test_an_unchanged_language_sends_nothing(server: LiveServer, table: str) -> None:
    """A display that sends the language the table already has gets no frame for it, nor
    does any other screen: the ping sent after it is answered with no settings frame before
    (other frames, such as the LED board's status, may come)."""
    display, other = _display(server, table), _display(server, table)
    display.send({"type": "set_language", "lang": "de"})
    for peer in (display, other):
        peer.until(lambda f: f["type"] == "view" and f["table"]["lang"] == "de")
    for _ in range(2):  # within the display's own limit (a burst of 6)
        display.send({"type": "set_language", "lang": "de"})
    for n, peer in enumerate((display, other)):
        seen = len(peer.frames)
        peer.send({"type": "ping", "t": 10 + n})
        peer.until(lambda f, n=n: f == {"type": "pong", "t": 10 + n})
        later = peer.frames[seen:]
        assert not [f for f in later if f.get("reason") == "settings"], later
        assert not [f for f in later if f["type"] == "error"], later
    for peer in (display, other):
        peer.close()


def test_language_changes_in_quick_succession_go_out_as_one_frame(
    server: LiveServer, table: str
) -> None:
    """The host flicks through four languages at once: the screens get the first change at
    once and the rest in one frame (not four redraws), which ends on the last one chosen."""
    display = _display(server, table)
    host = Host(server, table)
    host.hello()
    for lang in ("de", "nl", "it", "nl"):
        host.send({"type": "set_language", "token": host.token, "lang": lang, "id": lang})

    def four_oks() -> bool:
        host.poll(0.2)
        return sum(f["type"] == "ok" for f in host.frames) >= 4

    wait_for(four_oks, what="the four oks")
    display.until(lambda f: f["type"] == "view" and f["table"]["lang"] == "nl")
    display.send({"type": "ping", "t": 9})
    display.until(lambda f: f == {"type": "pong", "t": 9})
    langs = [f["table"]["lang"] for f in display.frames if f.get("reason") == "settings"]
    assert langs[-1] == "nl" and len(langs) <= 3, langs
    for peer in (display, host):
        peer.close()


def test_a_flood_of_language_changes_is_limited_per_display_and_table(
    server: LiveServer, table: str
) -> None:
    """Three displays each send 10 alternating language changes at once: each socket may make
    a few (a burst of 6), the table a few more than one socket (a burst of 8); the rest are
    refused by id as rate_limited, and the table's language is one of those sent."""
    displays = [_display(server, table) for _ in range(3)]
    for i in range(10):
        for n, display in enumerate(displays):
            lang = ("de", "nl")[i % 2]
            display.send({"type": "set_language", "lang": lang, "id": f"d{n}-{i}"})
    refused = []
    for n, display in enumerate(displays):
        display.send({"type": "ping", "t": 100 + n})
        display.until(lambda f, n=n: f == {"type": "pong", "t": 100 + n})
        errors = [f for f in display.frames if f["type"] == "error"]
        assert all(f["code"] == "rate_limited" and f["id"].startswith(f"d{n}-") for f in errors)
        assert len(errors) >= 10 - 6 - 1, "at most the burst and one refill per socket"
        refused += errors
    accepted = 30 - len(refused)
    assert 1 <= accepted <= 8 + 2, f"{accepted} changes went through the table's limit"
    host = Host(server, table)
    assert host.hello()["table"]["lang"] in ("de", "nl")
    for peer in [*displays, host]:
        peer.close()


# -- 7: rate_limited names the message --------------------------------------------------------
def test_a_rate_limited_message_is_refused_with_its_id(server: LiveServer, table: str) -> None:
    """60 pings with ids at once from a phone (the limit: a burst of 40): every dropped one is
    answered by an error naming its id, so the phone's outbox lets go of it."""
    (phone,) = seat_phones(server, table, ["Ana"])
    ids = [f"p{i}" for i in range(60)]
    for msg_id in ids:
        phone.send({"type": "ping", "t": 1, "id": msg_id, "token": phone.token})
    frames = _answers(phone, 60, lambda f: f["type"] in ("pong", "error"))
    limited = [f for f in frames if f["type"] == "error"]
    assert limited and all(f["code"] == "rate_limited" for f in limited)
    assert all(f.get("id") in ids for f in limited), limited[:3]
    assert len({f["id"] for f in limited}) == len(limited)
    phone.close()


# -- 3: malformed bodies ----------------------------------------------------------------------
def _finished_game(server: LiveServer, table: str) -> tuple[list[Phone], int]:
    phones = seat_phones(server, table, ["Ana", "Ben", "Cleo"])
    host = Host(server, table)
    host.hello()
    assert host.act("start")["type"] == "ok"
    assert host.act("end_game")["type"] == "ok"
    game_id = host.view_until(lambda f: f["game"]["status"] != "playing")
    host.close()
    return phones, int(game_id["game"]["id"])


def _open_replay(server: LiveServer, table: str, phone: Phone, game_id: int) -> requests.Response:
    return requests.get(
        f"{server.local}/t/{table}/games/{game_id}/replay",
        params={"seat": phone.seat, "token": phone.token},
        timeout=30,
    )


def _step_url(page: requests.Response) -> str:
    m = re.search(r'data-step-url="([^"]+)"', page.text)
    assert m, page.text[:500]
    return m.group(1)


DEEP = "[" * 14000  # about 14 KB: Python's parser gives up with RecursionError


def test_deeply_nested_bodies_are_refused_with_400(server: LiveServer, table: str) -> None:
    """The join API (no token needed) and both replay step routes answer a body of 14,000
    nested brackets with 400 and a reason; nothing was joined."""
    headers = {"Content-Type": "application/json"}
    r = requests.post(f"{server.local}/t/{table}/api/join", data=DEEP, headers=headers)
    assert r.status_code == 400, r.text[:300]
    assert r.json()["error"] == "bad_json" and "nested too deeply" in r.json()["reason"]
    state = requests.get(f"{server.local}/t/{table}/api/state", timeout=5).json()
    assert state["seats"] == []

    phones, game_id = _finished_game(server, table)
    page = _open_replay(server, table, phones[0], game_id)
    assert page.status_code == 200
    admin = requests.get(
        f"{server.local}/admin/games/{game_id}/replay",
        params={"token": server.admin_token()},
        timeout=30,
    )
    assert admin.status_code == 200
    for url, extra in (
        (_step_url(page), {}),
        (_step_url(admin), {"X-Admin-Token": server.admin_token()}),
    ):
        r = requests.post(server.local + url, data=DEEP, headers={**headers, **extra})
        assert r.status_code == 400, r.text[:300]
        assert r.json()["error"] == "bad_json"
        ok = requests.post(server.local + url, json={"to": 0}, headers=extra, timeout=10)
        assert ok.status_code == 200 and ok.json()["step"] == 0, "the replay still steps"
    for phone in phones:
        phone.close()


# -- 2: replays -------------------------------------------------------------------------------
def test_replay_opens_are_throttled_per_seat_and_keep_the_admins_replay(
    server: LiveServer, table: str
) -> None:
    """A seat that opens its replay in a loop is refused (429, rate_limited, with the wait)
    after a few opens, and its opens never push out the café admin's open replay; another
    seat still opens its own."""
    phones, game_id = _finished_game(server, table)
    token = server.admin_token()
    admin = requests.get(
        f"{server.local}/admin/games/{game_id}/replay", params={"token": token}, timeout=30
    )
    admin_step = _step_url(admin)
    answers = [_open_replay(server, table, phones[0], game_id) for _ in range(25)]
    codes = [a.status_code for a in answers]
    assert codes[0] == 200 and 429 in codes, codes
    refused = answers[codes.index(429)].json()
    assert refused["error"] == "rate_limited" and "try again in" in refused["reason"]
    assert codes.count(200) <= 6, codes
    moved = requests.post(
        server.local + admin_step, json={"to": 0}, headers={"X-Admin-Token": token}, timeout=10
    )
    assert moved.status_code == 200 and moved.json()["step"] == 0, moved.text
    assert _open_replay(server, table, phones[1], game_id).status_code == 200
    for phone in phones:
        phone.close()


def _worker_cpu_s(server: LiveServer) -> float:
    """The worker's user + system CPU seconds so far (from /proc): its work, whatever the
    clock did."""
    fields = Path(f"/proc/{server.worker_pid()}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_per_get(server: LiveServer, path: str, count: int = 60) -> float:
    """The worker's CPU seconds per GET of ``path`` (``count`` in a row, one session)."""
    with requests.Session() as session:
        before = _worker_cpu_s(server)
        for _ in range(count):
            assert session.get(server.local + path, timeout=30).status_code == 200
        return (_worker_cpu_s(server) - before) / count


def test_the_join_qr_code_is_drawn_once_not_at_every_request(
    server: LiveServer, table: str
) -> None:
    """``/t/<name>/qr.svg`` needs no token, so anyone may reload it in a loop: it costs the
    shared loop what a plain page costs (about /healthz), not a new drawing each time (about
    8 ms of CPU, 14 times /healthz). A rotated join link gets its new code."""
    path = f"/t/{table}/qr.svg"
    first = requests.get(server.local + path, timeout=30).content
    plain = _cpu_per_get(server, "/healthz")
    qr = _cpu_per_get(server, path)
    assert qr < 3 * plain + 0.001, (qr, plain)
    host = Host(server, table)
    host.hello()
    assert host.act("rotate_join")["type"] == "ok"
    rotated = requests.get(server.local + path, timeout=30).content
    assert rotated.startswith(b"<?xml") and rotated != first
    host.close()


def _cpu_of_tree(pid: int) -> dict[int, float]:
    """CPU seconds so far of ``pid`` and every process under it (the worker, the companion
    players' pool), from /proc."""
    out: dict[int, float] = {}
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            out[p] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return out


def test_a_replay_is_built_off_the_event_loop(server: LiveServer, table: str) -> None:
    """Issue 22's break 2: a seat's first open of a whole game's replay builds it in the
    companion players' process, not on the worker's event loop that serves every table: the
    worker spends less CPU on the open than the build costs elsewhere."""
    phones = seat_phones(server, table, ["Ana", "Ben", "Cleo", "Dan", "Eva"])
    host = Host(server, table)
    host.hello()
    assert host.act("start", dice="digital")["type"] == "ok"
    play(phones, [], host, timeout=600)
    game_id = int(phones[0].view["game"]["id"])

    def reviewed() -> bool:  # the game's own review (in the same pool) over first
        state = requests.get(f"{server.local}/t/{table}/api/state", timeout=10).json()
        return (state.get("review") or {}).get("state") == "ready"

    wait_for(reviewed, timeout=300, what="the game's review")
    worker = server.worker_pid()
    before = _cpu_of_tree(worker)
    assert _open_replay(server, table, phones[0], game_id).status_code == 200
    after = _cpu_of_tree(worker)
    on_loop = after[worker] - before[worker]
    elsewhere = sum(after[p] - before.get(p, 0.0) for p in after if p != worker)
    assert elsewhere > on_loop, (on_loop, elsewhere)
    for peer in [host, *phones]:
        peer.close()


# -- 6: the review budget ---------------------------------------------------------------------
@pytest.mark.parametrize("budget", ["nan", "-1", "0", "abc", "1e9", "inf"])
def test_a_bad_review_budget_stops_the_server_with_one_sentence(tmp_path, budget: str) -> None:
    """``COMPANION_REVIEW_BUDGET`` is checked before the server forks: exit 2 and one line
    naming the variable (no "Worker failed to boot", no traceback); too large is refused
    too, as a review that never ends would keep the pool busy."""
    env = {**os.environ, "COMPANION_REVIEW_BUDGET": budget}
    cmd = [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1"]
    cmd += ["--port", str(free_port()), "--data", str(tmp_path / "data"), "--board", "none"]
    try:
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=20, env=env)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the server started with COMPANION_REVIEW_BUDGET={budget}")
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr[-1000:]
    assert len(lines) == 1 and "COMPANION_REVIEW_BUDGET" in lines[0], lines
    assert "Traceback" not in done.stderr + done.stdout


# -- 9: names ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("\u3164", "name_invisible"),  # a Hangul filler: a letter that draws nothing
        ("\u2800", "name_invisible"),  # the blank braille pattern
        ("\u0301\u0301", "name_invisible"),  # combining marks on nothing
        ("Ana\u3164", "name_characters"),
        ("Ana\u2028Ben", "name_characters"),  # a line separator
        ("Ana\u200bBen", "name_characters"),  # a zero-width space (format)
        ("\u0410na", "name_lookalike"),  # a Cyrillic "А" in a Latin word
    ],
)
def test_names_that_cannot_be_read_are_refused(
    server: LiveServer, table: str, name: str, code: str
) -> None:
    answer = server.join(table, name, "orange")
    assert answer["status"] == 400 and answer["error"] == code, answer
    assert answer["reason"]
    state = requests.get(f"{server.local}/t/{table}/api/state", timeout=5).json()
    assert state["seats"] == [], "a refused name takes no seat"


def test_a_name_is_kept_in_nfc(server: LiveServer, table: str) -> None:
    """ "Zoe" with a combining diaeresis is stored as "Zoë", one character (what every screen
    and the length limit count)."""
    answer = server.join(table, "Zoe\u0308", "orange")
    assert answer["status"] == 200 and answer["name"] == "Zo\u00eb", answer
    state = requests.get(f"{server.local}/t/{table}/api/state", timeout=5).json()
    assert [s["name"] for s in state["seats"]] == ["Zo\u00eb"]
    assert json.dumps(state).count("\\u0308") == 0
