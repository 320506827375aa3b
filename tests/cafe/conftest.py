"""Café tests (service install, mDNS, Wi-Fi QR, webhooks, history) reuse the live-server
helpers of the web tests."""

from __future__ import annotations

import sys
from pathlib import Path

WEB_TESTS = Path(__file__).resolve().parents[1] / "web"
if str(WEB_TESTS) not in sys.path:
    sys.path.insert(0, str(WEB_TESTS))


# Scripts run in a child process (a network namespace), not test modules.
collect_ignore = ["mdns_probe.py", "mdns_refresh_probe.py"]
