// What the table display decides without a DOM: the events it keeps (this round's, the round
// before while its rankings stay up, the log), how a seat's connection reads, the host inputs
// awaited by kind, where a box of the LED track sits on the drawn board. display.js draws it;
// `node --test` feeds it the display's frames of a whole worked game (tests/js/displayview.test.mjs).

import { t } from "./i18n.js";

/** @typedef {import("./frames.js").GameEvent} GameEvent */
/** @typedef {import("./frames.js").GameView} GameView */
/** @typedef {import("./frames.js").Seat} Seat */
/** @typedef {import("./frames.js").Pending} Pending */

/** The log keeps this many events (the panel drops the oldest that do not fit). */
export const LOG_MAX = 60;

/**
 * @typedef {object} Told the events the display keeps
 * @property {GameEvent[]} roundEvents this round's events, oldest first
 * @property {GameEvent[]} previousRound the round before (its rankings stay until new ones come)
 * @property {GameEvent[]} log the last LOG_MAX events, newest last
 */

/** @returns {Told} */
export function initialTold() {
  return { roundEvents: [], previousRound: [], log: [] };
}

/**
 * The events kept after a frame: a frame with history starts again from it (a reconnect, an
 * undo); a round_started event moves this round's events to the previous round once they hold
 * a ranking.
 * @param {Told} told
 * @param {{history?: GameEvent[], events?: GameEvent[]}} frame
 * @returns {Told}
 */
export function followTold(told, frame) {
  let { roundEvents, previousRound, log } = frame.history ? initialTold() : told;
  roundEvents = [...roundEvents];
  log = [...log];
  for (const ev of [...(frame.history || []), ...(frame.events || [])]) {
    if (ev.type === "round_started") {
      if (roundEvents.some((e) => e.type === "ranking")) previousRound = roundEvents;
      roundEvents = [];
    }
    roundEvents.push(ev);
    log.push(ev);
  }
  if (log.length > LOG_MAX) log = log.slice(-LOG_MAX);
  return { roundEvents, previousRound, log };
}

/**
 * The box the leader stood on when this round started (from the round_started event).
 * @param {readonly GameEvent[]} roundEvents
 * @returns {number | null}
 */
export function roundStartLeaderBox(roundEvents) {
  const ev = roundEvents.find((e) => e.type === "round_started");
  if (!ev) return null;
  return ev.box ?? ev.leader_box ?? null;
}

/**
 * A seat's line under its name: a companion player's level, skipped, free, or whether its
 * phone is connected.
 * @param {Seat} s
 */
export function connectionText(s) {
  if (s.companion) return `${t("common.companion")} · ${t(`level.${s.level}`)}`;
  if (s.state === "auto") return t("display.auto");
  if (s.state === "vacant") return t("display.vacant");
  return s.connected ? t("display.connected") : t("display.not_connected");
}

/**
 * The view's pending entries by kind.
 * @param {GameView | null} view
 * @returns {Record<string, Pending[]>}
 */
export function pendingByType(view) {
  /** @type {Record<string, Pending[]>} */
  const by = {};
  for (const p of view?.pending || []) (by[p.type] ||= []).push(p);
  return by;
}

/**
 * A name's first two characters (the pyramid's cubes).
 * @param {string | null | undefined} name
 */
export function initials(name) {
  return String(name || "?").slice(0, 2);
}

/**
 * Where box `b` sits on a board of four sides of `perSide` boxes (hardware/ASSEMBLY.md: four
 * sides of 15), box 0 in the top left corner, clockwise in the direction of play; and the
 * cell just inside it for its number.
 * @param {number} b
 * @param {number} perSide
 */
export function boxPlace(b, perSide) {
  const side = Math.floor(b / perSide);
  const i = b % perSide;
  const last = perSide + 1; // grid lines: 1 .. perSide + 1
  const place = [
    { row: 1, col: 1 + i, inward: [1, 0] },
    { row: 1 + i, col: last, inward: [0, -1] },
    { row: last, col: last - i, inward: [-1, 0] },
    { row: last - i, col: 1, inward: [0, 1] },
  ][side];
  // A corner box's number goes diagonally inwards (the cells beside it are boxes): also
  // inwards from the side that ends in that corner.
  const before = [[0, 1], [1, 0], [0, -1], [-1, 0]][side];
  const [dr, dc] = i === 0 ? [place.inward[0] + before[0], place.inward[1] + before[1]] : place.inward;
  return { side, row: place.row, col: place.col, labelRow: place.row + dr, labelCol: place.col + dc };
}

/**
 * An LED's colour as CSS: [r, g, b] or a colour name.
 * @param {readonly number[] | string} c
 */
export function ledColour(c) {
  if (Array.isArray(c)) return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
  return String(c);
}
