"""Every page module parses as an ES module (Node's parser; no build step exists to catch it)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[3] / "companion" / "web" / "static" / "js"
MODULES = sorted(STATIC.glob("*.js"))


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_module_parses(path, tmp_path):
    copy = tmp_path / (path.stem + ".mjs")
    copy.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    result = subprocess.run(
        ["node", "--check", str(copy)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr


def test_all_modules_are_checked():
    assert {p.name for p in MODULES} >= {
        "connection.js",
        "i18n.js",
        "display.js",
        "pad.js",
        "host.js",
        "format.js",
        "wake.js",
        "dom.js",
        "catalogue.js",
        "texts.js",
        "padstate.js",
        "padview.js",
        "displayview.js",
        "hostview.js",
    }


PURE = ["catalogue.js", "texts.js", "padstate.js", "padview.js", "displayview.js", "hostview.js"]


@pytest.mark.parametrize("name", PURE)
def test_pure_modules_touch_no_browser(name):
    """What a page decides lives in modules `node --test` loads (tests/js/): they name no
    browser global, and import only each other and i18n.js (which reads none at import)."""
    text = (STATIC / name).read_text(encoding="utf-8")
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)
    used = set(re.findall(r"\b(document|window|navigator|localStorage|location|fetch)\b", code))
    assert not used, f"{name} uses {sorted(used)}"
    imports = set(re.findall(r'from "\./([\w.-]+)"', code))
    assert imports <= {*PURE, "i18n.js"}, f"{name} imports {sorted(imports - {*PURE, 'i18n.js'})}"
