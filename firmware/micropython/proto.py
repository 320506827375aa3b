# Wire format of the board link (hardware/PROTOCOL.md), MicroPython side.
# Byte-stuffed frames: FLAG escaped(body) FLAG, body = type seq len_hi len_lo payload crc_hi crc_lo,
# CRC-16/CCITT-FALSE over type..payload. Nothing here allocates once the objects exist.

FLAG = 0xC0   # never valid in UTF-8, so the REPL never prints it
ESC = 0xDB
HEADER = 4
OVERHEAD = 6  # header + CRC

# Message types (hardware/PROTOCOL.md section 4)
HELLO = 0x01
VERSION = 0x02
ACK = 0x06
NACK = 0x15
PICTURE = 0x10
CONFIG = 0x11
PING = 0x20
STATUS = 0x21
STOP = 0x30

# Reason codes of NACK and decoder errors
BAD_CRC = 1
TRUNCATED = 2
TOO_LARGE = 3
UNKNOWN_TYPE = 4
BAD_PAYLOAD = 5
BAD_ESCAPE = 6
BAD_LENGTH = 7
UNEXPECTED = 8

# Decoder results
NOTHING = 0
FRAME = 1
ERROR = 2

_KNOWN = bytearray(256)
for _t in (HELLO, VERSION, ACK, NACK, PICTURE, CONFIG, PING, STATUS, STOP):
    _KNOWN[_t] = 1

# Bytes sent as ESC, b ^ 0x20: the frame flag, the escape itself and Ctrl-A..Ctrl-E, so a frame
# never interrupts the firmware (Ctrl-C) nor drives a REPL (raw mode, soft reset, paste).
_ESCAPED = bytearray(256)
for _b in (0x01, 0x02, 0x03, 0x04, 0x05, FLAG, ESC):
    _ESCAPED[_b] = 1


def _crc_table():
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC = _crc_table()


def crc16(buf, start, end, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of buf[start:end] (no slice is made)."""
    table = _CRC
    for i in range(start, end):
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ buf[i]) & 0xFF]
    return crc


def wire_capacity(payload_max):
    """Largest wire size of a frame with payload_max bytes (every byte escaped)."""
    return 2 + 2 * (OVERHEAD + payload_max)


class Decoder:
    """Feeds bytes one at a time; after FRAME read type/seq/length and buf[HEADER:]."""

    def __init__(self, max_payload):
        self.max_payload = max_payload
        self.buf = bytearray(OVERHEAD + max_payload)
        self.n = 0
        self.hunting = True   # before the first FLAG everything is noise (boot banner, REPL)
        self.escaped = False
        self.bad_escape = False
        self.overflow = False
        self.type = 0
        self.seq = 0
        self.length = 0
        self.reason = 0

    def reset(self):
        self.n = 0
        self.escaped = False
        self.bad_escape = False
        self.overflow = False

    def feed(self, b):
        if b == FLAG:
            if self.hunting:
                self.hunting = False
                self.reset()
                return NOTHING
            result = self._finish()
            self.reset()
            return result
        if self.hunting:
            return NOTHING
        if self.escaped:
            self.escaped = False
            b ^= 0x20
            if not _ESCAPED[b]:
                self.bad_escape = True
        elif b == ESC:
            self.escaped = True
            return NOTHING
        if self.n < len(self.buf):
            self.buf[self.n] = b
            self.n += 1
        else:
            self.overflow = True
        return NOTHING

    def _error(self, reason):
        self.reason = reason
        self.seq = 0
        return ERROR

    def _finish(self):
        n = self.n
        if n == 0 and not self.overflow and not self.bad_escape and not self.escaped:
            return NOTHING  # FLAG FLAG: an empty segment between two frames
        if self.bad_escape or self.escaped:
            return self._error(BAD_ESCAPE)
        if self.overflow:
            return self._error(TOO_LARGE)
        if n < OVERHEAD:
            return self._error(TRUNCATED)
        buf = self.buf
        length = (buf[2] << 8) | buf[3]
        if length > self.max_payload:
            return self._error(TOO_LARGE)
        if n - OVERHEAD < length:
            return self._error(TRUNCATED)
        if n - OVERHEAD > length:
            return self._error(BAD_LENGTH)
        end = HEADER + length
        if crc16(buf, 0, end) != ((buf[end] << 8) | buf[end + 1]):
            return self._error(BAD_CRC)
        if not _KNOWN[buf[0]]:
            self.reason = UNKNOWN_TYPE
            self.seq = buf[1]  # the CRC is good, so the sequence number can be trusted
            self.type = buf[0]
            return ERROR
        self.type = buf[0]
        self.seq = buf[1]
        self.length = length
        return FRAME


class Encoder:
    """Builds frames in one preallocated buffer: encode() then write out[:n]."""

    def __init__(self, max_payload):
        self.out = bytearray(wire_capacity(max_payload))
        self.n = 0
        self.crc = 0xFFFF

    def _byte(self, b):
        self.crc = ((self.crc << 8) & 0xFFFF) ^ _CRC[((self.crc >> 8) ^ b) & 0xFF]
        self._put(b)

    def _put(self, b):
        out = self.out
        n = self.n
        if _ESCAPED[b]:
            out[n] = ESC
            out[n + 1] = b ^ 0x20
            self.n = n + 2
        else:
            out[n] = b
            self.n = n + 1

    def encode(self, mtype, seq, payload, length):
        """Frame of payload[:length]; returns its wire length (bytes in self.out)."""
        self.out[0] = FLAG
        self.n = 1
        self.crc = 0xFFFF
        self._byte(mtype)
        self._byte(seq)
        self._byte(length >> 8)
        self._byte(length & 0xFF)
        for i in range(length):
            self._byte(payload[i])
        crc = self.crc
        self._put(crc >> 8)
        self._put(crc & 0xFF)
        self.out[self.n] = FLAG
        self.n += 1
        return self.n
