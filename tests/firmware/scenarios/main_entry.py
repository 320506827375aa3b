# main.py with the stand-in machine and neopixel modules: the loop runs until Ctrl-C, the
# watchdog is created and fed, and a Ctrl-C leaves the strip dark with a timer feeding the
# watchdog at the REPL.
import fw_wire as w
import machine
import main
from common import frame, hexs, parse_all, report
from fakeio import FakePort

port = FakePort(ctrl_c=True)
n = 208
pic = bytes([1, 0, n, 1, 255, 0, 0, 0, n])
port.push(frame(w.T_HELLO, 1, b"\x01"))
port.push(frame(w.T_PICTURE, 2, pic))
port.push(b"\r\x03")  # what mpremote sends to interrupt a running program
board = main.main(port=port)
wdt = machine.WDT.instances[-1]
timer = machine.TIMERS[-1] if machine.TIMERS else None
report({
    "replies": parse_all(port.take())[0],
    "pictures": board.pictures,
    "led_count": board.led_count,
    "wdt_armed": len(machine.WDT.instances),
    "wdt_timeout": wdt.timeout,
    "wdt_feeds": wdt.feeds,
    "strip_after_ctrl_c": hexs(bytes(board.pixels.strip.buf[:12])),
    "strip_sum": sum(board.pixels.strip.buf),
    "timer_period": timer.period if timer else None,
    "timer_feeds_wdt": (timer.callback(timer) or True) and wdt.feeds if timer else None,
    "name": board.name.decode(),
})
