"""The café admin page names a result it left out because its stored data cannot be read, in
Chromium: the other games and the leaderboard are on the page, the damaged one is listed by
its id with the reason (and in the server's log)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from live_server import LiveServer, free_port
from waiting import wait_for

from tests.cafe.test_damaged_rows import cafe_to_send, cafe_with_games, damage, damage_delivery
from tests.cafe.test_webhook_live import SECRET, Receiver

TV = {"viewport": {"width": 1920, "height": 1080}}


def test_the_admin_page_names_a_damaged_result_and_shows_the_rest(
    browser, tmp_path: Path, artifacts
) -> None:
    data = tmp_path / "data"
    ids = cafe_with_games(data)
    bad = ids[0]
    damage(data, "UPDATE results SET result = 'garbage' WHERE game_id = ?", bad)
    live = LiveServer(data, extra=["--board", "none"], host_name="table.lan").start()
    try:
        token = re.search(r"Café admin:\s+\S+/admin\?token=(\S+)", live.log()).group(1)
        page = browser.new_context(**TV).new_page()
        page.goto(f"{live.base}/admin?token={token}")
        page.wait_for_selector("#admin-history tr[data-game]")
        shown = page.eval_on_selector_all(
            "#admin-history tr[data-game]", "rows => rows.map(r => Number(r.dataset.game))"
        )
        assert sorted(shown) == sorted(ids[1:])
        notice = page.locator("[data-testid=admin-damaged]")
        notice.wait_for(state="visible")
        text = notice.inner_text()
        assert f"#{bad}" in text and "bad JSON" in text, text
        assert page.locator("#admin-leaderboard tr").count() >= 3
        page.screenshot(path=str(artifacts / "admin-damaged-result.png"), full_page=True)
        assert f"the result of game {bad} cannot be read" in live.log()
    finally:
        live.stop()


def test_the_admin_page_names_a_webhook_delivery_it_could_not_send(
    browser, tmp_path: Path, artifacts
) -> None:
    """A webhook delivery whose stored row cannot be read is named on the admin page (its id
    and why); the game itself is in the history, the other result was sent."""
    receiver = Receiver(free_port())
    url = f"http://127.0.0.1:{receiver.port}/results"
    data = tmp_path / "data"
    try:
        ids = cafe_to_send(data, url, 2)
        row_id = damage_delivery(data, ids[0])
        extra = ["--board", "none", "--webhook", url, "--webhook-secret", SECRET]
        live = LiveServer(data, extra=extra, host_name="table.lan").start()
        try:
            token = re.search(r"Café admin:\s+\S+/admin\?token=(\S+)", live.log()).group(1)
            wait_for(lambda: len(receiver.posts) >= 1, timeout=60, what="the readable result sent")
            page = browser.new_context(**TV).new_page()
            page.goto(f"{live.base}/admin?token={token}")
            page.wait_for_selector("#admin-history tr[data-game]")
            shown = page.eval_on_selector_all(
                "#admin-history tr[data-game]", "rows => rows.map(r => Number(r.dataset.game))"
            )
            assert sorted(shown) == sorted(ids)
            notice = page.locator("[data-testid=admin-damaged]")
            notice.wait_for(state="visible")
            text = notice.inner_text()
            assert "Webhook" in text and f"#{row_id}" in text and "attempts" in text, text
            page.screenshot(path=str(artifacts / "admin-damaged-delivery.png"), full_page=True)
            assert [json.loads(p["body"])["game_id"] for p in receiver.posts] == [ids[1]]
        finally:
            live.stop()
    finally:
        receiver.close()
