"""Wrong host tokens on the results list (``/t/<name>/api/results``) are throttled like every
other token check: after the burst of guesses an address gets 429, even with the right token,
until it has waited."""

from __future__ import annotations

import re
from pathlib import Path

from in_process import in_process_client

import companion.web

WEB = Path(companion.web.__file__).parent


def test_wrong_host_tokens_on_the_results_list_are_throttled(tmp_path: Path) -> None:
    with in_process_client(tmp_path / "data") as client:
        codes = [
            client.get("/t/1/api/results", query_string={"token": f"guess-{n}"}).status_code
            for n in range(40)
        ]
        assert codes[0] == 403 and codes[-1] == 429, codes
        assert codes.count(403) <= 11, "a burst of guesses, then the throttle"
        throttled = client.get("/t/1/api/results", query_string={"token": "guess-41"})
        assert throttled.get_json()["error"] == "too_many_guesses"
        assert int(throttled.headers["Retry-After"]) >= 1
        # The header form of the token is throttled the same way.
        assert client.get("/t/1/api/results", headers={"X-Host-Token": "x"}).status_code == 429
        # Another address is not held up by this one's guesses.
        app = client.application
        token = app.extensions["cafe"].get("1").host_token
        other = client.get(
            "/t/1/api/results",
            query_string={"token": token},
            environ_overrides={"REMOTE_ADDR": "127.0.0.9"},
        )
        assert other.status_code == 200 and other.get_json()["games"] == []


def test_no_http_route_checks_a_host_token_outside_the_throttled_check() -> None:
    """``table.check_host`` is called only by access.host_refusal (and by the websocket
    handler, which throttles its hello itself): a new route cannot skip the throttle."""
    callers = sorted(
        path.name
        for path in WEB.glob("*.py")
        if re.search(r"\.check_host\(", path.read_text(encoding="utf-8"))
    )
    assert callers == ["access.py", "sockets.py"], callers
