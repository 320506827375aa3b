// The show's beats on a screen's own clock (show.js `Beat`): the server says how far into a
// step the show is (`show.elapsed`) with every frame; the page counts on from there. Here the
// page's clock is a test clock (performance.now stubbed), so the seconds are exact: a beat is
// up for its whole length, a later frame re-bases the count without skipping a beat, a paused
// replay stays put. (That the server holds each step for its beats: tests/table/test_stage_holds.py.)
import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.window = { matchMedia: () => ({ matches: true }) };
let now = 0; // milliseconds on the page's clock
globalThis.performance = { now: () => now };

const { Beat } = await import("../../companion/web/static/js/show.js");

const beats = [
  { kind: "station", station: 1, seconds: 3 },
  { kind: "station", station: 2, seconds: 3 },
  { kind: "station", station: 3, seconds: 3 },
];
const frame = (elapsed, extra = {}) => ({ reason: "command", events: [], game: { view: {} }, show: { step: 4, beats, elapsed, ...extra } });

/** The beat up at each tenth of a second from now for `seconds`: [index, ...]. */
function walkClock(beat, seconds) {
  const seen = [];
  for (let i = 0; i < seconds * 10; i += 1) {
    seen.push(beat.current().index);
    now += 100;
  }
  return seen;
}

test("each beat is up for its whole length, then the step is read", () => {
  now = 5000;
  const beat = new Beat();
  assert.equal(beat.update(frame(0)), true); // a new step
  const seen = walkClock(beat, 10);
  for (const index of [0, 1, 2]) assert.equal(seen.filter((x) => x === index).length, 30, `beat ${index}`);
  assert.deepEqual(seen.slice(90), Array(10).fill(-1));
  assert.equal(beat.left(), 0);
});

test("a screen that comes in mid-step starts where the server's show is", () => {
  now = 0;
  const beat = new Beat();
  beat.update(frame(4.5));
  assert.deepEqual(beat.current(), { index: 1, into: 1.5, left: 1.5 });
  assert.equal(beat.left(), 4.5);
});

test("a later frame of the same step re-bases the count and skips no beat", () => {
  now = 0;
  const beat = new Beat();
  beat.update(frame(0));
  now = 2000;
  // The frame left the server when the show was 2.2 s in (its way took 0.2 s less than the
  // first frame's): the page counts from 2.2 s, still beat 0, and beat 1 gets its 3 s.
  assert.equal(beat.update(frame(2.2)), false);
  assert.equal(beat.current().index, 0);
  const seen = walkClock(beat, 7);
  assert.equal(seen.filter((x) => x === 0).length, 8);
  assert.equal(seen.filter((x) => x === 1).length, 30);
  assert.equal(seen.filter((x) => x === 2).length, 30);
});

test("a paused replay holds its beat however long the page waits", () => {
  now = 0;
  const beat = new Beat();
  beat.update(frame(3.5, { paused: true }));
  now = 60_000;
  assert.deepEqual(beat.current(), { index: 1, into: 0.5, left: 2.5 });
  beat.update(frame(3.5)); // play again: counts on from there
  now += 2600;
  assert.equal(beat.current().index, 2);
});

test("a frame without a show ends the step on the screen", () => {
  now = 0;
  const beat = new Beat();
  beat.update(frame(1));
  beat.update({ reason: "command", events: [], game: { view: {} } });
  assert.equal(beat.active(), false);
  assert.equal(beat.current().index, -1);
});
