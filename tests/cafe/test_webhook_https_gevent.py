"""``companion serve`` as it runs in a café (gevent worker) delivers a result to an HTTPS
endpoint (127.0.0.1, a certificate made here and trusted through ``REQUESTS_CA_BUNDLE``), and
its start and stop print no MonkeyPatchWarning (ssl imported before gevent patched it) and no
traceback (closing the tables on SIGTERM ran in gevent's event loop and its waits for the
thinking pool raised BlockingSwitchOutError)."""

from __future__ import annotations

import hashlib
import hmac
import json
import ssl
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from live_server import Host, LiveServer, seat_phones
from waiting import wait_for

SECRET = "café-secret"


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, made with the openssl command."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )  # fmt: skip
    return cert, key


class HttpsReceiver:
    """A café's HTTPS endpoint: stores every POST; answers 200."""

    def __init__(self, cert: Path, key: Path) -> None:
        self.posts: list[dict[str, Any]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.posts.append({"headers": dict(self.headers), "body": body})
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.url = f"https://127.0.0.1:{self.server.server_address[1]}/results"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_https_webhook_under_gevent_with_a_quiet_start_and_stop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cert, key = self_signed(tmp_path)
    receiver = HttpsReceiver(cert, key)
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(cert))  # the server trusts the café's CA
    live = LiveServer(
        tmp_path / "data",
        extra=["--webhook", receiver.url, "--webhook-secret", SECRET, "--board", "none"],
    )
    phones: list[Any] = []
    host: Any = None
    try:
        live.start()
        phones = seat_phones(live, "1", ["Ana", "Ben", "Cleo"])
        host = Host(live, "1")
        host.hello()
        # A companion player too: stopping must also close its thinking process.
        assert host.act("add_bot", level="good")["type"] == "ok"
        assert host.act("start", dice="digital")["type"] == "ok"
        worker = live.worker_pid()
        wait_for(
            lambda: Path(f"/proc/{worker}/task/{worker}/children").read_text().split(),
            "the companion player's thinking process",
            60,
        )
        assert host.act("end_game")["type"] == "ok"
        wait_for(lambda: receiver.posts, "the result at the HTTPS endpoint", 30)
        post = receiver.posts[0]
        expected = hmac.new(SECRET.encode(), post["body"], hashlib.sha256).hexdigest()
        assert post["headers"]["X-Chocolatl-Signature"] == f"sha256={expected}"
        assert json.loads(post["body"])["status"] == "ended"
        # Stopped while the phones and the host are still connected (they are told "closed").
        assert live.proc is not None
        proc = live.proc
        live.stop()  # SIGTERM, as systemd stops it
        assert proc.returncode == 0, live.log()
    finally:
        live.stop()
        receiver.close()
        for peer in [*phones, host]:
            if peer is not None:
                peer.close()
    log = live.log()
    assert "MonkeyPatchWarning" not in log, log
    assert "Traceback" not in log and "BlockingSwitchOutError" not in log, log
