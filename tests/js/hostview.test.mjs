// What the host page keeps and words (companion/web/static/js/hostview.js), fed the public
// frames of a whole worked game as the server renders them (fixtures/; the host gets the
// display's events).
import assert from "node:assert/strict";
import { test } from "node:test";

import { useCatalogues } from "../../companion/web/static/js/i18n.js";
import { deckRange, followLog, HOST_LOG_MAX, initialLog, undoText, undoWhat, waitingText } from "../../companion/web/static/js/hostview.js";
import { setSeats } from "../../companion/web/static/js/texts.js";
import { catalogue, gameFrames } from "./load.mjs";

const { display: frames } = gameFrames();
const english = catalogue("en");
useCatalogues("en", english, english);
setSeats(frames[0].seats);

test("the log numbers every event from the game's start, keeping the newest", () => {
  let log = initialLog();
  for (const f of frames) log = followLog(log, f);
  const all = frames.flatMap((f) => f.events);
  assert.ok(all.length > HOST_LOG_MAX);
  assert.deepEqual(log.events, all.slice(-HOST_LOG_MAX));
  assert.equal(log.base, all.length - HOST_LOG_MAX); // the newest is number all.length
  // A frame with history (a reconnect, an undo) replaces the log, numbered on from the
  // game's events before it: a host page reloaded in round 3 does not count from 1 again.
  const again = followLog(log, { history: all.slice(0, 3), events: all.slice(3, 5) });
  assert.deepEqual(again, { events: all.slice(0, 5), base: 0 });
  const reloaded = followLog(initialLog(), { history: all.slice(20, 30), history_from: 20, events: [] });
  assert.deepEqual(reloaded, { events: all.slice(20, 30), base: 20 }); // its first line is 21.
  const long = followLog(initialLog(), { history: all.slice(5, 5 + HOST_LOG_MAX + 2), history_from: 5 });
  assert.equal(long.base, 5 + 2);
  assert.deepEqual(long.events, all.slice(7, 7 + HOST_LOG_MAX));
});

test("who the table waits for: names, a phone not connected, the host's inputs", () => {
  const view = frames[6].game.view; // Ben and Cleo still bid
  assert.equal(waitingText(view, [{ seat: "ben", connected: false }, { seat: "cleo", connected: true }]), "Ben (phone not connected), Cleo");
  assert.equal(waitingText(view, [{ seat: "ben", connected: false, companion: true }]), "Ben, Cleo");
  assert.equal(waitingText(frames[3].game.view, []), `${english["need.harvest"]}, ${english["need.improvements"]}`);
  const roll = frames.find((f) => (f.game.view.pending || []).some((p) => p.type === "roll")).game.view;
  assert.match(waitingText(roll, []), /black dice roll/);
  assert.equal(waitingText({ pending: [] }, []), "—");
});

test("the undo check in words (undo.undo_check's key and params)", () => {
  const revealed = { possible: false, key: "undo.revealed", params: { command: "bid", player: "ana", what: ["ranked", "scored"] } };
  assert.equal(undoText(revealed), "the last move (Ana's bid) already showed or scored something: a station was ranked, points were scored");
  assert.equal(undoWhat(revealed), "Ana's bid");
  assert.equal(undoText({ possible: false, reason: "old server" }), "old server");
  assert.equal(undoWhat({ possible: false, key: "undo.nothing", params: {} }), "");
  assert.equal(undoText(null), "");
});

test("the improvement decks' range from the profile (R1.5)", () => {
  assert.equal(deckRange(frames[0].game.view.profile), "10–15");
  assert.equal(deckRange(null), "");
});
