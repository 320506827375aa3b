"""Limits on what a websocket client may send: origin, size, rate, shape (PROTOCOL.md 3)."""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import urlsplit


class Refused(ValueError):
    """A message refused before it reaches a table; ``code`` goes into the error frame."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def origin_allowed(origin: str | None, host_header: str | None, server_port: str | None,
                   allowed: list[str]) -> bool:
    """Same origin as the request's ``Host`` (a Host without a port means the port the server
    listens on), or listed. No Origin header = not a browser, allowed.

    >>> origin_allowed("http://10.0.0.2:8000", "10.0.0.2:8000", "8000", [])
    True
    >>> origin_allowed("http://evil.example", "10.0.0.2:8000", "8000", [])
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
    if parts.scheme not in ("http", "https"):
        return False
    host = host_header.lower()
    candidates = {host}
    if server_port and not host.endswith("]") and ":" not in host:
        candidates.add(f"{host}:{server_port}")
    return parts.netloc in candidates


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


def parse(raw: str | bytes | None, max_bytes: int) -> dict[str, Any]:
    """One client message: a JSON object with a string ``type``, at most ``max_bytes``."""
    if raw is None:
        raise Refused("bad_json", "empty message")
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8"))
    if size > max_bytes:
        raise Refused("too_large", f"message of {size} bytes; at most {max_bytes} allowed")
    try:
        msg = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise Refused("bad_json", "the message is not valid JSON") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise Refused("bad_message", "a message is a JSON object with a string type")
    return msg
