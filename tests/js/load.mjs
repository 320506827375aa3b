// Shared by the JS unit tests: the real catalogues (companion/web/i18n/) and the real frames
// (fixtures/, rendered by the server's frame renderer: frames_fixture.py).
import { readdirSync, readFileSync } from "node:fs";

const root = new URL("../../", import.meta.url);

/** A catalogue file as the server serves it. */
export function catalogue(lang) {
  return JSON.parse(readFileSync(new URL(`companion/web/i18n/${lang}.json`, root), "utf8"));
}

/** The languages the server speaks: one catalogue file each (companion/web/i18n/), English
 * first, as base.html hands them to the pages. */
export function languages() {
  const codes = readdirSync(new URL("companion/web/i18n/", root))
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5));
  return ["en", ...codes.filter((c) => c !== "en").sort()];
}

/** The worked game's frames: {seat: [...Ana's phone], display: [...]}. */
export function gameFrames() {
  return JSON.parse(readFileSync(new URL("tests/js/fixtures/gold_two_rounds.frames.json", root), "utf8"));
}
