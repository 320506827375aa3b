# Pixels: decoding PICTURE payloads, gamma, brightness and the current limiter.
# MicroPython-compatible; after construction nothing here allocates (the gamma table is rebuilt
# in place when the host changes brightness).

ENC_RAW = 0
ENC_PALETTE_RLE = 1

# Decode results (0 = good picture, otherwise a NACK reason from fw_wire).
OK = 0
BAD_PAYLOAD = 7


class Pixels:
    """The picture the host asked for and what the strip is driven with.

    picture: RGB bytes as sent by the host (3 per LED), kept so it can be restored after the
    host-lost pattern. strip.buf receives the driven values in the strip's colour order.
    """

    def __init__(self, strip, led_count, order=(1, 0, 2), gamma=2.2, brightness=64,
                 budget_ma=1500, channel_ma=20, idle_ma=1):
        self.strip = strip
        self.n = led_count
        self.picture = bytearray(3 * led_count)
        self._scratch = bytearray(3 * led_count)
        self.order = order
        self.gamma = gamma
        self.table = bytearray(256)
        self.brightness = brightness
        self.budget_ma = budget_ma
        self.channel_ma = channel_ma
        self.idle_ma = idle_ma
        self.estimated_ma = 0
        self.scale = 255  # 255 = the limiter did not cut anything on the last render
        self.set_brightness(brightness)

    def set_brightness(self, brightness):
        """Gamma table with the brightness folded in: table[v] = brightness * (v/255)^gamma."""
        self.brightness = brightness
        g = self.gamma
        t = self.table
        for v in range(256):
            t[v] = int(brightness * ((v / 255) ** g) + 0.5)

    def configure(self, brightness, budget_ma, channel_ma):
        self.budget_ma = budget_ma
        self.channel_ma = channel_ma
        if brightness != self.brightness:
            self.set_brightness(brightness)

    def decode(self, buf, start, length):
        """Decode a PICTURE payload at buf[start:start+length] into the picture.

        Validates fully into a scratch buffer first, so a bad payload changes nothing.
        """
        if length < 3:
            return BAD_PAYLOAD
        enc = buf[start]
        count = (buf[start + 1] << 8) | buf[start + 2]
        if count > self.n:
            return BAD_PAYLOAD
        out = self._scratch
        p = start + 3
        end = start + length
        if enc == ENC_RAW:
            if end - p != 3 * count:
                return BAD_PAYLOAD
            for i in range(3 * count):
                out[i] = buf[p + i]
        elif enc == ENC_PALETTE_RLE:
            if p >= end:
                return BAD_PAYLOAD
            ncol = buf[p]
            p += 1
            pal = p
            p += 3 * ncol
            if ncol == 0 or p > end or (end - p) & 1:
                return BAD_PAYLOAD
            o = 0
            limit = 3 * count
            while p < end:
                idx = buf[p]
                run = buf[p + 1]
                p += 2
                if idx >= ncol or run == 0 or o + 3 * run > limit:
                    return BAD_PAYLOAD
                c = pal + 3 * idx
                r = buf[c]
                g = buf[c + 1]
                b = buf[c + 2]
                for _ in range(run):
                    out[o] = r
                    out[o + 1] = g
                    out[o + 2] = b
                    o += 3
            if o != limit:
                return BAD_PAYLOAD
        else:
            return BAD_PAYLOAD
        for i in range(3 * count, 3 * self.n):
            out[i] = 0  # LEDs the picture does not cover stay dark
        self._scratch = self.picture
        self.picture = out
        return OK

    def render(self, src):
        """Drive the strip with src (RGB, 3 per LED): gamma + brightness, then the limiter."""
        t = self.table
        dst = self.strip.buf
        ro = self.order[0]
        go = self.order[1]
        bo = self.order[2]
        total = 0
        for i in range(0, 3 * self.n, 3):
            r = t[src[i]]
            g = t[src[i + 1]]
            b = t[src[i + 2]]
            dst[i + ro] = r
            dst[i + go] = g
            dst[i + bo] = b
            total += r + g + b
        # Estimated current: each channel draws channel_ma at 255, plus a quiescent draw per LED.
        idle = self.idle_ma * self.n
        chan = (total * self.channel_ma) // 255
        avail = self.budget_ma - idle
        if avail < 0:
            avail = 0
        if chan > avail:
            k = (avail << 8) // chan
            for i in range(3 * self.n):
                dst[i] = (dst[i] * k) >> 8
            chan = (chan * k) >> 8
            self.scale = k if k < 255 else 254
        else:
            self.scale = 255
        self.estimated_ma = chan + idle
        self.strip.write()

    def blank(self):
        buf = self.strip.buf
        for i in range(len(buf)):
            buf[i] = 0
        self.estimated_ma = self.idle_ma * self.n
        self.strip.write()

    def show_picture(self):
        self.render(self.picture)

    def host_lost(self, now_ms, scratch):
        """The host-lost pattern: one amber LED walking along the strip, 10 steps a second."""
        n = self.n
        for i in range(3 * n):
            scratch[i] = 0
        if n:
            pos = (now_ms // 100) % n
            scratch[3 * pos] = 255
            scratch[3 * pos + 1] = 96
        self.render(scratch)
