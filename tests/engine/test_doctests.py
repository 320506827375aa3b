"""The engine's doctests pass, also when only tests/engine is run (pyproject collects them too)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import tomllib
from pathlib import Path

import pytest

import companion.engine

MODULES = ["companion.engine"] + [
    f"companion.engine.{m.name}" for m in pkgutil.iter_modules(companion.engine.__path__)
]


@pytest.mark.parametrize("name", MODULES)
def test_engine_doctests_pass(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_doctests_have_examples() -> None:
    """The examples exist (a module list gone empty would pass silently)."""
    found = sum(doctest.testmod(importlib.import_module(n)).attempted for n in MODULES)
    assert found >= 5


def test_pytest_config_collects_engine_doctests() -> None:
    """pyproject: plain ``pytest`` runs the doctests of the whole package (engine included)."""
    config = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    options = config["tool"]["pytest"]["ini_options"]
    assert "companion" in options["testpaths"]
    assert "--doctest-modules" in options["addopts"]
