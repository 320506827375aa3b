"""A live ``companion serve`` process and real websocket clients for the server tests.

Nothing here is mocked: the server is ``python -m companion serve`` on a free 127.0.0.1 port
with a temporary data directory; clients are ``simple_websocket.Client``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from collections import Counter, deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import requests
import server_fork
import simple_websocket

ROOT = Path(__file__).resolve().parents[2]
STATIONS = ("1", "2", "3", "4", "5", "6")
# Commands a test phone sends in any one second, at most (the socket allows 20 messages).
COMMANDS_PER_S = 15


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """``python -m companion serve`` as a child process; always stop it."""

    def __init__(
        self,
        data: Path,
        tables: int = 1,
        extra: list[str] | None = None,
        host_name: str = "127.0.0.1",
    ) -> None:
        self.data = Path(data)
        self.tables = tables
        self.extra = extra or []
        self.host_name = host_name  # the name pages are opened with (browser tests: a LAN name)
        self.port = free_port()
        self.proc: subprocess.Popen[str] | server_fork.ForkedServer | None = None
        self.host_tokens: dict[str, str] = {}

    @property
    def base(self) -> str:
        """The server as phones and the browser reach it (``host_name``)."""
        return f"http://{self.host_name}:{self.port}"

    @property
    def local(self) -> str:
        """The same server as Python's clients reach it (no custom name resolution)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def host_token(self) -> str:
        return self.host_tokens["1"]

    def start(self, timeout: float = 30) -> LiveServer:
        """Start (or start again, on the same port and data) and wait until the worker
        answers ``/healthz`` and the host links are printed."""
        cmd = [
            sys.executable,
            "-m",
            "companion",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--data",
            str(self.data),
            "--tables",
            str(self.tables),
            "--threads",
            "256",
            *self.extra,
        ]
        if self.host_name != "127.0.0.1":
            cmd += ["--public-url", self.base, "--allow-origin", self.base]
        if "--pace" not in self.extra:
            # Tests that are not about the show see each step at once (test_web_show.py
            # chooses its own pace).
            cmd += ["--pace", "instant"]
        if "--max-per-address" not in self.extra:
            # Every client of a test is 127.0.0.1 (the cap itself: test_web_slow_clients.py).
            cmd += ["--max-per-address", "1000"]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        # Every game over is reviewed in the companion players' pool (cafe/reviews.py): a
        # rough, quick review for tests unless a test asks for another budget.
        env.setdefault("COMPANION_REVIEW_BUDGET", "0.3")
        Path(self.data).mkdir(parents=True, exist_ok=True)
        self.log_path = Path(self.data) / f"server-{self.port}.log"
        if server_fork.ENABLED:
            # The same ``companion serve``, forked from a process that imported it once
            # (tests/web/server_fork.py), in a session of its own like the one below.
            self.proc = server_fork.Forker.shared().start(cmd[3:], env, ROOT, self.log_path)
        else:
            log = self.log_path.open("a")
            # Own process group: kill9 takes gunicorn's worker down with its master.
            self.proc = subprocess.Popen(
                cmd,
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
                text=True,
                env=env,
                start_new_session=True,
                preexec_fn=server_fork.die_with_parent,
            )
            log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("server exited early:\n" + self.log())
            self.host_tokens = dict(
                re.findall(r"Table (\S+) host:\s+\S+/host\?token=(\S+)", self.log())
            )
            try:
                if (
                    len(self.host_tokens) >= self.tables
                    and requests.get(self.local + "/healthz", timeout=1).ok
                ):
                    return self
            except requests.RequestException:
                # gunicorn listens before its worker is ready: refused connections and
                # read timeouts both mean "not yet".
                pass
            time.sleep(0.05)
        self.kill()
        raise RuntimeError("server did not start:\n" + self.log())

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        """A clean stop (SIGTERM, as systemd stops it); whatever is left is killed."""
        self._signal_and_wait(signal.SIGTERM)

    def interrupt(self) -> None:
        """Ctrl-C in the server's terminal (SIGINT), the usual way a host stops it."""
        self._signal_and_wait(signal.SIGINT)

    def _signal_and_wait(self, signum: int) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signum)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def kill(self) -> None:
        """A power cut: SIGKILL to the server's process group (master and worker)."""
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
            server_fork.reap_group(self.proc.pid)
            self._wait_unlocked()
        self.proc = None

    def _wait_unlocked(self, timeout: float = 10.0) -> None:
        """Until the worker (killed with the master, but not our child) has let go of the
        data directory's lock, so a restart is not refused as a second server."""
        import fcntl

        path = self.data / "companion.lock"
        if not path.exists():
            return
        deadline = time.monotonic() + timeout
        with path.open("a") as f:
            while True:
                try:
                    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    fcntl.flock(f, fcntl.LOCK_UN)
                    return
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(
                            "the server's worker still holds the data directory"
                        ) from None
                    time.sleep(0.02)

    def kill9(self) -> None:
        assert self.proc is not None
        self.kill()

    def admin_token(self) -> str:
        """The café admin's token, from the link the server printed at its start."""
        found = re.search(r"Café admin:\s+\S+/admin\?token=(\S+)", self.log())
        assert found, "the server printed no admin link"
        return found.group(1)

    def sockets(self, table: str = "1") -> dict[str, int]:
        """The table's open sockets by kind of screen, as the café admin's list counts them."""
        r = requests.get(
            f"{self.local}/admin/api/tables",
            headers={"X-Admin-Token": self.admin_token()},
            timeout=10,
        )
        r.raise_for_status()
        return dict(next(t for t in r.json()["tables"] if t["name"] == table)["sockets"])

    def worker_pid(self) -> int:
        """The gunicorn worker (the one child of the server process) that holds the tables."""
        assert self.proc is not None
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text()
        pids = [int(p) for p in children.split()]
        assert len(pids) == 1, pids
        return pids[0]

    def worker_status(self) -> dict[str, int]:
        """The worker's thread count and resident memory (kB), from /proc."""
        fields = dict(
            line.split(":", 1)
            for line in Path(f"/proc/{self.worker_pid()}/status").read_text().splitlines()
        )
        return {"threads": int(fields["Threads"]), "rss_kb": int(fields["VmRSS"].split()[0])}

    def join(self, table: str, name: str, colour: str, secret: str | None = None) -> dict:
        if secret is None:
            secret = self.join_secret(table)
        r = requests.post(
            f"{self.local}/t/{table}/api/join",
            json={"secret": secret, "name": name, "colour": colour},
            timeout=5,
        )
        body = r.json()
        body["status"] = r.status_code
        return body

    def join_secret(self, table: str) -> str:
        frame = requests.get(f"{self.local}/t/{table}/api/state", timeout=5).json()
        return frame["table"]["urls"]["join"].rsplit("/", 1)[1]

    def join_url(self, table: str = "1") -> str:
        """The join URL the display page shows (what the QR code holds)."""
        html = requests.get(f"{self.local}/t/{table}/", timeout=5).text
        m = re.search(r'id="join-url"[^>]*>([^<]+)<', html)
        assert m, "the display page shows no join URL"
        return m.group(1).strip()

    def host_url(self, table: str = "1") -> str:
        return f"{self.base}/t/{table}/host?token={self.host_tokens[table]}"


class Peer:
    """A websocket client that keeps every frame it received (for the secrecy test)."""

    def __init__(self, url: str, origin: str | None = None) -> None:
        headers = {"Origin": origin} if origin else None
        self.ws = simple_websocket.Client.connect(url, headers=headers)
        self.frames: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.closed = False
        if url.endswith("/ws/display"):
            # simple-websocket's client leaves a frame that shares the TCP read with the
            # handshake response in its buffer until more data comes; the pong brings it.
            self.send({"type": "ping", "t": 0})

    def send(self, obj: Any) -> None:
        self.ws.send(obj if isinstance(obj, str) else json.dumps(obj))

    def poll(self, timeout: float = 0.0) -> dict[str, Any] | None:
        """One frame if one arrives within ``timeout`` seconds."""
        if self.closed:
            return None
        try:
            raw = self.ws.receive(timeout=timeout)
        except simple_websocket.ConnectionClosed:
            self.closed = True
            return None
        if raw is None:
            return None
        frame = json.loads(raw)
        self.frames.append(frame)
        if frame["type"] == "view":
            self.view = frame
        return frame

    def until(self, pred: Any, timeout: float = 15.0) -> dict[str, Any]:
        """The first new frame for which ``pred(frame)`` holds (a wait, not a speed check)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            frame = self.poll(0.2)
            if frame is not None and pred(frame):
                return frame
            if self.closed:
                raise ConnectionError(f"closed ({self.ws.close_reason}) while waiting")
        raise TimeoutError(
            "expected frame did not arrive; last frames: " + json.dumps(self.frames[-3:])[:2000]
        )

    def view_until(self, pred: Any, timeout: float = 15.0) -> dict[str, Any]:
        """The latest view if ``pred`` holds for it, else the first new view for which it does.
        A host action's views go out before its ok (web/sockets.py), so they may be in
        already when the ok is."""
        self.poll()
        if self.view is not None and pred(self.view):
            return self.view
        return self.until(lambda f: f["type"] == "view" and pred(f), timeout)

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001
            pass
        self.closed = True


class Phone(Peer):
    """A player's phone: hello with the seat token, then commands with ids."""

    def __init__(self, server: LiveServer, table: str, seat: dict, origin: str | None = None):
        super().__init__(f"{server.ws_base}/t/{table}/ws/seat", origin)
        self.seat = seat["seat"]
        self.token = seat["token"]
        self.counter = 0
        self._sent_at: deque[float] = deque(maxlen=COMMANDS_PER_S)
        self.outstanding: str | None = None
        self.acked_seq = 0
        self.stale = False
        self.errors: list[dict[str, Any]] = []
        self.sent: dict[str, dict[str, Any]] = {}  # id -> command, to match acks with the log

    def hello(self) -> dict[str, Any]:
        self.send({"type": "hello", "seat": self.seat, "token": self.token})
        return self.until(lambda f: f["type"] == "view")

    def command(self, command: dict[str, Any], cmd_id: str | None = None) -> str:
        if cmd_id is None:
            self.counter += 1
            cmd_id = f"{self.seat}-{self.counter}"
        self.outstanding = cmd_id
        self.sent[cmd_id] = command
        # Below the socket's limit (PROTOCOL.md: 20 messages a second): at the instant pace a
        # phone answering every question at once could pass it and see its command dropped.
        while len(self._sent_at) >= COMMANDS_PER_S and time.monotonic() - self._sent_at[0] < 1.0:
            time.sleep(0.01)
        self._sent_at.append(time.monotonic())
        self.send({"type": "command", "token": self.token, "id": cmd_id, "command": command})
        return cmd_id

    def poll(self, timeout: float = 0.0) -> dict[str, Any] | None:
        frame = super().poll(timeout)
        if frame and frame.get("id") == self.outstanding and frame["type"] in ("ack", "error"):
            self.outstanding = None
            if frame["type"] == "ack":
                self.acked_seq = frame["seq"]
                # The server acknowledges before it broadcasts: the next view has our move.
                self.stale = not frame.get("retry")
            else:
                self.errors.append(frame)
        elif frame and frame["type"] == "view":
            self.stale = False
        return frame

    def ready(self) -> bool:
        """Nothing in flight and the latest view includes our last acknowledged command."""
        return self.outstanding is None and self.view is not None and not self.stale


class Host(Peer):
    def __init__(self, server: LiveServer, table: str, token: str | None = None):
        super().__init__(f"{server.ws_base}/t/{table}/ws/host")
        self.token = token if token is not None else server.host_tokens[table]
        self.counter = 0
        self.state_url = f"{server.local}/t/{table}/api/state"

    def undo_fields(self, timeout: float = 15.0) -> dict[str, Any]:
        """What the host page's undo names: the move its view offers to take back, once
        that view has reached the step the display shows (a wait on a condition)."""
        target = requests.get(self.state_url, timeout=5).json()["seq"]
        deadline = time.monotonic() + timeout
        while self.view is None or self.view["seq"] < target:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the host's view is still behind seq {target}")
            self.poll(0.2)
        undo = self.view["host"]["undo"]
        return {"game": undo.get("game"), "n": undo.get("n")}

    def undo(self) -> dict[str, Any]:
        """The host page's undo button: the undo message naming the move it offers."""
        return self.act("undo", **self.undo_fields())

    def hello(self) -> dict[str, Any]:
        self.send({"type": "hello", "token": self.token})
        return self.until(lambda f: f["type"] == "view")

    def act(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a host message and wait for its ok or error frame."""
        self.counter += 1
        msg_id = f"h{self.counter}"
        self.send({"type": kind, "token": self.token, "id": msg_id, **fields})
        return self.until(lambda f: f.get("id") == msg_id and f["type"] in ("ok", "error", "ack"))

    def command(self, command: dict[str, Any]) -> dict[str, Any]:
        return self.act("command", command=command)


def free_cards(me: dict[str, Any]) -> list[int]:
    left = Counter(me["deck"])
    left.subtract(me["used"])
    return sorted(left.elements())


def policy(view: dict[str, Any], seat: str, entry: dict[str, Any]) -> dict[str, Any]:
    """A plain deterministic player that still meets every decision: equal low bids make ties
    (so pyramid decisions come up), the city alternates die/hut by round, all dice are used."""
    game = view["game"]["view"]
    me = game["players"][seat]
    kind = entry["type"]
    seats = game["seats"]
    if kind == "sacrifice":
        return {"type": "sacrifice", "card": seats.index(seat)}
    if kind == "bid":
        cards = free_cards(me)
        step = game["step"]
        if step == "all":
            bids = {s: cards[2 * i : 2 * i + 2] for i, s in enumerate(STATIONS)}
        elif step in ("first", "second"):
            bids = {s: [cards[i]] for i, s in enumerate(STATIONS)}
        else:
            bids = {str(step): cards[:2]}
        return {"type": "bid", "bids": bids}
    if kind == "dice":
        return {"type": "dice", "count": me["dice"]}
    if kind == "city":
        return {"type": "city", "choice": "die" if game["round"] % 2 else "hut"}
    if kind == "pyramid":
        return {"type": "pyramid", "first": seat}
    if kind == "roll":
        window = game["dice_window"] or {}
        count = window.get("choices", {}).get(seat, 1) if game["phase"] == "roll" else 1
        return {"type": "roll", "values": [4] * count}
    raise AssertionError(f"unexpected pending {entry}")


def seat_phones(
    server: LiveServer, table: str, names: list[str], first_colour: int = 0
) -> list[Phone]:
    colours = ["orange", "sky", "green", "yellow", "blue"][first_colour:]
    phones = []
    for name, colour in zip(names, colours, strict=False):
        seat = server.join(table, name, colour)
        assert seat["status"] == 200, seat
        phone = Phone(server, table, seat)
        phone.hello()
        phones.append(phone)
    return phones


def drain(peers: list[Peer], timeout: float = 0.0) -> None:
    for p in peers:
        while p.poll(timeout) is not None:
            pass


def settle(server: LiveServer, table: str, peers: list[Peer], timeout: float = 15.0) -> None:
    """Wait until every peer has the view of the table's latest command (the server's
    ``/api/state`` sequence number): a wait on a condition, not on a silence. The number is
    how many commands the game holds, so an undo takes it back: a peer still showing a later
    one has the undo's frame on its way (or the table moved on, and the number is read again).
    """

    def latest() -> int:
        return int(requests.get(f"{server.local}/t/{table}/api/state", timeout=5).json()["seq"])

    deadline = time.monotonic() + timeout
    target = latest()
    while True:
        for peer in peers:
            while peer.view is None or peer.view["seq"] != target:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"a peer is still not at seq {target}")
                peer.poll(0.2)
                if peer.view is not None and peer.view["seq"] > target:
                    target = latest()
        if all(p.view is not None and p.view["seq"] == target for p in peers):
            break
    drain(peers)


def play(
    phones: list[Phone],
    watchers: list[Peer],
    host: Host | None = None,
    host_inputs: bool = False,
    phones_roll: bool = True,
    max_steps: int | None = None,
    timeout: float = 240.0,
) -> int:
    """Drive the phones (and, with table dice, the host) until the game is over or
    ``max_steps`` commands were acknowledged. Returns the number of commands sent."""
    sent = 0
    deadline = time.monotonic() + timeout
    peers: list[Peer] = [*phones, *watchers] + ([host] if host else [])
    while time.monotonic() < deadline:
        drain(peers)
        view = phones[0].view
        if view and view["game"] and view["game"]["status"] != "playing":
            return sent
        if max_steps is not None and sent >= max_steps and all(p.ready() for p in phones):
            return sent
        acted = False
        for phone in phones:
            if not phone.ready():
                continue
            pending = phone.view["you"]["pending"] if phone.view else []
            if not phones_roll:
                pending = [e for e in pending if e["type"] != "roll"]
            if pending and (max_steps is None or sent < max_steps):
                phone.command(policy(phone.view, phone.seat, pending[0]))
                sent += 1
                acted = True
        if host_inputs and host is not None and host.view and host.view["game"]:
            inputs = host.view["host"]["inputs"]
            if inputs and all(p.ready() for p in phones):
                host.command(host_input(host.view, inputs[0]))
                drain(peers, 0.05)
                acted = True
        if not acted:
            for p in peers:
                p.poll(0.01)
        for phone in phones:
            assert not phone.errors, phone.errors
    raise TimeoutError("the game did not finish")


def host_input(view: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """What a host types in from the real dice and cards (fixed values)."""
    game = view["game"]["view"]
    if entry["type"] == "harvest":
        return {"type": "harvest", "dice": [6, 3, 1]}
    if entry["type"] == "improvements":
        return {"type": "improvements", "cards": [14, 11]}
    window = game["dice_window"] or {}
    count = window.get("choices", {}).get(entry["player"], 1) if game["phase"] == "roll" else 1
    return {"type": "roll", "player": entry["player"], "values": [5] * count}


def reconnect(server: LiveServer, table: str, old: list[Phone]) -> list[Phone]:
    """The same seats on new connections (a phone woke up or the server restarted)."""
    phones = []
    for p in old:
        again = Phone(server, table, {"seat": p.seat, "token": p.token})
        again.counter = p.counter  # a phone keeps its command counter (PROTOCOL.md 3.1)
        again.hello()
        phones.append(again)
    return phones


def next_to_move(phones: list[Phone], timeout: float = 30.0) -> Phone:
    """A phone with nothing in flight whose view asks it for a move (waited for up to
    ``timeout`` s: on a loaded machine a restarted server takes seconds to answer)."""
    phone = next_to_move_or_over(phones, timeout)
    if phone is None:
        raise AssertionError("the game is over: no phone has a move")
    return phone


def next_to_move_or_over(phones: list[Phone], timeout: float = 30.0) -> Phone | None:
    """``next_to_move``, or None once the phones' view says the game is over (a random deal
    can end a game early, R6.3)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        drain(phones, 0.05)
        ready = [p for p in phones if p.ready() and p.view["you"]["pending"]]
        if ready:
            return ready[0]
        game = phones[0].view.get("game") or {}
        if game.get("status") != "playing" or (game.get("view") or {}).get("finished"):
            return None
    raise AssertionError(
        "no phone has a move: "
        + repr([(p.seat, p.ready(), p.outstanding, p.view["seq"], p.view["you"]) for p in phones])
        + "; the game awaits "
        + repr(((phones[0].view.get("game") or {}).get("view") or {}).get("pending"))
    )


@contextlib.contextmanager
def disk_full(server: LiveServer) -> Iterator[None]:
    """A full disk for the worker: a file-size limit of one byte set from outside
    (``RLIMIT_FSIZE`` with prlimit), so the kernel refuses its database writes (EFBIG, as a
    full disk refuses them with ENOSPC); lifted again when the block ends."""
    pid = server.worker_pid()
    soft, hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (1, hard))
    try:
        yield
    finally:
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (soft, hard))


def refused(answer: dict[str, Any]) -> bool:
    """A ``storage_failed`` answer that says nothing was changed."""
    return (
        (answer.get("type") == "error" or "error" in answer)
        and (answer.get("code", answer.get("error")) == "storage_failed")
        and "nothing" in (answer["reason"])
    )


HALF_HEAD = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
SLOW_BODY = (
    b"POST /t/1/api/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
    b"\r\nContent-Length: 1000\r\n\r\n{"
)


def slow_client(port: int, source: str, payload: bytes) -> socket.socket:
    """A connection from ``source`` that sends ``payload`` (a request cut short) and stops."""
    s = socket.socket()
    s.settimeout(10)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    s.sendall(payload)
    return s


def ended(s: socket.socket) -> bool:
    """The server answered or closed (it timed the connection out)."""
    s.setblocking(False)
    try:
        s.recv(1, socket.MSG_PEEK)
        return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def serve_once(data: Path, port: int, *extra: str) -> subprocess.CompletedProcess[str]:
    """``companion serve`` run to its end (for servers that must refuse to start)."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--data",
            str(data),
            "--board",
            "none",
            *extra,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def settled_status(server: LiveServer, ok: Any, timeout: float = 20.0) -> dict[str, int]:
    """The worker's figures once ``ok`` holds for them (handlers end just after their peers
    close), or the last ones after ``timeout``."""
    deadline = time.monotonic() + timeout
    status = server.worker_status()
    while not ok(status) and time.monotonic() < deadline:
        time.sleep(0.1)
        status = server.worker_status()
    return status
