// What the host page decides without a DOM: the numbered game log it keeps, who and what the
// table waits for, the undo check in words, the improvement decks' range. host.js draws it;
// `node --test` feeds it the frames of a whole worked game (tests/js/hostview.test.mjs).

import { t } from "./i18n.js";
import { nameOf } from "./texts.js";

/** @typedef {import("./frames.js").GameEvent} GameEvent */
/** @typedef {import("./frames.js").GameView} GameView */

/** The host's log keeps this many entries. */
export const HOST_LOG_MAX = 40;

/**
 * @typedef {object} HostLog the events the host's log shows, numbered from the game's start
 * @property {GameEvent[]} events the kept ones, oldest first
 * @property {number} base how many older ones were dropped (keeps the numbers stable)
 */

/** @returns {HostLog} */
export function initialLog() {
  return { events: [], base: 0 };
}

/**
 * The log after a frame: history replaces it (a reconnect, an undo), numbered on from the
 * game's events before it (`history_from`: a reloaded page goes on counting, it does not
 * start again at the round); events are added, the oldest dropped past HOST_LOG_MAX.
 * @param {HostLog} log
 * @param {{history?: GameEvent[], history_from?: number, events?: GameEvent[]}} frame
 * @returns {HostLog}
 */
export function followLog(log, frame) {
  let { events, base } = frame.history
    ? { events: [...frame.history], base: frame.history_from || 0 }
    : { events: [...log.events], base: log.base };
  events.push(...(frame.events || []));
  if (events.length > HOST_LOG_MAX) {
    base += events.length - HOST_LOG_MAX;
    events = events.slice(-HOST_LOG_MAX);
  }
  return { events, base };
}

/**
 * @typedef {object} Waiting a seat the shown game waits for (host frames: `host.waiting`)
 * @property {string} seat
 * @property {boolean} connected
 * @property {boolean} [companion]
 */

/**
 * "Ana, Ben, the harvest dice": players by name (with a word when their phone is not
 * connected: the host knows whose phone to look at), host inputs as things.
 * @param {GameView} view
 * @param {readonly Waiting[]} waiting
 */
export function waitingText(view, waiting) {
  const phoneOf = (/** @type {string} */ seat) => {
    const w = waiting.find((x) => x.seat === seat);
    return w && !w.connected && !w.companion ? t("host.phone_offline", { name: nameOf(seat) }) : nameOf(seat);
  };
  /** @type {string[]} */
  const parts = [];
  for (const p of view.pending || []) {
    const text = p.type === "roll" && p.player ? t("need.roll", { name: nameOf(p.player) }) : p.player ? phoneOf(p.player) : t(`need.${p.type}`);
    if (!parts.includes(text)) parts.push(text);
  }
  return parts.join(", ") || "—";
}

/**
 * @typedef {object} UndoCheck the host frame's `host.undo` (undo.undo_check)
 * @property {boolean} [possible]
 * @property {string} [reason]
 * @property {string} [key]
 * @property {Record<string, any>} [params]
 */

/**
 * The undo answer in the host's language: a catalogue key with parameters.
 * @param {UndoCheck | null | undefined} undo
 */
export function undoText(undo) {
  if (!undo?.key) return undo?.reason || "";
  const p = { ...(undo.params || {}) };
  if (p.command) p.command = t(`undo.cmd.${p.command}`, { name: p.player ? nameOf(p.player) : "" });
  if (p.what) p.what = p.what.map((/** @type {string} */ w) => t(`undo.what.${w}`)).join(", ");
  return t(undo.key, p);
}

/**
 * What the undo would take back, e.g. "Ana's sacrifice" (the undo check's command).
 * @param {UndoCheck | null | undefined} undo
 */
export function undoWhat(undo) {
  const p = undo?.params || {};
  return p.command ? t(`undo.cmd.${p.command}`, { name: p.player ? nameOf(p.player) : "" }) : "";
}

/**
 * The values of a board's improvement decks, e.g. "10–15" (R1.5, profile).
 * @param {{improvement_decks?: number[][]} | null | undefined} profile
 */
export function deckRange(profile) {
  const all = (profile?.improvement_decks || []).flat();
  return all.length ? `${Math.min(...all)}–${Math.max(...all)}` : "";
}
