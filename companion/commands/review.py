"""``companion review FILE``: rate every decision of a game log with the strong player's search.

The review itself is :func:`companion.players.review.review_game` (a pure function of the log,
the seed and the budget); this module reads the file and prints the result as text or JSON.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import Any

import orjson

from companion.players.review import (
    DEFAULT_BUDGET,
    LANGUAGES,
    DecisionReview,
    Move,
    ReviewDocument,
    ReviewError,
    review_game,
    text,
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a game log (docs/SCENARIO.md)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.add_argument(
        "--lang", choices=LANGUAGES, default="en", help="language of the reasons (default en)"
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--budget",
        type=float,
        default=DEFAULT_BUDGET,
        help="seconds of search for the whole game on the reference machine, turned into a "
        f"fixed number of playouts per decision (default {DEFAULT_BUDGET:g}); the same log, "
        "seed and budget always give the same review",
    )


def load(path: str) -> Any:
    try:
        with open(path, "rb") as fh:
            return orjson.loads(fh.read())
    except OSError as exc:
        raise ReviewError(f"cannot read the log: {exc.strerror or exc}") from None
    except orjson.JSONDecodeError as exc:
        raise ReviewError(f"the log is not JSON: {exc}") from None


def run(args: argparse.Namespace) -> int:
    try:
        result = review_game(load(args.file), seed=args.seed, budget=args.budget, lang=args.lang)
    except ReviewError as exc:
        print(f"companion review: {args.file}: {exc}", file=sys.stderr)
        return 1
    if args.json:
        sys.stdout.write(orjson.dumps(result, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        sys.stdout.write(report(result) + "\n")
    return 0


def report(result: ReviewDocument) -> str:
    """The review as lines of text: each player's figures and costliest decisions."""
    lang = result["lang"]
    lines = [
        f"review: seed {result['seed']}, {result['playouts']} playouts a decision; "
        f"losses in expected points of the margin over the best other player (± standard "
        f"error); mean loss in a common mix of decisions, the plain mean in brackets"
    ]
    for player, pr in result["players"].items():
        kind = f" ({pr['kind']})" if pr["kind"] else ""
        counts = ", ".join(f"{n} {text(lang, 'label.' + k)}" for k, n in pr["labels"].items())
        lines.append(
            f"{player}{kind}: {pr['decisions']} decisions ({pr['forced']} forced), "
            f"mean loss {pr['mean_loss']:.2f} ({pr['raw_mean_loss']:.2f}); {counts}"
        )
        for d in pr["worst"]:
            lines.append("  " + _decision(d, lang))
    return "\n".join(lines)


def _decision(d: DecisionReview, lang: str) -> str:
    where = f"round {d['round']}"
    if d["station"] is not None:
        where += f", station {d['station']}"
    elif d["step"] in ("all", "first", "second"):
        where += f", {d['step']} bid"
    return (
        f"{where}: {_move(d['made'])} -> {_move(d['better'])}: "
        f"-{d['loss']:.1f} ± {d['se']:.1f} ({text(lang, 'label.' + d['label'])}; own points "
        f"{-d['points_loss']:+.1f}). {d['reason']}"
    )


def _move(move: Move) -> str:
    if move["type"] == "bid":
        return "bid " + " ".join(
            f"{k}:{'+'.join(map(str, v))}" for k, v in sorted(move["bids"].items())
        )
    kind = move["type"]
    fields: Mapping[str, object] = move  # the one field each other move has, by name
    value = {"sacrifice": "card", "dice": "count", "city": "choice", "pyramid": "first"}[kind]
    return f"{kind} {fields[value]}"
