"""``companion replay FILE...``: apply game logs and print each resulting state (SCENARIO.md)."""

from __future__ import annotations

import argparse
import json
import sys

from companion.engine import InvalidSetup, ReplayError, replay_document


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="game documents (JSON)")


def replay_file(path: str) -> str:
    """The final state of one document as one line of JSON; raises on any refusal."""
    with open(path, encoding="utf-8") as fh:
        document = json.load(fh)
    state, _events = replay_document(document)
    return json.dumps(state, separators=(",", ":"))


def run(args: argparse.Namespace) -> int:
    status = 0
    out = sys.stdout
    for path in args.files:
        try:
            line = replay_file(path)
        except ReplayError as exc:
            print(f"{path}: command {exc.index}: {exc.reason}", file=sys.stderr)
            status = 1
            continue
        except (OSError, json.JSONDecodeError, InvalidSetup) as exc:
            print(f"{path}: {exc}", file=sys.stderr)
            status = 1
            continue
        out.write(line + "\n")
    return status
