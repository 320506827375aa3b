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
import time
from functools import partial
from typing import Any

import gevent
from gevent.event import Event
from gevent.pool import Pool
from gevent.server import StreamServer
from gunicorn.sock import ssl_context
from gunicorn.workers.ggevent import GeventWorker

# How often a stopping worker looks whether its last requests are done (gunicorn: 1 s).
DRAIN_POLL_S = 0.05

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

    def run(self) -> None:
        """gunicorn's ``GeventWorker.run`` (MIT), woken at once by a stop: gunicorn's looks
        whether the worker should stop once a second, and once a second again whether its
        last requests are done, so every stop (systemd's, a test's) took 1.3 s, 1 s of it
        asleep. Here the stop sets an event the loop waits on, and the drain looks every
        ``DRAIN_POLL_S``. Serves with ``StreamServer`` and ``handle``, as gunicorn's does."""
        self._stopping = Event()
        if not self.alive:  # a stop that came while the worker was starting
            self._stopping.set()
        ssl_args = {"ssl_context": ssl_context(self.cfg)} if self.cfg.is_ssl else {}
        servers = []
        for s in self.sockets:
            s.setblocking(1)
            server = StreamServer(
                s, handle=partial(self.handle, s), spawn=Pool(self.worker_connections), **ssl_args
            )
            server.start()
            servers.append(server)
        while self.alive:
            self.notify()
            self._stopping.wait(1.0)
        for server in servers:
            server.close()  # no new connections
        deadline = time.monotonic() + self.cfg.graceful_timeout
        while time.monotonic() < deadline:
            if all(server.pool.free_count() == server.pool.size for server in servers):
                return
            self.notify()
            gevent.sleep(DRAIN_POLL_S)
        self.log.warning("Worker graceful timeout (pid:%s)", self.pid)
        for server in servers:
            server.stop(timeout=1)

    def handle_exit(self, sig: Any, frame: Any) -> None:
        """SIGTERM: stop now (``run`` waits on this), not at the loop's next look."""
        super().handle_exit(sig, frame)
        stopping = getattr(self, "_stopping", None)
        if stopping is not None:
            stopping.set()

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
