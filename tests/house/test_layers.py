"""The package's rooms and the one way data flows between them (docs/DESIGN.md "Layout").

A lower layer never imports a higher one, at module level or inside a function; an import
needed only for type hints stays under ``TYPE_CHECKING``. Imports inside functions are kept to
the two places that load lazily so a command starts fast (``cli``, ``web/serve``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "companion"

# What each room may import besides itself (docs/DESIGN.md): command -> engine -> store ->
# table -> views (web frames, LEDs). `players` are functions of a view and sit on the engine.
ALLOWED: dict[str, set[str]] = {
    "engine": set(),
    "leds": {"engine"},
    "players": {"engine"},
    "store": {"engine"},
    "table": {"engine", "players", "store"},
    "board": {"engine", "leds", "table"},
    "cafe": {"engine", "players", "store", "table", "leds", "board"},
    "web": {"engine", "players", "store", "table", "leds", "board", "cafe"},
    "commands": {"engine", "players", "store", "table"},
}
# Modules that may import inside a function (the room rules above still see those imports):
# the entry points, each loading only its subcommand's modules, and the outbox, which loads
# its HTTP attempt (with requests and urllib3, about 50 ms of a server's start) at the first.
LAZY = {"companion.cli", "companion.web.serve", "companion.cafe.outbox"}


def _modules() -> list[tuple[str, ast.Module]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found.append((name, ast.parse(path.read_text(), str(path))))
    return found


def _imports(tree: ast.Module) -> list[tuple[str, bool]]:
    """(imported companion module, inside a function) for every runtime import."""
    typing_only = {
        id(node)
        for branch in ast.walk(tree)
        if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
        for node in ast.walk(branch)
    }
    in_function = {
        id(node)
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(fn)
    }
    out = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "companion":
                names = [f"companion.{a.name}" for a in node.names]
            else:
                names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        out += [(n, id(node) in in_function) for n in names if n.startswith("companion.")]
    return out


MODULES = _modules()


@pytest.mark.parametrize("name,tree", MODULES, ids=[m for m, _ in MODULES])
def test_no_room_imports_a_higher_one(name: str, tree: ast.Module) -> None:
    room = name.split(".")[1] if "." in name else ""
    if room not in ALLOWED:
        return  # the entry points (companion, cli, __main__) may use every room
    for target, _ in _imports(tree):
        other = target.split(".")[1]
        assert other == room or other in ALLOWED[room], f"{name} imports {target}"


@pytest.mark.parametrize("name,tree", MODULES, ids=[m for m, _ in MODULES])
def test_no_import_hidden_in_a_function(name: str, tree: ast.Module) -> None:
    if name in LAZY:
        return
    hidden = [target for target, inside in _imports(tree) if inside]
    assert not hidden, f"{name} imports {hidden} inside a function"


def test_the_rules_stay_acyclic() -> None:
    """The room graph above is itself a one-way flow (a cycle would let data flow back)."""
    order: list[str] = []
    pending = dict(ALLOWED)
    while pending:
        ready = [r for r, deps in pending.items() if deps <= set(order)]
        assert ready, f"cycle among {sorted(pending)}"
        order += sorted(ready)
        for r in ready:
            del pending[r]
