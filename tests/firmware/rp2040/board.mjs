// An emulated Raspberry Pi Pico running the real MicroPython rp2 image (rp2040js, MIT).
//
//   node board.mjs IMAGE BOOTROM [FLASH_PATCH]
//
// stdin/stdout of this process are the two directions of the Pico's USB CDC serial port (the
// byte pipe a host sees as /dev/ttyACM0). File descriptor 3 (or $BOARD_EVENTS_FD) receives one JSON object a line
// describing what happened on the board, each stamped with the emulated cycle count at 125 MHz:
//   {"ev":"usb","cycle":N}                          the CDC port is enumerated (after each boot)
//   {"ev":"out","cycle":N,"total":T}                 host bytes handed to the device so far
//   {"ev":"in","cycle":N,"total":T}                  device bytes received by the host so far
//   {"ev":"leds","cycle":N,"end":M,"grb":"..."}     one WS2812 frame on GP0 decoded to bytes
//   {"ev":"status_led","cycle":N,"on":B}            the Pico's LED (GP25) switched
//   {"ev":"wdt","cycle":N,"enabled":B,"timeout_ms":T} the watchdog was started or stopped
//   {"ev":"reset","cycle":N,"reason":R}             "watchdog" (machine.reset, a forced reset)
//                                                   or "watchdog timeout" (not fed in time)
//   {"ev":"stats","cycle":N,"wall_ms":W}             on exit
// FLASH_PATCH (optional) is a file of records "offset(4, LE) length(4, LE) bytes" written into
// the flash image before boot: the firmware's file system (tests/firmware/emulator.py).
// The board reboots on a watchdog reset with the same flash, as a real Pico does.
import fs from "node:fs";
import { RP2040, USBCDC, GPIOPinState, ConsoleLogger, LogLevel } from "rp2040js";

const [imagePath, bootromPath, patchPath] = process.argv.slice(2);
if (!imagePath || !bootromPath) {
  console.error("usage: board.mjs IMAGE BOOTROM [FLASH_PATCH]");
  process.exit(2);
}
const image = fs.readFileSync(imagePath);
const bootrom = new Uint32Array(new Uint8Array(fs.readFileSync(bootromPath)).buffer);
const patches = [];
if (patchPath) {
  const data = fs.readFileSync(patchPath);
  for (let at = 0; at + 8 <= data.length;) {
    const offset = data.readUInt32LE(at);
    const length = data.readUInt32LE(at + 4);
    patches.push([offset, data.subarray(at + 8, at + 8 + length)]);
    at += 8 + length;
  }
}

const NS_PER_CYCLE = 8; // 125 MHz
const STRIP_PIN = 0;
const STATUS_LED_PIN = 25; // the Pico's on-board LED
const events = fs.createWriteStream(null, { fd: Number(process.env.BOARD_EVENTS_FD || 3) });
const emit = (obj) => events.write(JSON.stringify(obj) + "\n");

const hostQueue = [];   // bytes from the host not yet handed to the device
let queued = 0;
let outTotal = 0;
let inTotal = 0;
let mcu = null;
let cdc = null;
let pendingRead = null; // an OUT endpoint the device armed while the host had nothing to send
let resetRequested = null;
let wdt = { enabled: false, deadline: 0, load: 0 };
let closing = false;
const started = Date.now();

function cycles() {
  return Math.round(mcu.clock.nanos / NS_PER_CYCLE);
}

function takeHostBytes(size) {
  const n = Math.min(size, queued);
  const out = new Uint8Array(n);
  let i = 0;
  while (i < n) {
    const head = hostQueue[0];
    const k = Math.min(head.length, n - i);
    out.set(head.subarray(0, k), i);
    i += k;
    if (k === head.length) hostQueue.shift();
    else hostQueue[0] = head.subarray(k);
  }
  queued -= n;
  return out;
}

function answerRead(endpoint, size) {
  const data = takeHostBytes(size);
  outTotal += data.length;
  emit({ ev: "out", cycle: cycles(), total: outTotal });
  mcu.usbCtrl.endpointReadDone(endpoint, data);
}

// WS2812 decoding: a high pulse over 600 ns is a 1 bit, shorter a 0 bit (machine.bitstream
// on rp2 sends 400/850 ns and 800/450 ns); a low time over 50 us ends a frame.
let pulseStart = 0;
let bits = 0;
let nbits = 0;
let frame = [];
let frameStart = 0;
let lastFall = 0;
const FRAME_GAP_NS = 50000;

function flushFrame() {
  if (frame.length) {
    emit({ ev: "leds", cycle: Math.round(frameStart / NS_PER_CYCLE),
      end: Math.round(lastFall / NS_PER_CYCLE), grb: Buffer.from(frame).toString("hex"),
      partial_bits: nbits });
  }
  frame = [];
  bits = 0;
  nbits = 0;
}

function boot() {
  const board = new RP2040();
  board.logger = new ConsoleLogger(LogLevel.Error, false);
  board.loadBootrom(bootrom);
  board.flash.set(image, 0);
  for (const [offset, bytes] of patches) board.flash.set(bytes, offset);
  board.core.PC = 0x10000000;
  mcu = board;
  pendingRead = null;
  const port = new USBCDC(board.usbCtrl);
  cdc = port;
  port.onDeviceConnected = () => emit({ ev: "usb", cycle: cycles() });
  port.onSerialData = (buffer) => {
    inTotal += buffer.length;
    emit({ ev: "in", cycle: cycles(), total: inTotal });
    process.stdout.write(Buffer.from(buffer));
  };
  // A real host NAKs an OUT endpoint until it has data; answering at once with an empty
  // packet (the helper's default) makes the device take an interrupt storm.
  board.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint !== port.outEndpoint) return;
    if (queued > 0) answerRead(endpoint, size);
    else pendingRead = [endpoint, size];
  };
  board.gpio[STRIP_PIN].addListener((state) => {
    const now = board.clock.nanos;
    if (state === GPIOPinState.High) {
      if (now - lastFall > FRAME_GAP_NS) flushFrame();
      if (!frame.length && !nbits) frameStart = now;
      pulseStart = now;
    } else if (state === GPIOPinState.Low) {
      const width = now - pulseStart;
      if (width > 0 && width < FRAME_GAP_NS && pulseStart >= lastFall) {
        bits = (bits << 1) | (width > 600 ? 1 : 0);
        nbits += 1;
        if (nbits === 8) {
          frame.push(bits);
          bits = 0;
          nbits = 0;
        }
      }
      lastFall = now;
    }
  });
  board.gpio[STATUS_LED_PIN].addListener((state, old) => {
    if ((state === GPIOPinState.High) !== (old === GPIOPinState.High)) {
      emit({ ev: "status_led", cycle: cycles(), on: state === GPIOPinState.High });
    }
  });
  // The watchdog: rp2040js reports a forced reset (CTRL.TRIGGER, machine.reset()) but its
  // count-down alarm misbehaves (it re-fires at the same instant), so the timeout is kept here: LOAD (a feed) sets the deadline,
  // LOAD / 2 MHz ahead (the RP2040 counts down twice per 1 us tick, erratum RP2040-E1).
  const watchdog = board.peripherals[0x40058];
  watchdog.onWatchdogTrigger = () => {
    resetRequested = "watchdog";
    board.core.waiting = false;
  };
  wdt = { enabled: false, deadline: 0, load: 0 };
  const write = watchdog.writeUint32.bind(watchdog);
  watchdog.writeUint32 = (offset, value) => {
    if (offset === 0x04) { // LOAD
      wdt.load = value & 0xffffff;
      wdt.deadline = board.clock.nanos + (wdt.load / 2e6) * 1e9;
    } else if (offset === 0x00) { // CTRL
      const enabled = !!(value & (1 << 30));
      if (enabled !== wdt.enabled) {
        wdt.enabled = enabled;
        emit({ ev: "wdt", cycle: cycles(), enabled, timeout_ms: wdt.load / 2000 });
      }
    }
    write(offset, value);
    watchdog.alarm.enable = false; // its own alarm re-fires without end once enabled
  };
}

process.stdin.on("data", (chunk) => {
  hostQueue.push(new Uint8Array(chunk));
  queued += chunk.length;
  if (pendingRead && cdc && cdc.outEndpoint >= 0) {
    const [endpoint, size] = pendingRead;
    pendingRead = null;
    answerRead(endpoint, size);
  }
});
process.stdin.on("end", () => { closing = true; });

function run() {
  const { clock } = mcu;
  const chunkEnd = clock.nanos + 2e6; // 2 ms of emulated time between host I/O turns
  while (clock.nanos < chunkEnd && !resetRequested) {
    if (mcu.core.waiting) {
      // Asleep (WFI/WFE): jump to the next timer alarm, at most to the end of this slice.
      const skip = clock.nanosToNextAlarm;
      const rest = chunkEnd - clock.nanos;
      clock.tick(skip > 0 && skip < rest ? skip : rest);
    } else {
      clock.tick(mcu.core.executeInstruction() * NS_PER_CYCLE);
    }
    if (clock.nanos - lastFall > FRAME_GAP_NS && (frame.length || nbits)) flushFrame();
  }
  if (wdt.enabled && clock.nanos > wdt.deadline && !resetRequested) {
    resetRequested = "watchdog timeout";
  }
  if (resetRequested) {
    flushFrame();
    emit({ ev: "reset", cycle: cycles(), reason: resetRequested });
    resetRequested = null;
    const nanos = mcu.clock.nanos;
    boot();
    mcu.clock.nanosCounter = nanos; // emulated time runs on across the reboot
    lastFall = nanos;
  }
  if (closing) {
    emit({ ev: "stats", cycle: cycles(), wall_ms: Date.now() - started });
    events.end(() => process.exit(0));
    return;
  }
  setImmediate(run);
}

boot();
run();
