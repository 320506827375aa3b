"""How the package is put together, beyond its imports (docs/DESIGN.md "Table server rooms").

- A table is one object that holds its parts, not a chain of classes: no class of
  ``companion.table`` inherits from another class of the package, so what an attribute is
  can be read where the class is written.
- ``companion.table``'s modules stay short enough to be read whole.
- No room calls another module's private names (``x._name``, ``from m import _name``): what a
  module offers another is public, so the store's queries, the review's summaries and the
  table's parts are asked by their public names.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import companion.table
from companion.store import Store
from companion.table import Table
from companion.table.bot_seats import BotSeats
from companion.table.commands import Commands
from companion.table.games import Games
from companion.table.seats import Seats

PACKAGE = Path(__file__).resolve().parents[2] / "companion"
TABLE_MODULE_LINES = 450
# frames.py renders every audience's frame and is longer; it is split on its own.
LONG_TABLE_MODULES = {"frames.py"}
# Private names of the standard library that are meant to be called: a forked child leaves
# with ``os._exit``; an enum's value map is ``_value2member_map_`` (a sunder name, ending
# in ``_``, is the enum module's public spelling).
STDLIB_PRIVATE = {("os", "_exit")}


def _table_classes() -> list[type]:
    found = []
    for info in pkgutil.iter_modules(companion.table.__path__):
        module = importlib.import_module(f"companion.table.{info.name}")
        found += [
            c
            for _, c in inspect.getmembers(module, inspect.isclass)
            if c.__module__ == module.__name__
        ]
    return found


def test_table_is_one_object_holding_its_parts(tmp_path: Path) -> None:
    assert Table.__mro__ == (Table, object)
    store = Store(tmp_path / "cafe.sqlite3")
    try:
        table = Table("t1", store)
        parts = {
            "commands": Commands,
            "games": Games,
            "seating": Seats,
            "bot_seats": BotSeats,
        }
        for name, kind in parts.items():
            part = getattr(table, name)
            assert type(part) is kind and part.ctx is table, name
        # The parts call each other through what they were given, not through the table.
        assert table.games.commands is table.commands
        assert table.seating.commands is table.commands
        assert table.bot_seats.seating is table.seating
    finally:
        store.close()


@pytest.mark.parametrize("cls", _table_classes(), ids=lambda c: c.__qualname__)
def test_no_table_class_inherits_from_the_package(cls: type) -> None:
    inherited = [b for b in cls.__mro__[1:] if b.__module__.startswith("companion")]
    assert not inherited, f"{cls.__qualname__} inherits from {inherited}"


@pytest.mark.parametrize("path", sorted((PACKAGE / "table").glob("*.py")), ids=lambda p: p.name)
def test_table_modules_are_short(path: Path) -> None:
    if path.name in LONG_TABLE_MODULES:
        return
    lines = len(path.read_text().splitlines())
    assert lines <= TABLE_MODULE_LINES, f"{path.name} has {lines} lines"


def _private_uses(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, what) for every private name of another object or module used here."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            name = node.attr
            if not name.startswith("_") or name.endswith("_"):
                continue  # public, dunder or sunder
            base = ast.unparse(node.value)
            if base in ("self", "cls") or (base, name) in STDLIB_PRIVATE:
                continue
            found.append((node.lineno, f"{base}.{name}"))
        elif isinstance(node, ast.ImportFrom):
            found += [
                (node.lineno, f"from {node.module} import {a.name}")
                for a in node.names
                if a.name.startswith("_") and not a.name.endswith("_")
            ]
    return found


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_no_module_calls_another_ones_private_names(path: Path) -> None:
    uses = _private_uses(ast.parse(path.read_text(), str(path)))
    assert not uses, f"{path.relative_to(PACKAGE.parent)}: {uses}"


def test_the_private_names_check_sees_what_it_looks_for() -> None:
    """The check itself: each kind of use is found, self's own names are not."""
    tree = ast.parse(
        "from companion.players.review import _summary\n"
        "store._read('x')\nself.store._read('x')\nself._plan()\nos._exit(1)\n"
    )
    assert [what for _, what in sorted(_private_uses(tree))] == [
        "from companion.players.review import _summary",
        "store._read",
        "self.store._read",
    ]
