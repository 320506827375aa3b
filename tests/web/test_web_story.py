"""The story of a game (companion/engine/story.py) reaches the display and the host once the
game is over, never during it, and never a phone; over real websockets to a live server."""

from __future__ import annotations

from typing import Any

from live_server import Host, LiveServer, Peer, play, seat_phones, settle

from companion.table import show

NAMES = ["Ana", "Ben", "Cleo"]


def _view_frames(peer: Peer) -> list[dict[str, Any]]:
    return [f for f in peer.frames if f["type"] == "view"]


def test_display_frame_carries_the_story_after_the_end_not_before(
    server: LiveServer, table: str
) -> None:
    phones = seat_phones(server, table, NAMES)
    display = Peer(f"{server.ws_base}/t/{table}/ws/display")
    display.until(lambda f: f["type"] == "view")
    host = Host(server, table)
    host.hello()
    assert host.act("start", dice="digital")["type"] == "ok"
    play(phones, [display], host)
    settle(server, table, [display, host, *phones])
    frames = _view_frames(display)
    playing = [f for f in frames if f["game"] and f["game"]["status"] == "playing"]
    # A whole game's frames, however short the deals made it (CI once had a 20-frame game).
    assert len(playing) >= 10
    assert all(f.get("story") is None for f in playing)  # never during a game
    final = display.view
    assert final["game"]["status"] == "finished"
    # The story waits for the winner's moment: the step that names the winner says when
    # (instant pace: the winner's beat starts at once, the story STORY_AFTER later), and no
    # step before it has such a moment.
    assert final["show"]["story_at"] == show.STORY_AFTER
    assert 0 <= final["show"]["elapsed"] <= show.STORY_AFTER
    assert all("story_at" not in (f.get("show") or {}) for f in playing)
    # The host's "next" brings the story at once.
    assert host.act("show_next")["type"] == "ok"
    shown = display.until(lambda f: f["type"] == "view" and f["reason"] == "show")
    assert shown["show"]["elapsed"] == show.STORY_AFTER
    story = final["story"]
    assert story is not None and story["finished"]
    view = final["game"]["view"]
    for p in view["seats"]:
        # Each score series ends on the player's final total (R7), after the track (R6.1).
        assert story["series"][p][-1] == view["players"][p]["final"]["total"]
        assert story["series"][p][-2] == view["players"][p]["score"]
    assert story["marks"][-1].get("final") is True
    assert story["played"] == len(story["marks"]) - 2 == 6 * view["round"]
    assert sum(s["played"] for s in story["stations"]) == story["played"]
    assert host.view["story"] == story  # the host sees it too
    for phone in phones:  # a phone's frame has no story
        assert all("story" not in f for f in _view_frames(phone))
    # Back in the lobby the story is gone.
    assert host.act("new_game")["type"] == "ok"
    display.until(lambda f: f["type"] == "view" and f["game"] is None)
    assert display.view["story"] is None


def test_a_game_ended_by_the_host_tells_its_story_so_far(server: LiveServer, table: str) -> None:
    phones = seat_phones(server, table, NAMES)
    display = Peer(f"{server.ws_base}/t/{table}/ws/display")
    display.until(lambda f: f["type"] == "view")
    host = Host(server, table)
    host.hello()
    assert host.act("start", dice="digital")["type"] == "ok"
    # Play until the first round is over (round 2 has started), then end the game.
    play(phones, [display], host, max_steps=3)  # the sacrifices (R1.2)
    # The display's view of the game (the phones may have moved on it before it came in).
    while display.view_until(lambda f: f["game"] is not None)["game"]["view"]["round"] < 2:
        play(phones, [display], host, max_steps=1)
        settle(server, table, [display, host, *phones])
    assert display.view.get("story") is None
    assert host.act("end_game")["type"] == "ok"
    frame = display.until(lambda f: f["type"] == "view" and f["game"]["status"] == "ended")
    story = frame["story"]
    assert story is not None and not story["finished"]
    assert story["played"] >= 6
    assert story["marks"][6] == {"round": 1, "station": 6}
    for p, player in frame["game"]["view"]["players"].items():
        assert story["series"][p][-1] == player["score"]
