"""Limits on what a websocket client may send: origin, size, rate, shape (PROTOCOL.md 3)."""

from __future__ import annotations

import ipaddress
import json
import socket
import threading
import time
from functools import lru_cache
from typing import Any, Literal
from urllib.parse import urlsplit

from companion.engine.flow import unknown_field
from companion.engine.types import COMMAND_FIELDS
from companion.table.frame_types import PongFrame
from companion.web.messages import CommandRequest, JsonObject

# Error frame codes of the socket edge itself (PROTOCOL.md 3.4); a table adds its own
# (companion.table.model.ErrorCode).
RefusalCode = Literal[
    "bad_json",
    "bad_message",
    "bad_token",
    "no_table",
    "not_hello",
    "rate_limited",
    "server_error",
    "too_large",
    "too_many_guesses",
    "unknown_type",
]


class Refused(ValueError):
    """A message refused before it reaches a table; ``code`` goes into the error frame."""

    def __init__(self, code: RefusalCode, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def origin_allowed(
    origin: str | None,
    host_header: str | None,
    server_port: str | None,
    allowed: list[str],
    scheme: str = "http",
) -> bool:
    """Same origin as the request's ``Host`` and scheme (a Host without a port means the port
    the server listens on), or listed. No Origin header = not a browser, allowed.

    >>> origin_allowed("http://10.0.0.2:8000", "10.0.0.2:8000", "8000", [])
    True
    >>> origin_allowed("http://evil.example", "10.0.0.2:8000", "8000", [])
    False
    >>> origin_allowed("https://10.0.0.2:8000", "10.0.0.2:8000", "8000", [])
    False
    """
    if origin is None:
        return True
    origin = origin.rstrip("/").lower()
    if origin in (o.rstrip("/").lower() for o in allowed):
        return True
    if not host_header:
        return False
    parts = urlsplit(origin)
    if parts.scheme != scheme.lower():  # an https page is another origin than our http one
        return False
    host = host_header.lower()
    candidates = {host}
    if server_port and not host.endswith("]") and ":" not in host:
        candidates.add(f"{host}:{server_port}")
    return parts.netloc in candidates


def pong(msg: JsonObject) -> PongFrame:
    """The answer to a ping: its ``t`` echoed when it is a plain number a client can read
    back (any JSON number survives a round trip only within 2**53), else refused.

    >>> pong({"type": "ping", "t": 5})
    {'type': 'pong', 't': 5}
    """
    t = msg.get("t")
    if t is not None and (isinstance(t, bool) or not isinstance(t, int | float) or abs(t) > 2**53):
        raise Refused("bad_message", "ping's t must be a number up to 2**53")
    return {"type": "pong", "t": t}


class RateLimit:
    """Token bucket: ``rate`` messages per second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


def parse(raw: str | bytes | None, max_bytes: int) -> JsonObject:
    """One client message: a JSON object with a string ``type``, at most ``max_bytes``; its
    other fields are still to check (:func:`message_type` reads its type)."""
    if raw is None:
        raise Refused("bad_json", "empty message")
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8"))
    if size > max_bytes:
        raise Refused("too_large", f"message of {size} bytes; at most {max_bytes} allowed")
    try:
        msg = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise Refused("bad_json", "the message is not valid JSON") from None
    except RecursionError:  # thousands of nested brackets: refuse, keep the handler alive
        raise Refused("bad_json", "the message is nested too deeply") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise Refused("bad_message", "a message is a JSON object with a string type")
    return msg


def message_type(msg: JsonObject) -> str:
    """The ``type`` of a message :func:`parse` let through (it refuses one without a string
    type, and so does this).

    >>> message_type({"type": "ping", "t": 1})
    'ping'
    """
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise Refused("bad_message", "a message is a JSON object with a string type")
    return kind


def body_json(raw: bytes) -> Any:
    """An HTTP request's JSON body, or a refusal naming why it cannot be read: Flask's
    ``get_json(silent=True)`` lets a ``RecursionError`` from deeply nested brackets through,
    which would answer 500 with a traceback.

    >>> body_json(b'{"to": 3}')
    {'to': 3}
    >>> body_json(b"[" * 20000)
    Traceback (most recent call last):
    ...
    companion.web.guard.Refused: the body is nested too deeply
    """
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise Refused("bad_json", "the body is not valid JSON") from None
    except RecursionError:
        raise Refused("bad_json", "the body is nested too deeply") from None


# PROTOCOL.md 3.1 / 3.2: a command message holds its id, the token and the command, nothing
# else (a client library may add nothing of its own: what is not read is not accepted).
COMMAND_MESSAGE_FIELDS = frozenset({"type", "token", "id", "command"})


def command_request(msg: JsonObject) -> CommandRequest:
    """The ``command`` message ``msg`` with its keys checked, or a refusal naming the first
    key its type does not have. The values are the table's and the engine's to check; an
    unknown command type is left to them too (they say what may be sent).

    >>> command_request({"type": "command", "id": "c1", "command":
    ...                  {"type": "sacrifice", "card": 7, "note": "x"}})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    companion.web.guard.Refused: a sacrifice command has no field 'note' (its fields: ...)
    """
    for key in msg:
        if key not in COMMAND_MESSAGE_FIELDS:
            allowed = ", ".join(sorted(COMMAND_MESSAGE_FIELDS))
            raise Refused("bad_message", f"a command message has no field {key!r} ({allowed})")
    command = msg.get("command")
    kind = command.get("type") if isinstance(command, dict) else None
    if not isinstance(command, dict) or not isinstance(kind, str):
        raise Refused("bad_message", "command must be an object with a type")
    fields: JsonObject = command  # a JSON object's keys are strings
    exact = COMMAND_FIELDS.get(kind)
    if exact is not None:
        for key in fields:
            if key not in exact:
                raise Refused("bad_message", unknown_field(kind, key))
    request: CommandRequest = {"type": "command", "id": msg.get("id"), "command": fields}
    if "token" in msg:
        request["token"] = msg["token"]
    return request


def host_name(host_header: str | None) -> str:
    """The name or address of a ``Host`` header without its port, lower case.

    >>> host_name("[::1]:8000"), host_name("Table.LAN:8000"), host_name("10.0.0.2")
    ('::1', 'table.lan', '10.0.0.2')
    """
    host = (host_header or "").strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


@lru_cache(maxsize=256)
def is_local_address(host: str) -> bool:
    """True for an IP address of this machine: the kernel lets us bind only to those.
    Unspecified addresses (0.0.0.0, ::) are not a destination and are refused."""
    try:
        addr = ipaddress.ip_address(host)
    except ValueError:
        return False
    if addr.is_unspecified or addr.is_multicast:
        return False
    family = socket.AF_INET6 if addr.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as s:
            s.bind((str(addr), 0))
        return True
    except OSError:
        return False


def host_allowed(host_header: str | None, names: set[str]) -> bool:
    """A request's ``Host`` must be an address of this machine or a name we were told
    (``--public-url``, ``--allow-host``, localhost): a DNS-rebinding page on another site
    arrives with its own name and is refused.

    >>> host_allowed("127.0.0.1:8000", set()), host_allowed("evil.example:8000", set())
    (True, False)
    >>> host_allowed("table.lan:8000", {"table.lan"})
    True
    """
    host = host_name(host_header)
    return bool(host) and (host in names or is_local_address(host))


class GuessThrottle:
    """Wrong join secrets and host tokens per client address: a token bucket of ``burst``
    guesses refilled at ``rate`` a second. While an address has none left every secret it
    sends is refused unchecked, so guessing runs at ``rate`` at most (a phone that mistyped
    waits a few seconds)."""

    def __init__(self, rate: float = 0.5, burst: int = 10, max_addresses: int = 4096) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.max_addresses = max_addresses
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def _tokens(self, addr: str, now: float) -> float:
        tokens, stamp = self._buckets.get(addr, (self.burst, now))
        return min(self.burst, tokens + (now - stamp) * self.rate)

    def wait(self, addr: str) -> float:
        """Seconds until ``addr`` may guess again (0: it may now)."""
        with self._lock:
            tokens = self._tokens(addr, time.monotonic())
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate

    def failed(self, addr: str) -> None:
        now = time.monotonic()
        with self._lock:
            tokens = self._tokens(addr, now)
            if len(self._buckets) >= self.max_addresses and addr not in self._buckets:
                # Forget the addresses that have refilled; a flood of new ones cannot grow
                # this without bound.
                self._buckets = {
                    a: b for a, b in self._buckets.items() if self._tokens(a, now) < self.burst
                }
            self._buckets[addr] = (max(0.0, tokens - 1.0), now)
