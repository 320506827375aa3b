"""``companion flash``: exact mpremote command lines (--dry-run), clear errors, and a full run
against the simulated board with a recording stand-in for mpremote (a real mpremote needs a
MicroPython REPL on the other end)."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

from companion.board import flash
from companion.board.simboard import SimBoard
from companion.cli import main

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware" / "micropython"


def fake_mpremote(tmp_path: Path) -> tuple[Path, Path]:
    log = tmp_path / "calls.jsonl"
    exe = tmp_path / "mpremote"
    exe.write_text(
        f"#!{sys.executable}\nimport json, sys\n"
        f"open({str(log)!r}, 'a').write(json.dumps(sys.argv[1:]) + '\\n')\n"
    )
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return exe, log


def test_dry_run_prints_the_exact_command_lines(tmp_path, capsys):
    exe, log = fake_mpremote(tmp_path)
    assert main(["flash", "--port", "/dev/ttyACM0", "--dry-run", "--mpremote", str(exe)]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = ["app.py", "config.py", "leds.py", "proto.py", "usbstream.py", "main.py"]
    copies = " + ".join(f"fs cp {FIRMWARE / n} :{n}" for n in names)
    assert lines == [
        "1. stop the link: send STOP to /dev/ttyACM0",
        f"2. {exe} connect /dev/ttyACM0 {copies}",
        f"3. {exe} connect /dev/ttyACM0 reset",
    ]
    assert not log.exists()  # nothing ran


def test_every_firmware_file_is_copied_main_last():
    files = flash.firmware_files(FIRMWARE)
    assert {f.name for f in files} == {f.name for f in FIRMWARE.glob("*.py")}
    assert files[-1].name == "main.py"


def test_missing_firmware_dir_is_a_clear_error(tmp_path, capsys):
    exe, _ = fake_mpremote(tmp_path)
    code = main(
        [
            "flash",
            "--port",
            "/dev/ttyACM0",
            "--dry-run",
            "--mpremote",
            str(exe),
            "--firmware-dir",
            str(tmp_path / "nowhere"),
        ]
    )
    assert code == 2
    assert "firmware directory" in capsys.readouterr().err


def test_missing_mpremote_is_a_clear_error(tmp_path, capsys, monkeypatch):
    code = main(
        [
            "flash",
            "--port",
            "/dev/ttyACM0",
            "--dry-run",
            "--mpremote",
            str(tmp_path / "no-mpremote"),
        ]
    )
    assert code == 2
    assert "mpremote not found" in capsys.readouterr().err
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(flash.sys, "executable", str(tmp_path / "python"))
    with pytest.raises(flash.FlashError, match="pip install mpremote"):
        flash.find_mpremote(None)


def test_missing_port_is_a_clear_error(tmp_path, capsys):
    exe, log = fake_mpremote(tmp_path)
    assert main(["flash", "--port", str(tmp_path / "ttyACM9"), "--mpremote", str(exe)]) == 2
    assert "is not there" in capsys.readouterr().err
    assert not log.exists()


def test_flash_stops_the_link_then_runs_mpremote(tmp_path, capsys):
    exe, log = fake_mpremote(tmp_path)
    board = SimBoard(208).plug()
    try:
        assert main(["flash", "--port", board.path, "--mpremote", str(exe)]) == 0
        out = capsys.readouterr().out
        assert "firmware stopped" in out
        assert board.firmware.running is False  # STOP reached the firmware first
        calls = [json.loads(line) for line in log.read_text().splitlines()]
        assert calls[0][:2] == ["connect", board.path]
        assert calls[0][2:5] == ["fs", "cp", str(FIRMWARE / "app.py")]
        assert calls[0][-1] == ":main.py" and calls[1] == ["connect", board.path, "reset"]
    finally:
        board.close()


def test_flash_refuses_a_port_the_server_holds(tmp_path, capsys):
    from companion.board.link import BoardLink

    exe, log = fake_mpremote(tmp_path)
    board = SimBoard(208).plug()
    link = BoardLink(board.path, 208).start()
    try:
        from waiting import wait_for

        wait_for(lambda: link.status()["state"] == "connected", "the link")
        assert main(["flash", "--port", board.path, "--mpremote", str(exe)]) == 2
        assert "stop the companion server" in capsys.readouterr().err
        assert not log.exists()
    finally:
        link.stop()
        board.close()
