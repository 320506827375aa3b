// Texts built from game data in the chosen language: names, event explanations (from the
// events' structured fields, never from their English "text"), tie reasons, what a station
// gives, final scoring lines. Pure (no DOM): format.js adds the elements built from them (a
// name's chip, the final table) and re-exports these; `node --test` loads this module with the
// real catalogues (tests/js/texts.test.mjs).

import { has, list, plural, t } from "./i18n.js";

/** @typedef {import("./frames.js").Seat} Seat */
/** @typedef {import("./frames.js").GameView} GameView */
/** @typedef {import("./frames.js").GameEvent} GameEvent */
/** @typedef {Seat & {hex?: string}} ShownSeat a seat with the colour screens draw it in */
/**
 * A tie of a ranking (R3.4): who is ahead of whom and by which rule.
 * @typedef {{players?: string[], rule?: string, value?: number | null}} Tie
 */
/** @typedef {{player: string, place: number, total: number} & Record<string, any>} RankingEntry */

/** The seats of the latest view frame and the screen colours, shared by every text. */
const state = {
  /** @type {Map<string, ShownSeat>} */
  seats: new Map(),
  /** @type {Record<string, string>} */
  screenHex: {},
};

/**
 * Player colours as screens show them (companion/engine/colours.py SCREEN_COLOURS, handed
 * over by base.html, read by format.js); frames carry the LED values.
 * @param {Record<string, string>} hexByColour
 */
export function setScreenColours(hexByColour) {
  state.screenHex = { ...hexByColour };
}

/**
 * Remember the seats of the latest view frame (names and colours).
 * @param {readonly Seat[] | null | undefined} seats
 */
export function setSeats(seats) {
  state.seats = new Map((seats || []).map((s) => [s.id, { ...s, hex: state.screenHex[s.colour] || s.hex }]));
}

/**
 * A seat by id; an unknown one is shown by its id in grey.
 * @param {string} id
 * @returns {ShownSeat}
 */
export function seat(id) {
  return state.seats.get(id) || { id, name: id, colour: "", hex: "#888888" };
}

/**
 * A player's name; nobody (null) in words.
 * @param {string | null | undefined} id
 */
export function nameOf(id) {
  return id == null ? t("common.nobody") : seat(id).name;
}

/**
 * A number with its sign, a real minus for a loss.
 * @param {number} n
 */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : "0";
}

/**
 * A number with one decimal, halves rounded up (0.35 is "0.4"), the same on every page: the
 * phone's review, the admin's reviews and leaderboard, the story's review column. (`toFixed`
 * alone rounds the binary value, stored a hair under 0.35, so it would read "0.3" on one page
 * and "0.4" on another.)
 * @param {number} x
 */
export function oneDecimal(x) {
  return (Math.round(x * 10) / 10).toFixed(1);
}

/** @param {number | string} n a station (1-6) */
export function stationName(n) {
  return t(`station.${n}`);
}

/** @param {number | string} n a station (1-6) */
export function stationLabel(n) {
  return t("station.label", { n, name: stationName(n) });
}

/** @param {string | null | undefined} mode the round's mode (its colour, R2.3) */
export function modeName(mode) {
  return mode ? t(`mode.${mode}`) : "";
}

/**
 * Box colour of box `b` from the profile's repeating pattern (R2.3).
 * @param {{track_colors?: string[]} | null | undefined} profile
 * @param {number} b
 */
export function boxColour(profile, b) {
  const colours = profile?.track_colors || ["red"];
  return colours[((b % colours.length) + colours.length) % colours.length];
}

/**
 * The leading box (highest score) of a view.
 * @param {GameView | null | undefined} view
 */
export function leaderBox(view) {
  const scores = Object.values(view?.players || {}).map((p) => p.score || 0);
  return scores.length ? Math.max(...scores) : 0;
}

/**
 * What a station gives this round, in words (R5).
 * @param {number | string} station
 * @param {GameView | null | undefined} view
 */
export function stakeText(station, view) {
  const prof = view?.profile || {};
  const round = Math.max(1, view?.round || 1);
  switch (Number(station)) {
    case 1:
      return t("stake.1", { points: prof.chocolatl_points ?? 1 });
    case 2: {
      const dice = view?.harvest;
      if (!dice) return t("stake.2.unknown");
      const [a, b, c] = [...dice].sort((x, y) => y - x);
      return t("stake.2", { a, b, c });
    }
    case 3: {
      const huts = Object.values(view?.players || {}).reduce((n, p) => n + (p.huts || 0), 0);
      return huts >= (prof.hut_spaces ?? 7) ? t("stake.3.no_hut") : t("stake.3");
    }
    case 4:
      return t("stake.4");
    case 5: {
      const drink = prof.drink || [];
      const [first, second] = drink[Math.min(round, drink.length) - 1] || [0, 0];
      return t("stake.5", { first, second, penalty: prof.drink_penalty ?? 2 });
    }
    case 6: {
      if (view?.last_round) {
        const [first, second] = prof.tachli_last_round || [6, 3];
        return t("stake.6.last", { first, second });
      }
      const cards = view?.improvements;
      if (!cards) return t("stake.6.unknown");
      const [high, low] = [...cards].sort((x, y) => y - x);
      return t("stake.6", { high, low });
    }
    default:
      return "";
  }
}

/**
 * A scored event's reason code (chocolatl, harvest, pyramid_row, drink, drink_penalty, tachli).
 * @param {GameEvent} ev
 */
export function scoreReason(ev) {
  const code = String(ev.reason || "");
  return has(`reason.${code}`) ? t(`reason.${code}`) : t("reason.other", { text: code });
}

/**
 * The last-round reason code (R6.3: end_score, pyramid_full, cubes, max_rounds) in words.
 * @param {string | null | undefined} code
 * @param {GameView | null | undefined} view
 */
export function lastRoundReason(code, view) {
  const prof = view?.profile || {};
  switch (code) {
    case "end_score":
      return t("last.end_score", { n: prof.end_score ?? 40 });
    case "pyramid_full":
      return t("last.pyramid_full");
    case "cubes":
      return t("last.cubes", { n: prof.cubes ?? 9 });
    case "max_rounds":
      return t("last.max_rounds", { n: prof.max_rounds ?? 7 });
    default:
      return t("last.other");
  }
}

/**
 * One tie of a ranking (R3.4) in plain words. `value` is the shared bid, if known.
 * @param {Tie} tie
 * @param {number | null} [value]
 */
export function tieText(tie, value = tie.value) {
  const [a, b] = (tie.players || []).map(nameOf);
  const rule = tie.rule && ["figure", "lower_score", "stack"].includes(tie.rule) ? tie.rule : "stack";
  if (value === undefined || value === null) return t(`tie.${rule}_plain`, { a, b });
  return t(`tie.${rule}`, { a, b, value });
}

/**
 * Ties of a ranking event with the tied value looked up from its entries.
 * @param {GameEvent} ev
 */
export function rankingTies(ev) {
  const totals = new Map((ev.entries || []).map((/** @type {RankingEntry} */ e) => [e.player, e.total]));
  return (ev.ties || []).map((/** @type {Tie} */ tie) => tieText(tie, tie.value ?? totals.get(tie.players?.[0])));
}

/** Ties of a ranking in a few words each ("Ana before Ben: Chocolatl figure"), where the
 * whole sentences do not fit.
 * @param {GameEvent} ev
 */
export function shortTies(ev) {
  return (ev.ties || []).map((/** @type {Tie} */ tie) => {
    const [a, b] = (tie.players || []).map(nameOf);
    const rule = tie.rule && ["figure", "lower_score", "stack"].includes(tie.rule) ? tie.rule : "stack";
    return t(`tie.short.${rule}`, { a, b });
  });
}

/** The decision first makes next (`entry`: the pending city or pyramid entry, R5.3, R5.4), as
 * the display announces it: a tie is named only when first and second bid the same (their
 * order then came from R3.4); first's choice itself is no tie.
 * @param {{type: string, player?: string}} entry
 * @param {{entries?: RankingEntry[]} | null | undefined} ranking
 */
export function decidingText(entry, ranking) {
  const [a, b] = ranking?.entries || [];
  const tied = Boolean(a && b && a.total === b.total);
  return t(`show.deciding${tied ? "_tie" : ""}.${entry.type}`, { name: nameOf(entry.player) });
}

/**
 * One event as a sentence in the current language.
 * @param {GameEvent} ev
 * @param {GameView | null | undefined} [view]
 * @param {{short?: boolean}} [options] short: a ranking without its ties' reasons
 * @returns {string}
 */
export function eventText(ev, view, { short = false } = {}) {
  const name = nameOf(ev.player);
  switch (ev.type) {
    case "round_started":
      return t("ev.round_started", {
        round: ev.round,
        mode: modeName(ev.mode),
        colour: t(`colour.${ev.mode}`),
        box: ev.leader_box,
        leaders: list((ev.leaders || []).map(nameOf)),
      });
    case "round_ended":
      return t("ev.round_ended", { round: ev.round });
    case "harvest_dice":
      return t("ev.harvest_dice", { dice: (ev.dice || []).join(", ") });
    case "improvement_cards":
      return t("ev.improvement_cards", { cards: (ev.cards || []).join(", ") });
    case "sacrificed":
      return t("ev.sacrificed", { name });
    case "bid_placed":
      return t("ev.bid", { name });
    case "first_cards_revealed":
      return t("ev.revealed_first");
    case "revealed": {
      const cards = Object.entries(ev.cards || {})
        .map(([p, c]) => `${nameOf(p)} ${c.join("+")}`)
        .join(", ");
      return t("ev.revealed", { station: ev.station, name: stationName(/** @type {number} */ (ev.station)), cards });
    }
    case "dice_decided":
      return ev.count === undefined
        ? t("ev.dice_decided", { name })
        : plural("ev.dice_used", ev.count, { name });
    case "dice_choices": {
      const used = Object.entries(ev.choices || {})
        .map(([p, c]) => t("ev.dice_choice", { name: nameOf(p), count: c }))
        .join(", ");
      return t("ev.dice_choices", { station: ev.station, choices: used });
    }
    case "rolled":
      return t("ev.rolled", { name, values: (ev.values || []).join(" + ") });
    case "ranking": {
      const order = (ev.entries || [])
        .map((/** @type {RankingEntry} */ e) => t("ev.ranking_entry", { place: e.place, name: nameOf(e.player), total: e.total }))
        .join(", ");
      // The display's narrow log leaves the ties' reasons to the station's own panel.
      return [t("ev.ranking", { station: ev.station, order }), ...(short ? [] : rankingTies(ev))].join(" ");
    }
    case "scored": {
      const reason = scoreReason(ev);
      const points = Math.abs(ev.points);
      const cut = ev.from !== undefined && ev.score - ev.from !== ev.points;
      if (cut) return t("ev.scored_cut", { name, points, reason });
      const key = ev.points < 0 ? "ev.scored_loss" : "ev.scored_gain";
      return t(key, { name, points, reason, score: ev.score ?? "" });
    }
    case "figure":
      return t("ev.figure", { name });
    case "old_man":
      return t("ev.old_man", { name });
    case "city_choice":
      return t("ev.city_choice", {
        name,
        choice: ev.choice === "hut" ? t("pad.city_hut") : t("pad.city_die"),
      });
    case "hut":
      return t("ev.hut", { name, huts: ev.huts ?? "" });
    case "die":
      return t("ev.die", { name, dice: ev.dice ?? "" });
    case "pyramid_order":
      // R5.4: the winner may go first themselves; "Ana lets Ana place first" reads wrong.
      if (ev.first === ev.player) return t("ev.pyramid_self", { name });
      return t("ev.pyramid_order", { name, first: nameOf(ev.first) });
    case "cube":
      if (ev.row === null || ev.row === undefined) return t("ev.cube_none", { name });
      return t("ev.cube", { name, row: ev.row + 1 });
    case "row_completed": {
      const text = t("ev.row_completed", { row: ev.row + 1, name, bonus: ev.bonus });
      const ties = (ev.ties || []).map((/** @type {Tie} */ tie) => tieText(tie, tie.value ?? ev.counts?.[tie.players?.[0] ?? ""]));
      return [text, ...ties].join(" ");
    }
    case "card_discarded":
      return t("ev.card_discarded", { name, card: ev.card });
    case "card_gained":
      return t("ev.card_gained", { name, card: ev.card });
    case "last_round":
      return t("ev.last_round", { round: ev.round, reason: lastRoundReason(ev.reason, view) });
    case "final_scoring": {
      const totals = Object.entries(ev.lines || {})
        .map(([p, line]) => `${nameOf(p)} ${line.total}`)
        .join(", ");
      return t("ev.final_scoring", { totals });
    }
    case "game_over": {
      const winners = ev.winners || [];
      const names = list(winners.map(nameOf));
      let text = t(winners.length > 1 ? "ev.game_over_shared" : "ev.game_over", {
        names,
        total: ev.total ?? "",
      });
      if ((ev.tied_on_points || []).length > 1) {
        text += ` ${t(winners.length > 1 ? "ev.game_over_tied" : "ev.game_over_sacrifice")}`;
      }
      return text;
    }
    default:
      return t("ev.other", { kind: ev.type });
  }
}

/** The final-scoring lines in the engine's order (companion/engine/scoring.py LINES, R7): the
 * server's one list, handed over by base.html and set by format.js; never a copy.
 * @type {string[]} */
export const FINAL_LINES = [];

/**
 * Take the server's final-scoring lines (kept in the same array: importers hold it).
 * @param {unknown} lines
 */
export function setFinalLines(lines) {
  const valid = Array.isArray(lines) ? lines.filter((l) => typeof l === "string") : [];
  FINAL_LINES.splice(0, FINAL_LINES.length, ...valid);
}

