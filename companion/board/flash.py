"""``companion flash``: copy the MicroPython firmware to a board with mpremote.

Steps (hardware/FIRMWARE.md): stop the link first (a STOP frame: the firmware blanks the strip
and, if its watchdog runs, reboots into a state without one, so mpremote's Ctrl-C reaches the
REPL), then ``mpremote connect PORT fs cp FILE :FILE + ...`` for every firmware file (main.py
last), then ``mpremote connect PORT reset``. ``--dry-run`` prints the steps and runs nothing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from companion.board import protocol as p
from companion.board.link import LinkError, resolve_port

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware" / "micropython"
STOP_ANSWER_S = 1.0
PORT_BACK_S = 10.0


class FlashError(ValueError):
    """Flashing cannot start: no firmware, no mpremote, no port."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--port",
        required=True,
        help="serial port of the board: /dev/ttyACM0, /dev/serial/by-id/... "
        "or usb:VID:PID[:SERIAL]",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="print the steps and mpremote command lines, run nothing",
    )
    parser.add_argument(
        "--firmware-dir",
        type=Path,
        default=FIRMWARE_DIR,
        help="directory with main.py and its modules (default: %(default)s)",
    )
    parser.add_argument(
        "--mpremote",
        default=None,
        help="mpremote executable (default: the one next to this Python, else on PATH)",
    )


def firmware_files(directory: Path) -> list[Path]:
    """The .py files to copy, main.py last (a board reset mid-copy keeps its old main.py)."""
    if not directory.is_dir() or not (directory / "main.py").is_file():
        raise FlashError(f"firmware directory {directory} not found (it must hold main.py)")
    files = sorted(f for f in directory.glob("*.py") if f.name != "main.py")
    return [*files, directory / "main.py"]


def find_mpremote(explicit: str | None) -> str:
    if explicit:
        found = shutil.which(explicit)
        if found is None:
            raise FlashError(f"mpremote not found at {explicit}")
        return found
    beside = Path(sys.executable).with_name("mpremote")
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("mpremote")
    if found is None:
        raise FlashError("mpremote not found: install it with `pip install mpremote`")
    return found


def commands(mpremote: str, port: str, files: list[Path]) -> list[list[str]]:
    """The mpremote command lines: one connection copying every file, then a reset."""
    copy = [mpremote, "connect", port]
    for i, f in enumerate(files):
        if i:
            copy.append("+")
        copy += ["fs", "cp", str(f), f":{f.name}"]
    return [copy, [mpremote, "connect", port, "reset"]]


def stop_link(device: str) -> str:
    """Sends STOP so the firmware leaves its loop; returns what happened, for the log."""
    import serial

    try:
        ser = serial.Serial(device, 115200, timeout=0.1, write_timeout=1, exclusive=True)
    except (serial.SerialException, OSError) as exc:
        raise FlashError(
            f"cannot open {device} ({exc}); stop the companion server using this board first"
        ) from exc
    decoder = p.Decoder()
    try:
        ser.write(p.encode(p.MessageType.STOP, 1))
        deadline = time.monotonic() + STOP_ANSWER_S
        while time.monotonic() < deadline:
            for event in decoder.feed(ser.read(256)):
                if (
                    isinstance(event, p.Frame)
                    and event.type == p.MessageType.ACK
                    and event.seq == 1
                ):
                    return "firmware stopped"
    except (serial.SerialException, OSError):
        return "board rebooting"
    finally:
        ser.close()
    return "no answer to STOP (no firmware yet, or already at the REPL)"


def wait_for_port(port: str, timeout: float = PORT_BACK_S) -> str:
    deadline = time.monotonic() + timeout
    time.sleep(0.5)  # a rebooting board drops off USB first
    while True:
        try:
            return resolve_port(port)
        except LinkError:
            if time.monotonic() > deadline:
                raise FlashError(f"{port} did not come back within {timeout:.0f} s") from None
            time.sleep(0.2)


def run(args: argparse.Namespace) -> int:
    try:
        files = firmware_files(Path(args.firmware_dir))
        mpremote = find_mpremote(args.mpremote)
        if args.dry_run:
            print(f"1. stop the link: send STOP to {args.port}")
            for n, cmd in enumerate(commands(mpremote, args.port, files), start=2):
                print(f"{n}. " + " ".join(cmd))
            return 0
        device = resolve_port(args.port)
        print(f"{device}: {stop_link(device)}")
        device = wait_for_port(args.port)
        for cmd in commands(mpremote, device, files):
            print(" ".join(cmd))
            done = subprocess.run(cmd, check=False)
            if done.returncode != 0:
                print(f"error: mpremote failed with exit code {done.returncode}", file=sys.stderr)
                return done.returncode
    except (FlashError, LinkError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"flashed {len(files)} files; the board restarts with the new firmware")
    return 0
