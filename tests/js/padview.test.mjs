// What the bid pad shows (companion/web/static/js/padview.js with padstate.js), fed Ana's
// frames of a whole worked game as the server renders them (fixtures/, frames_fixture.py).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { useCatalogues } from "../../companion/web/static/js/i18n.js";
import { asks, initial, reduce } from "../../companion/web/static/js/padstate.js";
import {
  bidsFromDraft,
  clearSlot,
  companionMoveLines,
  diceOutlook,
  draftFits,
  draftIndices,
  followNews,
  freeCards,
  initialNews,
  newDraft,
  placeCard,
  placeOf,
  roundAsTold,
  screenOf,
  stepTitle,
  taskOf,
  undoneText,
  waitingFor,
} from "../../companion/web/static/js/padview.js";
import { setSeats, stationLabel } from "../../companion/web/static/js/texts.js";
import { catalogue, gameFrames } from "./load.mjs";

const { seat: frames } = gameFrames();
const commands = JSON.parse(readFileSync(new URL("../scenarios/gold_two_rounds.json", import.meta.url), "utf8")).commands;
const english = catalogue("en");
useCatalogues("en", english, english);
setSeats(frames[0].seats);

/** Fold the frames as pad.js does: what it asks, its news, its screen and task after each. */
function play(list) {
  let asking = initial();
  let news = initialNews();
  let before = null;
  const seen = [];
  for (const f of list) {
    asking = reduce(asking, f);
    news = followNews(news, f, before);
    before = f;
    seen.push({ screen: screenOf(f, f.game?.view ?? null), task: taskOf(asks(asking), f, "ana"), news });
  }
  return seen;
}

test("through a whole game the pad asks Ana exactly what she answers next, and nothing else", () => {
  const seen = play(frames);
  let asked = 0;
  frames.forEach((f, i) => {
    const next = commands[i];
    if (next?.player === "ana") {
      assert.equal(seen[i].task, next.type, `frame ${i}`);
      asked += 1;
    }
    if (!(f.you.pending || []).length) assert.equal(seen[i].task, "none", `frame ${i}`);
  });
  assert.equal(asked, commands.filter((c) => c.player === "ana").length);
  assert.ok(asked >= 14);
  // The game screen throughout, the final scoring once the view is finished.
  assert.deepEqual([...new Set(seen.slice(0, -1).map((s) => s.screen))], ["game"]);
  assert.equal(seen.at(-1).screen, "final");
  assert.equal(screenOf({ ...frames[0], game: null }, null), "lobby");
  assert.equal(screenOf({ ...frames[5], game: { ...frames[5].game, status: "ended" } }, frames[5].game.view), "final");
});

test("a seat the companion plays shows that, whatever is asked", () => {
  const f = frames[5];
  const skipped = { ...f, seats: f.seats.map((s) => (s.id === "ana" ? { ...s, companion: true, state: "auto" } : s)) };
  assert.equal(taskOf(["bid"], skipped, "ana"), "auto");
  assert.equal(taskOf(["bid"], f, "ana"), "bid");
});

test("the round as told starts again with each round and with a frame's history", () => {
  const seen = play(frames);
  const round2 = frames.findIndex((f) => f.events.some((e) => e.type === "round_started" && e.round === 2));
  assert.ok(round2 > 0);
  const now = roundAsTold(seen[round2].news.events, 0);
  assert.equal(now[0].type, "round_started");
  assert.ok(now.every((e) => e.type !== "ranking"));
  // Round 1's events are all there just before: every ranking of round 1 but the last.
  const before = roundAsTold(seen[round2 - 1].news.events, 0);
  assert.equal(before.filter((e) => e.type === "ranking").length, 5);
  assert.equal(before[0].type, "round_started");
  // The news keeps round 1 while round 2 starts: a step that ends round 1 and starts round 2
  // shows round 1's last station until its summary is up (the rest not told yet).
  const split = frames[round2].events.findIndex((e) => e.type === "round_started");
  const untold = frames[round2].events.length - split;
  const held = roundAsTold(seen[round2].news.events, untold);
  assert.equal(held[0].type, "round_started");
  assert.equal(held[0].round, 1);
  assert.ok(!held.some((e) => e.type === "round_started" && e.round === 2));
  // A reconnect's hello frame replaces the events by its history.
  const hello = { ...frames[30], reason: "hello", history: [{ type: "round_started", round: 2 }] };
  const news = followNews(seen[29].news, hello, frames[29]);
  assert.deepEqual(news.events.map((e) => e.type), ["round_started", ...frames[30].events.map((e) => e.type)]);
});

test("the host's undo of Ana's bid is told until she bids again (PROTOCOL.md 3.4)", () => {
  const undone = { ...frames[5], notice: { kind: "undone", type: "bid", stations: ["1"] } };
  let news = followNews(initialNews(), undone, frames[4]);
  assert.equal(undoneText(news.notice), english["pad.notice.undone.bid_one"].replace("{station}", stationLabel(1)));
  news = followNews(news, { ...frames[5], seq: 6 }, undone); // another frame, still asking
  assert.ok(news.notice);
  news = followNews(news, frames[6], frames[5]); // her bid is in: nothing pending
  assert.equal(news.notice, null);
  assert.equal(undoneText({ kind: "undone", type: "bid", stations: ["1", "2"] }), english["pad.notice.undone.bid_all"]);
  assert.equal(undoneText({ kind: "resumed" }), null);
});

test("'your seat is back' lasts until what the phone is asked changes", () => {
  const back = { ...frames[5], notice: { kind: "resumed" } };
  let news = followNews(initialNews(), back, frames[4]);
  assert.deepEqual(news.seatBack, { pending: '["bid"]', game: 1 });
  news = followNews(news, { ...frames[5], notice: undefined }, back);
  assert.ok(news.seatBack);
  news = followNews(news, frames[6], frames[5]);
  assert.equal(news.seatBack, null);
});

test("a bid is built card by card from the free cards, by deck position (R2.4, R5.6)", () => {
  const view = frames[8].game.view; // station 2 of round 1: Ana used 12 and 0 at station 1
  const free = freeCards(view, "ana");
  assert.equal(free.length, view.players.ana.deck.length);
  assert.deepEqual(free.filter((c) => c === null).length, view.players.ana.used.length);
  let draft = newDraft("1:1:2", view);
  assert.deepEqual(draft.slots.map((s) => [s.station, s.index, s.card]), [[2, 0, null], [2, 1, null]]);
  const [a, b] = free.map((c, i) => [c, i]).filter(([c]) => c !== null);
  draft = placeCard(draft, a[1], a[0]);
  assert.equal(placeCard(draft, a[1], a[0]), draft); // the same card twice: refused
  draft = placeCard(draft, b[1], b[0]);
  assert.equal(draft.active, null);
  assert.deepEqual(bidsFromDraft(draft), { 2: [a[0], b[0]] });
  assert.deepEqual([...draftIndices(draft)], [a[1], b[1]]);
  assert.ok(draftFits(draft, view, "ana"));
  // A saved draft that holds a card used since no longer fits.
  const used = free.findIndex((c) => c === null);
  assert.equal(draftFits({ ...draft, slots: [{ ...draft.slots[0], card: view.players.ana.deck[used], idx: used }] }, view, "ana"), false);
  draft = clearSlot(draft, 0);
  assert.deepEqual([draft.active, draft.slots[0].card, draft.slots[1].card], [0, null, b[0]]);
});

test("two copies of a value: one used marks exactly one (R5.6)", () => {
  const view = { players: { ana: { deck: [11, 4, 11], used: [11] } } };
  assert.deepEqual(freeCards(view, "ana"), [null, 4, 11]);
});

test("the final place: total, then the sacrifice, equal on both shared (R7)", () => {
  const view = frames.at(-1).game.view;
  const lines = Object.fromEntries(view.seats.map((p) => [p, view.players[p].final]));
  assert.equal(placeOf(view.winners[0], view.seats, lines), 1);
  const tied = { a: { total: 20, sacrifice: 5 }, b: { total: 20, sacrifice: 7 }, c: { total: 20, sacrifice: 5 } };
  assert.deepEqual(["a", "b", "c"].map((p) => placeOf(p, ["a", "b", "c"], tied)), [2, 1, 2]);
  assert.equal(placeOf("x", ["a"], tied), null);
});

test("the dice outlook: where Ana stands and what dice could do (R3.2, R3.3)", () => {
  const view = {
    dice_window: {
      station: 2,
      bids: { ana: { cards: [7, 8], huts: 0, old_man: -1, base: 14, dice: 2, place: 3, best: { 1: 2, 2: 1 }, worst: 3 } },
    },
  };
  assert.deepEqual(diceOutlook(view, "ana"), [
    english["pad.dice_now"].replace("{place}", english["place.3"]),
    english["pad.dice_lift_one"].replace("{place}", english["place.2"]),
    english["pad.dice_lift"].replace("{n}", "2").replace("{place}", english["place.1"]),
  ]);
  assert.equal(diceOutlook(view, "ben"), null);
});

test("what a companion player did for the seat, and who the table waits for", () => {
  assert.deepEqual(companionMoveLines([{ type: "bid", bids: { 2: [7, 5] } }, { type: "dice", count: 1, station: 4 }]), [
    english["pad.companion.bid"].replace("{cards}", "7+5").replace("{station}", stationLabel(2)),
    english["pad.companion.dice.one"].replace("{n}", "1").replace("{station}", stationLabel(4)),
  ]);
  const waiting = waitingFor(frames[6].game.view);
  assert.equal(waiting.players, english["pad.waiting_for"].replace("{names}", "Ben and Cleo"));
  assert.equal(waiting.host, null);
  assert.equal(waiting.mine, false);
  // On Ben's own phone the table waits for Cleo by name and for Ben as "you" (not named).
  const onBens = waitingFor(frames[6].game.view, "ben");
  assert.equal(onBens.players, english["pad.waiting_for"].replace("{names}", "Cleo"));
  assert.equal(onBens.mine, true);
  assert.equal(waitingFor(frames[6].game.view, "ana").mine, false);
  assert.equal(waitingFor(frames[3].game.view).host, `${english["wait.harvest"]} · ${english["wait.improvements"]}`);
  assert.equal(stepTitle(frames[5].game.view), english["pad.bid_title.station"].replace("{n}", "1"));
});
