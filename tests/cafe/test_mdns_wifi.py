"""Phones find the table: the ``<name>.local`` announcement over multicast DNS (resolved for real
inside a private network namespace) and the lobby's Wi-Fi QR code in the ``WIFI:`` format."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import requests
from in_process import in_process_client, serve_in_process
from live_server import ROOT, LiveServer

from companion.web.qr import qr_svg
from companion.web.wifi import WifiConfig, escape

from .browser_check import with_chromium

HERE = Path(__file__).resolve().parent


def _netns_available() -> bool:
    return (
        os.geteuid() == 0 and shutil.which("unshare") is not None and shutil.which("ip") is not None
    )


@pytest.mark.skipif(
    not _netns_available(),
    reason="needs root, unshare and ip to make a private network namespace "
    "(multicast never leaves this machine)",
)
def test_table_is_found_by_name_over_mdns() -> None:
    """Only loopback exists in the namespace, with multicast routed to it: the announcement
    and the query are real multicast DNS packets that never reach any other network."""
    done = _in_netns([sys.executable, str(HERE / "mdns_probe.py"), "test-table"])
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["resolved"] and found["addresses"] == ["127.0.0.1"]
    assert found["service"]["server"] == "test-table.local."
    port = found["service"]["port"]
    # The QR code's join link carries the name, not the address.
    assert found["join"].startswith(f"http://test-table.local:{port}/t/1/join/")
    assert found["banner"][0].startswith(f"Chocolatl companion on http://test-table.local:{port}")
    assert f"by address: http://127.0.0.1:{port}" in found["banner"][1]


@pytest.mark.skipif(
    not _netns_available(), reason="needs root, unshare and ip to make a private network namespace"
)
def test_a_new_address_is_announced_under_the_same_name() -> None:
    """After a new DHCP lease (here 127.0.0.1 -> 127.0.0.2) the name follows the address."""
    done = _in_netns([sys.executable, str(HERE / "mdns_refresh_probe.py")])
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found == {
        "started": True,
        "first": ["127.0.0.1"],
        "changed": True,
        "unchanged": False,
        "second": ["127.0.0.2"],
    }


@pytest.mark.skipif(
    not _netns_available(), reason="needs root, unshare and ip to make a private network namespace"
)
def test_without_multicast_the_links_fall_back_to_the_address() -> None:
    """No interface is up, so multicast DNS cannot start: the QR code's join link, which
    carried the name, carries the address instead (never a name nobody answers)."""
    done = _in_netns([sys.executable, str(HERE / "mdns_fallback_probe.py")], network=False)
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["before"].startswith("http://lost-table.local:8123/t/1/join/")
    assert found["after"].startswith("http://127.0.0.1:8123/t/1/join/")
    assert found["after"].rsplit("/", 1)[1] == found["before"].rsplit("/", 1)[1]


def _in_netns(cmd: list[str], network: bool = True) -> subprocess.CompletedProcess[str]:
    """``cmd`` in a new network namespace: loopback with multicast routed to it, or (with
    ``network=False``) no interface up at all."""
    setup = (
        "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo && "
        if network
        else ""
    )
    setup += 'exec "$0" "$@"'
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent / "web"), str(ROOT)])}
    done = subprocess.run(
        ["unshare", "--net", "sh", "-c", setup, *cmd],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.mark.parametrize(
    ("ssid", "password", "expected"),
    [
        ("Cafe Guest", "sesame-open", "WIFI:T:WPA;S:Cafe Guest;P:sesame-open;;"),
        (
            'Bar;"Oak":1,2',
            'a\\b;c:d,e"f',
            'WIFI:T:WPA;S:Bar\\;\\"Oak\\"\\:1\\,2;P:a\\\\b\\;c\\:d\\,e\\"f;;',
        ),
        ("Café ☕", "pässwörd", "WIFI:T:WPA;S:Café ☕;P:pässwörd;;"),
    ],
)
def test_wifi_uri_escapes_special_characters(ssid: str, password: str, expected: str) -> None:
    assert WifiConfig(ssid, password).uri() == expected


def test_escape_leaves_ordinary_text_alone() -> None:
    assert escape("plain-Text_123 ") == "plain-Text_123 "


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--wifi", "Cafe"], "--wifi needs --wifi-password"),
        (["--wifi", "Cafe", "--wifi-password", "short"], "8 to 63 characters"),
        (["--wifi-password", "sesame-open"], "--wifi-password needs --wifi SSID"),
        (["--wifi", "x" * 33, "--wifi-password", "sesame-open"], "1 to 32 bytes"),
        (["--mdns", "Bad Name"], "lower-case letters"),
        (["--retention-days", "0"], "--retention-days must be from 1"),
        (["--webhook", "ftp://x/y", "--webhook-secret", "s"], "must be an http:// or https:// URL"),
        (["--webhook", "https://x/y"], "--webhook needs --webhook-secret"),
    ],
)
def test_bad_settings_are_refused_before_anything_starts(
    tmp_path: Path,
    args: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = tmp_path / "data"
    monkeypatch.delenv("CHOCOLATL_WEBHOOK_SECRET", raising=False)
    code, stderr = serve_in_process(monkeypatch, capsys, "--data", str(data), "--port", "1", *args)
    assert code == 2 and message in stderr, stderr
    assert not data.exists(), "a refused start writes nothing"


def test_lobby_display_shows_the_wifi_code(tmp_path: Path) -> None:
    ssid, password = 'Oak "Guest"', "sesame;open"
    live = LiveServer(
        tmp_path / "data", extra=["--wifi", ssid, "--wifi-password", password, "--board", "none"]
    ).start()
    try:
        svg = requests.get(f"{live.base}/wifi.svg", timeout=5)
        assert svg.status_code == 200 and svg.headers["Content-Type"].startswith("image/svg+xml")
        # The same QR code as that of the escaped WIFI: text (qrcode is deterministic).
        assert svg.content == qr_svg('WIFI:T:WPA;S:Oak \\"Guest\\";P:sesame\\;open;;')
        page = requests.get(f"{live.base}/t/1/", timeout=5).text
        assert 'id="wifi-qr"' in page and "Oak &#34;Guest&#34;" in page
        assert password not in page, "the password travels only inside the QR code"
        frame = requests.get(f"{live.base}/t/1/api/state", timeout=5).text
        assert password not in frame
        _browser_sees_both_codes(f"{live.base}/t/1/")
    finally:
        live.stop()


def test_without_wifi_there_is_no_second_code(tmp_path: Path) -> None:
    with in_process_client(tmp_path / "data") as client:
        assert client.get("/wifi.svg").status_code == 404
        assert 'id="wifi-qr"' not in client.get("/t/1/").text


def _browser_sees_both_codes(url: str) -> None:
    """Debian's Chromium renders the lobby with both QR codes loaded side by side."""

    def check(page: Any) -> None:
        page.goto(url)
        for sel in ("#wifi-qr", "#qr"):
            page.wait_for_function(
                f"document.querySelector('{sel}').complete && "
                f"document.querySelector('{sel}').naturalWidth > 0"
            )
            box = page.locator(sel).bounding_box()
            assert box is not None and box["width"] > 80, (sel, box)
        assert page.locator("#wifi-ssid").inner_text() == 'Oak "Guest"'
        # A translated heading: the words come with the page's language (fetched after load).
        page.wait_for_function("document.querySelector('#wifi-panel h2').innerText.trim() !== ''")

    with_chromium(check)
