// The pad's decision of what to ask (companion/web/static/js/padstate.js), fed frame sequences
// shaped as the server sends them (PROTOCOL.md 3.4: acks and views count one sequence).
import assert from "node:assert/strict";
import { test } from "node:test";

import { asks, initial, reduce, report } from "../../companion/web/static/js/padstate.js";

const view = (seq, pending, extra = {}) => ({
  type: "view",
  seq,
  reason: "command",
  game: { id: 1, status: "playing" },
  you: { seat: "ana", pending: pending.map((type) => ({ type, player: "ana" })) },
  ...extra,
});

/** Fold `messages` and return the kinds asked after each one. */
function run(messages) {
  let state = initial();
  const seen = [];
  for (const m of messages) {
    state = reduce(state, m);
    seen.push(asks(state));
  }
  return { state, seen };
}

test("an answered question is not offered again by a view older than its ack", () => {
  const { seen } = run([
    view(12, ["dice"]),
    { type: "sent", id: "c1", kind: "dice" },
    { type: "ack", id: "c1", seq: 13 },
    view(12, ["dice"], { reason: "seats" }), // another phone connected: still the old step
    view(13, []),
  ]);
  assert.deepEqual(seen, [["dice"], ["dice"], [], [], []]);
});

test("the next question of the same kind is asked in the view that shows the answer", () => {
  // Her dice at station 2 answered; the same command opened station 3's window for her.
  const { seen } = run([view(12, ["dice"]), { type: "sent", id: "c1", kind: "dice" }, { type: "ack", id: "c1", seq: 13 }, view(13, ["dice"])]);
  assert.deepEqual(seen.at(-1), ["dice"]);
});

test("an undo between an ack and its view never freezes the pad", () => {
  // The host takes back another seat's sacrifice: the game has 4 commands again, the undo's
  // view (with history) comes, then our next answer is acked at place 5 and shown at 5.
  const { seen, state } = run([
    view(4, ["sacrifice"]),
    { type: "sent", id: "c1", kind: "sacrifice" },
    { type: "ack", id: "c1", seq: 5 },
    view(4, ["sacrifice"], { reason: "undo", history: [] }),
    { type: "sent", id: "c2", kind: "sacrifice" },
    { type: "ack", id: "c2", seq: 5 },
    view(5, []),
    view(6, ["bid"]),
    { type: "sent", id: "c3", kind: "bid" },
    { type: "ack", id: "c3", seq: 7 },
    view(7, ["dice"]),
    { type: "sent", id: "c4", kind: "dice" },
    { type: "ack", id: "c4", seq: 8 },
    view(8, ["dice"]), // the next station's window: asked at once
  ]);
  assert.deepEqual(seen[3], ["sacrifice"], "the undone move is asked again");
  assert.deepEqual(seen.at(-1), ["dice"]);
  assert.equal(state.answered, null);
});

test("a view with a whole history, or of another game, ends the guard", () => {
  const base = [view(12, ["dice"]), { type: "sent", id: "c1", kind: "dice" }, { type: "ack", id: "c1", seq: 13 }];
  assert.deepEqual(run([...base, view(12, ["dice"], { reason: "resend", history: [] })]).seen.at(-1), ["dice"]);
  assert.deepEqual(run([...base, view(0, ["sacrifice"], { game: { id: 2, status: "playing" } })]).seen.at(-1), ["sacrifice"]);
});

test("a question in flight stays shown; a refusal gives it back", () => {
  const { seen } = run([
    view(3, ["bid"]),
    { type: "sent", id: "c1", kind: "bid" },
    { type: "error", id: "c1", code: "illegal" },
    { type: "ack", id: "c1", seq: 4 }, // a late ack of a refused id changes nothing
  ]);
  assert.deepEqual(seen, [["bid"], ["bid"], ["bid"], ["bid"]]);
});

test("the show's beats hold every question; the report says so", () => {
  const state = reduce(initial(), view(9, ["city"]));
  assert.deepEqual(asks(state, true), []);
  assert.deepEqual(report(state, asks(state, true), true), { type: "showing", seq: 9, asks: [], held: true });
  assert.deepEqual(report(state, asks(state), false), { type: "showing", seq: 9, asks: ["city"], held: false });
});

test("liveness: whenever the last view awaits the seat and nothing is in flight, it is asked", () => {
  // Random sequences in the server's order (ack, then the view of the same number); after
  // each such pair the pad must ask whatever the view lists.
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let game = 0; game < 200; game++) {
    let state = reduce(initial(), view(0, ["sacrifice"]));
    let seq = 0;
    for (let step = 0; step < 40; step++) {
      const kind = state.frame.you.pending[0]?.type;
      if (kind && rand() < 0.6) {
        state = reduce(state, { type: "sent", id: `c${step}`, kind });
        state = reduce(state, { type: "ack", id: `c${step}`, seq: seq + 1 });
        if (rand() < 0.3) state = reduce(state, view(seq, [kind], { reason: "seats" }));
        seq += 1;
      } else if (rand() < 0.2 && seq > 0) {
        seq -= 1; // the host's undo
        state = reduce(state, view(seq, [kind || "bid"], { reason: "undo", history: [] }));
        continue;
      } else seq += 1; // somebody else's move
      const next = ["bid", "dice", "city", "pyramid", "sacrifice", null][Math.floor(rand() * 6)];
      state = reduce(state, view(seq, next ? [next] : []));
      assert.deepEqual(asks(state), next ? [next] : [], `game ${game} step ${step}`);
    }
  }
});

test("a recorded live sequence with undos: the pad asks what the latest view awaits", async () => {
  // tests/js/record_live.py: Ana's socket on a live server while the host takes back other
  // seats' moves as her answers are in flight (an undo's view between her command and its
  // ack among them). Whenever a view is the newest thing the pad got and it shows everything
  // Ana sent (its number at least her last ack's), her pending questions are asked.
  const { readFile } = await import("node:fs/promises");
  const url = new URL("./fixtures/live_undos.json", import.meta.url);
  const messages = JSON.parse(await readFile(url, "utf-8"));
  assert.ok(messages.some((m) => m.reason === "undo"), "the recording has an undo");
  assert.ok(messages.some((m) => m.type === "sent"), "the recording has Ana's answers");
  let state = initial();
  let acked = 0;
  let checked = 0;
  for (const [i, m] of messages.entries()) {
    state = reduce(state, m);
    if (m.type === "ack") acked = m.seq;
    if (m.type !== "view" || state.sending) continue;
    if (m.seq < acked && !m.history) continue; // her move's view is still on its way
    const pending = [...new Set((m.you?.pending || []).map((p) => p.type))];
    assert.deepEqual(asks(state), pending, `message ${i}: ${JSON.stringify(m)}`);
    checked += 1;
  }
  assert.ok(checked >= 5, `only ${checked} views checked`);
  // The view that shows her last answer came (an ack one ahead of its view, as before the
  // one sequence, would leave every later view unchecked and her pad waiting).
  const last = messages.filter((m) => m.type === "view").at(-1);
  assert.ok(last.seq >= acked, `last view ${last.seq}, last ack ${acked}`);
});
