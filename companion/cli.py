"""The Chocolatl companion: serve a table, replay game logs, simulate games, flash the board.

Each subcommand lives with the concern it drives; this module only wires argparse to them and
imports them lazily so ``replay`` starts fast and never loads Flask.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# name -> (module, help). Each module defines ``configure(parser)`` and ``run(args) -> int``.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "replay": (
        "companion.commands.replay",
        "apply game logs and print the resulting states as JSON",
    ),
    "simulate": (
        "companion.commands.simulate",
        "play random legal games (engine fuzzer and benchmark)",
    ),
    "arena": (
        "companion.commands.arena",
        "play companion players against each other and measure them",
    ),
    "review": (
        "companion.commands.review",
        "rate every decision of a game log with the strong player's search",
    ),
    "serve": ("companion.web.serve", "start the table server (display, phone pads, LED board)"),
    "flash": ("companion.board.flash", "copy the MicroPython firmware to a board with mpremote"),
}


def build_parser(argv: list[str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    wanted = argv[0] if argv and argv[0] in SUBCOMMANDS else None
    for name, (module, help_text) in SUBCOMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        # Only the chosen subcommand's module is imported (replay stays light).
        if name == wanted:
            importlib.import_module(module).configure(p)
    return parser


def serves_with_gevent(argv: list[str]) -> bool:
    """``companion serve`` with the gevent worker (its default).

    >>> serves_with_gevent(["serve"]), serves_with_gevent(["serve", "--worker", "gthread"])
    (True, False)
    >>> serves_with_gevent(["serve", "--worker=gthread"]), serves_with_gevent(["replay", "x"])
    (False, False)
    """
    if not argv or argv[0] != "serve":
        return False
    for i, arg in enumerate(argv):
        if arg == "--worker" and i + 1 < len(argv):
            return argv[i + 1] == "gevent"
        if arg.startswith("--worker="):
            return arg.split("=", 1)[1] == "gevent"
    return True


def patch_for_gevent() -> None:
    """gevent's monkey-patching, before anything imports ``ssl`` (gunicorn, requests): ssl
    patched after its import breaks TLS in the worker (HTTPS webhooks ended in a
    RecursionError) and prints a MonkeyPatchWarning. The patched master process forks the
    worker as gunicorn's gevent worker expects; the worker's own patching then finds everything
    done."""
    from gevent import monkey  # only here: replay and the other subcommands never load gevent

    monkey.patch_all()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if serves_with_gevent(argv) and "ssl" not in sys.modules:
        patch_for_gevent()
    args = build_parser(argv).parse_args(argv)
    module = importlib.import_module(SUBCOMMANDS[args.command][0])
    return int(module.run(args) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
