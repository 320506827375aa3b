"""The frames the JS unit tests read are the frames the server renders today."""

from __future__ import annotations

from frames_fixture import FIXTURE, frames, text


def test_fixture_is_what_the_server_renders() -> None:
    fresh = text(frames())
    assert FIXTURE.read_text(encoding="utf-8") == fresh, (
        "tests/js/fixtures is stale: run .venv/bin/python tests/js/frames_fixture.py"
    )


def test_fixture_plays_the_whole_game() -> None:
    data = frames()
    seat, display = data["seat"], data["display"]
    assert len(seat) == len(display) > 40
    assert seat[-1]["game"]["view"]["finished"] is True
    # Ana's own deck is in her frames, never in the display's (secrets stay secret).
    assert seat[1]["game"]["view"]["players"]["ana"]["deck"]
    assert all(f["game"]["view"]["players"]["ana"]["deck"] is None for f in display[:-1])
