// Elements built from game data: a player's chip, the final table, dice. The texts they hold
// come from texts.js (pure, re-exported here so the pages import both from one place).

import { h } from "./dom.js";
import { pageList, t } from "./i18n.js";
import { FINAL_LINES, seat, setFinalLines, setScreenColours, signed } from "./texts.js";

export * from "./texts.js";

/** Player colours as screens show them (companion/engine/colours.py SCREEN_COLOURS, handed over
 * by base.html); frames carry the LED values. */
setScreenColours(
  (() => {
    try {
      return JSON.parse(/** @type {HTMLMetaElement | null} */ (document.querySelector('meta[name="screen-colours"]'))?.content || "{}");
    } catch {
      return {};
    }
  })(),
);

/** The final-scoring lines in the engine's order (companion/engine/scoring.py LINES, R7, handed
 * over by base.html): the server's one list, never a copy. */
setFinalLines(pageList("final-lines"));

/** A player's name with their colour swatch: colour is never the only cue. */
export function chip(id, extra = {}) {
  const s = seat(id);
  return h(
    "span",
    { class: `chip ${extra.class || ""}`.trim(), dataset: { player: id } },
    h("span", { class: "swatch", style: { background: s.hex }, "aria-hidden": "true" }),
    h("span", { class: "chip-name" }, s.name),
    // Companion players are marked wherever a player's name appears.
    s.companion ? h("span", { class: "companion-mark", title: `${t("common.companion")} · ${t(`level.${s.level}`)}`, "aria-label": t("common.companion") }, "⚙") : null,
  );
}

/** Final scoring (R7) as a table: one row per line, one column per player, totals, winners. */
export function finalTable(order, linesByPlayer, winners = []) {
  const head = h(
    "tr",
    {},
    h("td", {}), // the corner: no header of its own
    order.map((p) =>
      h("th", { scope: "col", class: winners.includes(p) ? "winner" : "" }, chip(p)),
    ),
  );
  const rows = FINAL_LINES.map((line) =>
    h(
      "tr",
      { dataset: { line } },
      h("th", { scope: "row" }, t(`final.${line}`)),
      order.map((p) => {
        const v = linesByPlayer[p]?.[line];
        // A line not turned over yet (R7, one player at a time) is a blank face, not a word.
        if (v === null || v === undefined) return h("td", { class: "face-down", title: t("final.face_down"), "aria-label": t("final.face_down") }, "·");
        return h("td", {}, signed(v));
      }),
    ),
  );
  const total = h(
    "tr",
    { class: "total", dataset: { line: "total" } },
    h("th", { scope: "row" }, t("final.total")),
    order.map((p) =>
      h("td", { class: winners.includes(p) ? "winner" : "" }, String(linesByPlayer[p]?.total ?? "")),
    ),
  );
  return h("table", { class: "final-table" }, h("thead", {}, head), h("tbody", {}, rows, total));
}

/** One player's final scoring (R7) as a card: name and total, then every line. Where a table
 * of players side by side does not fit (a phone's final screen, the display on a narrow
 * screen), five players and long names still read without a sideways swipe. A line not
 * turned over yet is a blank face, as in the table.
 * @param {string} p the player
 * @param {Record<string, number | null | undefined>} lines the player's lines turned over so far
 * @param {{winner?: boolean, mine?: boolean, turning?: boolean}} [marks]
 */
export function finalCard(p, lines, { winner = false, mine = false, turning = false } = {}) {
  return h(
    "article",
    { class: `final-card${winner ? " winner" : ""}${mine ? " mine" : ""}${turning ? " turning" : ""}`, dataset: { player: p } },
    h(
      "h3",
      { class: "final-card-head" },
      chip(p),
      h("span", { class: "final-total", dataset: { testid: "final-total" } }, String(lines.total ?? "")),
    ),
    h(
      "dl",
      { class: "final-lines" },
      FINAL_LINES.map((k) => {
        const v = lines[k];
        const face = v === null || v === undefined;
        return [
          h("dt", {}, t(`final.${k}`)),
          face
            ? h("dd", { class: "num face-down", title: t("final.face_down"), "aria-label": t("final.face_down") }, "·")
            : h("dd", { class: "num" }, signed(v)),
        ];
      }),
    ),
  );
}

/** Dice faces as big digits in boxes. */
export function diceRow(values, cls = "die") {
  return h(
    "span",
    { class: "dice-row" },
    (values || []).map((v) => h("span", { class: cls }, String(v))),
  );
}
