// The texts built from game data (companion/web/static/js/texts.js), fed the events and views
// of a whole worked game as the server renders them (fixtures/, frames_fixture.py), in every
// language of the real catalogues.
import assert from "node:assert/strict";
import { test } from "node:test";

import { LANGUAGES, setLanguages } from "../../companion/web/static/js/catalogue.js";
import { useCatalogues } from "../../companion/web/static/js/i18n.js";
import {
  eventText,
  nameOf,
  oneDecimal,
  rankingTies,
  seat,
  setScreenColours,
  setSeats,
  signed,
  stakeText,
  tieText,
} from "../../companion/web/static/js/texts.js";
import { catalogue, gameFrames, languages } from "./load.mjs";

setLanguages(languages()); // the server's list, as base.html hands it to the pages

const { display } = gameFrames();
const english = catalogue("en");
const speak = (lang) => useCatalogues(lang, catalogue(lang), english);

/** Every event of the game with the view of the frame it came in. */
function allEvents() {
  return display.flatMap((f) => f.events.map((ev) => ({ ev, view: f.game.view })));
}

test("every event of a whole game is worded in every language, with no key or placeholder left", () => {
  setSeats(display[0].seats);
  const warned = [];
  const warn = console.warn;
  console.warn = (...args) => warned.push(args.join(" "));
  try {
    for (const lang of LANGUAGES) {
      speak(lang);
      for (const { ev, view } of allEvents()) {
        const text = eventText(ev, view);
        assert.ok(text && !/\{\w+\}/.test(text), `${lang} ${ev.type}: ${text}`);
        assert.ok(!text.includes("ev."), `${lang} ${ev.type}: ${text}`);
        assert.ok(!/\bana\b|\bben\b|\bcleo\b/.test(text), `${lang} ${ev.type} names a seat by id: ${text}`);
      }
    }
  } finally {
    console.warn = warn;
  }
  assert.deepEqual(warned, []);
  const types = new Set(allEvents().map(({ ev }) => ev.type));
  for (const type of ["ranking", "scored", "revealed", "pyramid_order", "final_scoring", "game_over"]) assert.ok(types.has(type), type);
});

test("English sentences of the game's events", () => {
  speak("en");
  setSeats(display[0].seats);
  const first = (type) => allEvents().find(({ ev }) => ev.type === type);
  const ranking = first("ranking");
  assert.equal(eventText(ranking.ev, ranking.view, { short: true }), "Station 1: 1. Ben 13, 2. Ana 12, 3. Cleo 3.");
  const revealed = first("revealed");
  assert.equal(eventText(revealed.ev, revealed.view), `Station 1 (${english["station.1"]}) revealed: Ana 12+0, Ben 11+2, Cleo 1+2.`);
  const over = first("game_over");
  assert.match(eventText(over.ev, over.view), /Ana/);
  // A secret stays one: the display's bid event names who bid, never what.
  const bid = first("bid_placed");
  assert.equal(eventText(bid.ev, bid.view), english["ev.bid"].replace("{name}", "Ana"));
});

test("a ranking's ties are told with the tied total looked up from its entries (R3.4)", () => {
  speak("en");
  setSeats(display[0].seats);
  const ev = {
    type: "ranking",
    station: 2,
    entries: [
      { player: "ana", place: 1, total: 9 },
      { player: "ben", place: 2, total: 9 },
    ],
    ties: [{ players: ["ana", "ben"], rule: "figure" }],
  };
  assert.deepEqual(rankingTies(ev), ["Ana is ahead of Ben (both 9): Ana holds the Chocolatl figure."]);
  // An unknown rule is worded as the stack's (R3.4's last rule), a missing value plainly.
  assert.equal(tieText({ players: ["ana", "ben"], rule: "nonsense" }), english["tie.stack_plain"].replaceAll("{a}", "Ana").replaceAll("{b}", "Ben"));
});

test("what each station gives this round comes from the view's profile (R5)", () => {
  speak("en");
  const view = display.find((f) => f.game.view.harvest && f.game.view.improvements).game.view;
  assert.equal(stakeText(2, view), "Harvest dice: 5, 4 and 2 points for 1st, 2nd and 3rd");
  assert.equal(stakeText(6, view), english["stake.6"].replace("{high}", "14").replace("{low}", "11"));
  assert.equal(stakeText(2, { ...view, harvest: null }), english["stake.2.unknown"]);
  assert.equal(stakeText(9, view), "");
});

test("seats: names and screen colours from the frame, an unknown id shown as itself", () => {
  setScreenColours({ orange: "#ff8800" });
  setSeats(display[0].seats);
  assert.equal(seat("ana").hex, "#ff8800");
  assert.equal(seat("ben").hex, "#56B4E9"); // no screen colour given: the frame's
  assert.equal(nameOf("cleo"), "Cleo");
  assert.deepEqual(seat("zed"), { id: "zed", name: "zed", colour: "", hex: "#888888" });
  speak("de");
  assert.equal(nameOf(null), catalogue("de")["common.nobody"]);
  setScreenColours({});
});

test("signed numbers use a real minus sign", () => {
  assert.deepEqual([signed(3), signed(0), signed(-2)], ["+3", "0", "−2"]);
});

test("one decimal takes halves up on every page, where toFixed alone would not", () => {
  // 0.35 is stored a hair under 0.35, yet 0.35 * 10 is 3.5: the phone and the story read the
  // same loss alike only through one function.
  assert.equal((0.35).toFixed(1), "0.3");
  assert.equal(oneDecimal(0.35), "0.4");
  assert.equal(oneDecimal(0.45), "0.5"); // Python's round(4.5) would give 4
  assert.equal(oneDecimal(9.04), "9.0");
  assert.equal(oneDecimal(0), "0.0");
  assert.equal(oneDecimal(12), "12.0");
});
