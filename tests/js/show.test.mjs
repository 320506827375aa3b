// The board part-way through a step is the server's (companion/table/staging.py, one fold for
// every reader): the page puts the beat's view up as given and only animates between two
// given views. Before, show.js folded the step's events itself and disagreed with the engine
// (R6.4 a hut takes a cube, R5.4 a cube on a full pyramid uses none); tests/table/test_staging.py
// checks the fold against the engine.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

let reduced = true;
globalThis.window = { matchMedia: () => ({ matches: reduced }) };

const { Beat, patch, walk } = await import("../../companion/web/static/js/show.js");

const card = (extra = {}) => ({ score: 0, huts: 0, dice: 0, cubes_used: 0, final: null, ...extra });
// The view after the step: Ana built a hut (R6.4: a cube) at the city, then station 4 scored.
const after = {
  round: 2,
  station: 4,
  track: { 0: ["cleo"], 3: ["ben"], 6: ["ana"] },
  pyramid: [["ben", null, null]],
  players: { ana: card({ score: 6, huts: 1, cubes_used: 1 }), ben: card({ score: 3, dice: 1, cubes_used: 1 }), cleo: card() },
};
// What the server sends with it: the view before the step and at each beat, as differences.
const staged = {
  before: {
    station: 3,
    track: { 0: ["ana", "ben", "cleo"] },
    pyramid: [[null, null, null]],
    players: { ana: { score: 0, huts: 0, cubes_used: 0 }, ben: { score: 0, dice: 0, cubes_used: 0 } },
  },
  beats: [
    { station: 3, track: { 0: ["ben", "cleo"], 6: ["ana"] }, pyramid: [[null, null, null]], players: { ben: { score: 0, cubes_used: 0 } } },
    {},
  ],
};
const beats = [
  { kind: "decision", station: 3, player: "ana", seconds: 60, untold: 4 },
  { kind: "station", station: 4, seconds: 60, untold: 0 },
];
const events = [{}, {}, {}, {}, {}, {}, {}].map((_, i) => ({ type: `e${i}` }));

function at(elapsed, frameStaged = staged, reason = "command") {
  const beat = new Beat();
  const frame = { reason, events: reason === "command" ? events : [], game: { view: after, staged: frameStaged } };
  beat.update({ ...frame, show: { step: 7, beats, elapsed } });
  return beat;
}

test("the beat's view is the server's, put back on the frame's view", () => {
  const beat = at(0);
  const shown = beat.view(after);
  assert.deepEqual({ ...shown, walking: undefined }, { ...patch(after, staged.beats[0]), walking: undefined });
  assert.equal(shown.players.ana.cubes_used, 1); // the hut's cube, as the server staged it
  assert.equal(shown.players.ben.cubes_used, 0);
  assert.deepEqual(shown.track, { 0: ["ben", "cleo"], 6: ["ana"] });
  assert.equal(beat.untold(), 4); // the log stops short of the beat's `untold` last events
});

test("a page opened in the middle of a step keeps as much untold as one that watched it", () => {
  // A reload's hello frame carries no events of the step (its history ends with them): the
  // page once took that for "nothing untold" and its log named the winner under the final
  // lines still turning.
  assert.equal(at(0, staged, "hello").untold(), 4);
  assert.equal(at(61, staged, "hello").untold(), 0);
});

test("the view before the step is the server's too", () => {
  assert.deepEqual(at(0).before(after), patch(after, staged.before));
  assert.equal(at(0, null).before(after), null);
});

test("past the beats, or without staged views, the frame's view is shown", () => {
  assert.equal(at(500).view(after), after);
  assert.equal(at(0, null).view(after), after);
  assert.equal(at(500).untold(), 0);
});

test("markers walk box by box between two given views", () => {
  const from = { track: { 0: ["ana", "ben"] }, players: { ana: { score: 0 }, ben: { score: 0 } } };
  const to = { track: { 0: ["ben"], 5: ["ana"] }, players: { ana: { score: 5 }, ben: { score: 0 } } };
  const mid = walk(from, to, 0.25); // two boxes on
  assert.deepEqual(mid.track, { 0: ["ben"], 2: ["ana"] });
  assert.deepEqual(mid.walking, ["ana"]);
  assert.deepEqual(walk(from, to, 5).track, to.track);
  reduced = false;
  try {
    const shown = at(60.25).view(after); // station 4's beat, a quarter second in
    assert.equal(shown.players.ben.score, 2); // on its way from box 0 to box 3
    assert.deepEqual(shown.walking, ["ben"]);
    assert.equal(shown.players.ana.score, 6); // Ana scored at the city's beat: she stays
  } finally {
    reduced = true;
  }
});

test("show.js folds no event onto a view", () => {
  const source = readFileSync(new URL("../../companion/web/static/js/show.js", import.meta.url), "utf8");
  for (const kind of ["scored", "cube", "hut", "die", "figure", "old_man", "ranking"]) {
    assert.ok(!source.includes(`"${kind}"`), `show.js reads "${kind}" events`);
  }
  for (const gone of ["staged(", "hiddenTail(", "function move("]) assert.ok(!source.includes(gone), gone);
});
