"""Run inside a fresh network namespace (only loopback, multicast routed to it): start a live
server with ``--mdns``, find it by name over multicast DNS, print what was found as JSON."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import requests
from live_server import LiveServer
from zeroconf import AddressResolver, Zeroconf


def main() -> None:
    name = sys.argv[1]
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        live = LiveServer(Path(tmp) / "data", extra=["--mdns", name]).start()
        try:
            zc = Zeroconf()
            try:
                resolver = AddressResolver(f"{name}.local.")
                out["resolved"] = resolver.request(zc, 5000)
                out["addresses"] = resolver.parsed_addresses()
                info = zc.get_service_info(
                    "_http._tcp.local.", "Chocolatl._http._tcp.local.", timeout=5000
                )
                out["service"] = {"server": info.server, "port": info.port} if info else None
            finally:
                zc.close()
            if out["addresses"]:
                url = f"http://{out['addresses'][0]}:{live.port}/t/1/api/state"
                out["join"] = requests.get(url, timeout=5).json()["table"]["urls"]["join"]
            out["banner"] = live.log().splitlines()[:3]
        finally:
            live.stop()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
