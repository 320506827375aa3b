// What the bid pad shows, decided without a DOM: which screen and which question, the bid
// being built (slots, free cards), the news it tells (an undone move, a seat given back, what
// a companion player did), the dice outlook, the own place. pad.js draws it; `node --test`
// feeds it the frames of a whole worked game (tests/js/padview.test.mjs). What the pad asks
// is padstate.js.

import { list, plural, t } from "./i18n.js";
import { nameOf, stationLabel, stationName } from "./texts.js";

/** @typedef {import("./frames.js").ViewFrame} ViewFrame */
/** @typedef {import("./frames.js").GameView} GameView */
/** @typedef {import("./frames.js").GameEvent} GameEvent */
/** @typedef {import("./frames.js").Notice} Notice */

/**
 * @typedef {object} Slot one card place of the bid being built
 * @property {number} station
 * @property {number} index the card's place at that station
 * @property {number | null} card its value, null while empty
 * @property {number | null} idx the card's position in the deck
 */

/**
 * @typedef {object} Draft the bid being built for one step (kept in localStorage)
 * @property {string} key game:round:step
 * @property {Slot[]} slots
 * @property {number | null} active the slot the next card goes to
 */

/**
 * @typedef {object} News what the pad tells besides the question, followed frame by frame
 * @property {GameEvent[]} events this round's events and the round's before (the pyramid
 *   partner, the last ranking: `roundAsTold`)
 * @property {Notice | null} notice what the host did to this seat's own move, until answered
 * @property {{pending: string, game: number | null} | null} seatBack the host gave the seat back
 */

/** @returns {News} */
export function initialNews() {
  return { events: [], notice: null, seatBack: null };
}

/** Where the last round_started of `events` is (-1: none).
 * @param {readonly GameEvent[]} events
 * @returns {number}
 */
function lastRoundStart(events) {
  for (let i = events.length - 1; i >= 0; i -= 1) if (events[i].type === "round_started") return i;
  return -1;
}

/**
 * The events of the round the show is on: `events` (the news's) without the `untold` last
 * ones (the step's stations still to come, `Beat.untold`), from the last round start among
 * them. A step that ends a round and starts the next keeps the ended round until its summary
 * is up.
 * @param {readonly GameEvent[]} events
 * @param {number} untold
 * @returns {GameEvent[]}
 */
export function roundAsTold(events, untold) {
  const upto = events.slice(0, Math.max(0, events.length - Math.max(0, untold)));
  return upto.slice(Math.max(0, lastRoundStart(upto)));
}

/**
 * The news after a view frame (`before`: the previous view frame). A frame with history (a
 * new connection, an undo) starts the events again; a round_started event drops the round
 * before the last (the show may still be on it: `roundAsTold`). A notice lasts until its
 * question is answered or another game starts; "you have your seat back" until what this
 * phone is asked changes (PROTOCOL.md 3.4).
 * @param {News} news
 * @param {ViewFrame} f
 * @param {ViewFrame | null} before
 * @returns {News}
 */
export function followNews(news, f, before) {
  let events = f.history ? [...f.history] : [...news.events];
  for (const ev of f.events || []) {
    if (ev.type === "round_started") events = events.slice(Math.max(0, lastRoundStart(events)));
    events.push(ev);
  }
  let notice = news.notice;
  if (f.notice) notice = f.notice;
  else if (notice && f.game?.id !== before?.game?.id) notice = null;
  // Answered since (by this phone or a companion player): the notice has done its job.
  const told = notice;
  if (told && !(f.you?.pending || []).some((p) => p.type === told.type)) notice = null;
  const pending = JSON.stringify((f.you?.pending || []).map((p) => p.type));
  let seatBack = news.seatBack;
  if (f.notice?.kind === "resumed") seatBack = { pending, game: f.game?.id ?? null };
  else if (seatBack && (pending !== seatBack.pending || (f.game?.id ?? null) !== seatBack.game)) seatBack = null;
  return { events, notice, seatBack };
}

/**
 * Which screen the pad shows for a frame and the view as far as the show has got: the
 * lobby before a game, the final scoring once it starts (or the game was ended), else the game.
 * @param {ViewFrame} frame
 * @param {GameView | null} view
 * @returns {"lobby" | "final" | "game"}
 */
export function screenOf(frame, view) {
  if (!frame.game) return "lobby";
  if (view?.finished || frame.game.status === "ended") return "final";
  return "game";
}

/**
 * The task the game screen shows: "auto" while the companion plays this seat (the host
 * skipped it), else the first kind asked (padstate.js `asks`), else "none".
 * @param {readonly string[]} kinds
 * @param {ViewFrame} frame
 * @param {string} me
 */
export function taskOf(kinds, frame, me) {
  if ((frame.seats || []).find((s) => s.id === me)?.companion) return "auto";
  return kinds[0] || "none";
}

/**
 * The slots the asked bid has: [{station, index}], from the view's bid_shape (R2.4-R2.6).
 * @param {{stations: string[], cards: number} | null | undefined} shape
 * @returns {{station: number, index: number}[]}
 */
export function slotsFor(shape) {
  const slots = [];
  const cards = shape?.cards ?? 0;
  for (const s of shape?.stations || []) for (let i = 0; i < cards; i += 1) slots.push({ station: Number(s), index: i });
  return slots;
}

/**
 * An empty bid for a step.
 * @param {string} key
 * @param {GameView} view
 * @returns {Draft}
 */
export function newDraft(key, view) {
  return { key, slots: slotsFor(view.bid_shape).map((s) => ({ ...s, card: null, idx: null })), active: 0 };
}

/**
 * The deck by position: the value, or null for a card already used this round. `used` is a
 * multiset, so with two 11s and one 11 used exactly one copy is marked (R5.6: after Tachli a
 * deck may hold a value twice).
 * @param {GameView | null} view
 * @param {string} me
 * @returns {(number | null)[]}
 */
export function freeCards(view, me) {
  const mine = view?.players?.[me] || {};
  const usedLeft = new Map();
  for (const c of mine.used || []) usedLeft.set(c, (usedLeft.get(c) || 0) + 1);
  return (mine.deck || []).map((c) => {
    const n = usedLeft.get(c) || 0;
    if (n > 0) {
      usedLeft.set(c, n - 1);
      return null;
    }
    return c;
  });
}

/**
 * A saved draft still fits the deck: every placed card is a free copy of that value.
 * @param {Draft} saved
 * @param {GameView} view
 * @param {string} me
 */
export function draftFits(saved, view, me) {
  const free = freeCards(view, me);
  const seen = new Set();
  return (saved.slots || []).every((s) => {
    if (s.card === null) return true;
    if (seen.has(s.idx) || free[/** @type {number} */ (s.idx)] !== s.card) return false;
    seen.add(s.idx);
    return true;
  });
}

/**
 * Deck positions placed in the draft. Cards are tracked by position, never by value.
 * @param {Draft | null} draft
 * @returns {Set<number>}
 */
export function draftIndices(draft) {
  return new Set((draft?.slots || []).filter((s) => s.card !== null).map((s) => /** @type {number} */ (s.idx)));
}

/**
 * The draft with the deck's card at position `idx` placed in the active slot (or the first
 * empty one); the next empty slot becomes active. The same draft when it cannot take it.
 * @param {Draft} draft
 * @param {number} idx
 * @param {number} card
 * @returns {Draft}
 */
export function placeCard(draft, idx, card) {
  let i = draft.active;
  if (i === null || i === undefined || draft.slots[i]?.card !== null) i = draft.slots.findIndex((s) => s.card === null);
  if (i < 0 || draftIndices(draft).has(idx)) return draft;
  const slots = draft.slots.map((s, j) => (j === i ? { ...s, card, idx } : s));
  const next = slots.findIndex((s) => s.card === null);
  return { ...draft, slots, active: next < 0 ? null : next };
}

/**
 * The draft with slot `i` emptied and active.
 * @param {Draft} draft
 * @param {number} i
 * @returns {Draft}
 */
export function clearSlot(draft, i) {
  return { ...draft, slots: draft.slots.map((s, j) => (j === i ? { ...s, card: null, idx: null } : s)), active: i };
}

/**
 * The bid command's `bids` from a full draft: station -> cards.
 * @param {Draft} draft
 * @returns {Record<string, number[]>}
 */
export function bidsFromDraft(draft) {
  /** @type {Record<string, number[]>} */
  const bids = {};
  for (const s of draft.slots) (bids[String(s.station)] ||= []).push(/** @type {number} */ (s.card));
  return bids;
}

/**
 * A player's place (R7: higher total, then the higher sacrifice; equal on both share it).
 * @param {string} player
 * @param {readonly string[]} order
 * @param {Record<string, Record<string, number | null>>} lines
 * @returns {number | null}
 */
export function placeOf(player, order, lines) {
  const mine = lines[player];
  if (!mine || mine.total === undefined) return null;
  const ahead = order.filter((p) => {
    const l = lines[p];
    // A missing total compares as 0, as JavaScript's > does with null.
    return (l.total ?? 0) > (mine.total ?? 0) || (l.total === mine.total && (l.sacrifice ?? 0) > (mine.sacrifice ?? 0));
  });
  return ahead.length + 1;
}

/**
 * The question a hint answers (other players' moves in between do not change it).
 * @param {number | undefined} gameId
 * @param {GameView | null} view
 * @param {string} kind
 */
export function hintKey(gameId, view, kind) {
  return `${gameId}:${view?.round}:${view?.phase}:${view?.step}:${view?.station}:${kind}`;
}

/**
 * A hinted command in words ("Chocolatl 7+5 · Harvest 3").
 * @param {Record<string, any>} command
 */
export function hintCommandText(command) {
  if (command.type === "bid") {
    return Object.entries(command.bids)
      .map(([s, cards]) => `${stationName(s)} ${cards.join("+")}`)
      .join(" · ");
  }
  if (command.type === "sacrifice") return String(command.card);
  if (command.type === "dice") return t("pad.stat.dice", { n: command.count });
  if (command.type === "city") return command.choice === "hut" ? t("pad.city_hut") : t("pad.city_die");
  if (command.type === "pyramid") return nameOf(command.first);
  return "";
}

/**
 * "The host undid your bid for station 3": the seat's own move only (PROTOCOL.md 3.4);
 * null for no notice or another kind.
 * @param {Notice | null} notice
 * @returns {string | null}
 */
export function undoneText(notice) {
  if (!notice || notice.kind !== "undone") return null;
  const station = notice.station ?? (notice.stations?.length === 1 ? notice.stations[0] : null);
  if (notice.type === "bid") return station !== null ? t("pad.notice.undone.bid_one", { station: stationLabel(station) }) : t("pad.notice.undone.bid_all");
  if (notice.type === "dice") return t("pad.notice.undone.dice", { station: stationLabel(station ?? "?") });
  if (notice.type === "sacrifice" || notice.type === "roll") return t(`pad.notice.undone.${notice.type}`);
  return t("pad.notice.undone.other");
}

/**
 * What a companion player did for this seat this round while it had the seat, one line
 * each: "a companion player bid 7+5 for you at station 2" (sent to this seat only).
 * @param {readonly Record<string, any>[]} moves
 * @returns {string[]}
 */
export function companionMoveLines(moves) {
  const lines = [];
  for (const m of moves) {
    if (m.type === "bid") {
      for (const [station, cards] of Object.entries(m.bids || {})) lines.push(t("pad.companion.bid", { cards: cards.join("+"), station: stationLabel(station) }));
    } else if (m.type === "sacrifice") lines.push(t("pad.companion.sacrifice", { card: m.card }));
    else if (m.type === "dice") lines.push(plural("pad.companion.dice", m.count, { station: stationLabel(m.station ?? "?") }));
    else if (m.type === "city") lines.push(t("pad.companion.city", { choice: m.choice === "hut" ? t("pad.city_hut") : t("pad.city_die") }));
    else if (m.type === "pyramid") lines.push(t("pad.companion.pyramid", { name: nameOf(m.first) }));
    else if (m.type === "roll") lines.push(t("pad.companion.roll", { values: (m.values || []).join("+") }));
  }
  return lines;
}

/**
 * What dice could change for this seat (R3.2, R3.3): "two dice could lift you to 2nd" (all
 * sixes, nobody else rolling) and how far others' dice could push it down; null without an
 * open window that holds this seat's bid.
 * @param {GameView} view
 * @param {string} me
 * @returns {string[] | null}
 */
export function diceOutlook(view, me) {
  const mine = view.dice_window?.bids?.[me];
  if (!mine) return null;
  const lines = [t("pad.dice_now", { place: t(`place.${mine.place}`) })];
  let shown = mine.place;
  for (const [k, place] of Object.entries(mine.best || {})) {
    if (place < shown) {
      lines.push(Number(k) === 1 ? t("pad.dice_lift_one", { place: t(`place.${place}`) }) : t("pad.dice_lift", { n: k, place: t(`place.${place}`) }));
      shown = place;
    }
  }
  if (shown === mine.place) lines.push(t("pad.dice_no_lift"));
  if (mine.worst > mine.place) lines.push(t("pad.dice_push", { place: t(`place.${mine.worst}`) }));
  return lines;
}

/**
 * The bid's title: the step (R2.4-R2.6: all stations, first cards, second cards, one station).
 * @param {GameView} view
 */
export function stepTitle(view) {
  if (view.step === "all" || view.step === "first" || view.step === "second") return t(`pad.bid_title.${view.step}`);
  return t("pad.bid_title.station", { n: view.step });
}

/**
 * Who and what the table waits for, as the waiting screen says it: players by name, the
 * host's inputs as things. With ``me``, the phone's own seat is not named among the others
 * ("Waiting for Ana" on Ana's phone read as a frozen table): ``mine`` says it is awaited.
 * @param {GameView} view
 * @param {string | null} [me]
 * @returns {{players: string | null, host: string | null, mine: boolean}}
 */
export function waitingFor(view, me = null) {
  const all = [...new Set((view.pending || []).filter((p) => p.player).map((p) => p.player))];
  const waiting = all.filter((p) => p !== me);
  const host = (view.pending || []).filter((p) => !p.player).map((p) => t(`wait.${p.type}`));
  return {
    players: waiting.length ? t("pad.waiting_for", { names: list(waiting.map(nameOf)) }) : null,
    host: host.length ? host.join(" · ") : null,
    mine: me !== null && all.includes(me),
  };
}
