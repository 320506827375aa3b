// What the table display keeps and decides (companion/web/static/js/displayview.js), fed the
// display's frames of a whole worked game as the server renders them (fixtures/).
import assert from "node:assert/strict";
import { test } from "node:test";

import { useCatalogues } from "../../companion/web/static/js/i18n.js";
import {
  boxPlace,
  connectionText,
  followTold,
  initials,
  initialTold,
  LOG_MAX,
  ledColour,
  pendingByType,
  roundStartLeaderBox,
} from "../../companion/web/static/js/displayview.js";
import { catalogue, gameFrames } from "./load.mjs";

const { display: frames } = gameFrames();
const english = catalogue("en");
useCatalogues("en", english, english);

function fold(list) {
  let told = initialTold();
  return list.map((f) => (told = followTold(told, f)));
}

test("a whole game: the log keeps the newest events, a new round keeps the last one's rankings", () => {
  const all = frames.flatMap((f) => f.events);
  assert.ok(all.length > LOG_MAX);
  const seen = fold(frames);
  assert.deepEqual(seen.at(-1).log, all.slice(-LOG_MAX));
  const round2 = frames.findIndex((f) => f.events.some((e) => e.type === "round_started" && e.round === 2));
  const told = seen[round2];
  assert.deepEqual(told.roundEvents.map((e) => e.type), ["round_started"]);
  assert.equal(told.previousRound[0].type, "round_started");
  assert.equal(told.previousRound.filter((e) => e.type === "ranking").length, 6);
  assert.equal(roundStartLeaderBox(told.roundEvents), frames[round2].events.at(-1).leader_box);
  assert.equal(roundStartLeaderBox([]), null);
  // The frame before round 2 starts keeps round 1 as this round, nothing before it.
  assert.deepEqual(seen[round2 - 1].previousRound, []);
});

test("a frame with history starts again from it (a reconnect, an undo)", () => {
  const seen = fold(frames.slice(0, 30));
  const history = frames.slice(27, 31).flatMap((f) => f.events).filter((e, i, a) => a.findIndex((x) => x.type === "round_started") <= i);
  const told = followTold(seen.at(-1), { history, events: [] });
  assert.deepEqual(told.roundEvents, history);
  assert.deepEqual(told.log, history);
  assert.deepEqual(told.previousRound, []);
});

test("a seat's line: companion, skipped, free, connected or not", () => {
  const s = frames[0].seats[0];
  assert.equal(connectionText(s), english["display.connected"]);
  assert.equal(connectionText({ ...s, connected: false }), english["display.not_connected"]);
  assert.equal(connectionText({ ...s, state: "vacant" }), english["display.vacant"]);
  assert.equal(connectionText({ ...s, state: "auto" }), english["display.auto"]);
  assert.equal(connectionText({ ...s, state: "bot", companion: true, level: "good" }), `${english["common.companion"]} · ${english["level.good"]}`);
});

test("host inputs and players awaited, by kind", () => {
  const by = pendingByType(frames[3].game.view);
  assert.deepEqual(Object.keys(by).sort(), ["harvest", "improvements"]);
  assert.deepEqual(Object.keys(pendingByType(frames[6].game.view)), ["bid"]);
  assert.deepEqual(pendingByType(null), {});
});

test("the LED track's boxes around the drawn board, numbers inside, corners diagonally", () => {
  assert.deepEqual(boxPlace(0, 15), { side: 0, row: 1, col: 1, labelRow: 2, labelCol: 2 });
  assert.deepEqual(boxPlace(5, 15), { side: 0, row: 1, col: 6, labelRow: 2, labelCol: 6 });
  assert.deepEqual(boxPlace(15, 15), { side: 1, row: 1, col: 16, labelRow: 2, labelCol: 15 });
  assert.deepEqual(boxPlace(30, 15), { side: 2, row: 16, col: 16, labelRow: 15, labelCol: 15 });
  assert.deepEqual(boxPlace(45, 15), { side: 3, row: 16, col: 1, labelRow: 15, labelCol: 2 });
  assert.deepEqual(boxPlace(50, 15), { side: 3, row: 11, col: 1, labelRow: 11, labelCol: 2 });
  // Every box of the four sides has its own cell.
  const cells = new Set(Array.from({ length: 60 }, (_, b) => `${boxPlace(b, 15).row}:${boxPlace(b, 15).col}`));
  assert.equal(cells.size, 60);
});

test("LED colours and a cube's initials", () => {
  assert.equal(ledColour([255, 0, 10]), "rgb(255, 0, 10)");
  assert.equal(ledColour("#E69F00"), "#E69F00");
  assert.equal(initials("Cleo"), "Cl");
  assert.equal(initials(""), "?");
});
