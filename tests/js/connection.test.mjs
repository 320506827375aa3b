// The pages' websocket (companion/web/static/js/connection.js) on a test clock: a command that
// waits for its ack on a socket that hears nothing is sent again on a new socket within
// seconds, not after the heartbeat's 25 s. The browser is stood in for by the few globals the
// module touches, and the socket by a fake the test drives (what the server would say).
import assert from "node:assert/strict";
import { afterEach, beforeEach, mock, test } from "node:test";

class FakeSocket {
  static OPEN = 1;
  static all = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.all.push(this);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.readyState = 3;
  }
  /** The server accepts the connection. */
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  /** The server sends a frame. */
  hear(frame) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

globalThis.WebSocket = FakeSocket;
globalThis.location = { protocol: "http:", host: "table.lan" };
globalThis.document = { addEventListener() {}, visibilityState: "visible" };
// The page's events the connection listens to ("online", "offline"), fired by the tests.
const listeners = {};
globalThis.window = {
  addEventListener(name, fn) {
    (listeners[name] ||= []).push(fn);
  },
};
const fire = (name) => listeners[name]?.forEach((fn) => fn());

const { Connection } = await import("../../companion/web/static/js/connection.js");

let frames;
beforeEach(() => {
  mock.timers.enable({ apis: ["setTimeout", "setInterval", "Date"], now: 1_000_000 });
  FakeSocket.all = [];
  frames = [];
  for (const name of Object.keys(listeners)) delete listeners[name]; // earlier tests' pages
});
afterEach(() => mock.timers.reset());

function connected() {
  const conn = new Connection({
    path: "/t/1/ws/seat",
    hello: () => ({ type: "hello", seat: "ben" }),
    onFrame: (f) => frames.push(f),
  });
  conn.start();
  FakeSocket.all.at(-1).open();
  return conn;
}

const kinds = (socket) => socket.sent.map((m) => m.type);

test("a command on a socket that hears nothing goes again on a new socket within seconds", () => {
  const conn = connected();
  const first = FakeSocket.all[0];
  conn.command({ type: "sacrifice", card: 0 }, "ben-1");
  mock.timers.tick(3000);
  assert.deepEqual(kinds(first), ["hello", "command"]); // half the quiet: not yet
  mock.timers.tick(1000);
  assert.deepEqual(kinds(first), ["hello", "command", "ping"]); // asks whether anyone is there
  mock.timers.tick(3000); // 7 s without a word since the command went
  assert.equal(conn.lastDrop, "no_ack");
  assert.equal(first.readyState, 3);
  mock.timers.tick(1000); // the first retry's backoff (0.25–0.75 s)
  assert.equal(FakeSocket.all.length, 2);
  const second = FakeSocket.all[1];
  second.open();
  assert.deepEqual(kinds(second), ["hello", "command"]);
  assert.equal(second.sent[1].id, "ben-1"); // the same id: the server applies it once
  second.hear({ type: "ack", id: "ben-1", seq: 7, retry: true });
  assert.equal(conn.busy, false);
  assert.deepEqual(frames.map((f) => f.type), ["ack"]);
  mock.timers.tick(60_000); // acked: nothing is watched any more, only the heartbeat pings
  assert.equal(FakeSocket.all.length, 2);
});

test("a socket that keeps talking is kept while a command waits for its ack", () => {
  const conn = connected();
  conn.command({ type: "bid", bids: {} }, "ben-2");
  for (let s = 0; s < 12; s += 1) {
    mock.timers.tick(2000);
    FakeSocket.all[0].hear({ type: "view", seq: s }); // other players' moves come in
  }
  assert.equal(conn.lastDrop, null);
  assert.equal(FakeSocket.all.length, 1);
  FakeSocket.all[0].hear({ type: "ack", id: "ben-2", seq: 13 });
  assert.equal(conn.busy, false);
});

test("without a command waiting only the heartbeat gives a silent socket up (25 s)", () => {
  const conn = connected();
  mock.timers.tick(20_000);
  assert.equal(FakeSocket.all.length, 1);
  mock.timers.tick(10_000);
  assert.equal(conn.lastDrop, "silent");
});

test("the browser going offline gives the socket up at once; coming back online reconnects at once", () => {
  const statuses = [];
  const conn = new Connection({ path: "/t/1/ws/seat", onFrame: () => {}, onStatus: (s) => statuses.push(s) });
  conn.start();
  FakeSocket.all[0].open();
  fire("offline");
  assert.equal(conn.lastDrop, "offline");
  assert.equal(conn.status, "reconnecting");
  assert.equal(FakeSocket.all[0].readyState, 3, "the old socket is closed");
  // The backoff's first retry may come while still offline; the test stays before it.
  assert.equal(FakeSocket.all.length, 1);
  fire("online");
  assert.equal(FakeSocket.all.length, 2, "a new socket at once, not after the backoff");
  FakeSocket.all[1].open();
  assert.equal(conn.status, "open");
  assert.deepEqual(statuses, ["connecting", "open", "reconnecting", "open"]);
});

test("an offline event while the table is closed or the seat taken over changes nothing", () => {
  const conn = connected();
  conn.stop("taken_over");
  fire("offline");
  assert.equal(conn.status, "taken_over");
  assert.equal(FakeSocket.all.length, 1);
});
