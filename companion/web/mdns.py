"""The table announces itself on the LAN over multicast DNS (Bonjour/Avahi compatible).

Phones and laptops resolve ``<name>.local`` to this machine and see a ``_http._tcp`` service
called after the café, so the QR code and the host link can carry a stable name instead of an
address that the router may change. Started in the server's worker; if multicast is not
possible (no network yet, a blocked port) the tables fall back to the plain address.
"""

from __future__ import annotations

import ipaddress
import logging
import re
import socket
import threading
from typing import Any

log = logging.getLogger(__name__)

MDNS_NAME = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")
SERVICE_TYPE = "_http._tcp.local."


def check_name(name: str) -> str:
    """A host label for ``<name>.local``: lower-case letters, digits and inner hyphens.

    >>> check_name("chocolatl")
    'chocolatl'
    >>> check_name("Bad Name")
    Traceback (most recent call last):
    ...
    ValueError: --mdns name 'Bad Name' must be lower-case letters, digits and inner hyphens
    """
    if not MDNS_NAME.fullmatch(name):
        raise ValueError(
            f"--mdns name {name!r} must be lower-case letters, digits and inner hyphens"
        )
    return name


def base_url(name: str, port: int) -> str:
    """``http://name.local`` (no port on 80)."""
    return f"http://{name}.local" + ("" if port == 80 else f":{port}")


def local_addresses(host: str) -> list[str]:
    """The IPv4 addresses to announce: the bound one, else every interface's non-loopback
    address, else loopback (a machine without a network still answers itself)."""
    if host not in ("0.0.0.0", "::", ""):
        return [host]
    import ifaddr

    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                addr = ipaddress.ip_address(ip.ip)
                if not addr.is_loopback and not addr.is_link_local and ip.ip not in found:
                    found.append(ip.ip)
    return found or ["127.0.0.1"]


class Announcer:
    """Registers ``<name>.local`` and the service ``<title>._http._tcp.local.`` until closed."""

    def __init__(
        self, name: str, port: int, addresses: list[str], title: str = "Chocolatl", path: str = "/"
    ) -> None:
        self.name = check_name(name)
        self.port = port
        self.addresses = addresses
        self.title = title
        self.path = path
        self._zc: Any = None
        self._info: Any = None
        self._lock = threading.Lock()
        self._closed = False
        self.stopped = threading.Event()

    def start(self) -> bool:
        """Announce; False (and a log line) when multicast DNS cannot run here."""
        try:
            from zeroconf import ServiceInfo, Zeroconf

            info = ServiceInfo(
                SERVICE_TYPE,
                f"{self.title}.{SERVICE_TYPE}",
                addresses=[socket.inet_aton(a) for a in self.addresses],
                port=self.port,
                properties={"path": self.path},
                server=f"{self.name}.local.",
            )
            with self._lock:
                if self._closed:
                    return False
                zc = Zeroconf()
                self._zc, self._info = zc, info
            zc.register_service(info, allow_name_change=True)
        except Exception as exc:  # noqa: BLE001 - the table runs on without a name
            log.warning(
                "mDNS: cannot announce %s.local (%s); phones use the address", self.name, exc
            )
            self.close()
            return False
        log.info("mDNS: announced %s.local at %s", self.name, ", ".join(self.addresses))
        return True

    def refresh(self, addresses: list[str]) -> bool:
        """Announce new addresses (the router gave another one, a hotspot came up); True if
        they changed."""
        with self._lock:
            zc, info = self._zc, self._info
            if zc is None or addresses == self.addresses:
                return False
        from zeroconf import ServiceInfo

        new = ServiceInfo(
            SERVICE_TYPE,
            info.name,
            addresses=[socket.inet_aton(a) for a in addresses],
            port=self.port,
            properties={"path": self.path},
            server=f"{self.name}.local.",
        )
        zc.update_service(new)
        with self._lock:
            self._info, self.addresses = new, addresses
        log.info("mDNS: %s.local now at %s", self.name, ", ".join(addresses))
        return True

    def close(self) -> None:
        """Say goodbye (phones drop the name at once) and stop."""
        self.stopped.set()
        with self._lock:
            self._closed = True
            zc, self._zc = self._zc, None
        if zc is None:
            return
        try:
            zc.unregister_service(self._info)
        except Exception:  # noqa: BLE001 - not registered (yet): nothing to withdraw
            pass
        finally:
            zc.close()
