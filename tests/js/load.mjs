// Shared by the JS unit tests: the real catalogues (companion/web/i18n/) and the real frames
// (fixtures/, rendered by the server's frame renderer: frames_fixture.py).
import { readFileSync } from "node:fs";

const root = new URL("../../", import.meta.url);

/** A catalogue file as the server serves it. */
export function catalogue(lang) {
  return JSON.parse(readFileSync(new URL(`companion/web/i18n/${lang}.json`, root), "utf8"));
}

/** The worked game's frames: {seat: [...Ana's phone], display: [...]}. */
export function gameFrames() {
  return JSON.parse(readFileSync(new URL("tests/js/fixtures/gold_two_rounds.frames.json", root), "utf8"));
}
