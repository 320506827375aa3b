// The phone bid pad: join, then the own deck, the current step, review and lock-in, decisions
// only when the rules ask for one, and the score "if the game ended now".

import { Connection, commandIds } from "./connection.js";
import { byId, delegate, fill, h, showOnly } from "./dom.js";
import {
  chip,
  diceRow,
  eventText,
  FINAL_LINES,
  finalCard,
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
import {
  bidsFromDraft,
  clearSlot as emptied,
  companionMoveLines,
  diceOutlook as outlookLines,
  draftFits,
  draftIndices,
  followNews,
  freeCards,
  hintCommandText,
  hintKey,
  initialNews,
  newDraft,
  placeCard,
  placeOf,
  roundAsTold,
  screenOf,
  stepTitle,
  taskOf,
  undoneText,
  waitingFor,
} from "./padview.js";
import { Beat, beatSound, Sound, stepSound } from "./show.js";
import { reviewPanel } from "./review.js";
import { keepAwake } from "./wake.js";

/** @typedef {import("./frames.js").ViewFrame} ViewFrame */
/** @typedef {import("./padview.js").Draft} Draft */

const page = document.body.dataset;
const tableName = page.table;
const storageKey = `chocolatl:${tableName}`;
const SCREENS = ["screen-join", "screen-lobby", "screen-game", "screen-final", "screen-status"];

/** Everything the pad holds that changes: one object, so what the page's state is can be
 * read in one place (the pure decisions are padstate.js and padview.js). */
const pad = {
  credentials: loadCredentials(),
  /** @type {Connection | null} */
  conn: null,
  /** @type {import("./frames.js").ViewFrame | null} the last view (= asking.frame) */
  frame: null,
  asking: initial(), // what the pad asks: the frames and sent commands, folded (padstate.js)
  news: initialNews(), // this round's events, the host's notice, a seat given back (padview.js)
  /** @type {Draft | null} the bid being built */
  draft: null,
  reviewing: false,
  lastError: "",
  /** @type {{type: string, value: any, index?: number} | null} a decision picked but not yet locked in */
  choice: null,
  /** @type {(() => string) | null} */
  nextId: null,
  reported: "", // the last "showing" report sent (sent again only when it changes)
  /** @type {HTMLElement | null} the bid's Clear/Review/Lock-in buttons: shown in the sticky card tray */
  trayActions: null,
  /** @type {{step: string, data: {command: Record<string, any>, reason: {key: string, params?: Record<string, any>}}} | null} learning mode's hint */
  hint: null,
  /** @type {{id: string, step: string} | null} the hint asked for */
  hintAsked: null,
  /** @type {ReturnType<typeof setTimeout> | null} looks again when the beats stop holding the questions */
  heldTimer: null,
  /** @type {{held: boolean, kinds: string[]}} the last render's one look at the show (look) */
  moment: { held: false, kinds: [] },
  /** @type {string | null} the ranking keepRankingInView last scrolled to */
  rankingShown: null,
  /** @type {string | null} what keepInView last brought into view (a slot, a decision) */
  keptKey: null,
  /** @type {string | null} the beat whose sound was played */
  beatShown: null,
  /** @type {Set<string> | null} what the pad asked at the last render (null: nothing rendered yet) */
  asked: null,
  /** @type {ReturnType<typeof setTimeout> | null} hides the sound note */
  noteTimer: null,
};


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
  pad.credentials = c;
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
    const response = await fetch(/** @type {string} */ (page.stateUrl), { cache: "no-store" }); // phone.html always sets it
    if (!response.ok) return;
    const data = await response.json();
    showJoinState(data);
    const taken = new Set((data.seats || []).filter((s) => s.state !== "vacant").map((s) => s.colour));
    for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name="colour"]'))) {
      const label = input.closest("label");
      input.disabled = taken.has(input.value);
      label?.classList.toggle("taken", input.disabled);
      if (input.disabled && input.checked) input.checked = false;
    }
    if (!document.querySelector('input[name="colour"]:checked')) {
      /** @type {HTMLInputElement | null} */ (document.querySelector('input[name="colour"]:not(:disabled)'))?.click();
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
  const error = byId("join-error");
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
    // phone.html always sets data-join-api.
    const response = await fetch(/** @type {string} */ (page.joinApi), {
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
  if (pad.conn) pad.conn.stop("idle");
  pad.nextId = commandIds(`${storageKey}:ids:${pad.credentials.seat}`);
  pad.conn = new Connection({
    path: pad.credentials.ws || page.ws,
    hello: () => ({ type: "hello", seat: pad.credentials.seat, token: pad.credentials.token }),
    auth: () => ({ token: pad.credentials.token }),
    onFrame,
    onStatus,
  });
  window.__pad.conn = pad.conn;
  pad.conn.start();
}

function onStatus(status) {
  document.body.dataset.conn = status;
  const banner = document.getElementById("conn-banner");
  if (banner) {
    banner.hidden = !(status === "reconnecting" || status === "connecting") || !pad.frame;
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
  else if (status === "reconnecting" && !pad.frame) showStatus("reconnecting");
  else if (status === "open" && byId("screen-status").dataset.kind === "closed") {
    render();
  }
}

/** The whole-screen states that are not the game: each one its own screen. */
function showStatus(kind) {
  const box = byId("screen-status");
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
      ? h("button", { class: "big primary", id: "take-back", dataset: { act: "take-back" } }, t("conn.take_back"))
      : kind === "reconnecting" || kind === "closed"
        ? h("button", { class: "big", dataset: { act: "retry" } }, t("conn.retry_now"))
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
    if (f.history) pad.reported = ""; // a new connection (or a resent view): tell it what we show
    pad.news = followNews(pad.news, f, pad.frame);
    pad.asking = reduce(pad.asking, f);
    pad.frame = f;
    if (beat.update(f)) {
      cue(stepSound(f)); // a new step: its first beat has the "bids in" (or nothing)
      pad.beatShown = beatKey();
    } else soundBeat(); // a frame on a beat's edge must not swallow the beat's sound
    render();
  } else if (f.type === "ack") {
    if (f.id === pad.asking.sending) {
      pad.asking = reduce(pad.asking, f); // the question stays answered until the view that shows it
      pad.reviewing = false;
      pad.draft = null;
      pad.choice = null;
      pad.lastError = "";
      render();
    }
  } else if (f.type === "error") {
    if (pad.hintAsked && f.id === pad.hintAsked.id) {
      pad.hintAsked = null;
      pad.lastError = t("pad.err.generic", { code: f.code });
      render();
    } else if (f.id === pad.asking.sending || !f.id) {
      pad.asking = reduce(pad.asking, f);
      const key = `pad.err.${f.code}`;
      pad.lastError = f.code === "illegal" ? t("pad.err.illegal", { reason: f.reason }) : t(key) !== key ? t(key) : t("pad.err.generic", { code: f.code });
      render();
    }
  } else if (f.type === "hint") {
    if (pad.hintAsked && f.id === pad.hintAsked.id) {
      pad.hint = f.hint ? { step: pad.hintAsked.step, data: f.hint } : null;
      pad.hintAsked = null;
      render();
    }
  } else if (f.type === "table_closed") {
    showStatus("closed");
  }
}

// ---------- learning mode: hints (host option) ----------


/** @param {string} step the question's hint key (hintKey), as its button carries it */
function askHint(step) {
  const { conn, nextId } = pad;
  if (!conn || !nextId) return; // both made by connect(), before the first frame
  const id = nextId();
  pad.hintAsked = { id, step };
  conn.send({ type: "hint", id });
  render();
}

function hintBox(view, kind) {
  if (!pad.frame?.table?.hints || !kind || kind === "roll") return null;
  const step = hintKey(pad.frame?.game?.id, view, kind);
  const shown = pad.hint && pad.hint.step === step ? pad.hint.data : null;
  const params = { ...(shown?.reason?.params || {}) };
  for (const k of ["a", "b", "station"]) if (k in params) params[k] = stationName(params[k]);
  return h(
    "div",
    { class: "hint-box" },
    shown
      ? [h("p", { class: "hint-move" }, h("strong", {}, `${t("hint.title")}: `), hintCommandText(shown.command)), h("p", { class: "hint-reason" }, t(shown.reason.key, params))]
      : h("button", { class: "hint-button", disabled: Boolean(pad.hintAsked), dataset: { act: "hint", step } }, pad.hintAsked ? t("hint.thinking") : t("hint.button")),
  );
}

function send(command) {
  const { conn, nextId } = pad;
  if (!conn || !nextId) return; // both made by connect(), before the first frame
  pad.lastError = "";
  pad.news = { ...pad.news, notice: null }; // the undone move is being answered again
  if (command.type === "bid") clearSavedDraft();
  const id = conn.command(command, nextId());
  pad.asking = reduce(pad.asking, { type: "sent", id, kind: command.type });
  render();
}

/** Where this seat's unlocked bid is kept: localStorage, so a closed tab keeps it too. */
function draftStorageKey() {
  return `${storageKey}:draft:${pad.credentials?.seat || ""}`;
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
  return pad.frame?.you?.seat || pad.credentials?.seat;
}

// Asked only once the display has shown the step's results: the next bid, a tie's decision
// at the city or the pyramid (R5.3, R5.4), bonus dice (R3.2) and the next round's sacrifice.
function myPending() {
  // While the display shows the step's results (the show's beats), every question waits:
  // the table reads the result together, then answers.
  return pad.moment.held ? [] : pad.frame?.you?.pending || [];
}

/** One look at the show's clock per render: whether the beats hold the questions and which
 * the pad asks. What the page shows and what it tells the server come from this one look, so
 * they cannot differ (a beat that ends between two looks once left a pad showing nothing
 * while it told the server it showed the question). */
function look() {
  const held = beat.active();
  pad.moment = { held, kinds: asks(pad.asking, held) };
}

function render() {
  const frame = pad.frame;
  if (!frame) return;
  look();
  cueAsked();
  // The view as far as the table's show has got (scores, track and pyramid on its beat); the
  // game is over on this phone once the final scoring starts, not while the last stations show.
  const view = beat.beforeFinale(beat.view(frame.game?.view));
  renderHeader(frame, view);
  if (!frame.game) {
    renderLobby(frame);
    showOnly(SCREENS, "screen-lobby");
    keepAwake(false);
    return;
  }
  if (screenOf(frame, view) === "final") {
    renderFinal(frame, view);
    if (document.getElementById("screen-final")?.hidden) window.scrollTo(0, 0); // from its top
    showOnly(SCREENS, "screen-final");
    keepAwake(false);
    return;
  }
  renderTask(frame, view);
  renderDeck(view, pad.trayActions);
  renderScores(frame, view);
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
  const { held, kinds } = pad.moment;
  const message = report(pad.asking, kinds, held);
  const key = JSON.stringify(message);
  if (key !== pad.reported && pad.conn?.send(message)) pad.reported = key;
  // While the beats hold the questions, look again when they end (never wait on a timer
  // that only plays sounds to notice it).
  clearTimeout(pad.heldTimer);
  pad.heldTimer = held ? setTimeout(() => pad.frame && render(), Math.max(100, beat.left() * 1000 + 100)) : null;
}


/** A table too wide for the phone (a long one-word name) gets a smaller font, step by step,
 * until it fits: names are never broken inside a word (pad.css). Not below 80 % (14 px, the
 * smallest text the pad shows). */
function fitTables() {
  for (const table of /** @type {NodeListOf<HTMLTableElement>} */ (document.querySelectorAll("#task table.mini"))) {
    const box = /** @type {HTMLElement} */ (table.parentElement); // a table inside #task
    const right = () => box.getBoundingClientRect().right - parseFloat(getComputedStyle(box).paddingRight);
    let size = 100;
    table.style.fontSize = "";
    table.classList.remove("squeezed", "squeezed-names");
    while (table.getBoundingClientRect().right > right() + 0.5 && size > 80) {
      size -= 5;
      table.style.fontSize = `${size}%`;
    }
    // Still wider than the phone (a long name beside a row's cards, huts and dice): first the
    // cells close up and the figures may wrap ("1 die"), then, for a long one-word name, the
    // names may break inside a word, rather than the last column going off the screen.
    for (const step of ["squeezed", "squeezed-names"]) {
      if (table.getBoundingClientRect().right <= right() + 0.5) break;
      table.classList.add(step);
    }
  }
}


/** When a new station's result comes up while the phone only watches, its ranking's top is
 * scrolled into view below the header (the page kept the scroll of the bidding), with the note
 * above it of what the table answered for this seat without asking when both fit (scrolled to
 * the ranking alone, that note went under the header or off the screen). */
function keepRankingInView() {
  const ranking = /** @type {HTMLElement | null} */ (document.querySelector("#task [data-testid=ranking]"));
  const watching = ["none", "auto"].includes(document.body.dataset.task || "");
  if (!ranking || !watching) return;
  const key = `${pad.frame?.game?.id}:${pad.frame?.game?.view?.round}:${ranking.dataset.station}`;
  if (key === pad.rankingShown) return;
  pad.rankingShown = key;
  const header = document.querySelector(".padbar")?.getBoundingClientRect().bottom || 0;
  const r = ranking.getBoundingClientRect();
  const note = document.querySelector("#task [data-testid=dice-not-asked]")?.getBoundingClientRect();
  const top = note && r.bottom - note.top <= window.innerHeight - header - 16 ? note.top : r.top;
  if (top < header || r.top > window.innerHeight * 0.5) window.scrollBy(0, top - header - 8);
}


/** The slot being filled and a decision's options stay above the sticky card tray and lock-in
 * bar: scrolled into view when they change (never fighting the player's own scrolling). */
function keepInView() {
  const slot = document.querySelector("#task .slot.active");
  const choices = document.querySelector("#task .choices");
  const target = slot || choices;
  if (!target) return void (pad.keptKey = null);
  const key = slot ? `slot:${pad.draft?.key}:${pad.draft?.active}` : `choices:${document.body.dataset.task}:${pad.frame?.game?.view?.station}`;
  if (key === pad.keptKey) return;
  pad.keptKey = key;
  const covers = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#deck, #task .lockbar"))].filter((el) => el.offsetParent && getComputedStyle(el).position === "sticky");
  const bottom = Math.min(window.innerHeight, ...covers.map((el) => el.getBoundingClientRect().top));
  const header = document.querySelector(".padbar")?.getBoundingClientRect().bottom || 0;
  const r = target.getBoundingClientRect();
  if (r.bottom > bottom - 8) window.scrollBy(0, Math.min(r.bottom - bottom + 8, r.top - header - 8));
  else if (r.top < header) window.scrollBy(0, r.top - header - 8);
}

/** @param {ViewFrame} frame */
function renderHeader(frame, view) {
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
  fitName();
}

/** The player's name in the header: it wraps between words (and after a hyphen), and a word
 * too long for the header makes the name smaller, step by step, down to 14 px (the pad's
 * smallest text); only a word too long even then may break. */
function fitName() {
  const who = document.getElementById("who");
  const name = who?.querySelector(".chip-name");
  if (!who || !name) return;
  // Fitted again only when the name or its room changed (the header is drawn with every
  // frame; the header's other items decide the room: the name's box grows from nothing; and
  // inside the chip, the companion's ⚙ beside the name takes some of it).
  const fitted = `${who.clientWidth}|${(name.parentElement || name).textContent}`;
  if (who.dataset.fitted === fitted) return;
  who.dataset.fitted = fitted;
  who.style.fontSize = "";
  who.classList.remove("squeezed");
  const base = parseFloat(getComputedStyle(who).fontSize);
  let size = base;
  while (name.scrollWidth > name.clientWidth + 0.5 && size > 14) {
    size = Math.max(14, size - 1);
    who.style.fontSize = `${size}px`;
  }
  if (name.scrollWidth > name.clientWidth + 0.5) who.classList.add("squeezed");
}

/** @param {ViewFrame} frame */
function renderLobby(frame) {
  const you = frame.you;
  fill(
    "lobby",
    h("p", { class: "lead" }, t("pad.seated", { name: you?.name || "" })),
    h("p", {}, plural("pad.wait_start", (frame.seats || []).length)),
    h("ul", { class: "lobby-seats" }, (frame.seats || []).map((s) => h("li", {}, chip(s.id)))),
    h("button", { class: "link", dataset: { act: "leave" } }, t("pad.leave")),
  );
}

/**
 * The bid being built for this step: the one kept, a saved one that still fits, or a new one.
 * @returns {Draft}
 */
function ensureDraft(view) {
  const key = `${pad.frame?.game?.id}:${view.round}:${view.step}`; // asked only during a game
  if (pad.draft?.key === key) return pad.draft;
  /** @type {Draft | null} */
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(draftStorageKey()) || "null");
  } catch {
    saved = null;
  }
  if (saved?.key === key && draftFits(saved, view, me())) pad.draft = saved;
  else pad.draft = newDraft(key, view);
  pad.reviewing = false;
  return pad.draft;
}

function saveDraft() {
  try {
    localStorage.setItem(draftStorageKey(), JSON.stringify(pad.draft));
  } catch {
    /* ignore */
  }
}

/** What each control of the pad does (`data-act`, one listener: dom.js `delegate`). A control
 * carries its arguments in its `data-` fields; the rest is read from `pad` when tapped, so
 * nothing closes over a frame that may be gone. */
const ACTIONS = {
  /** a decision's option: picked, locked in by the lock-in button */
  choose: (el) => {
    const { kind, value = "", index } = el.dataset;
    const numeric = kind === "sacrifice" || kind === "dice";
    pad.choice = { type: kind || "", value: numeric ? Number(value) : value, ...(index === undefined ? {} : { index: Number(index) }) };
    render();
  },
  lock: () => lockIn(),
  card: (el) => pickCard(Number(el.dataset.index), Number(el.dataset.card)),
  slot: (el) => {
    const i = Number(el.dataset.slot);
    const slot = pad.draft?.slots[i];
    if (!pad.draft || !slot) return;
    if (slot.card !== null) clearSlot(i);
    else if (!pad.reviewing && !pad.asking.sending) {
      pad.draft.active = i;
      render();
    }
  },
  clear: () => {
    if (!pad.draft) return;
    pad.draft.slots.forEach((s) => {
      s.card = null;
      s.idx = null;
    });
    pad.draft.active = 0;
    saveDraft();
    render();
  },
  review: () => {
    pad.reviewing = true;
    render();
  },
  change: () => {
    pad.reviewing = false;
    render();
  },
  roll: (form) => {
    const values = [...form.querySelectorAll("input")].map((x) => Number(x.value));
    if (values.some((v) => !(v >= 1 && v <= 6))) return;
    send({ type: "roll", values });
  },
  hint: (el) => askHint(el.dataset.step || ""),
  leave: () => {
    if (!confirm(t("pad.confirm_leave"))) return;
    pad.conn?.send({ type: "leave" }); // made by connect(), before the first frame
    saveCredentials(null);
    pad.conn?.stop("idle");
    location.reload();
  },
  "take-back": () => connect(),
  retry: () => pad.conn?.retryNow(),
};

/** The lock-in button: sends the bid built, or the decision picked for the question shown. */
function lockIn() {
  const task = document.body.dataset.task || "";
  if (task === "bid") {
    if (pad.draft && pad.reviewing) send({ type: "bid", bids: bidsFromDraft(pad.draft) });
    return;
  }
  const field = { sacrifice: "card", dice: "count", city: "choice", pyramid: "first" }[task];
  if (field && pad.choice?.type === task) send({ type: task, [field]: pad.choice.value });
}

function pickCard(idx, card) {
  if (!pad.draft || pad.reviewing || pad.asking.sending) return;
  const placed = placeCard(pad.draft, idx, card);
  if (placed === pad.draft) return;
  pad.draft = placed;
  saveDraft();
  render();
}

function clearSlot(i) {
  if (!pad.draft || pad.reviewing || pad.asking.sending) return;
  pad.draft = emptied(pad.draft, i);
  saveDraft();
  render();
}

/** @param {ViewFrame} frame */
function renderTask(frame, view) {
  pad.trayActions = null;
  const pend = myPending();
  const task = document.getElementById("task");
  // An answer already sent for this very question is not asked again while its view is due.
  const kinds = new Set(pad.moment.kinds);
  const error = pad.lastError ? h("p", { class: "error", role: "alert" }, pad.lastError) : null;
  const news = [noticeBox(), companionMovesBox(frame)];
  // Skipped by the host: say so plainly, the companion answers for this seat.
  document.body.dataset.task = taskOf([...kinds], frame, me());
  if (document.body.dataset.task === "auto") {
    pad.moment = { ...pad.moment, kinds: [] }; // the companion answers: the pad asks nothing
    return fill(
      task,
      h("div", { class: "auto-note", dataset: { testid: "auto-note" } }, t("pad.auto_title"), h("p", {}, t("pad.auto_help"))),
      news,
      waitTask(view),
    );
  }
  const help = hintBox(view, [...kinds][0]);
  if (kinds.has("sacrifice")) return fill(task, news, help, sacrificeTask(view), error);
  if (kinds.has("bid")) return fill(task, news, help, bidTask(view), error);
  if (kinds.has("dice")) return fill(task, news, help, diceTask(view), error);
  if (kinds.has("roll")) return fill(task, news, rollTask(view, pend.find((p) => p.type === "roll")), error);
  if (kinds.has("city")) return fill(task, news, help, cityTask(view), error);
  if (kinds.has("pyramid")) return fill(task, news, help, pyramidTask(view), error);
  return fill(task, news, waitTask(view), error);
}

/** "The host undid your bid for station 3": the seat's own move only (PROTOCOL.md 3.4); "you
 * have your seat back" after a companion player had it. */
function noticeBox() {
  const back = pad.news.seatBack ? h("div", { class: "notice", role: "status", dataset: { testid: "seat-back" } }, t("pad.notice.resumed")) : null;
  const text = undoneText(pad.news.notice);
  if (text === null) return back;
  return [back, h("div", { class: "notice", role: "status", dataset: { testid: "notice" } }, text)];
}

/** What a companion player did for this seat this round while it had the seat: "a companion
 * player bid 7+5 for you at station 2" (the seat's own moves only, sent to this seat only).
 * @param {ViewFrame} frame
 */
function companionMovesBox(frame) {
  const moves = frame.you?.companion_moves || [];
  if (!moves.length) return null;
  const lines = companionMoveLines(moves);
  return h(
    "div",
    { class: "notice companion-moves", dataset: { testid: "companion-moves" } },
    h("strong", {}, t("pad.companion.title")),
    h("ul", {}, lines.map((x) => h("li", {}, x))),
  );
}

function sacrificeTask(view) {
  const deck = view.players?.[me()]?.deck || [];
  const picked = pad.choice?.type === "sacrifice" ? pad.choice.value : null;
  const cards = h(
    "div",
    { class: "hand" },
    deck.map((c, i) =>
      h(
        "button",
        {
          class: `card-btn ${picked === c && pad.choice?.index === i ? "picked" : ""}`,
          dataset: { card: c, value: c, index: i, testid: "choice", kind: "sacrifice", act: "choose" },
          "aria-pressed": picked === c && pad.choice?.index === i ? "true" : "false",
        },
        String(c),
      ),
    ),
  );
  return [
    h("h2", {}, t("pad.sacrifice_title")),
    h("p", { class: "help" }, t("pad.sacrifice_help")),
    cards,
    lockBar(picked !== null, t("pad.sacrifice_pick", { card: picked ?? "" })),
  ];
}

/** The review / lock-in bar shared by every decision (its button sends the choice: lockIn). */
function lockBar(ready, summary) {
  if (pad.asking.sending) return h("div", { class: "lockbar" }, h("p", { class: "sending" }, t("pad.sending")));
  return h(
    "div",
    { class: "lockbar" },
    ready ? h("p", { class: "summary" }, summary) : null,
    h("button", { class: "big primary", id: "lock-in", disabled: !ready, dataset: { testid: "lock-in", act: "lock" } }, t("pad.lock_in")),
  );
}

function bidTask(view) {
  const draft = ensureDraft(view);
  const mine = view.players?.[me()] || {};
  const firstCards = view.step === "second" ? view.revealed || {} : {};
  const full = draft.slots.every((s) => s.card !== null);
  const stations = [...new Set(draft.slots.map((s) => s.station))];
  const rows = stations.map((station) => {
    const slotIdx = draft.slots.map((s, i) => /** @type {[import("./padview.js").Slot, number]} */ ([s, i])).filter(([s]) => s.station === station);
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
              class: `slot ${s.card === null ? "empty" : "filled"} ${draft.active === i && !pad.reviewing ? "active" : ""}`,
              dataset: { slot: i, testid: "slot", act: "slot" },
              disabled: pad.reviewing || Boolean(pad.asking.sending),
              "aria-label": s.card === null ? t("pad.slot_empty") : String(s.card),
            },
            s.card === null ? "" : String(s.card),
          ),
        ),
      ),
    );
  });
  const head = [
    h("h2", {}, pad.reviewing ? t("pad.review_title") : stepTitle(view)),
    h("p", { class: "help" }, pad.reviewing ? t("pad.review_help") : t("pad.bid_help")),
  ];
  const offer = bidOffer(view);
  let actions;
  if (pad.asking.sending) actions = h("div", { class: "lockbar" }, h("p", { class: "sending" }, t("pad.sending")));
  else if (pad.reviewing) {
    actions = h(
      "div",
      { class: "lockbar two" },
      h("button", { class: "big", id: "change", dataset: { testid: "change", act: "change" } }, t("pad.change")),
      h("button", { class: "big primary", id: "lock-in", dataset: { testid: "lock-in", act: "lock" } }, t("pad.lock_in")),
    );
  } else {
    actions = h(
      "div",
      { class: "lockbar two" },
      h("button", { class: "big", id: "clear", dataset: { testid: "clear", act: "clear" } }, t("pad.clear")),
      h("button", { class: "big primary", id: "review", disabled: !full, dataset: { testid: "review", act: "review" } }, t("pad.review")),
    );
  }
  pad.trayActions = actions; // in the sticky tray under the cards: always on screen, never covered
  return [head, offer, h("div", { class: `stations ${pad.reviewing ? "reviewing" : ""}` }, rows)];
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
  const lines = outlookLines(view, me());
  if (!lines) return null;
  return h("ul", { class: "outlook", dataset: { testid: "dice-outlook" } }, lines.map((x) => h("li", {}, x)));
}

/** The questions of this round the table answered for this seat without asking, because no
 * answer could change what the station gives (R3.2 dice, R5.4 the pyramid's order), each
 * with the place from its station's ranking. */
function diceNotAsked(view) {
  const skipped = pad.frame?.you?.not_asked || []; // asked only during a game
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
  const picked = pad.choice?.type === "dice" ? pad.choice.value : null;
  const buttons = [];
  for (let n = 0; n <= held; n += 1) {
    buttons.push(
      h(
        "button",
        {
          class: `big choice ${picked === n ? "picked" : ""}`,
          dataset: { count: n, testid: "choice", kind: "dice", value: n, act: "choose" },
          "aria-pressed": picked === n ? "true" : "false",
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
    lockBar(picked !== null, picked === 0 ? t("pad.dice_none") : t("pad.dice_use", { n: picked })),
  ];
}

function rollTask(view, entry) {
  const mine = view.dice_window?.choices?.[me()];
  const count = entry?.count ?? (view.phase === "final_roll" ? 1 : mine || 1);
  // What is typed stays typed (and focused) while frames redraw this very question.
  const question = `${pad.frame?.game?.id}:${view.round}:${view.phase}:${view.station}:${count}`;
  const inputs = [];
  for (let i = 0; i < count; i += 1) {
    inputs.push(h("input", { type: "number", min: 1, max: 6, inputmode: "numeric", class: "die-input", required: true, "aria-label": `${i + 1}`, dataset: { keep: `roll:${question}:${i}` } }));
  }
  const form = h(
    "form",
    { class: "roll-form", dataset: { act: "roll" } },
    h("div", { class: "dice-inputs" }, inputs),
    // While the roll is on its way the form says so, as every other question does (lockBar).
    pad.asking.sending ? h("p", { class: "sending" }, t("pad.sending")) : h("button", { class: "big primary", type: "submit" }, t("pad.roll_send")),
  );
  return [h("h2", {}, count === 1 ? t("pad.roll_title_one") : t("pad.roll_title", { n: count })), view.station ? revealedTable(view, view.station) : null, form];
}

function cityTask(view) {
  const picked = pad.choice?.type === "city" ? pad.choice.value : null;
  const option = (value, label, help) =>
    h(
      "button",
      {
        class: `big choice tall ${picked === value ? "picked" : ""}`,
        dataset: { choice: value, testid: "choice", kind: "city", value, act: "choose" },
        "aria-pressed": picked === value ? "true" : "false",
      },
      h("strong", {}, label),
      h("small", {}, help),
    );
  return [
    h("h2", {}, t("pad.city_title")),
    h("div", { class: "choices" }, option("hut", t("pad.city_hut"), t("pad.city_hut_help")), option("die", t("pad.city_die"), t("pad.city_die_help"))),
    revealedTable(view, 3),
    lockBar(picked !== null, picked === "hut" ? t("pad.city_hut") : t("pad.city_die")),
  ];
}

function pyramidTask(view) {
  const other = view.decision?.type === "pyramid" ? view.decision.second : lastRanking(4)?.entries?.[1]?.player;
  const picked = pad.choice?.type === "pyramid" ? pad.choice.value : null;
  const option = (value, label) =>
    h(
      "button",
      {
        class: `big choice ${picked === value ? "picked" : ""}`,
        dataset: { first: value, testid: "choice", kind: "pyramid", value, act: "choose" },
        "aria-pressed": picked === value ? "true" : "false",
      },
      label,
    );
  const options = [option(me(), t("pad.pyramid_me"))];
  if (other) options.push(option(other, t("pad.pyramid_other", { name: nameOf(other) })));
  return [
    h("h2", {}, t("pad.pyramid_title", { other: nameOf(other) })),
    h("div", { class: "choices" }, options),
    revealedTable(view, 4),
    lockBar(picked !== null, picked === me() ? t("pad.pyramid_me") : t("pad.pyramid_other", { name: nameOf(picked) })),
  ];
}

/** This round's events as far as the display has told them (stations still to come in the
 * show's current step are not told on the phone before the display shows them). */
function told() {
  return roundAsTold(pad.news.events, beat.untold());
}

function lastRanking(station) {
  return told().filter((e) => e.type === "ranking" && (station === undefined || e.station === station)).at(-1);
}

function waitTask(view) {
  const waiting = waitingFor(view, me());
  const bidDone = view.bid_status?.[me()];
  const ranking = lastRanking();
  const windowOpen = view.dice_window && (view.phase === "dice" || view.phase === "roll");
  // The table waits for this seat, but the display is still showing a result: the question
  // comes when it has been shown (a companion player answers a skipped seat).
  const next = waiting.mine && pad.moment.held && document.body.dataset.task !== "auto";
  const headline = next ? t("pad.you_next") : bidDone ? t("pad.locked") : t("pad.nothing");
  const last = told().at(-1); // the newest event the show has told
  return [
    h("h2", { class: "waiting", dataset: { testid: next ? "you-next" : "waiting" } }, headline),
    diceNotAsked(view),
    windowOpen ? revealedTable(view, view.dice_window.station) : null,
    waiting.players ? h("p", { dataset: { testid: "waiting-for" } }, waiting.players) : null,
    waiting.host ? h("p", {}, waiting.host) : null,
    ranking && !windowOpen ? rankingTable(ranking, view) : null,
    last ? h("p", { class: "last-event" }, eventText(last, view)) : null,
  ];
}

function renderDeck(view, actions) {
  const mine = view.players?.[me()] || {};
  const deck = mine.deck || [];
  const free = freeCards(view, me());
  const inDraft = draftIndices(pad.draft);
  const bidding = document.body.dataset.task === "bid" && !pad.reviewing && !pad.asking.sending;
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
            dataset: { card: c, value: c, index: i, testid: "card", act: "card" },
            disabled: !bidding || isUsed || picked,
            "aria-label": isUsed ? `${c} (${t("pad.used")})` : String(c),
          },
          String(c),
        );
      }),
    ),
    actions || null,
  );
  byId("deck").hidden = !deck.length || myPending().some((p) => p.type === "sacrifice");
}

/** @param {ViewFrame} frame */
function renderScores(frame, view) {
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
 * so five players and long names fit a portrait screen without a sideways swipe.
 * @param {ViewFrame} frame
 */
function renderFinal(frame, view) {
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
  const card = (p) => finalCard(p, lines[p], { winner: winners.includes(p), mine: p === me() });
  const place = crowned && view.finished ? placeOf(me(), order, all) : null;
  fill(
    "final",
    h("h2", {}, t("pad.final_title")),
    frame.game?.status === "ended" && !view.finished ? h("p", { dataset: { testid: "ended-by" } }, t(frame.game.ended_by === "cafe" ? "phase.ended_cafe" : "phase.ended")) : null,
    view.finished && view.last_round_reason ? h("p", { class: "end-reason" }, t("show.end_reason", { reason: lastRoundReason(view.last_round_reason, view) })) : null,
    place ? h("p", { class: "you-place", dataset: { testid: "place" } }, t("pad.place", { place: t(`place.${place}`), count: order.length })) : null,
    frame.game?.status === "ended" && !view.finished ? standingsTable(frame, frame.game.standings || []) : null,
    winners.includes(me()) ? h("p", { class: "you-won" }, t("pad.you_won")) : null,
    winners.length ? h("p", { class: "lead" }, winners.length > 1 ? t("final.winners", { names: list(winners.map(nameOf)) }) : t("final.winner", { names: nameOf(winners[0]) })) : null,
    view.finished
      ? h(
          "div",
          { class: "final-cards", dataset: { testid: "final-scoring", turned: String(ranked.length), crowned: String(crowned) } },
          ranked.map(card),
        )
      : null,
    reviewPanel(frame, pad.credentials),
  );
}

const beat = new Beat(); // the show's step: the final scoring turns over on the display's beat

function beatKey() {
  return `${beat.step}:${beat.current().index}`;
}

/** A beat that came up since the last look: note it and play its sound (the display's). */
function soundBeat() {
  if (beatKey() === pad.beatShown) return false;
  pad.beatShown = beatKey();
  const cur = beat.current();
  cue(beatSound(cur.index >= 0 ? beat.beats[cur.index] : null));
  return true;
}

setInterval(() => {
  if (pad.frame && soundBeat()) render();
}, 250);

// ---------- sound: silent unless this phone's player turns it on ----------

const sound = new Sound("chocolatl.pad.sound", false); // per phone, not per table

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
  const g = pad.frame?.game;
  const now = new Set(myPending().map((p) => `${g?.id}:${g?.view?.round}:${p.type}`));
  const before = pad.asked;
  if (before && [...now].some((k) => !before.has(k))) cue("your_turn");
  pad.asked = now;
}

/** The toggle is a speaker icon (struck through while off) named "sound on this phone"; its
 * state is aria-pressed, and each tap says in words what it did for a moment (sound-note). */
function renderSoundToggle() {
  document.getElementById("pad-sound")?.setAttribute("aria-pressed", String(sound.on));
}


function sayToggled() {
  const note = document.getElementById("sound-note");
  if (!note) return;
  note.textContent = t(sound.on ? "pad.sound_is_on" : "pad.sound_is_off");
  note.hidden = false;
  clearTimeout(pad.noteTimer);
  pad.noteTimer = setTimeout(() => (note.hidden = true), 3000);
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

/**
 * The scores at the moment the host ended the game (no final scoring was made, R7).
 * @param {ViewFrame} frame
 */
function standingsTable(frame, standings) {
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
  // A phone turned (or a window resized): the tables and the name are fitted to the new width.
  window.addEventListener("resize", () => {
    fitTables();
    fitName();
  });
  window.__pad = {
    frame: () => pad.frame,
    conn: null,
    sound: () => ({ on: sound.on, context: sound.ctx?.state ?? null }),
    beatKey: () => beatKey(), // "step:beat" up now, as the display's (tests match tunes by it)
    // The command in flight and the move just acknowledged (a test whose tap finds the pad's
    // button disabled says why).
    asking: () => ({ sending: pad.asking.sending, sentKind: pad.asking.sentKind, answered: pad.asking.answered }),
    // What the last render saw of the show (a test that finds a pad asking nothing says why).
    moment: () => ({ ...pad.moment, step: beat.step, left: beat.left(), active: beat.active(), timer: pad.heldTimer !== null }),
  };
  await setLanguage(pickLanguage());
  languageSwitch(/** @type {HTMLSelectElement} */ (document.getElementById("lang")), { remember: true });
  onLanguageChange(() => {
    if (pad.frame) render();
    else if (byId("screen-status").dataset.kind) showStatus(byId("screen-status").dataset.kind);
  });
  byId("join-form").addEventListener("submit", join);
  delegate(document.body, ACTIONS);
  soundControls();
  translateDom(document);
  if (pad.credentials && pad.credentials.table === tableName) {
    showStatus("reconnecting");
    byId("screen-status").dataset.kind = "";
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
