"""One webhook attempt over HTTP: a POST with a total deadline (companion/cafe/outbox.py).

Its own module so that ``requests`` and urllib3 are imported only when a result is sent: a
server without webhooks, or before its first game is over, starts without them.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

TIMEOUT_S = 10.0  # connecting, and each silence while the answer's head arrives

# requests' timeouts bound each silence, not a whole request: an endpoint that drips a byte
# every few seconds would hold a courier for ever. The sockets an attempt waits on are noted
# (per thread) so that a timer can shut them at the deadline; the blocked read then ends.
_attempt_sockets = threading.local()


def _note_socket(sock: socket.socket | None) -> None:
    noted = getattr(_attempt_sockets, "socks", None)
    if noted is not None and sock is not None:
        noted.append(sock)


class _WatchedHTTPConnection(HTTPConnection):
    def getresponse(self, *args: Any, **kwargs: Any) -> Any:
        _note_socket(self.sock)
        return super().getresponse(*args, **kwargs)


class _WatchedHTTPSConnection(HTTPSConnection):
    def getresponse(self, *args: Any, **kwargs: Any) -> Any:
        _note_socket(self.sock)
        return super().getresponse(*args, **kwargs)


class _WatchedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _WatchedHTTPConnection


class _WatchedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _WatchedHTTPSConnection


class DeadlineAdapter(HTTPAdapter):
    """requests' adapter whose connections let ``post_with_deadline`` shut them."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _WatchedHTTPPool,
            "https": _WatchedHTTPSPool,
        }


def deadline_session() -> requests.Session:
    session = requests.Session()
    adapter = DeadlineAdapter()
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


class DeadlinePassed(requests.RequestException):
    """The endpoint did not answer within the attempt's total deadline."""


def post_with_deadline(
    session: requests.Session, url: str, body: bytes, headers: dict[str, str], deadline: float
) -> int:
    """POST ``body`` and return the answer's status, all within ``deadline`` seconds. The
    answer's body is not read (the status decides) and its connection is closed."""
    noted: list[socket.socket] = []
    _attempt_sockets.socks = noted
    cut = threading.Event()

    def shut() -> None:
        cut.set()
        for sock in list(noted):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    timer = threading.Timer(deadline, shut)
    timer.daemon = True
    started = time.monotonic()
    timer.start()
    try:
        response = session.post(
            url,
            data=body,
            headers=headers,
            timeout=(min(TIMEOUT_S, deadline), min(TIMEOUT_S, deadline)),
            allow_redirects=False,
            stream=True,
        )
        response.close()  # a dripping body holds nothing: it is never read
        return response.status_code
    except requests.RequestException:
        # The deadline's cut, or a read timeout that came when the deadline was up anyway
        # (on a busy machine the timer's thread may run a moment late).
        if cut.is_set() or time.monotonic() - started >= deadline:
            raise DeadlinePassed(f"no answer within {deadline:g} s") from None
        raise
    finally:
        timer.cancel()
        _attempt_sockets.socks = None
