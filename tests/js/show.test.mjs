// The display's board part-way through a step (companion/web/static/js/show.js) must say what
// the engine says: R6.4 a hut takes a cube, R5.4 a cube on a full pyramid uses none, R3.2 dice
// rolled at a ranking are spent.
import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.window = { matchMedia: () => ({ matches: true }) }; // reduced motion: no walk

const { Beat } = await import("../../companion/web/static/js/show.js");

const player = (extra = {}) => ({ score: 0, huts: 0, dice: 0, cubes_used: 0, ...extra });
const before = (players) => ({
  round: 1,
  track: { 0: ["ana", "ben", "cleo"] },
  pyramid: [[null, null, null]],
  players,
});

/** The board as a screen shows it while the first of the step's beats is up. */
function firstBeat(previous, events, beats) {
  const beat = new Beat();
  beat.update({ reason: "command", events, show: { step: 7, beats, elapsed: 0 } }, previous);
  return beat.staged(previous);
}

test("a hut built at the city takes a cube (R6.4)", () => {
  const events = [
    { type: "city_choice", player: "ana", choice: "hut" },
    { type: "hut", player: "ana", huts: 1 },
    { type: "die", player: "ben", dice: 1 },
    { type: "revealed", station: 4 },
  ];
  const beats = [{ kind: "decision", station: 3, player: "ana", seconds: 60 }];
  const shown = firstBeat(before({ ana: player(), ben: player(), cleo: player() }), events, beats);
  assert.equal(shown.players.ana.huts, 1);
  assert.equal(shown.players.ana.cubes_used, 1);
});

test("a cube that finds the pyramid full uses none (R5.4)", () => {
  const events = [
    { type: "ranking", station: 4, entries: [], ties: [] },
    { type: "cube", player: "ben", row: null, cell: null },
    { type: "revealed", station: 5 },
    { type: "ranking", station: 5, entries: [], ties: [] },
  ];
  const beats = [
    { kind: "station", station: 4, seconds: 60 },
    { kind: "station", station: 5, seconds: 60 },
  ];
  const shown = firstBeat(before({ ana: player(), ben: player(), cleo: player() }), events, beats);
  assert.equal(shown.players.ben.cubes_used, 0);
});

test("dice rolled at a ranking are spent once (R3.2)", () => {
  const events = [
    { type: "ranking", station: 5, entries: [{ player: "cleo", dice: [4, 2], place: 1 }], ties: [] },
    { type: "revealed", station: 6 },
    { type: "ranking", station: 6, entries: [], ties: [] },
  ];
  const beats = [
    { kind: "station", station: 5, seconds: 60 },
    { kind: "station", station: 6, seconds: 60 },
  ];
  const shown = firstBeat(before({ ana: player(), ben: player(), cleo: player({ dice: 3 }) }), events, beats);
  assert.equal(shown.players.cleo.dice, 1);
});
