# Wire format of the board link (hardware/PROTOCOL.md), MicroPython side.
# Byte-stuffed frames: FLAG escaped(body) FLAG, body = type seq len_hi len_lo payload crc_hi crc_lo,
# CRC-16/CCITT-FALSE over type..payload. Nothing here allocates once the objects exist.
#
# Speed (measured on the rp2 port, hardware/FIRMWARE.md "Speed"): the byte loops (unstuffing,
# CRC, stuffing) are @micropython.viper functions working on whole chunks, and the decoder tells
# the reader how many wire bytes the current frame needs at least, so a frame is read in a few
# large readinto() calls instead of one call per byte.
import array

import micropython
from micropython import const

FLAG = const(0xC0)  # never valid in UTF-8, so the REPL never prints it
ESC = const(0xDB)
HEADER = const(4)
OVERHEAD = const(6)  # header + CRC

# Message types (hardware/PROTOCOL.md section 4)
HELLO = const(0x01)
VERSION = const(0x02)
ACK = const(0x06)
NACK = const(0x15)
PICTURE = const(0x10)
CONFIG = const(0x11)
PING = const(0x20)
STATUS = const(0x21)
STOP = const(0x30)

# Reason codes of NACK and decoder errors
BAD_CRC = const(1)
TRUNCATED = const(2)
TOO_LARGE = const(3)
UNKNOWN_TYPE = const(4)
BAD_PAYLOAD = const(5)
BAD_ESCAPE = const(6)
BAD_LENGTH = const(7)
UNEXPECTED = const(8)

# Decoder results
NOTHING = const(0)
FRAME = const(1)
ERROR = const(2)

# Decoder state words (an array('i') shared with the viper scanner)
_N = const(0)  # bytes unstuffed into buf
_ESCAPED = const(1)  # an ESC was read, its byte comes next
_BADESC = const(2)  # an ESC was followed by a byte that is not an escaped value
_OVER = const(3)  # more bytes than buf holds (the rest is skipped)
_HUNT = const(4)  # before the first FLAG everything is noise (boot banner, REPL)
_CAP = const(5)  # len(buf)
_ENDED = const(6)  # the last scan stopped at a FLAG closing a segment
_POS = const(7)  # where the scan starts

_KNOWN = bytearray(256)
for _t in (HELLO, VERSION, ACK, NACK, PICTURE, CONFIG, PING, STATUS, STOP):
    _KNOWN[_t] = 1


def _crc_table():
    table = array.array("H", [0] * 256)
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table[i] = crc & 0xFFFF
    return table


_CRC = _crc_table()


@micropython.viper
def _crc16(buf: ptr8, n: int, table: ptr16) -> int:
    crc = 0xFFFF
    for i in range(n):
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ buf[i]) & 0xFF]
    return crc


def crc16(buf, n):
    """CRC-16/CCITT-FALSE of buf[:n] (no slice is made)."""
    return _crc16(buf, n, _CRC)


@micropython.viper
def _scan(src: ptr8, end: int, dst: ptr8, st: ptr32) -> int:
    # Unstuffs src[st[_POS]:end] into dst; stops after a FLAG that closes a non-empty (or bad)
    # segment (st[_ENDED] = 1) so the caller can judge it. Returns where it stopped.
    # The common byte (not FLAG, not ESC, no escape pending) takes the shortest path.
    i = st[7]
    if st[4]:
        while i < end:  # hunting: noise up to the first FLAG
            if src[i] == 0xC0:
                st[4] = 0
                st[0] = 0
                st[1] = 0
                st[2] = 0
                st[3] = 0
                i += 1
                break
            i += 1
        if st[4]:
            st[7] = i
            st[6] = 0
            return i
    n = st[0]
    cap = st[5]
    esc = st[1]
    while i < end:
        b = src[i]
        i += 1
        if b == 0xC0:
            if n == 0 and esc == 0 and st[2] == 0 and st[3] == 0:
                continue  # FLAG FLAG: an empty segment between two frames
            st[0] = n
            st[1] = esc
            st[6] = 1
            st[7] = i
            return i
        if esc:
            esc = 0
            b ^= 0x20
            if not (b == 0xC0 or b == 0xDB or (b >= 1 and b <= 5)):
                st[2] = 1
        elif b == 0xDB:
            esc = 1
            continue
        if n < cap:
            dst[n] = b
            n += 1
        else:
            st[3] = 1
    st[0] = n
    st[1] = esc
    st[6] = 0
    st[7] = i
    return i


@micropython.viper
def _stuff(src: ptr8, n: int, dst: ptr8, at: int) -> int:
    # Escapes src[:n] into dst[at:] (FLAG, ESC and Ctrl-A..Ctrl-E); returns the new end.
    for i in range(n):
        b = src[i]
        if b == 0xC0 or b == 0xDB or (b >= 1 and b <= 5):
            dst[at] = 0xDB
            dst[at + 1] = b ^ 0x20
            at += 2
        else:
            dst[at] = b
            at += 1
    return at


def wire_capacity(payload_max):
    """Largest wire size of a frame with payload_max bytes (every byte escaped)."""
    return 2 + 2 * (OVERHEAD + payload_max)


class Decoder:
    """Decodes chunks of wire bytes; after FRAME read type/seq/length and buf[HEADER:]."""

    def __init__(self, max_payload):
        self.max_payload = max_payload
        self.buf = bytearray(OVERHEAD + max_payload)
        self.st = array.array("i", (0, 0, 0, 0, 1, len(self.buf), 0, 0))
        self.type = 0
        self.seq = 0
        self.length = 0
        self.reason = 0

    def reset(self):
        st = self.st
        st[_N] = 0
        st[_ESCAPED] = 0
        st[_BADESC] = 0
        st[_OVER] = 0

    def start(self, pos):
        """Begins scanning a new chunk at pos."""
        self.st[_POS] = pos

    def scan(self, chunk, end):
        """Scans chunk up to end; returns NOTHING when the chunk is used up, else FRAME or
        ERROR for the segment a FLAG closed (call scan again for the rest of the chunk)."""
        st = self.st
        if st[7] < end:
            _scan(chunk, end, self.buf, st)
            if st[6]:
                st[6] = 0
                result = self._finish()
                self.reset()
                return result
        return NOTHING

    def need(self):
        """Wire bytes the current segment needs at least before it can end; 0 when nothing
        is known (between frames, in a header, noise): read only what is waiting then."""
        st = self.st
        n = st[0]
        if n < HEADER or st[4] or st[3] or st[2]:
            # Header bytes come one at a time: until a header promises a payload, the bytes
            # may be noise or a cut frame, and a blocking read could wait for bytes that never
            # come. Once a header is there, the host has committed to the rest of the frame.
            return 0
        buf = self.buf
        length = (buf[2] << 8) | buf[3]
        if length > self.max_payload:
            return 0  # too_large: skip to the next FLAG slowly
        left = OVERHEAD + length - n
        return left + 1 if left > 0 else 0  # every byte takes at least one wire byte

    def _error(self, reason):
        self.reason = reason
        self.seq = 0
        return ERROR

    def _finish(self):
        st = self.st
        n = st[_N]
        if st[_BADESC] or st[_ESCAPED]:
            return self._error(BAD_ESCAPE)
        if st[_OVER]:
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
        if _crc16(buf, end, _CRC) != ((buf[end] << 8) | buf[end + 1]):
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
        self.body = bytearray(OVERHEAD + max_payload)
        self.out = bytearray(wire_capacity(max_payload))

    def encode(self, mtype, seq, payload, length):
        """Frame of payload[:length]; returns its wire length (bytes in self.out)."""
        body = self.body
        body[0] = mtype
        body[1] = seq
        body[2] = length >> 8
        body[3] = length & 0xFF
        for i in range(length):
            body[HEADER + i] = payload[i]
        end = HEADER + length
        crc = _crc16(body, end, _CRC)
        body[end] = crc >> 8
        body[end + 1] = crc & 0xFF
        out = self.out
        out[0] = FLAG
        n = _stuff(body, end + 2, out, 1)
        out[n] = FLAG
        return n + 1
