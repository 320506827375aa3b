"""One table's LED board for the server: a real board on a serial port, or the simulated one.

``BoardService(port, led_count)``: ``port`` is a device path, ``/dev/serial/by-id/...`` or
``usb:VID:PID[:SERIAL]`` for hardware; ``None`` or ``"sim"`` runs the simulated board (the real
firmware behind a pseudo-terminal) and talks to it through the same link code.
"""

from __future__ import annotations

from typing import NotRequired, cast

from companion.board.link import ACK_TIMEOUT_S, BoardLink, LinkStatus
from companion.board.simboard import SimBoard
from companion.leds.power import LIMITER_BUDGET_MA

SIM_ACK_TIMEOUT_S = 0.25


class ServiceStatus(LinkStatus):
    """The link's status; the simulated board's also says whether its cable is in."""

    plugged: NotRequired[bool]


class BoardError(ValueError):
    """A call that only makes sense for the simulated board, or bad settings."""


class BoardService:
    def __init__(
        self,
        port: str | None,
        led_count: int,
        *,
        milliamp_budget: int = LIMITER_BUDGET_MA,
        brightness: float = 1.0,
    ) -> None:
        self.simulated = port in (None, "sim")
        self.led_count = led_count
        self.sim: SimBoard | None = SimBoard(led_count) if self.simulated else None
        link_port = self.sim.path if self.sim is not None else str(port)
        # The simulated board is the firmware in a CPython thread on a shared laptop CPU: its
        # answer times say nothing about a board, so it keeps a lenient ACK timeout.
        self.link = BoardLink(
            link_port,
            led_count,
            brightness=brightness,
            milliamp_budget=milliamp_budget,
            simulated=self.simulated,
            ack_timeout=SIM_ACK_TIMEOUT_S if self.simulated else ACK_TIMEOUT_S,
        )
        self._started = False

    def start(self) -> BoardService:
        if not self._started:
            self._started = True
            if self.sim is not None:
                self.sim.plug()
            self.link.start()
        return self

    def show(self, pixels: bytes) -> int:
        """Hands the picture to the link (never blocks); returns its generation."""
        return self.link.show(pixels)

    def wait_shown(self, generation: int, timeout: float) -> bool:
        return self.link.wait_shown(generation, timeout)

    def status(self) -> ServiceStatus:
        out = cast(ServiceStatus, self.link.status())  # a fresh dict: ``plugged`` is added
        if self.sim is not None:
            out["port"] = "sim"
            out["plugged"] = self.sim.plugged
            if not self.sim.plugged:
                out["state"] = "searching"
        return out

    def simulated_pixels(self) -> bytes | None:
        """The picture the simulated board holds (None for hardware or when unplugged)."""
        return self.sim.picture() if self.sim is not None else None

    def unplug(self) -> None:
        self._sim("unplug").unplug()

    def replug(self) -> None:
        self._sim("replug").plug()

    def reboot(self) -> None:
        self._sim("reboot").reboot()

    def _sim(self, what: str) -> SimBoard:
        if self.sim is None:
            raise BoardError(f"{what} is only possible on the simulated board")
        return self.sim

    def stop(self) -> None:
        self.link.stop()
        if self.sim is not None:
            self.sim.close()
        self._started = False
