"""The Wi-Fi QR code: phones scan it to join the table's network before they scan the join code.

The text is the de-facto standard ``WIFI:`` URI that Android and iOS cameras read:
``WIFI:T:WPA;S:<ssid>;P:<password>;;``, where ``\\ ; , : "`` in the SSID and password are
escaped with a backslash.
"""

from __future__ import annotations

from dataclasses import dataclass

SECURITY = ("WPA", "WEP", "nopass")
_SPECIAL = '\\;,:"'


def escape(text: str) -> str:
    r"""Backslash before each special character of the ``WIFI:`` format.

    >>> escape('my;net:"x",\\')
    'my\\;net\\:\\"x\\"\\,\\\\'
    """
    return "".join("\\" + ch if ch in _SPECIAL else ch for ch in text)


@dataclass(frozen=True)
class WifiConfig:
    """The network phones should join: SSID, password and its security type."""

    ssid: str
    password: str | None = None
    security: str = "WPA"

    def __post_init__(self) -> None:
        if not isinstance(self.ssid, str) or not 1 <= len(self.ssid.encode("utf-8")) <= 32:
            raise ValueError("--wifi SSID must have 1 to 32 bytes")
        if any(ord(ch) < 32 for ch in self.ssid):
            raise ValueError("--wifi SSID must not contain control characters")
        if self.security not in SECURITY:
            raise ValueError(f"--wifi-security must be one of {', '.join(SECURITY)}")
        if self.security == "nopass":
            if self.password:
                raise ValueError("an open network (--wifi-security nopass) has no password")
        elif not self.password:
            raise ValueError(
                "--wifi needs --wifi-password (or --wifi-security nopass for an open network)"
            )
        elif self.security == "WPA" and not 8 <= len(self.password) <= 63:
            raise ValueError("a WPA password has 8 to 63 characters")

    def uri(self) -> str:
        """The QR code's text.

        >>> WifiConfig("Cafe Guest", "pa;ss:word").uri()
        'WIFI:T:WPA;S:Cafe Guest;P:pa\\\\;ss\\\\:word;;'
        >>> WifiConfig("Open", security="nopass").uri()
        'WIFI:T:nopass;S:Open;;'
        """
        text = f"WIFI:T:{self.security};S:{escape(self.ssid)};"
        if self.security != "nopass":
            text += f"P:{escape(self.password or '')};"
        return text + ";"
