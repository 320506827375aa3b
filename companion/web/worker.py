"""The server's gunicorn worker: gevent, with a cap per client address and idle timeouts.

Why gevent (measured with benchmarks/bench_slow_clients.py, figures in the README): with the
threaded worker every connection holds a thread while its request head or body trickles in,
so a few hundred half-sent requests took every thread and nobody could load a page or reopen
a websocket. Under gevent a connection is a greenlet of a few kilobytes: 1,000 slow
connections cost memory, not service, and 1,000 open websockets fit in one process.

What gevent alone does not bound, this worker does:

- ``MAX_PER_ADDRESS`` connections per client address (a phone needs two or three; the host's
  laptop a handful): one misbehaving device cannot hold most of the worker's connections.
- ``REQUEST_IDLE_S``: a connection that sends nothing for that long while its request is read
  is closed (half-sent heads, stalled bodies). Websockets get ``WEBSOCKET_IDLE_S`` instead
  (set by the app when it upgrades): their peers answer the server's pings, so silence that
  long means the phone is gone.
"""

from __future__ import annotations

import threading
from typing import Any

from gunicorn.workers.ggevent import GeventWorker

MAX_PER_ADDRESS = 64
REQUEST_IDLE_S = 15.0


class CafeWorker(GeventWorker):  # type: ignore[misc]  # gunicorn ships no types
    """gevent worker that refuses an address's connections beyond ``MAX_PER_ADDRESS`` and
    times out idle reads."""

    max_per_address = MAX_PER_ADDRESS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._per_address: dict[str, int] = {}
        self._count_lock = threading.Lock()  # a greenlet lock once gevent has patched

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        host = addr[0] if isinstance(addr, tuple) else str(addr)
        with self._count_lock:
            open_now = self._per_address.get(host, 0)
            if open_now >= self.max_per_address:
                refused = True
            else:
                refused = False
                self._per_address[host] = open_now + 1
        if refused:
            client.close()
            return
        try:
            client.setblocking(1)
            client.settimeout(REQUEST_IDLE_S)
            super(GeventWorker, self).handle(listener, client, addr)
        finally:
            with self._count_lock:
                left = self._per_address.get(host, 1) - 1
                if left > 0:
                    self._per_address[host] = left
                else:
                    self._per_address.pop(host, None)
