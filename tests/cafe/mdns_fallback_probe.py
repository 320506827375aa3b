"""Run inside a network namespace with no interface up, where multicast DNS cannot start:
the app's join link falls back from the name to the address. Prints JSON."""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from companion.web.app import create_app, start_background
from companion.web.config import ServerConfig, TableConfig


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(
            host="0.0.0.0", port=8123, data=Path(tmp), mdns="lost-table", tables=[TableConfig("1")]
        )
        app = create_app(config)
        client = app.test_client()
        before = client.get("/t/1/api/state").get_json()["table"]["urls"]["join"]
        start_background(app)
        after = before
        deadline = time.monotonic() + 30
        while after == before and time.monotonic() < deadline:
            time.sleep(0.1)
            after = client.get("/t/1/api/state").get_json()["table"]["urls"]["join"]
        app.extensions["outbox"].close()
        app.extensions["cafe"].close()
        app.extensions["cafe"].store.close()
    print(json.dumps({"before": before, "after": after}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
