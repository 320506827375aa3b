"""``companion replay FILE...``: apply game logs and print each resulting state (SCENARIO.md)."""

from __future__ import annotations

import argparse
import gc
import sys

import orjson

from companion.engine import InvalidSetup, ReplayError, replay_document


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="game documents (JSON)")


def replay_file(path: str) -> str:
    """The final state of one document as one line of JSON; raises on any refusal."""
    with open(path, "rb") as fh:
        document = orjson.loads(fh.read())
    state, _events = replay_document(document, keep_events=False)
    return orjson.dumps(state).decode()


def run(args: argparse.Namespace) -> int:
    # Game states hold no reference cycles; the cycle collector only costs time here.
    gc.disable()
    try:
        return _replay_all(args.files)
    finally:
        gc.enable()


def _replay_all(paths: list[str]) -> int:
    status = 0
    out = sys.stdout
    for path in paths:
        try:
            line = replay_file(path)
        except ReplayError as exc:
            print(f"{path}: command {exc.index}: {exc.reason}", file=sys.stderr)
            status = 1
            continue
        except (OSError, orjson.JSONDecodeError, InvalidSetup) as exc:
            print(f"{path}: {exc}", file=sys.stderr)
            status = 1
            continue
        out.write(line + "\n")
    return status
