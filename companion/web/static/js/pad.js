// The phone bid pad: join, then the own deck, the current step, review and lock-in, decisions
// only when the rules ask for one, and the score "if the game ended now".

import { Connection, commandIds } from "./connection.js";
import { fill, h, showOnly } from "./dom.js";
import {
  chip,
  diceRow,
  eventText,
  FINAL_LINES,
  lastRoundReason,
  modeName,
  nameOf,
  rankingTies,
  setSeats,
  signed,
  stakeText,
  stationLabel,
  stationName,
} from "./format.js";
import { languageSwitch, list, onLanguageChange, pickLanguage, plural, setLanguage, t, translateDom } from "./i18n.js";
import { asks, initial, reduce, report } from "./padstate.js";
import { Beat, beatSound, Sound, stepSound } from "./show.js";
import { reviewPanel } from "./review.js";
import { keepAwake } from "./wake.js";

const page = document.body.dataset;
const tableName = page.table;
const storageKey = `chocolatl:${tableName}`;
const SCREENS = ["screen-join", "screen-lobby", "screen-game", "screen-final", "screen-status"];

let credentials = loadCredentials();
let conn = null;
let frame = null; // the last view (= asking.frame)
let asking = initial(); // what the pad asks: the frames and sent commands, folded (padstate.js)
let events = []; // this round's events (for the pyramid partner, the last ranking)
let draft = null; // {key, slots: [{station, index, card}], active}
let reviewing = false;
let lastError = "";
let choice = null; // a decision picked but not yet locked in: {type, value}
let nextId = null;
let reported = ""; // the last "showing" report sent (sent again only when it changes)
let trayActions = null; // the bid's Clear/Review/Lock-in buttons: shown in the sticky card tray
let notice = null; // what the host did to this seat's own move (an undo), until the next move
let seatBack = null; // the host gave this seat back from a companion player: {pending, game}

// ---------- storage ----------

function loadCredentials() {
  try {
    const raw = localStorage.getItem(storageKey);
    const c = raw ? JSON.parse(raw) : null;
    return c && c.token && c.seat ? c : null;
  } catch {
    return null;
  }
}

function saveCredentials(c) {
  credentials = c;
  try {
    if (c) localStorage.setItem(storageKey, JSON.stringify(c));
    else localStorage.removeItem(storageKey);
  } catch {
    /* private mode: the seat lasts as long as the page */
  }
}

// ---------- join ----------

async function loadTakenColours() {
  try {
    const response = await fetch(page.stateUrl, { cache: "no-store" });
    if (!response.ok) return;
    const data = await response.json();
    showJoinState(data);
    const taken = new Set((data.seats || []).filter((s) => s.state !== "vacant").map((s) => s.colour));
    for (const input of document.querySelectorAll('input[name="colour"]')) {
      const label = input.closest("label");
      input.disabled = taken.has(input.value);
      label?.classList.toggle("taken", input.disabled);
      if (input.disabled && input.checked) input.checked = false;
    }
    if (!document.querySelector('input[name="colour"]:checked')) {
      document.querySelector('input[name="colour"]:not(:disabled)')?.click();
    }
  } catch {
    /* offline: the server refuses a taken colour anyway */
  }
}

/** A latecomer hears before typing anything whether a seat is free: while a game runs only a
 * seat the host freed can be taken, and without one the form is not offered at all. */
function showJoinState(data) {
  const playing = data.table?.status === "playing";
  const vacant = (data.seats || []).filter((s) => s.state === "vacant");
  const note = document.getElementById("join-note");
  const form = document.getElementById("join-form");
  if (!note || !form) return;
  const closed = playing && !vacant.length;
  form.hidden = closed;
  note.hidden = !playing;
  note.dataset.testid = "join-note";
  if (closed) fill(note, h("strong", {}, t("pad.err.game_running")), h("p", {}, t("pad.join_full_hint")));
  else if (playing) fill(note, t("pad.join_takeover", { name: vacant.map((s) => s.name).join(", ") }));
}

async function join(event) {
  event.preventDefault();
  const form = event.target;
  const name = form.elements.name.value.trim();
  const colour = form.querySelector('input[name="colour"]:checked')?.value;
  const error = document.getElementById("join-error");
  error.textContent = "";
  // Names are refused when too long, never cut (the server counts characters the same way).
  const max = Number(form.elements.name.dataset.nameMax) || 24;
  const length = [...name.split(/\s+/).join(" ")].length;
  if (!name) return void (error.textContent = t("pad.err.bad_name"));
  if (length > max) return void (error.textContent = t("pad.err.name_too_long", { n: length, max }));
  if (!colour) return void (error.textContent = t("pad.err.bad_colour"));
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  button.textContent = t("pad.joining");
  keepAwake(true); // inside the tap: the fallback video may start now
  try {
    const response = await fetch(page.joinApi, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ secret: page.joinSecret, name, colour }),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      const key = `pad.err.${data.error}`;
      error.textContent = data.error && t(key) !== key ? t(key) : t("pad.err.generic", { code: data.error || response.status });
      if (data.error === "colour_taken") loadTakenColours();
      return;
    }
    saveCredentials({ table: tableName, seat: data.seat, token: data.token, ws: data.ws });
    // Drop the secret from the address bar: a reload goes to the seat page.
    if (page.seatPage) history.replaceState(null, "", page.seatPage);
    connect();
  } catch {
    error.textContent = t("pad.err.network");
  } finally {
    button.disabled = false;
    button.textContent = t("pad.join_button");
    keepAwake(false);
  }
}

// ---------- connection ----------

function connect() {
  if (conn) conn.stop("idle");
  nextId = commandIds(`${storageKey}:ids:${credentials.seat}`);
  conn = new Connection({
    path: credentials.ws || page.ws,
    hello: () => ({ type: "hello", seat: credentials.seat, token: credentials.token }),
    auth: () => ({ token: credentials.token }),
    onFrame: (f) => {
      noteSeatBack(f);
      onFrame(f);
    },
    onStatus,
  });
  window.__pad.conn = conn;
  conn.start();
}

function onStatus(status) {
  document.body.dataset.conn = status;
  const banner = document.getElementById("conn-banner");
  if (banner) {
    banner.hidden = !(status === "reconnecting" || status === "connecting") || !frame;
    banner.textContent = status === "connecting" ? t("conn.connecting") : t("conn.reconnecting");
  }
  if (status === "taken_over") showStatus("replaced");
  else if (status === "removed") {
    saveCredentials(null); // the host revoked this seat's token
    showStatus("removed");
  } else if (status === "bad_token") {
    saveCredentials(null);
    if (page.joinSecret) {
      showOnly(SCREENS, "screen-join");
      loadTakenColours();
    } else showStatus("released");
  } else if (status === "closed") showStatus("closed");
  else if (status === "reconnecting" && !frame) showStatus("reconnecting");
  else if (status === "open" && document.getElementById("screen-status").dataset.kind === "closed") {
    render();
  }
}

/** The whole-screen states that are not the game: each one its own screen. */
function showStatus(kind) {
  const box = document.getElementById("screen-status");
  box.dataset.kind = kind;
  const titles = {
    reconnecting: ["conn.reconnecting", "conn.reconnecting_hint"],
    replaced: ["conn.replaced", "conn.replaced_hint"],
    released: ["conn.released", "conn.released_hint"],
    removed: ["conn.removed", "conn.removed_hint"],
    closed: ["conn.closed", "conn.closed_hint"],
    nosecret: ["pad.join_title", "pad.no_secret"],
  }[kind];
  const action =
    kind === "replaced"
      ? h("button", { class: "big primary", id: "take-back", onclick: () => connect() }, t("conn.take_back"))
      : kind === "reconnecting" || kind === "closed"
        ? h("button", { class: "big", onclick: () => conn?.retryNow() }, t("conn.retry_now"))
        : null;
  fill(
    box,
    h("div", { class: `status-card status-${kind}` }, h("h2", {}, t(titles[0])), h("p", {}, t(titles[1])), action),
  );
  showOnly(SCREENS, "screen-status");
  keepAwake(false);
}

function onFrame(f) {
  if (f.type === "view") {
    setSeats(f.seats);
    if (f.history) {
      events = [...f.history];
      reported = ""; // a new connection (or a resent view): tell it what we show
    }
    for (const ev of f.events || []) {
      if (ev.type === "round_started") events = [];
      events.push(ev);
    }
    if (f.notice) notice = f.notice;
    else if (notice && f.game?.id !== frame?.game?.id) notice = null;
    // Answered since (by this phone or a companion player): the notice has done its job.
    if (notice && !(f.you?.pending || []).some((p) => p.type === notice.type)) notice = null;
    asking = reduce(asking, f);
    frame = f;
    if (beat.update(f)) {
      cue(stepSound(f)); // a new step: its first beat has the "bids in" (or nothing)
      beatShown = beatKey();
    } else soundBeat(); // a frame on a beat's edge must not swallow the beat's sound
    render();
  } else if (f.type === "ack") {
    if (f.id === asking.sending) {
      asking = reduce(asking, f); // the question stays answered until the view that shows it
      reviewing = false;
      draft = null;
      choice = null;
      lastError = "";
      render();
    }
  } else if (f.type === "error") {
    if (hintAsked && f.id === hintAsked.id) {
      hintAsked = null;
      lastError = t("pad.err.generic", { code: f.code });
      render();
    } else if (f.id === asking.sending || !f.id) {
      asking = reduce(asking, f);
      const key = `pad.err.${f.code}`;
      lastError = f.code === "illegal" ? t("pad.err.illegal", { reason: f.reason }) : t(key) !== key ? t(key) : t("pad.err.generic", { code: f.code });
      render();
    }
  } else if (f.type === "hint") {
    if (f.id === hintAsked?.id) {
      hint = f.hint ? { step: hintAsked.step, data: f.hint } : null;
      hintAsked = null;
      render();
    }
  } else if (f.type === "table_closed") {
    showStatus("closed");
  }
}

// ---------- learning mode: hints (host option) ----------

let hint = null; // { step, data: { command, reason: { key, params } } }
let hintAsked = null; // { id, step }

function askHint(view, kind) {
  const id = nextId();
  hintAsked = { id, step: hintKey(view, kind) };
  conn.send({ type: "hint", id });
  render();
}

/** The question a hint answers (other players' moves in between do not change it). */
function hintKey(view, kind) {
  return `${frame?.game?.id}:${view?.round}:${view?.phase}:${view?.step}:${view?.station}:${kind}`;
}

function hintCommandText(command) {
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

function hintBox(view, kind) {
  if (!frame?.table?.hints || !kind || kind === "roll") return null;
  const step = hintKey(view, kind);
  const shown = hint && hint.step === step ? hint.data : null;
  const params = { ...(shown?.reason?.params || {}) };
  for (const k of ["a", "b", "station"]) if (k in params) params[k] = stationName(params[k]);
  return h(
    "div",
    { class: "hint-box" },
    shown
      ? [h("p", { class: "hint-move" }, h("strong", {}, `${t("hint.title")}: `), hintCommandText(shown.command)), h("p", { class: "hint-reason" }, t(shown.reason.key, params))]
      : h("button", { class: "hint-button", disabled: Boolean(hintAsked), onclick: () => askHint(view, kind) }, hintAsked ? t("hint.thinking") : t("hint.button")),
  );
}

function send(command) {
  lastError = "";
  notice = null; // the undone move is being answered again
  if (command.type === "bid") clearSavedDraft();
  const id = conn.command(command, nextId());
  asking = reduce(asking, { type: "sent", id, kind: command.type });
  render();
}

/** Where this seat's unlocked bid is kept: localStorage, so a closed tab keeps it too. */
function draftStorageKey() {
  return `${storageKey}:draft:${credentials?.seat || ""}`;
}

function clearSavedDraft() {
  try {
    localStorage.removeItem(draftStorageKey());
  } catch {
    /* ignore */
  }
}

// ---------- rendering ----------

function me() {
  return frame?.you?.seat || credentials?.seat;
}

// Asked only once the display has shown the step's results: the next bid, a tie's decision
// at the city or the pyramid (R5.3, R5.4), bonus dice (R3.2) and the next round's sacrifice.
function myPending() {
  // While the display shows the step's results (the show's beats), every question waits:
  // the table reads the result together, then answers.
  return beat.active() ? [] : frame?.you?.pending || [];
}

function render() {
  if (!frame) return;
  cueAsked();
  // The view as far as the table's show has got (scores, track and pyramid on its beat); the
  // game is over on this phone once the final scoring starts, not while the last stations show.
  const view = beat.beforeFinale(beat.view(frame.game?.view));
  renderHeader(view);
  if (!frame.game) {
    renderLobby();
    showOnly(SCREENS, "screen-lobby");
    keepAwake(false);
    return;
  }
  if (view.finished || frame.game.status === "ended") {
    renderFinal(view);
    if (document.getElementById("screen-final")?.hidden) window.scrollTo(0, 0); // from its top
    showOnly(SCREENS, "screen-final");
    keepAwake(false);
    return;
  }
  renderTask(view);
  renderDeck(view, trayActions);
  renderScores(view);
  showOnly(SCREENS, "screen-game");
  keepAwake(myPending().length > 0);
  fitTables();
  keepInView();
  keepRankingInView();
  tellShown();
}

/** Tell the server what this pad asks at which view, whenever that changes: a seat the table
 * waits for whose pad shows no question gets the whole view again (the safety net behind
 * padstate.js; the host page names the phone the table waits for). */
function tellShown() {
  const held = beat.active();
  const message = report(asking, asks(asking, held), held);
  const key = JSON.stringify(message);
  if (key !== reported && conn?.send(message)) reported = key;
  // While the beats hold the questions, look again when they end (never wait on a timer
  // that only plays sounds to notice it).
  clearTimeout(heldTimer);
  heldTimer = held ? setTimeout(() => frame && render(), Math.max(100, beat.left() * 1000 + 100)) : null;
}

let heldTimer = null;

/** A table too wide for the phone (a long one-word name) gets a smaller font, step by step,
 * until it fits: names are never broken inside a word (pad.css). Not below 80 % (14 px, the
 * smallest text the pad shows). */
function fitTables() {
  for (const table of document.querySelectorAll("#task table.mini")) {
    const box = table.parentElement;
    const right = () => box.getBoundingClientRect().right - parseFloat(getComputedStyle(box).paddingRight);
    let size = 100;
    table.style.fontSize = "";
    while (table.getBoundingClientRect().right > right() + 0.5 && size > 80) {
      size -= 5;
      table.style.fontSize = `${size}%`;
    }
  }
}

let rankingShown = null; // the ranking keepRankingInView last scrolled to

/** When a new station's result comes up while the phone only watches, its ranking's top is
 * scrolled into view below the header (the page kept the scroll of the bidding). */
function keepRankingInView() {
  const ranking = document.querySelector("#task [data-testid=ranking]");
  const watching = ["none", "auto"].includes(document.body.dataset.task);
  if (!ranking || !watching) return;
  const key = `${frame?.game?.id}:${frame?.game?.view?.round}:${ranking.dataset.station}`;
  if (key === rankingShown) return;
  rankingShown = key;
  const header = document.querySelector(".padbar")?.getBoundingClientRect().bottom || 0;
  const r = ranking.getBoundingClientRect();
  if (r.top < header || r.top > window.innerHeight * 0.5) window.scrollBy(0, r.top - header - 8);
}

let keptKey = null; // what keepInView last brought into view (a slot, a decision)

/** The slot being filled and a decision's options stay above the sticky card tray and lock-in
 * bar: scrolled into view when they change (never fighting the player's own scrolling). */
function keepInView() {
  const slot = document.querySelector("#task .slot.active");
  const choices = document.querySelector("#task .choices");
  const target = slot || choices;
  if (!target) return void (keptKey = null);
  const key = slot ? `slot:${draft?.key}:${draft?.active}` : `choices:${document.body.dataset.task}:${frame?.game?.view?.station}`;
  if (key === keptKey) return;
  keptKey = key;
  const covers = [...document.querySelectorAll("#deck, #task .lockbar")].filter((el) => el.offsetParent && getComputedStyle(el).position === "sticky");
  const bottom = Math.min(window.innerHeight, ...covers.map((el) => el.getBoundingClientRect().top));
  const header = document.querySelector(".padbar")?.getBoundingClientRect().bottom || 0;
  const r = target.getBoundingClientRect();
  if (r.bottom > bottom - 8) window.scrollBy(0, Math.min(r.bottom - bottom + 8, r.top - header - 8));
  else if (r.top < header) window.scrollBy(0, r.top - header - 8);
}

function renderHeader(view) {
  const you = frame.you;
  fill("who", you ? chip(you.seat) : "");
  const over = view && (view.finished || frame.game?.status !== "playing");
  const status = over
    ? [t(frame.game?.status === "ended" && !view.finished ? "phase.ended_short" : "phase.finished")]
    : view
    ? [
        view.round ? t("round.label", { round: view.round, max: view.profile?.max_rounds ?? 7 }) : t("round.before"),
        view.mode ? h("span", { class: "mode-badge small", dataset: { mode: view.mode } }, modeName(view.mode)) : null,
        view.last_round
          ? h("span", { class: "badge last", dataset: { testid: "last-round" } }, t("show.last_round_why", { reason: lastRoundReason(view.last_round_reason, view) }))
          : null,
      ]
    : [];
  fill("round", status);
}

function renderLobby() {
  const you = frame.you;
  fill(
    "lobby",
    h("p", { class: "lead" }, t("pad.seated", { name: you?.name || "" })),
    h("p", {}, plural("pad.wait_start", (frame.seats || []).length)),
    h("ul", { class: "lobby-seats" }, (frame.seats || []).map((s) => h("li", {}, chip(s.id)))),
    h(
      "button",
      {
        class: "link",
        onclick: () => {
          if (!confirm(t("pad.confirm_leave"))) return;
          conn.send({ type: "leave" });
          saveCredentials(null);
          conn.stop("idle");
          location.reload();
        },
      },
      t("pad.leave"),
    ),
  );
}

/** Slots the bid asked now gives: [{station, index}], from the view's bid_shape (R2.4–R2.6). */
function slotsFor(shape) {
  const slots = [];
  for (const s of shape?.stations || []) for (let i = 0; i < shape.cards; i += 1) slots.push({ station: Number(s), index: i });
  return slots;
}

function ensureDraft(view) {
  const key = `${frame.game.id}:${view.round}:${view.step}`;
  if (draft?.key === key) return draft;
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(draftStorageKey()) || "null");
  } catch {
    saved = null;
  }
  if (saved?.key === key && draftFits(saved, view)) draft = saved;
  else draft = { key, slots: slotsFor(view.bid_shape).map((s) => ({ ...s, card: null, idx: null })), active: 0 };
  reviewing = false;
  return draft;
}

/** A saved draft still fits the deck: every placed card is a free copy of that value. */
function draftFits(saved, view) {
  const free = freeCards(view);
  const seen = new Set();
  return (saved.slots || []).every((s) => {
    if (s.card === null) return true;
    if (seen.has(s.idx) || free[s.idx] !== s.card) return false;
    seen.add(s.idx);
    return true;
  });
}

function saveDraft() {
  try {
    localStorage.setItem(draftStorageKey(), JSON.stringify(draft));
  } catch {
    /* ignore */
  }
}

/** Deck positions placed in the draft. Cards are tracked by position, never by value: after
 * Tachli a deck may hold the same value twice (R5.6), and each copy is its own card. */
function draftIndices() {
  return new Set((draft?.slots || []).filter((s) => s.card !== null).map((s) => s.idx));
}

/** The deck by position: the value, or null for a card already used this round. `used` is a
 * multiset, so with two 11s and one 11 used exactly one copy is marked. */
function freeCards(view) {
  const mine = view?.players?.[me()] || {};
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

function pickCard(idx, card) {
  if (!draft || reviewing || asking.sending) return;
  let i = draft.active;
  if (i === null || i === undefined || draft.slots[i]?.card !== null) i = draft.slots.findIndex((s) => s.card === null);
  if (i < 0 || draftIndices().has(idx)) return;
  draft.slots[i].card = card;
  draft.slots[i].idx = idx;
  const next = draft.slots.findIndex((s) => s.card === null);
  draft.active = next < 0 ? null : next;
  saveDraft();
  render();
}

function clearSlot(i) {
  if (!draft || reviewing || asking.sending) return;
  draft.slots[i].card = null;
  draft.slots[i].idx = null;
  draft.active = i;
  saveDraft();
  render();
}

function bidsFromDraft() {
  const bids = {};
  for (const s of draft.slots) (bids[String(s.station)] ||= []).push(s.card);
  return bids;
}

function renderTask(view) {
  trayActions = null;
  const pend = myPending();
  const task = document.getElementById("task");
  // An answer already sent for this very question is not asked again while its view is due.
  const kinds = new Set(asks(asking, beat.active()));
  const error = lastError ? h("p", { class: "error", role: "alert" }, lastError) : null;
  const news = [noticeBox(view), companionMovesBox(view)];
  // Skipped by the host: say so plainly, the companion answers for this seat.
  if ((frame.seats || []).find((s) => s.id === me())?.companion) {
    document.body.dataset.task = "auto";
    return fill(
      task,
      h("div", { class: "auto-note", dataset: { testid: "auto-note" } }, t("pad.auto_title"), h("p", {}, t("pad.auto_help"))),
      news,
      waitTask(view),
    );
  }
  document.body.dataset.task = [...kinds][0] || "none";
  const help = hintBox(view, [...kinds][0]);
  if (kinds.has("sacrifice")) return fill(task, news, help, sacrificeTask(view), error);
  if (kinds.has("bid")) return fill(task, news, help, bidTask(view), error);
  if (kinds.has("dice")) return fill(task, news, help, diceTask(view), error);
  if (kinds.has("roll")) return fill(task, news, rollTask(view, pend.find((p) => p.type === "roll")), error);
  if (kinds.has("city")) return fill(task, news, help, cityTask(view), error);
  if (kinds.has("pyramid")) return fill(task, news, help, pyramidTask(view), error);
  return fill(task, news, waitTask(view), error);
}

/** The host gave the seat back (notice "resumed", PROTOCOL.md 3.4): said until what this
 * phone is asked changes (it answered, or the game moved on) or another game starts. */
function noteSeatBack(f) {
  if (f.type !== "view") return;
  const pending = JSON.stringify((f.you?.pending || []).map((p) => p.type));
  if (f.notice?.kind === "resumed") seatBack = { pending, game: f.game?.id ?? null };
  else if (seatBack && (pending !== seatBack.pending || (f.game?.id ?? null) !== seatBack.game)) seatBack = null;
}

/** "The host undid your bid for station 3": the seat's own move only (PROTOCOL.md 3.4); "you
 * have your seat back" after a companion player had it. */
function noticeBox() {
  const back = seatBack ? h("div", { class: "notice", role: "status", dataset: { testid: "seat-back" } }, t("pad.notice.resumed")) : null;
  if (!notice || notice.kind !== "undone") return back;
  const station = notice.station ?? (notice.stations?.length === 1 ? notice.stations[0] : null);
  let text;
  if (notice.type === "bid") text = station !== null ? t("pad.notice.undone.bid_one", { station: stationLabel(station) }) : t("pad.notice.undone.bid_all");
  else if (notice.type === "dice") text = t("pad.notice.undone.dice", { station: stationLabel(station ?? "?") });
  else if (notice.type === "sacrifice" || notice.type === "roll") text = t(`pad.notice.undone.${notice.type}`);
  else text = t("pad.notice.undone.other");
  return [back, h("div", { class: "notice", role: "status", dataset: { testid: "notice" } }, text)];
}

/** What a companion player did for this seat this round while it had the seat: "a companion
 * player bid 7+5 for you at station 2" (the seat's own moves only, sent to this seat only). */
function companionMovesBox() {
  const moves = frame.you?.companion_moves || [];
  if (!moves.length) return null;
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
  return h(
    "div",
    { class: "notice companion-moves", dataset: { testid: "companion-moves" } },
    h("strong", {}, t("pad.companion.title")),
    h("ul", {}, lines.map((x) => h("li", {}, x))),
  );
}

function stepTitle(view) {
  if (view.step === "all" || view.step === "first" || view.step === "second") return t(`pad.bid_title.${view.step}`);
  return t("pad.bid_title.station", { n: view.step });
}

function sacrificeTask(view) {
  const deck = view.players?.[me()]?.deck || [];
  const picked = choice?.type === "sacrifice" ? choice.value : null;
  const cards = h(
    "div",
    { class: "hand" },
    deck.map((c, i) =>
      h(
        "button",
        {
          class: `card-btn ${picked === c && choice.index === i ? "picked" : ""}`,
          dataset: { card: c, value: c, testid: "choice", kind: "sacrifice" },
          "aria-pressed": picked === c && choice.index === i ? "true" : "false",
          onclick: () => {
            choice = { type: "sacrifice", value: c, index: i };
            render();
          },
        },
        String(c),
      ),
    ),
  );
  return [
    h("h2", {}, t("pad.sacrifice_title")),
    h("p", { class: "help" }, t("pad.sacrifice_help")),
    cards,
    lockBar(picked !== null, t("pad.sacrifice_pick", { card: picked ?? "" }), () => send({ type: "sacrifice", card: picked })),
  ];
}

/** The review / lock-in bar shared by every decision. */
function lockBar(ready, summary, onLock) {
  if (asking.sending) return h("div", { class: "lockbar" }, h("p", { class: "sending" }, t("pad.sending")));
  return h(
    "div",
    { class: "lockbar" },
    ready ? h("p", { class: "summary" }, summary) : null,
    h("button", { class: "big primary", id: "lock-in", "data-testid": "lock-in", disabled: !ready, onclick: onLock }, t("pad.lock_in")),
  );
}

function bidTask(view) {
  ensureDraft(view);
  const mine = view.players?.[me()] || {};
  const firstCards = view.step === "second" ? view.revealed || {} : {};
  const full = draft.slots.every((s) => s.card !== null);
  const stations = [...new Set(draft.slots.map((s) => s.station))];
  const rows = stations.map((station) => {
    const slotIdx = draft.slots.map((s, i) => [s, i]).filter(([s]) => s.station === station);
    const earlier = firstCards[String(station)]?.[me()] || mine.bids?.[String(station)] || [];
    const sum = earlier.reduce((a, b) => a + b, 0) + slotIdx.reduce((a, [s]) => a + (s.card ?? 0), 0);
    return h(
      "div",
      { class: "station-row", dataset: { station } },
      h("div", { class: "station-head" }, h("span", { class: "station-name" }, stationLabel(station)), h("span", { class: "sum" }, t("pad.sum", { n: sum }))),
      h("div", { class: "stake" }, stakeText(station, view)),
      h(
        "div",
        { class: "slots" },
        earlier.map((c) => h("span", { class: "slot fixed" }, String(c))),
        slotIdx.map(([s, i]) =>
          h(
            "button",
            {
              class: `slot ${s.card === null ? "empty" : "filled"} ${draft.active === i && !reviewing ? "active" : ""}`,
              dataset: { slot: i, testid: "slot" },
              disabled: reviewing || Boolean(asking.sending),
              onclick: () => (s.card === null ? ((draft.active = i), render()) : clearSlot(i)),
              "aria-label": s.card === null ? t("pad.slot_empty") : String(s.card),
            },
            s.card === null ? "" : String(s.card),
          ),
        ),
      ),
    );
  });
  const head = [
    h("h2", {}, reviewing ? t("pad.review_title") : stepTitle(view)),
    h("p", { class: "help" }, reviewing ? t("pad.review_help") : t("pad.bid_help")),
  ];
  const offer = bidOffer(view);
  let actions;
  if (asking.sending) actions = h("div", { class: "lockbar" }, h("p", { class: "sending" }, t("pad.sending")));
  else if (reviewing) {
    actions = h(
      "div",
      { class: "lockbar two" },
      h("button", { class: "big", id: "change", "data-testid": "change", onclick: () => ((reviewing = false), render()) }, t("pad.change")),
      h("button", { class: "big primary", id: "lock-in", "data-testid": "lock-in", onclick: () => send({ type: "bid", bids: bidsFromDraft() }) }, t("pad.lock_in")),
    );
  } else {
    actions = h(
      "div",
      { class: "lockbar two" },
      h(
        "button",
        {
          class: "big",
          id: "clear",
          "data-testid": "clear",
          onclick: () => {
            draft.slots.forEach((s) => {
              s.card = null;
              s.idx = null;
            });
            draft.active = 0;
            saveDraft();
            render();
          },
        },
        t("pad.clear"),
      ),
      h("button", { class: "big primary", id: "review", "data-testid": "review", disabled: !full, onclick: () => ((reviewing = true), render()) }, t("pad.review")),
    );
  }
  trayActions = actions; // in the sticky tray under the cards: always on screen, never covered
  return [head, offer, h("div", { class: `stations ${reviewing ? "reviewing" : ""}` }, rows)];
}

function bidOffer(view) {
  const items = [];
  if (view.harvest) items.push(h("span", { class: "offer" }, `${t("display.harvest")} `, diceRow(view.harvest)));
  if (view.improvements) items.push(h("span", { class: "offer" }, `${t("display.improvements")} `, h("span", { class: "cards" }, view.improvements.map((c) => h("span", { class: "card" }, String(c))))));
  return items.length ? h("div", { class: "offers" }, items) : null;
}

/** The revealed bids of the station being resolved, so decisions are made with them in view:
 * the ranking with every bid's parts once it exists, else the revealed cards. */
function revealedTable(view, station) {
  const ranking = told().filter((e) => e.type === "ranking" && e.station === Number(station)).at(-1);
  if (ranking) return rankingTable(ranking, view);
  const bids = view.dice_window?.station === Number(station) ? view.dice_window.bids : null;
  if (bids) return windowTable(bids, station, view);
  const cards = view.revealed?.[String(station)] || {};
  const rows = Object.entries(cards).map(([p, c]) =>
    h("tr", {}, h("td", {}, chip(p)), h("td", { class: "num" }, c.join(" + ")), h("td", { class: "num strong" }, String(c.reduce((a, b) => a + b, 0)))),
  );
  return h(
    "div",
    { class: "revealed" },
    h("h3", {}, `${t("pad.revealed_bids")} — ${stationLabel(station)}`),
    h("p", { class: "stake" }, stakeText(station, view)),
    h("table", { class: "mini" }, h("tbody", {}, rows)),
  );
}

/** The bonus dice window (R3.2, R3.3): every bid as its parts — cards, huts, old man — and its
 * value before dice, best first, with the black dice each player holds. */
function windowTable(bids, station, view) {
  const order = Object.keys(bids).sort((a, b) => bids[a].place - bids[b].place);
  return h(
    "div",
    { class: "revealed", dataset: { testid: "dice-bids" } },
    h("h3", {}, `${t("pad.revealed_bids")} — ${stationLabel(station)}`),
    h("p", { class: "stake" }, stakeText(station, view)),
    h("p", { class: "help" }, t("pad.dice_bids")),
    h(
      "table",
      { class: "mini" },
      h(
        "tbody",
        {},
        order.map((p) => {
          const b = bids[p];
          const mods = [b.huts ? signed(b.huts) : "", b.old_man ? signed(b.old_man) : ""].filter(Boolean).join(" ");
          return h(
            "tr",
            { dataset: { player: p } },
            h("td", {}, t(`place.${b.place}`)),
            h("td", {}, chip(p)),
            h("td", { class: "num" }, b.cards.join("+")),
            h("td", { class: "num" }, mods),
            h("td", { class: "num strong", dataset: { testid: "effective" } }, String(b.base)),
            h("td", { class: "num" }, b.dice ? plural("pad.dice_held", b.dice) : ""),
          );
        }),
      ),
    ),
  );
}

/** What dice could change for this seat: "two dice could lift you to 2nd" (all sixes, nobody
 * else rolling) and how far others' dice could push it down. */
function diceOutlook(view) {
  const mine = view.dice_window?.bids?.[me()];
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
  return h("ul", { class: "outlook", dataset: { testid: "dice-outlook" } }, lines.map((x) => h("li", {}, x)));
}

/** The questions of this round the table answered for this seat without asking, because no
 * answer could change what the station gives (R3.2 dice, R5.4 the pyramid's order), each
 * with the place from its station's ranking. */
function diceNotAsked(view) {
  const skipped = frame.you?.not_asked || [];
  if (!skipped.length) return null;
  const line = (item) => {
    const entry = lastRanking(item.station)?.entries?.find((e) => e.player === me());
    const place = item.place ?? entry?.place ?? view.dice_window?.bids?.[me()]?.place;
    const key = item.kind === "pyramid" ? "pad.pyramid_not_asked" : "pad.dice_fixed";
    return h("li", {}, t(key, { station: stationLabel(item.station), place: place ? t(`place.${place}`) : "—" }));
  };
  return h("ul", { class: "notice", dataset: { testid: "dice-not-asked" } }, skipped.map(line));
}

/** A station's ranking: place, player, cards, modifiers (huts, old man, dice), total, ties. */
function rankingTable(ranking, view) {
  return h(
    "div",
    { class: "revealed", dataset: { testid: "ranking", station: ranking.station } },
    h("h3", {}, stationLabel(ranking.station)),
    h("p", { class: "stake" }, stakeText(ranking.station, view)),
    h(
      "table",
      { class: "mini" },
      h(
        "tbody",
        {},
        ranking.entries.map((e) =>
          h(
            "tr",
            {},
            h("td", {}, `${e.place}.`),
            h("td", {}, chip(e.player)),
            h("td", { class: "num" }, e.cards.join(" + ")),
            h("td", { class: "num" }, [e.huts ? signed(e.huts) : "", e.old_man ? signed(e.old_man) : "", e.dice?.length ? `+${e.dice.join("+")}` : ""].filter(Boolean).join(" ")),
            h("td", { class: "num strong" }, String(e.total)),
          ),
        ),
      ),
    ),
    rankingTies(ranking).map((x) => h("p", { class: "tie" }, x)),
  );
}

function diceTask(view) {
  const held = view.players?.[me()]?.dice || 0;
  const station = view.dice_window?.station ?? view.station;
  const picked = choice?.type === "dice" ? choice.value : null;
  const buttons = [];
  for (let n = 0; n <= held; n += 1) {
    buttons.push(
      h(
        "button",
        {
          class: `big choice ${picked === n ? "picked" : ""}`,
          dataset: { count: n, testid: "choice", kind: "dice", value: n },
          "aria-pressed": picked === n ? "true" : "false",
          onclick: () => {
            choice = { type: "dice", value: n };
            render();
          },
        },
        n === 0 ? t("pad.dice_none") : t("pad.dice_use", { n }),
      ),
    );
  }
  return [
    h("h2", {}, t("pad.dice_title", { n: station })),
    h("p", { class: "help" }, t("pad.dice_help", { n: held })),
    diceOutlook(view),
    h("div", { class: "choices" }, buttons),
    revealedTable(view, station),
    lockBar(picked !== null, picked === 0 ? t("pad.dice_none") : t("pad.dice_use", { n: picked }), () => send({ type: "dice", count: picked })),
  ];
}

function rollTask(view, entry) {
  const mine = view.dice_window?.choices?.[me()];
  const count = entry?.count ?? (view.phase === "final_roll" ? 1 : mine || 1);
  const inputs = [];
  for (let i = 0; i < count; i += 1) {
    inputs.push(h("input", { type: "number", min: 1, max: 6, inputmode: "numeric", class: "die-input", required: true, "aria-label": `${i + 1}` }));
  }
  const form = h(
    "form",
    {
      class: "roll-form",
      onsubmit: (e) => {
        e.preventDefault();
        const values = [...e.target.querySelectorAll("input")].map((x) => Number(x.value));
        if (values.some((v) => !(v >= 1 && v <= 6))) return;
        send({ type: "roll", values });
      },
    },
    h("div", { class: "dice-inputs" }, inputs),
    h("button", { class: "big primary", type: "submit", disabled: Boolean(asking.sending) }, t("pad.roll_send")),
  );
  return [h("h2", {}, count === 1 ? t("pad.roll_title_one") : t("pad.roll_title", { n: count })), view.station ? revealedTable(view, view.station) : null, form];
}

function cityTask(view) {
  const picked = choice?.type === "city" ? choice.value : null;
  const option = (value, label, help) =>
    h(
      "button",
      {
        class: `big choice tall ${picked === value ? "picked" : ""}`,
        dataset: { choice: value, testid: "choice", kind: "city", value },
        "aria-pressed": picked === value ? "true" : "false",
        onclick: () => {
          choice = { type: "city", value };
          render();
        },
      },
      h("strong", {}, label),
      h("small", {}, help),
    );
  return [
    h("h2", {}, t("pad.city_title")),
    h("div", { class: "choices" }, option("hut", t("pad.city_hut"), t("pad.city_hut_help")), option("die", t("pad.city_die"), t("pad.city_die_help"))),
    revealedTable(view, 3),
    lockBar(picked !== null, picked === "hut" ? t("pad.city_hut") : t("pad.city_die"), () => send({ type: "city", choice: picked })),
  ];
}

function pyramidTask(view) {
  const other = view.decision?.type === "pyramid" ? view.decision.second : lastRanking(4)?.entries?.[1]?.player;
  const picked = choice?.type === "pyramid" ? choice.value : null;
  const option = (value, label) =>
    h(
      "button",
      {
        class: `big choice ${picked === value ? "picked" : ""}`,
        dataset: { first: value, testid: "choice", kind: "pyramid", value },
        "aria-pressed": picked === value ? "true" : "false",
        onclick: () => {
          choice = { type: "pyramid", value };
          render();
        },
      },
      label,
    );
  const options = [option(me(), t("pad.pyramid_me"))];
  if (other) options.push(option(other, t("pad.pyramid_other", { name: nameOf(other) })));
  return [
    h("h2", {}, t("pad.pyramid_title", { other: nameOf(other) })),
    h("div", { class: "choices" }, options),
    revealedTable(view, 4),
    lockBar(picked !== null, picked === me() ? t("pad.pyramid_me") : t("pad.pyramid_other", { name: nameOf(picked) }), () =>
      send({ type: "pyramid", first: picked }),
    ),
  ];
}

/** This round's events as far as the display has told them (stations still to come in the
 * show's current step are not told on the phone before the display shows them). */
function told() {
  const hidden = beat.untold();
  if (!hidden) return events;
  const before = events.slice(0, Math.max(0, events.length - beat.events.length));
  return [...before, ...beat.events.slice(0, beat.events.length - hidden)];
}

function lastRanking(station) {
  return told().filter((e) => e.type === "ranking" && (station === undefined || e.station === station)).at(-1);
}

function waitTask(view) {
  const waiting = [...new Set((view.pending || []).filter((p) => p.player).map((p) => p.player))];
  const host = (view.pending || []).filter((p) => !p.player).map((p) => t(`wait.${p.type}`));
  const bidDone = view.bid_status?.[me()];
  const ranking = lastRanking();
  const windowOpen = view.dice_window && (view.phase === "dice" || view.phase === "roll");
  return [
    h("h2", { class: "waiting" }, bidDone ? t("pad.locked") : t("pad.nothing")),
    diceNotAsked(view),
    windowOpen ? revealedTable(view, view.dice_window.station) : null,
    waiting.length ? h("p", {}, t("pad.waiting_for", { names: list(waiting.map(nameOf)) })) : null,
    host.length ? h("p", {}, host.join(" · ")) : null,
    ranking && !windowOpen ? rankingTable(ranking, view) : null,
    told().length ? h("p", { class: "last-event" }, eventText(told().at(-1), view)) : null,
  ];
}

function renderDeck(view, actions) {
  const mine = view.players?.[me()] || {};
  const deck = mine.deck || [];
  const free = freeCards(view);
  const inDraft = draftIndices();
  const bidding = document.body.dataset.task === "bid" && !reviewing && !asking.sending;
  fill(
    "deck",
    h("h2", {}, t("pad.your_cards")),
    h(
      "div",
      { class: "hand" },
      deck.map((c, i) => {
        const isUsed = free[i] === null;
        const picked = inDraft.has(i);
        return h(
          "button",
          {
            class: `card-btn ${isUsed ? "used" : ""} ${picked ? "picked" : ""}`,
            dataset: { card: c, value: c, index: i, testid: "card" },
            disabled: !bidding || isUsed || picked,
            "aria-label": isUsed ? `${c} (${t("pad.used")})` : String(c),
            onclick: () => pickCard(i, c),
          },
          String(c),
        );
      }),
    ),
    actions || null,
  );
  document.getElementById("deck").hidden = !deck.length || myPending().some((p) => p.type === "sacrifice");
}

function renderScores(view) {
  const projection = view.projection;
  const players = view.seats || Object.keys(view.players || {});
  const stats = (p) => {
    const s = view.players?.[p] || {};
    return h(
      "div",
      { class: "stats" },
      h("span", {}, t("pad.stat.score", { n: s.score ?? 0 })),
      h("span", {}, t("pad.stat.huts", { n: s.huts ?? 0 })),
      h("span", {}, t("pad.stat.dice", { n: s.dice ?? 0 })),
      h("span", {}, t("pad.stat.cubes", { n: Math.max(0, (view.profile?.cubes ?? 9) - (s.cubes_used ?? 0)) })),
    );
  };
  const myLines = projection?.[me()];
  const mine = h(
    "div",
    { class: "my-score" },
    h("h3", { class: "my-total" }, chip(me()), h("span", { class: "num strong" }, myLines ? String(myLines.total) : "—")),
    stats(me()),
    myLines
      ? h(
          "table",
          { class: "mini lines" },
          h(
            "tbody",
            {},
            FINAL_LINES.filter((k) => myLines[k] !== 0).map((k) =>
              h("tr", {}, h("th", {}, t(`final.${k}`)), h("td", { class: "num" }, myLines[k] === null ? t("final.hidden") : signed(myLines[k]))),
            ),
          ),
        )
      : null,
  );
  const others = players
    .filter((p) => p !== me())
    .map((p) =>
      h(
        "li",
        {},
        h("div", { class: "other-head" }, chip(p), h("span", { class: "num strong" }, projection?.[p] ? `${projection[p].total} + ?` : "")),
        (frame.seats || []).find((s) => s.id === p)?.companion ? h("span", { class: "badge auto" }, t("display.auto")) : null,
        stats(p),
        h("small", { class: "muted" }, t("pad.secret")),
      ),
    );
  fill("scores", mine, h("h3", {}, t("pad.others")), h("ul", { class: "others" }, others));
}

/** Final scoring on a phone: one card per player (best first), every line of R7 and the total,
 * so five players and long names fit a portrait screen without a sideways swipe. */
function renderFinal(view) {
  if (!view) return;
  const order = view.seats || Object.keys(view.players || {});
  // The final scoring on the table's beat (R7): a card for each line the display has turned
  // over so far (none waits face down as "secret"), the winner once the display names them.
  const { turned, crowned } = beat.finale(view);
  const all = Object.fromEntries(order.map((p) => [p, view.players?.[p]?.final || {}]));
  const lines = Object.fromEntries(order.map((p) => [p, turned.includes(p) ? all[p] : {}]));
  const winners = crowned ? view.winners || [] : [];
  const ranked = order
    .filter((p) => turned.includes(p))
    .sort((a, b) => (lines[b].total ?? -1) - (lines[a].total ?? -1));
  const card = (p) =>
    h(
      "article",
      { class: `final-card ${winners.includes(p) ? "winner" : ""} ${p === me() ? "mine" : ""}`, dataset: { player: p } },
      h(
        "h3",
        { class: "final-card-head" },
        chip(p),
        h("span", { class: "final-total", dataset: { testid: "final-total" } }, String(lines[p].total ?? "")),
      ),
      h(
        "dl",
        { class: "final-lines" },
        FINAL_LINES.map((k) => {
          const v = lines[p][k];
          return [h("dt", {}, t(`final.${k}`)), h("dd", { class: "num" }, v === null || v === undefined ? t("final.hidden") : signed(v))];
        }),
      ),
    );
  const place = crowned && view.finished ? placeOf(me(), order, all) : null;
  fill(
    "final",
    h("h2", {}, t("pad.final_title")),
    frame.game.status === "ended" && !view.finished ? h("p", { dataset: { testid: "ended-by" } }, t(frame.game.ended_by === "cafe" ? "phase.ended_cafe" : "phase.ended")) : null,
    view.finished && view.last_round_reason ? h("p", { class: "end-reason" }, t("show.end_reason", { reason: lastRoundReason(view.last_round_reason, view) })) : null,
    place ? h("p", { class: "you-place", dataset: { testid: "place" } }, t("pad.place", { place: t(`place.${place}`), count: order.length })) : null,
    frame.game.status === "ended" && !view.finished ? standingsTable(frame.game.standings || []) : null,
    winners.includes(me()) ? h("p", { class: "you-won" }, t("pad.you_won")) : null,
    winners.length ? h("p", { class: "lead" }, winners.length > 1 ? t("final.winners", { names: list(winners.map(nameOf)) }) : t("final.winner", { names: nameOf(winners[0]) })) : null,
    view.finished
      ? h(
          "div",
          { class: "final-cards", dataset: { testid: "final-scoring", turned: String(ranked.length), crowned: String(crowned) } },
          ranked.map(card),
        )
      : null,
    reviewPanel(frame, credentials),
  );
}

/** A player's place (R7: higher total, then the higher sacrifice; equal on both share it). */
function placeOf(player, order, lines) {
  const mine = lines[player];
  if (!mine || mine.total === undefined) return null;
  const ahead = order.filter((p) => {
    const l = lines[p];
    return l.total > mine.total || (l.total === mine.total && (l.sacrifice ?? 0) > (mine.sacrifice ?? 0));
  });
  return ahead.length + 1;
}

const beat = new Beat(); // the show's step: the final scoring turns over on the display's beat
let beatShown = null;

function beatKey() {
  return `${beat.step}:${beat.current().index}`;
}

/** A beat that came up since the last look: note it and play its sound (the display's). */
function soundBeat() {
  if (beatKey() === beatShown) return false;
  beatShown = beatKey();
  const cur = beat.current();
  cue(beatSound(cur.index >= 0 ? beat.beats[cur.index] : null));
  return true;
}

setInterval(() => {
  if (frame && soundBeat()) render();
}, 250);

// ---------- sound: silent unless this phone's player turns it on ----------

const sound = new Sound("chocolatl.pad.sound", false); // per phone, not per table
let asked = null; // what the pad asked at the last render (null: nothing rendered yet)

/** A tune for this player: only while the sound is on and the pad is in view. While off,
 * Sound.play returns at once, so no AudioContext is ever made. */
function cue(name) {
  if (name && sound.on && !document.hidden) sound.play(name);
}

/** "Your turn" when the pad newly asks something: once the show lets it ask (myPending),
 * not on the first view after opening the page. An answer takes its question off the list,
 * so the next one of the same kind (the next station's dice, the second bid) is new again;
 * other players' moves while it waits do not repeat it. */
function cueAsked() {
  const g = frame?.game;
  const now = new Set(myPending().map((p) => `${g?.id}:${g?.view?.round}:${p.type}`));
  if (asked && [...now].some((k) => !asked.has(k))) cue("your_turn");
  asked = now;
}

/** The toggle is a speaker icon (struck through while off) named "sound on this phone"; its
 * state is aria-pressed, and each tap says in words what it did for a moment (sound-note). */
function renderSoundToggle() {
  document.getElementById("pad-sound")?.setAttribute("aria-pressed", String(sound.on));
}

let noteTimer = null;

function sayToggled() {
  const note = document.getElementById("sound-note");
  if (!note) return;
  note.textContent = t(sound.on ? "pad.sound_is_on" : "pad.sound_is_off");
  note.hidden = false;
  clearTimeout(noteTimer);
  noteTimer = setTimeout(() => (note.hidden = true), 3000);
}

function soundControls() {
  // Browsers start audio only from a tap: the AudioContext is made (or resumed) by the tap
  // that turns the sound on, with a blip to say it works; off suspends it.
  document.getElementById("pad-sound")?.addEventListener("click", () => {
    sound.on = !sound.on;
    if (sound.on) {
      sound.unlock();
      cue("sound_on");
    } else sound.ctx?.suspend?.();
    sound.save();
    renderSoundToggle();
    sayToggled();
  });
  // Turned on before a reload: the first tap anywhere lets the sound play again.
  document.addEventListener(
    "click",
    () => {
      if (sound.on && sound.ctx?.state !== "running") sound.unlock();
    },
    true,
  );
  renderSoundToggle();
}

/** The scores at the moment the host ended the game (no final scoring was made, R7). */
function standingsTable(standings) {
  return h(
    "div",
    { class: "standings", dataset: { testid: "standings" } },
    h("h3", {}, t(frame.game?.ended_by === "cafe" ? "pad.standings_title_cafe" : "pad.standings_title")),
    h(
      "table",
      { class: "mini" },
      h(
        "tbody",
        {},
        standings.map((e) =>
          h(
            "tr",
            { class: e.player === me() ? "mine" : "", dataset: { player: e.player } },
            h("td", {}, t(`place.${e.place}`)),
            h("td", {}, chip(e.player)),
            h("td", { class: "num strong" }, t("pad.stat.score", { n: e.score })),
          ),
        ),
      ),
    ),
    h("p", { class: "help" }, t("pad.standings_note")),
  );
}

// ---------- start ----------

async function main() {
  window.__pad = { frame: () => frame, conn: null, sound: () => ({ on: sound.on, context: sound.ctx?.state ?? null }) };
  await setLanguage(pickLanguage());
  languageSwitch(document.getElementById("lang"), { remember: true });
  onLanguageChange(() => {
    if (frame) render();
    else if (document.getElementById("screen-status").dataset.kind) showStatus(document.getElementById("screen-status").dataset.kind);
  });
  document.getElementById("join-form").addEventListener("submit", join);
  soundControls();
  translateDom(document);
  if (credentials && credentials.table === tableName) {
    showStatus("reconnecting");
    document.getElementById("screen-status").dataset.kind = "";
    fill("screen-status", h("div", { class: "status-card" }, h("h2", {}, t("conn.connecting"))));
    connect();
  } else if (page.joinSecret) {
    showOnly(SCREENS, "screen-join");
    loadTakenColours();
  } else {
    showStatus("nosecret");
  }
}

main();
