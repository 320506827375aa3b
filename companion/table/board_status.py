"""The LED board's status as the table holds it and the display's and host's frames carry it
(PROTOCOL.md 3.4 ``board``; made by board/follow.py ``TableBoard.status``).

Here rather than in ``companion.board``: the table room does not import the board room
(docs/DESIGN.md "Layout"), and the board imports these types from here.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

# The serial link's state; "simulated" is "connected" to the simulated board (board/link.py).
LinkState = Literal["searching", "connected", "simulated", "error"]


class BoardLinkSummary(TypedDict):
    """The link's fields that change only with its state (no counters or ack ages, which
    would make every status a new frame for every screen)."""

    state: LinkState
    port: str  # the port id, "sim" for the simulated board
    firmware: str | None  # from the board's VERSION, None before the handshake
    version: int | None  # the protocol the board speaks
    last_error: str | None


class StatusLights(TypedDict):
    """The strip indices of the status lights (None: no mode light)."""

    mode: int | None
    round: list[int]
    station: list[int]


class BoardLayout(TypedDict):
    """Where each box, pyramid cell and status light sits on the strip (board/follow.py
    ``layout_summary``)."""

    track: list[list[int]]  # per box, its LEDs
    pyramid: list[list[int]]  # per row, its cells' LEDs
    status: StatusLights
    led_count: int


class BoardStatus(TypedDict):
    """The LED board as the display shows it (PROTOCOL.md 3.4 ``board``): ``link`` once a
    board service runs; ``pixels`` (screen colours, strip order) and ``layout`` for the
    simulated board while it is plugged in."""

    mode: Literal["simulated", "serial"]
    connected: bool
    detail: str  # the last error, else the link's state
    link: NotRequired[BoardLinkSummary]
    pixels: NotRequired[list[str]]
    layout: NotRequired[BoardLayout]
