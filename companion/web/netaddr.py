"""The address phones on the LAN use to reach this machine, found without internet access."""

from __future__ import annotations

import socket


def lan_address() -> str:
    """The local address of the default route, else ``127.0.0.1``.

    A UDP socket "connected" to an outside address makes the kernel pick the outgoing
    interface; no packet is sent.
    """
    for probe in ("10.255.255.255", "192.168.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 1))
                addr: str = s.getsockname()[0]
            if addr and not addr.startswith("0."):
                return addr
        except OSError:
            continue
    return "127.0.0.1"


def public_base(host: str, port: int) -> str:
    """Base URL for links and the QR code: the bind address if it is a specific one."""
    if host in ("0.0.0.0", "::", ""):
        host = lan_address()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"
