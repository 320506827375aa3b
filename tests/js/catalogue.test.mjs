// The translation lookup (companion/web/static/js/catalogue.js) over the real catalogues.
import assert from "node:assert/strict";
import { test } from "node:test";

import { chooseLanguage, LANGUAGES, setLanguages, Words } from "../../companion/web/static/js/catalogue.js";
import { catalogue, languages } from "./load.mjs";

setLanguages(languages()); // the server's list, as base.html hands it to the pages

const english = catalogue("en");
const words = (lang) => new Words(lang, catalogue(lang), english);

test("a stored choice wins, then the browser's first supported language, then English", () => {
  assert.equal(chooseLanguage(["fr-FR", "de-AT", "nl"], null), "de");
  assert.equal(chooseLanguage(["fr-FR", "de-AT"], "it"), "it");
  assert.equal(chooseLanguage(["NL-be"], "xx"), "nl"); // an unknown stored value is ignored
  assert.equal(chooseLanguage(["fr", "es"], null), "en");
  assert.equal(chooseLanguage(undefined, undefined), "en");
});

test("placeholders are filled; a missing value leaves its placeholder", () => {
  const en = words("en");
  assert.equal(en.t("tie.figure", { a: "Ana", b: "Ben", value: 12 }), "Ana is ahead of Ben (both 12): Ana holds the Chocolatl figure.");
  assert.equal(en.t("tie.figure", { a: "Ana", b: "Ben" }), "Ana is ahead of Ben (both {value}): Ana holds the Chocolatl figure.");
  assert.equal(en.t("tie.figure", { a: "Ana", b: "Ben", value: 0 }).includes("(both 0)"), true);
  assert.notEqual(words("de").t("tie.figure", { a: "Ana", b: "Ben", value: 12 }), en.t("tie.figure", { a: "Ana", b: "Ben", value: 12 }));
});

test("a name that ends with a full stop ends the sentence once", () => {
  const en = words("en");
  assert.equal(en.t("pad.join_takeover", { name: "Anna B." }), "A game is running. You take over the free seat of Anna B.");
  assert.equal(en.t("pad.join_takeover", { name: "Anna" }), "A game is running. You take over the free seat of Anna.");
  // Only a stop right after the value: one inside the sentence stays.
  assert.equal(en.t("tie.figure", { a: "Anna B.", b: "Ben", value: 12 }), "Anna B. is ahead of Ben (both 12): Anna B. holds the Chocolatl figure.");
  for (const lang of LANGUAGES) assert.equal(words(lang).t("pad.join_takeover", { name: "Q." }).includes("Q.."), false, lang);
});

test("a key the language lacks falls back to English; an unknown key shows as itself", () => {
  const german = { ...catalogue("de") };
  delete german["stake.4"];
  const de = new Words("de", german, english);
  assert.equal(de.t("stake.4"), english["stake.4"]);
  const warned = [];
  const warn = console.warn;
  console.warn = (...args) => warned.push(args.join(" "));
  try {
    assert.equal(de.t("no.such.key"), "no.such.key");
  } finally {
    console.warn = warn;
  }
  assert.deepEqual(warned, ["missing translation no.such.key"]);
});

test("counted texts follow each language's plural rules", () => {
  for (const lang of LANGUAGES) {
    const w = words(lang);
    const strings = catalogue(lang);
    assert.equal(w.plural("ev.dice_used", 1, { name: "Ana" }), strings["ev.dice_used.one"].replace("{name}", "Ana").replace("{n}", "1"));
    assert.equal(w.plural("ev.dice_used", 2, { name: "Ana" }), strings["ev.dice_used.other"].replace("{name}", "Ana").replace("{n}", "2"));
    assert.equal(w.plural("ev.dice_used", 0, { name: "Ana" }), strings["ev.dice_used.other"].replace("{name}", "Ana").replace("{n}", "0"));
  }
  assert.equal(words("en").plural("ev.dice_used", "1", { name: "Ana" }), "Ana uses 1 black die.");
});

test("names are listed in the language's words", () => {
  assert.equal(words("en").list(["Ana", "Ben", "Cleo"]), "Ana, Ben and Cleo");
  assert.equal(words("de").list(["Ana", "Ben"]), "Ana und Ben");
  assert.equal(words("it").list(["Ana"]), "Ana");
  assert.equal(words("nl").list([]), "");
});
