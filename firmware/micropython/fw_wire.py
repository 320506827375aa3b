# Framing of the LED board protocol (hardware/PROTOCOL.md), shared by the firmware and the
# simulated board. MicroPython-compatible: buffers are allocated once in the constructors and
# nothing is allocated per byte or per frame.
#
# Wire:  FLAG  escape(MAGIC TYPE SEQ LEN_HI LEN_LO PAYLOAD... CRC_HI CRC_LO)  FLAG
# CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over MAGIC..PAYLOAD, sent big-endian, so the
# running CRC over the whole body including the CRC bytes is 0 for a good frame.

FLAG = 0x7E
ESC = 0x7D
ESC_XOR = 0x20
MAGIC = 0xC1  # never valid in UTF-8, so REPL text cannot look like a frame start
HEADER = 5
TRAILER = 2
MAX_PAYLOAD = 1024
MAX_BODY = HEADER + MAX_PAYLOAD + TRAILER

# Message types: host -> board below 0x80, board -> host from 0x80 (an echo is never mistaken).
T_HELLO = 0x01
T_PICTURE = 0x02
T_CONFIG = 0x03
T_PING = 0x04
T_STATUS_REQ = 0x05
T_ACK = 0x80
T_NACK = 0x81
T_VERSION = 0x82
T_STATUS = 0x83

# NACK reasons (and parser error codes).
R_BAD_CRC = 1
R_TRUNCATED = 2
R_BAD_LENGTH = 3
R_OVERSIZE = 4
R_BAD_BYTE = 5
R_UNKNOWN_TYPE = 6
R_BAD_PAYLOAD = 7
R_UNSUPPORTED_VERSION = 8

# Results of FrameParser.feed
NOTHING = 0
FRAME = 1
ERROR = 2


def _make_table():
    t = [0] * 256
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        t[i] = c & 0xFFFF
    return t


CRC_TABLE = _make_table()


def crc16(buf, start, end, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of buf[start:end] without slicing."""
    t = CRC_TABLE
    for i in range(start, end):
        crc = ((crc << 8) & 0xFFFF) ^ t[((crc >> 8) ^ buf[i]) & 0xFF]
    return crc


def needs_escape(b):
    return b < 0x20 or b == ESC or b == FLAG


class FrameParser:
    """Byte-at-a-time deframer. feed() returns NOTHING, FRAME or ERROR.

    After FRAME: .type, .seq, .length and the payload at .buf[HEADER:HEADER + length].
    After ERROR: .reason, .seq and .type (0 when the damaged frame did not carry them).
    Bytes outside frames (REPL text, line noise) are counted in .garbage and never answered.
    """

    def __init__(self, max_body=MAX_BODY):
        self.buf = bytearray(max_body)
        self.max_body = max_body
        self.garbage = 0
        self.type = 0
        self.seq = 0
        self.length = 0
        self.reason = 0
        self._n = 0
        self._crc = 0xFFFF
        self._esc = False
        self._over = False
        self._state = 0  # 0 hunting for FLAG, 1 just after FLAG, 2 inside a frame

    def reset(self):
        self._state = 0
        self._n = 0
        self._esc = False
        self._over = False

    def _open(self):
        self._state = 1
        self._n = 0
        self._crc = 0xFFFF
        self._esc = False
        self._over = False

    def _fail(self, reason):
        n = self._n
        self.reason = reason
        self.type = self.buf[1] if n > 1 else 0
        self.seq = self.buf[2] if n > 2 else 0
        return ERROR

    def feed(self, b):
        st = self._state
        if st == 0:
            if b == FLAG:
                self._open()
            else:
                self.garbage += 1
            return NOTHING
        if st == 1:
            if b == FLAG:
                return NOTHING  # empty frame: flags may repeat as idle fill
            if b != MAGIC:
                # Not a frame start: REPL text or noise after a flag. Hunt silently.
                self.garbage += 1
                self._state = 0
                return NOTHING
            self._state = 2
        if b == FLAG:
            if self._esc:
                # ESC FLAG aborts the frame under way; the flag opens the next one.
                result = self._fail(R_BAD_BYTE)
                self._open()
                return result
            result = self._close()
            self._open()  # a closing flag also opens the next frame
            return result
        if b < 0x20:
            # Raw control bytes never occur inside a frame: the frame is damaged.
            r = self._fail(R_BAD_BYTE)
            self._state = 0
            return r
        if b == ESC:
            self._esc = True
            return NOTHING
        if self._esc:
            b ^= ESC_XOR
            self._esc = False
        n = self._n
        if n >= self.max_body:
            self._over = True
        else:
            self.buf[n] = b
        self._n = n + 1
        self._crc = ((self._crc << 8) & 0xFFFF) ^ CRC_TABLE[((self._crc >> 8) ^ b) & 0xFF]
        return NOTHING

    def _close(self):
        n = self._n
        if self._over:
            return self._fail(R_OVERSIZE)
        if n < HEADER + TRAILER:
            return self._fail(R_TRUNCATED)
        buf = self.buf
        declared = (buf[3] << 8) | buf[4]
        if declared > MAX_PAYLOAD:
            return self._fail(R_OVERSIZE)
        actual = n - HEADER - TRAILER
        if actual < declared:
            return self._fail(R_TRUNCATED)
        if actual > declared:
            return self._fail(R_BAD_LENGTH)
        if self._crc != 0:
            return self._fail(R_BAD_CRC)
        self.type = buf[1]
        self.seq = buf[2]
        self.length = declared
        return FRAME


class FrameWriter:
    """Builds escaped frames into one preallocated buffer.

    frame(typ, seq, payload, length) returns a memoryview of the wire bytes taken from a table
    of views made once, so writing a frame allocates nothing.
    """

    def __init__(self, max_payload=64):
        size = 2 + 2 * (HEADER + max_payload + TRAILER)
        self.out = bytearray(size)
        self.max_payload = max_payload
        mv = memoryview(self.out)
        self._views = [mv[:k] for k in range(size + 1)]
        self._n = 0
        self._crc = 0xFFFF

    def _put(self, b):
        self._crc = ((self._crc << 8) & 0xFFFF) ^ CRC_TABLE[((self._crc >> 8) ^ b) & 0xFF]
        self._raw(b)

    def _raw(self, b):
        n = self._n
        if b < 0x20 or b == ESC or b == FLAG:
            self.out[n] = ESC
            self.out[n + 1] = b ^ ESC_XOR
            self._n = n + 2
        else:
            self.out[n] = b
            self._n = n + 1

    def frame(self, typ, seq, payload, length):
        self._n = 1
        self.out[0] = FLAG
        self._crc = 0xFFFF
        self._put(MAGIC)
        self._put(typ)
        self._put(seq & 0xFF)
        self._put((length >> 8) & 0xFF)
        self._put(length & 0xFF)
        for i in range(length):
            self._put(payload[i])
        crc = self._crc
        self._raw((crc >> 8) & 0xFF)
        self._raw(crc & 0xFF)
        n = self._n
        self.out[n] = FLAG
        return self._views[n + 1]
