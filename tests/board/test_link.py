"""The host link and the simulated board over a real pseudo-terminal.

The simulated board runs firmware/micropython/*.py (the same files flashed to the Pico); the
link opens its pty with pyserial exactly as it opens /dev/ttyACM0. No timed assertions: every
wait polls with a generous deadline.
"""

from __future__ import annotations

import random
import threading

import pytest
import serial
from waiting import wait_for

from companion.board import protocol as p
from companion.board.link import BoardLink, LinkError, resolve_port
from companion.board.service import BoardError, BoardService
from companion.board.simboard import SimBoard

from .conftest import DEADLINE_S

LEDS = 208


def picture(seed: int) -> bytes:
    rng = random.Random(seed)
    return bytes(rng.randrange(0, 90) for _ in range(3 * LEDS))


def test_picture_arrives_and_is_acked(service):
    pic = picture(1)
    gen = service.show(pic)
    assert service.wait_shown(gen, DEADLINE_S)
    assert service.simulated_pixels() == pic
    st = service.status()
    assert st["state"] == "simulated" and st["port"] == "sim"
    assert st["firmware"] == "2.0.0 sim" and st["version"] == p.PROTOCOL_VERSION
    assert st["frames_acked"] >= 1 and st["last_ack_age"] is not None
    assert st["last_error"] is None


def test_latest_picture_wins(service):
    pics = [picture(i) for i in range(30)]
    gens = [service.show(pic) for pic in pics]
    assert gens == sorted(gens) and len(set(gens)) == 30
    assert service.wait_shown(gens[-1], DEADLINE_S)
    assert service.simulated_pixels() == pics[-1]
    assert service.status()["frames_sent"] <= 30  # stale pictures are skipped, never queued


def test_showing_the_same_picture_again_sends_nothing_new(service):
    gen = service.show(picture(2))
    assert service.wait_shown(gen, DEADLINE_S)
    assert service.show(picture(2)) == gen


def test_corrupted_bytes_are_nacked_and_the_picture_resent(service):
    first = service.show(picture(3))
    assert service.wait_shown(first, DEADLINE_S)
    service.sim.inject_noise(1)
    pic = picture(4)
    gen = service.show(pic)
    assert service.wait_shown(gen, DEADLINE_S)
    assert service.simulated_pixels() == pic
    st = service.status()
    assert st["nacks"] >= 1 and st["frames_resent"] >= 1
    assert service.sim.firmware.errors >= 1


def test_unplug_mid_game_and_replug_brings_the_current_picture_back(service):
    gen = service.show(picture(5))
    assert service.wait_shown(gen, DEADLINE_S)
    service.unplug()
    wait_for(lambda: service.status()["last_error"], "the link to notice")
    assert service.status()["state"] == "searching"
    assert service.simulated_pixels() is None
    later = picture(6)  # the game goes on while the board is away
    gen = service.show(later)
    service.replug()
    assert service.wait_shown(gen, DEADLINE_S)
    assert service.simulated_pixels() == later
    wait_for(lambda: service.status()["state"] == "simulated", "reconnected status")
    assert service.status()["handshakes"] >= 2


def test_board_reboot_rehandshakes_and_resends(service):
    pic = picture(7)
    assert service.wait_shown(service.show(pic), DEADLINE_S)
    boots = service.sim.boots
    service.reboot()
    # The reset button returns at once; the firmware boots on its own thread.
    wait_for(lambda: service.sim.boots == boots + 1, "the firmware to boot again")
    wait_for(
        lambda: service.simulated_pixels() == pic and service.sim.firmware.frames >= 1,
        "the picture on the rebooted board",
    )
    wait_for(lambda: service.status()["board_boots"] >= 1, "the link to see the boot")


def test_show_never_blocks_without_a_board():
    link = BoardLink("/dev/serial/by-id/usb-nothing-here-if00", LEDS).start()
    try:
        done = threading.Event()

        def caller() -> None:
            for i in range(200):
                link.show(picture(i))
            done.set()

        t = threading.Thread(target=caller)
        t.start()
        t.join(DEADLINE_S)
        assert done.is_set()
        st = wait_for(lambda: link.status()["last_error"] and link.status(), "an error")
        assert st["state"] == "searching"
        assert "usb-nothing-here-if00" in st["last_error"]
        assert st["frames_sent"] == 0
    finally:
        link.stop()


def test_show_never_blocks_when_the_board_stops_reading(sim):
    sim.plug()
    link = BoardLink(sim.path, LEDS, simulated=True).start()
    try:
        assert link.wait_shown(link.show(picture(8)), DEADLINE_S)
        sim.hang()  # the firmware stops reading: its port fills up
        done = threading.Event()

        def caller() -> None:
            for i in range(500):
                link.show(picture(100 + i))
            done.set()

        t = threading.Thread(target=caller)
        t.start()
        t.join(DEADLINE_S)
        assert done.is_set()
        wait_for(lambda: link.status()["state"] == "searching", "the silent board noticed")
        assert link.status()["last_error"]
        sim.hang(False)
        assert link.wait_shown(link.show(picture(1)), DEADLINE_S)  # and it recovers
    finally:
        link.stop()


def test_status_transitions(sim):
    link = BoardLink(sim.path, LEDS).start()
    seen = []

    def state() -> str:
        s = link.status()["state"]
        if not seen or seen[-1] != s:
            seen.append(s)
        return s

    try:
        wait_for(lambda: link.status()["last_error"], "a missing port reported")
        assert state() == "searching"
        sim.plug()
        wait_for(lambda: state() == "connected", "connected")
        sim.unplug()
        wait_for(lambda: state() == "searching", "searching after unplug")
        sim.plug()
        wait_for(lambda: state() == "connected", "connected after replug")
        assert seen == ["searching", "connected", "searching", "connected"]
    finally:
        link.stop()


def test_protocol_mismatch_is_an_error_state(sim):
    sim.config["PROTOCOL_VERSION"] = 1  # a board still on the first protocol
    sim.plug()
    link = BoardLink(sim.path, LEDS).start()
    try:
        wait_for(lambda: link.status()["state"] == "error", "error state")
        st = link.status()
        assert "protocol 1" in st["last_error"] and "companion flash" in st["last_error"]
        link.show(picture(9))
        assert st["frames_sent"] == 0
    finally:
        link.stop()


def test_board_with_fewer_leds_is_an_error_state():
    board = SimBoard(100).plug()
    link = BoardLink(board.path, LEDS).start()
    try:
        wait_for(lambda: link.status()["state"] == "error", "error state")
        assert "100 LEDs" in link.status()["last_error"]
    finally:
        link.stop()
        board.close()


def test_firmware_answers_garbage_with_nack_and_still_takes_the_next_frame(sim):
    sim.plug()
    with serial.Serial(sim.path, 115200, timeout=0.2) as port:
        dec = p.Decoder()
        pic = picture(10)
        # Before its first flag the board ignores everything; after it, a bad segment is NACKed.
        port.write(
            b"\x04\r\nMPY: soft reboot\r\n"
            + p.encode(p.MessageType.PING, 4)
            + b"print('hello')\r\n"
            + p.encode(p.MessageType.PICTURE, 5, p.picture_payload(pic))
        )
        got: list = []
        wait_for(
            lambda: (
                got.extend(dec.feed(port.read(256)))
                or any(isinstance(e, p.Frame) and e.type == p.MessageType.ACK for e in got)
            ),
            "an ACK",
        )
        # The boot VERSION may or may not still be waiting when the port opens.
        frames = [e for e in got if isinstance(e, p.Frame) and e.type != p.MessageType.VERSION]
        assert frames[0].type == p.MessageType.STATUS and frames[0].seq == 4
        assert frames[1].type == p.MessageType.NACK and frames[1].seq == 0
        assert frames[2] == p.Frame(p.MessageType.ACK, 5, bytes((p.MessageType.PICTURE,)))
        assert sim.picture() == pic


def test_wrong_picture_size_is_refused_and_changes_nothing(service):
    gen = service.show(picture(11))
    with pytest.raises(LinkError, match="624 bytes, got 600"):
        service.show(bytes(600))
    assert service.wait_shown(gen, DEADLINE_S)
    assert service.simulated_pixels() == picture(11)


def test_usb_port_ids(monkeypatch):
    class Info:
        def __init__(self, device: str, vid: int, pid: int, serial_number: str) -> None:
            self.device, self.vid, self.pid, self.serial_number = device, vid, pid, serial_number

    # Enumerating USB devices needs hardware; the enumeration alone is replaced.
    monkeypatch.setattr(
        "serial.tools.list_ports.comports",
        lambda: [
            Info("/dev/ttyACM1", 0x2E8A, 0x0005, "E66038B713A1"),
            Info("/dev/ttyACM2", 0x2E8A, 0x0005, "E66038B713B2"),
        ],
    )
    assert resolve_port("usb:2e8a:0005") == "/dev/ttyACM1"
    assert resolve_port("usb:2E8A:0005:E66038B713B2") == "/dev/ttyACM2"
    with pytest.raises(LinkError, match="no USB serial device 1a86:7523"):
        resolve_port("usb:1a86:7523")
    with pytest.raises(LinkError, match="hexadecimal"):
        resolve_port("usb:pico:0005")
    with pytest.raises(LinkError, match="usb:VID:PID"):
        resolve_port("usb:2e8a")


def test_simulation_only_calls_refused_for_hardware():
    svc = BoardService("/dev/serial/by-id/usb-none", LEDS)
    with pytest.raises(BoardError, match="only possible on the simulated board"):
        svc.unplug()
    assert svc.simulated_pixels() is None


def test_missing_ack_makes_the_link_resend(sim):
    sim.plug()
    link = BoardLink(sim.path, LEDS).start()
    try:
        assert link.wait_shown(link.show(picture(20)), DEADLINE_S)
        sim.hang()  # the board stops answering: no ACK comes back
        pic = picture(21)
        gen = link.show(pic)
        wait_for(lambda: link.status()["frames_resent"] >= 1, "a resend after the timeout")
        sim.hang(False)
        assert link.wait_shown(gen, DEADLINE_S)
        assert sim.picture() == pic
    finally:
        link.stop()


def test_heartbeat_brings_the_board_status(service):
    assert service.wait_shown(service.show(picture(22)), DEADLINE_S)
    board = wait_for(lambda: service.status()["board"], "a STATUS answer to the heartbeat")
    assert board["frames"] >= 1 and board["budget_ma"] == 3000 and not board["host_lost"]
    assert board["brightness"] == 255
