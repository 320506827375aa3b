"""The WS2812 data pin of the emulated RP2040, decoded back into bytes, shows the picture after
gamma, brightness and the current limiter (hardware/FIRMWARE.md "Pixels"), for real game
pictures and for an all-white picture the limiter must cut."""

from __future__ import annotations

import pytest

from companion.board import protocol as p
from companion.leds.power import LIMITER_BUDGET_MA, frame_current_ma

from . import emulator as em

T = p.MessageType
LEDS = 208


class Host:
    """Sends frames with increasing seq and returns the board's answer and the strip's bytes."""

    def __init__(self, board: em.EmulatedBoard) -> None:
        self.board = board
        self.seq = 0

    def request(self, mtype: int, payload: bytes = b"") -> tuple[p.Frame, int]:
        self.seq = self.seq % 255 + 1
        start = len(self.board.received)
        at = self.board.write(p.encode(mtype, self.seq, payload))
        (answer,) = em.wait_replies(self.board, start, 1)
        assert isinstance(answer, p.Frame) and answer.seq == self.seq, answer
        return answer, at

    def show(self, picture: bytes) -> bytes:
        """PICTURE, its ACK, then the next WS2812 frame written after it arrived."""
        answer, at = self.request(T.PICTURE, p.picture_payload(picture))
        assert answer == p.Frame(T.ACK, self.seq, bytes((T.PICTURE,)))
        sent = self.board.cycle_of_out(at)
        _, frame = self.board.event("leds", 0, match=lambda e: e["cycle"] >= sent)
        assert frame["partial_bits"] == 0
        return bytes.fromhex(frame["grb"])


@pytest.fixture(scope="module")
def host(rp2040) -> Host:
    h = Host(rp2040)
    answer, _ = h.request(T.HELLO, p.hello_payload())
    assert answer.type == T.VERSION
    answer, _ = h.request(T.CONFIG, p.config_payload(1.0, LIMITER_BUDGET_MA))
    assert answer.type == T.ACK
    return h


def test_real_game_pictures_reach_the_strip_after_gamma(host):
    pictures = em.game_pictures(seed=11, players=5, limit=40)[::8]
    assert len(set(pictures)) == len(pictures) >= 5
    for picture in pictures:
        shown = host.show(picture)
        assert len(shown) == 3 * LEDS
        assert shown == em.expected_grb(picture)
    status, _ = host.request(T.PING)
    assert not p.parse_status(status.payload)["limited"]


def test_an_all_white_picture_is_cut_to_the_budget(host):
    shown = host.show(bytes([255]) * (3 * LEDS))
    assert shown == em.expected_grb(bytes([255]) * (3 * LEDS))
    estimate = frame_current_ma(em.grb_to_rgb(shown))  # the host's formula on the real pin
    assert 0.95 * LIMITER_BUDGET_MA < estimate <= LIMITER_BUDGET_MA
    assert len(set(shown)) == 1  # every channel scaled alike: white stays white
    status, _ = host.request(T.PING)
    st = p.parse_status(status.payload)
    assert st["limited"] and st["milliamps"] <= LIMITER_BUDGET_MA


def test_config_brightness_and_budget_apply_to_the_held_picture(host):
    picture = em.game_pictures(seed=4, players=5, limit=3)[-1]
    host.show(picture)
    answer, at = host.request(T.CONFIG, p.config_payload(128 / 255, 1000))
    assert answer == p.Frame(T.ACK, host.seq, bytes((T.CONFIG,)))
    sent = host.board.cycle_of_out(at)
    _, frame = host.board.event("leds", 0, match=lambda e: e["cycle"] >= sent)
    shown = bytes.fromhex(frame["grb"])
    assert shown == em.expected_grb(picture, brightness=128, budget_ma=1000)
    assert frame_current_ma(em.grb_to_rgb(shown)) <= 1000
    answer, _ = host.request(T.CONFIG, p.config_payload(1.0, LIMITER_BUDGET_MA))
    assert answer.type == T.ACK


def test_a_short_picture_leaves_the_rest_dark(host):
    shown = host.show(bytes([89, 0, 0, 0, 89, 0, 0, 0, 89]))
    assert shown[:9] == em.expected_grb(bytes([89, 0, 0, 0, 89, 0, 0, 0, 89]))[:9]
    assert shown[9:] == bytes(3 * LEDS - 9)
