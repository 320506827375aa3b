"""The view frames `node --test` feeds the pages' pure modules (tests/js/*.test.mjs): a worked
game (tests/scenarios) played command by command through the engine and rendered by the
server's own frame renderer (companion/table/frames.render), as Ana's phone and the display
get them. Written to tests/js/fixtures/; `test_frames_fixture.py` checks the file is what the
server renders today, so the JS tests never run on frames of an older shape.

    .venv/bin/python tests/js/frames_fixture.py   # rewrite the fixture after a frame change
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.engine import apply, new_game
from companion.table.frames import Links, Snapshot, render
from companion.table.model import Game, Seat

HERE = Path(__file__).resolve().parent
SCENARIOS = HERE.parent / "scenarios"
FIXTURE = HERE / "fixtures" / "gold_two_rounds.frames.json"
NAMES = {"ana": ("Ana", "orange"), "ben": ("Ben", "sky"), "cleo": ("Cleo", "green")}
SEAT = "ana"


def frames(scenario: str = "gold_two_rounds.json") -> dict[str, Any]:
    """Every frame of the game for Ana's phone and for the display: the start (a hello, with
    history), then one per command (reason "command", that command's events)."""
    document = json.loads((SCENARIOS / scenario).read_text(encoding="utf-8"))
    setup = {k: document[k] for k in ("players", "stack", "profile") if k in document}
    state = new_game(setup["players"], setup.get("stack"), setup.get("profile"))
    seats = tuple(
        Seat(seat=p, name=NAMES[p][0], colour=NAMES[p][1], token_hash="x") for p in setup["players"]
    )
    links = Links(paths={"display": "/t/1/"}, join="http://table.lan/t/1/join/s", log=str)
    game = Game(id=1, status="playing", document=setup, decks=[], dice="digital", state=state)
    audiences = [("seat", SEAT), ("display", None)]
    out: dict[str, list[dict[str, Any]]] = {"seat": [], "display": []}

    def add(reason: str, events: list[dict[str, Any]], history: bool) -> None:
        snap = Snapshot(
            name="1",
            title="Table 1",
            settings={"dice": "digital"},
            seats=seats,
            game=game,
            board=None,
        )
        connected = set(setup["players"])
        rendered = render(snap, links, audiences, reason, events, history, connected)
        out["seat"].append(rendered[("seat", SEAT)])
        out["display"].append(rendered[("display", None)])

    add("hello", [], True)
    for n, command in enumerate(document["commands"], start=1):
        game.state, events = apply(game.state, command)
        game.commands.append((n, command, "", None))
        game.events.append(events)
        if game.state.get("finished"):
            game.status = "finished"
        add("command", events, False)
    return {"scenario": scenario, "seat": SEAT, **out}


def text(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"


if __name__ == "__main__":
    FIXTURE.write_text(text(frames()), encoding="utf-8")
    print(FIXTURE, FIXTURE.stat().st_size, "bytes")
