"""Run inside a private network namespace: announce a name at one address, move it to another
(as after a new DHCP lease), resolve it over multicast DNS each time; print JSON."""

from __future__ import annotations

import json

from zeroconf import AddressResolver, Zeroconf

from companion.web.mdns import Announcer


def resolve(zc: Zeroconf, name: str) -> list[str]:
    resolver = AddressResolver(f"{name}.local.")
    resolver.request(zc, 5000)
    return resolver.parsed_addresses()


def main() -> None:
    announcer = Announcer("moving-table", 8000, ["127.0.0.1"])
    out: dict = {"started": announcer.start()}
    try:
        zc = Zeroconf()
        out["first"] = resolve(zc, "moving-table")
        zc.close()
        out["changed"] = announcer.refresh(["127.0.0.2"])
        out["unchanged"] = announcer.refresh(["127.0.0.2"])
        zc = Zeroconf()  # a phone that asks now (nothing cached)
        out["second"] = resolve(zc, "moving-table")
        zc.close()
    finally:
        announcer.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
