"""The engine's tests read run-time shapes with the web tests' helper (shapes.py)."""

from __future__ import annotations

import sys
from pathlib import Path

WEB_TESTS = Path(__file__).resolve().parents[1] / "web"
if str(WEB_TESTS) not in sys.path:
    sys.path.insert(0, str(WEB_TESTS))
