// Host controls: seats, start, dice source, typed-in dice and cards, track colours, undo,
// skip/replace a player, end game / new game, game logs, the display's language.

import { Connection, commandIds } from "./connection.js";
import { byId, delegate, fill, h } from "./dom.js";
import { boxColour, chip, eventText, nameOf, setSeats } from "./format.js";
import { Beat } from "./show.js";
import { deckRange, followLog, initialLog, undoText, undoWhat, waitingText } from "./hostview.js";
import { LANGUAGES, languageSwitch, onLanguageChange, pickLanguage, setLanguage, t } from "./i18n.js";

/** @typedef {import("./frames.js").ViewFrame} ViewFrame */

const page = document.body.dataset;
const token = page.hostToken;
/** Everything the host page holds that changes: one object, so what the page's state is
 * can be read in one place (the pure decisions are hostview.js). */
const host = {
  /** @type {Connection | null} */
  conn: null,
  /** @type {import("./frames.js").ViewFrame | null} */
  frame: null,
  message: "",
  /** @type {string[] | null} colours being edited */
  trackDraft: null,
  log: initialLog(), // the numbered game log (hostview.js)
  showStart: 0, // performance.now() at which the shown step began (the show's countdown)
  /** @type {string | null} */
  beatShown: null,
  /** @type {string | null} the seat whose action menu is open (kept open across re-renders) */
  openMenu: null,
  /** @type {ReturnType<typeof setTimeout> | null} */
  doneTimer: null,
  /** @type {Record<string, string>} the level chosen in each companion picker ("add", or a
   * seat's id): a frame redraws the pickers, and must not put back the first level */
  botLevels: {},
  /** @type {Record<string, string | boolean>} a setting's choice sent and not answered yet
   * (the dice, who rolls a companion's dice, the LED board's drawing): a frame made before
   * the table took it (a phone joining, a beat of the show) must not tick the old one */
  sent: {},
};
const beat = new Beat(); // which beat of the shown step is up (the log follows it)
const DONE_SHOWN_MS = 2500; // "Done." stays this long, then fades (host.css .fading)
const PACES = ["quick", "normal", "relaxed"]; // "instant" (no pause) is for tests
const nextId = commandIds(`chocolatl:${page.table}:host-ids`);

function onFrame(f) {
  if (f.type === "view") {
    setSeats(f.seats);
    host.log = followLog(host.log, f);
    host.frame = f;
    beat.update(f);
    host.beatShown = `${beat.step}:${beat.current().index}`;
    host.showStart = performance.now() - (f.show?.elapsed || 0) * 1000;
    render();
  } else if (f.type === "ok" || f.type === "ack") {
    host.sent = {}; // answered: the frames from now on carry what the table took
    sayDone();
  } else if (f.type === "error") {
    host.sent = {};
    host.message = f.code === "cannot_undo" ? t("host.undo_impossible", { reason: undoText(host.frame?.host?.undo) || f.reason }) : t("pad.err.illegal", { reason: f.reason || f.code });
    render();
  }
}

/** "Done." after a command went through: it fades after a moment (an error stays). */
function sayDone() {
  host.message = t("host.done");
  clearTimeout(host.doneTimer);
  render();
  const el = document.getElementById("host-message");
  el?.classList.remove("fading");
  host.doneTimer = setTimeout(() => {
    el?.classList.add("fading"); // the opacity transition, then the line is emptied
    host.doneTimer = setTimeout(() => {
      if (host.message === t("host.done")) host.message = "";
      el?.classList.remove("fading");
      render();
    }, 600);
  }, DONE_SHOWN_MS);
}

function send(type, extra = {}) {
  clearTimeout(host.doneTimer);
  document.getElementById("host-message")?.classList.remove("fading");
  // Made by main() before anything can send. Not connected (the page is starting or
  // reconnecting): the table never heard it, so the page says so and shows the table's
  // settings again rather than a choice that went nowhere.
  const sent = host.conn?.send({ type, ...extra });
  host.sent = sent ? host.sent : {};
  host.message = sent ? "" : t("host.not_sent");
  if (!sent) render();
}

/** Ask before a step that cannot be taken back, in words that say what will happen
 * ("Undo Ana's sacrifice?"): `text` is called when the button is pressed (the undo check
 * may have changed since the page was drawn). */
function confirmThen(text, fn) {
  return () => {
    if (confirm(text())) fn();
  };
}

function render() {
  fill("host-message", host.message); // before the first frame too ("not connected")
  const frame = host.frame;
  if (!frame) return;
  // As far as the show has got: the round, who is awaited, the log (nothing told early).
  const view = beat.view(frame.game?.view || null);
  const playing = frame.game?.status === "playing";
  const overShown = Boolean(frame.host && !frame.host.can_end);
  fill(
    "host-status",
    h("p", {}, `${t("host.status")}: ${t(`cafe.status.${frame.table?.status || "lobby"}`)}`),
    view?.round ? h("p", {}, t("round.label", { round: view.round, max: view.profile?.max_rounds ?? 7 })) : null,
    // Over at the table, still on its way on the screens: nothing to end (host.can_end), and
    // nobody to wait for.
    view && playing && overShown ? h("p", { class: "ended-note", dataset: { testid: "host-over-shown" } }, t("host.end_game_over")) : null,
    view && playing && !overShown ? h("p", { dataset: { testid: "host-waiting" } }, `${t("host.waiting_for")}: ${waitingText(view, frame.host?.waiting || [])}`) : null,
    view && !playing ? h("p", { class: "ended-note", dataset: { testid: "host-ended" } }, t(frame.game?.status !== "ended" ? "host.finished" : frame.game?.ended_by === "cafe" ? "host.ended_cafe" : "host.ended")) : null,
  );
  renderSeats(frame, playing);
  renderBots(frame, playing);
  renderStart(frame);
  renderInputs(frame);
  renderTrack(frame, view);
  renderGame(frame, playing);
  renderGames(frame);
  renderShow(frame);
  renderBoardDrawing();
  // Numbered oldest first, shown newest first: the newest entry has the highest number.
  // The log runs as far as the show has told (a later station of the step is not told early).
  const lines = host.log.events
    .slice(0, host.log.events.length - beat.untold())
    .map((ev) => eventText(ev, view))
    .filter(Boolean);
  const base = host.log.base;
  fill(
    "host-log",
    lines.map((x, i) => h("li", {}, h("span", { class: "log-no" }, `${base + i + 1}.`), " ", x)).reverse(),
  );
}

/** @param {ViewFrame} frame */
function renderSeats(frame, playing) {
  const seats = frame.seats || [];
  if (!seats.length) return fill("host-seats", h("p", { class: "muted" }, t("host.no_seats")));
  fill(
    "host-seats",
    h(
      "ul",
      { class: "host-seats" },
      seats.map((s) =>
        h(
          "li",
          { dataset: { seat: s.id } },
          chip(s.id),
          // A companion player needs no phone: it is never "offline".
          h("span", { class: `dot ${s.companion ? "companion" : s.connected ? "on" : "off"}`, dataset: { testid: "seat-dot" } }),
          h("span", { class: "muted seat-kind" }, s.companion ? `${t("common.companion")} · ${t(`level.${s.level}`)}` : s.state === "vacant" ? t("display.vacant") : s.connected ? t("display.connected") : t("display.not_connected")),
          seatMenu(frame, s, playing),
        ),
      ),
    ),
  );
}

/** A seat's actions in one menu (the page stays short with five seats): each action a button
 * with one line under it in the words the phone will show (PROTOCOL.md 3.2).
 * @param {ViewFrame} frame
 */
function seatMenu(frame, s, playing) {
  const name = s.name;
  const items = [];
  const item = (button, help) => h("li", {}, button, h("span", { class: "seat-help-line" }, t(help, { name })));
  if (playing && s.state === "phone") {
    items.push(item(h("button", { dataset: { testid: "skip", act: "seat", command: "skip_seat", seat: s.id } }, t("host.skip")), "host.skip_help"));
    items.push(item(botPicker(s.id, "host.give_bot", "hand_to_bot", s.id), "host.give_bot_help"));
  }
  if (playing && s.companion && s.person) {
    items.push(item(h("button", { class: "give-back", dataset: { testid: "resume", act: "seat", command: "resume_seat", seat: s.id } }, t("host.give_back")), "host.give_back_help"));
  }
  if (playing) {
    items.push(
      item(
        h("button", { dataset: { testid: "release", act: "seat", command: "release_seat", seat: s.id, confirm: "host.confirm_release" } }, t("host.release")),
        s.person ? "host.release_help" : "host.release_free_help",
      ),
    );
  }
  if (!frame.game) {
    items.push(
      item(
        h("button", { dataset: { testid: "remove", act: "seat", command: "remove_seat", seat: s.id, confirm: "host.confirm_remove" } }, t("host.remove")),
        s.person ? "host.remove_help" : "host.remove_companion_help",
      ),
    );
  }
  const note = s.companion && !s.person ? h("span", { class: "muted seat-note" }, t("host.companion_seat")) : null;
  if (!items.length) return note;
  // Open or closed as the page has it now: a tap opens or closes the menu at once, while its
  // toggle event (which keeps host.openMenu: bind) comes a moment later, after a frame may
  // have drawn the row again (the menu then snapped shut under the host's finger). Its
  // `data-keep` lets `fill` leave an unchanged row in place.
  const shown = /** @type {HTMLDetailsElement | null} */ (document.querySelector(`#host-seats li[data-seat="${CSS.escape(s.id)}"] details.seat-menu`));
  return [
    note,
    h(
      "details",
      {
        class: "seat-menu",
        dataset: { testid: "seat-menu", keep: `menu:${s.id}` },
        open: shown ? shown.open : host.openMenu === s.id,
      },
      h("summary", { dataset: { testid: "seat-menu-open" }, "aria-label": t("host.seat_actions_for", { name }) }, t("host.seat_actions")),
      h("ul", { class: "seat-help", dataset: { testid: "seat-help" } }, items),
    ),
  ];
}

// A level picker and a button: the host seats a companion player (lobby) or hands one a seat.
/**
 * A companion level picker and its button, which sends `command` (with `seat` if given);
 * ``key`` names it, so the level chosen stays chosen while frames redraw the page (a phone
 * joining between the choice and the tap): kept in `host.botLevels` (bind).
 * @param {string} key
 * @param {string} labelKey
 * @param {string} command
 * @param {string} [seat]
 */
function botPicker(key, labelKey, command, seat) {
  const chosen = host.botLevels[key] || "strong";
  return h(
    "span",
    { class: "bot-picker" },
    h(
      "select",
      { class: "bot-level", "aria-label": t("host.bot_level"), dataset: { keep: `bot:${key}` } },
      ["strong", "good", "plain"].map((l) => h("option", { value: l, selected: l === chosen }, t(`level.${l}`))),
    ),
    h("button", { dataset: { act: "bot", key, command, seat } }, t(labelKey)),
  );
}

/** What the seat list's and the pickers' controls do (`data-act`, one listener: dom.js
 * `delegate`), so a frame that changes none of them leaves them in place. */
const ACTIONS = {
  /** a seat's action; a `confirm` key asks first, in words with the seat's name */
  seat: (el) => {
    const { command = "", seat = "", confirm: ask } = el.dataset;
    if (ask && !confirm(t(ask, { name: nameOf(seat) }))) return;
    send(command, { seat });
  },
  /** a companion player at the level its picker shows */
  bot: (el) => {
    const { command = "", seat, key = "" } = el.dataset;
    const level = el.parentElement?.querySelector("select")?.value || host.botLevels[key] || "strong";
    send(command, seat ? { seat, level } : { level });
  },
};

/** @param {ViewFrame} frame */
function renderBots(frame, playing) {
  const seats = (frame.seats || []).filter((s) => s.state !== "vacant").length;
  fill("host-bots", !frame.game && seats < 5 ? botPicker("add", "host.add_bot", "add_bot") : null);
  const hints = document.getElementById("hints-level");
  if (hints && document.activeElement !== hints) {
    const level = frame.table?.hints || "";
    fill(
      hints,
      [["", "host.hints_off"], ["good", "level.good"], ["strong", "level.strong"]].map(([value, key]) =>
        h("option", { value, selected: value === level }, t(key)),
      ),
    );
  }
}

/**
 * The show's pace (the host's choice, kept in the table's settings) and its countdown.
 * @param {ViewFrame} frame
 */
function renderShow(frame) {
  const pace = document.getElementById("pace");
  const current = frame.show?.pace || "normal";
  if (pace && document.activeElement !== pace) {
    const options = PACES.includes(current) ? PACES : [...PACES, current];
    fill(
      pace,
      options.map((value) =>
        h(
          "option",
          { value, selected: value === current },
          PACES.includes(value) || value === "instant" ? t(`host.pace.${value}`) : t("host.pace.custom", { s: frame.show?.seconds ?? "" }),
        ),
      ),
    );
  }
  renderShowLeft();
}

function renderShowLeft() {
  const show = host.frame?.show;
  // The last step holds on to the story's moment (show.story_at): "next" brings it sooner.
  const hold = Math.max(show?.hold || 0, show?.story_at || 0);
  const left = Math.max(0, hold - (performance.now() - host.showStart) / 1000);
  const next = /** @type {HTMLButtonElement} */ (document.getElementById("show-next"));
  if (next && next.disabled !== !(left > 0)) next.disabled = !(left > 0);
  // Four times a second, but drawn again only when the words change (once a second): the page
  // was laid out again at every look.
  const text = left > 0 ? t(show?.more ? "show.next_in" : "show.hold_for", { s: Math.ceil(left) }) : "";
  const box = document.getElementById("show-left");
  if (box && box.textContent !== text) fill(box, text);
}

/** A setting's choice to show: the one sent, until the table answers or a frame carries it.
 * @template {string | boolean} T
 * @param {"dice" | "companion-dice" | "board-drawing"} name
 * @param {T} table what the frame says
 * @returns {T} */
function settingShown(name, table) {
  if (host.sent[name] === table) delete host.sent[name];
  return /** @type {T} */ (host.sent[name] ?? table);
}

/** Send a setting's new choice, and show it until the table answers.
 * @param {"dice" | "companion-dice" | "board-drawing"} name
 * @param {string | boolean} value
 * @param {string} type the command
 * @param {Record<string, unknown>} fields */
function sendSetting(name, value, type, fields) {
  host.sent[name] = value;
  send(type, fields);
}

/** @param {ViewFrame} frame */
function renderStart(frame) {
  const box = byId("host-start");
  box.hidden = Boolean(frame.game && frame.game.status === "playing");
  const n = (frame.seats || []).filter((s) => s.state !== "vacant").length;
  const dice = settingShown("dice", (frame.game?.status === "playing" ? frame.game.dice : frame.table?.dice) || "digital");
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name="dice"]'))) input.checked = input.value === dice;
  // With real dice: who rolls a companion player's black dice (R3.2); digital by default.
  const tableDice = dice === "table";
  const who = settingShown("companion-dice", frame.table?.companion_dice || "digital");
  byId("companion-dice").hidden = !tableDice;
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name="companion-dice"]'))) input.checked = input.value === who;
  fill("companion-dice-now", tableDice ? t(who === "host" ? "host.companion_dice_typed" : "host.companion_dice_now") : "");
  const button = /** @type {HTMLButtonElement} */ (document.getElementById("start"));
  const can = !frame.game && n >= 3 && n <= 5;
  button.disabled = !can;
  fill("start-need", can ? "" : frame.game ? "" : t("host.start_need", { n }));
}

/** A die face picker that starts empty: nothing can be sent by accident as 1-1-1. */
/** @param {string} keep the field's key (`data-keep`: what is typed stays across redraws) */
function numberSelect(keep) {
  return h(
    "select",
    { class: "num-select", required: true, "aria-label": t("host.die_face"), dataset: { keep } },
    h("option", { value: "", selected: true }, "–"),
    [1, 2, 3, 4, 5, 6].map((v) => h("option", { value: v }, String(v))),
  );
}

function inputForm(label, count, values, onSubmit, opts = {}) {
  const fields = [];
  for (let i = 0; i < count; i += 1) {
    // What the host has typed stays typed while other forms come and go (the harvest entered
    // before the cards) or the page's language changes: the same question's field, same key.
    const keep = `${opts.question || ""}:${i}`;
    fields.push(
      opts.free
        ? h("input", { type: "number", class: "num-input", min: opts.min ?? 0, max: opts.max ?? 99, required: true, value: values?.[i] ?? undefined, dataset: { keep } })
        : numberSelect(keep),
    );
  }
  return h(
    "form",
    {
      class: "host-input",
      dataset: { testid: "host-input", kind: opts.kind || "" },
      onsubmit: (e) => {
        e.preventDefault();
        const raw = [...e.target.querySelectorAll("select, input")].map((x) => x.value);
        if (raw.some((v) => v === "")) return;
        onSubmit(raw.map(Number));
      },
    },
    h("span", { class: "label" }, label),
    fields,
    opts.hint ? h("span", { class: "range-hint" }, opts.hint) : null,
    h("button", { type: "submit", class: "primary" }, t("host.enter")),
  );
}

/** @param {ViewFrame} frame */
function renderInputs(frame) {
  const playing = frame.game?.status === "playing";
  const inputs = playing ? frame.host?.inputs || [] : []; // an ended game asks for nothing
  const box = byId("host-inputs");
  box.hidden = inputs.length === 0 || frame.game?.dice === "digital";
  const command = (cmd) => {
    host.message = "";
    host.conn?.command(cmd, nextId()); // made by main() before the first frame
  };
  // Keep the forms (and what the host is typing) while the same inputs are asked for: other
  // frames (a phone reconnecting, a bid) must not wipe half-typed dice.
  const key = JSON.stringify([inputs, document.documentElement.lang, frame.game?.view?.dice_window?.choices || null]);
  const holder = byId("inputs");
  if (holder.dataset.key === key) return;
  holder.dataset.key = key;
  const question = (entry) => `${frame.game?.id}:${frame.game?.view?.round}:${entry.type}:${entry.player || ""}`;
  fill(
    "inputs",
    inputs.map((entry) => {
      if (entry.type === "harvest") return inputForm(t("host.harvest_input"), 3, null, (dice) => command({ type: "harvest", dice }), { kind: "harvest", question: question(entry) });
      if (entry.type === "improvements") {
        return inputForm(t("host.improvements_input"), 2, null, (cards) => command({ type: "improvements", cards }), {
          kind: "improvements",
          question: question(entry),
          free: true,
          min: 0,
          max: 99,
          hint: t("host.improvements_range", { min: 0, max: 99, decks: deckRange(frame.game?.view?.profile) }),
        });
      }
      if (entry.type === "roll") {
        const count = entry.count ?? frame.game?.view?.dice_window?.choices?.[entry.player] ?? 1;
        return inputForm(
          t("host.roll_input", { name: nameOf(entry.player) }),
          count,
          null,
          (values) => command({ type: "roll", player: entry.player, values }),
          { kind: "roll", question: question(entry) },
        );
      }
      return null;
    }),
  );
}

/** @param {ViewFrame} frame */
function renderTrack(frame, view) {
  const current = frame.host?.profile?.track_colors || view?.profile?.track_colors || ["red", "gold", "green"];
  if (!host.trackDraft) host.trackDraft = [...current];
  const length = /** @type {HTMLInputElement} */ (document.getElementById("track-length"));
  if (document.activeElement !== length) length.value = String(host.trackDraft.length);
  fill(
    "track-boxes",
    host.trackDraft.map((c, b) =>
      h(
        "label",
        { class: `track-box box-${c}` },
        h("span", {}, String(b)),
        h(
          "select",
          {
            dataset: { box: b },
            onchange: (e) => {
              if (host.trackDraft) host.trackDraft[b] = e.target.value; // set above, never emptied
              render();
            },
          },
          ["red", "gold", "green"].map((name) => h("option", { value: name, selected: name === c }, t(`colour.${name}`))),
        ),
      ),
    ),
  );
}

/** @param {ViewFrame} frame */
function renderGame(frame, playing) {
  const undo = frame.host?.undo;
  const button = /** @type {HTMLButtonElement} */ (document.getElementById("undo"));
  button.disabled = !playing || !undo?.possible;
  // The button says what it takes back ("Undo Ana's sacrifice"), its dialog asks the same.
  button.textContent = playing && undo?.possible && undoWhat(undo) ? t("host.undo_this", { what: undoWhat(undo) }) : t("host.undo");
  fill("undo-reason", playing && undo && !undo.possible ? t("host.undo_impossible", { reason: undoText(undo) }) : "");
  // The server says whether there is a game left to end: one that finished by itself may
  // still be on its way on the screens (then the page says so instead).
  const endGame = /** @type {HTMLButtonElement} */ (document.getElementById("end-game"));
  endGame.disabled = !playing || !frame.host?.can_end;
  endGame.title = playing && !frame.host?.can_end ? t("host.end_game_over") : "";
  /** @type {HTMLButtonElement} */ (document.getElementById("new-game")).disabled = !frame.game;
}

/** @param {ViewFrame} frame */
function renderGames(frame) {
  const games = frame.host?.games || [];
  fill(
    "games",
    games.map((g) =>
      h(
        "li",
        {},
        h("span", {}, `#${g.id} · ${t(`host.game_status.${g.status}`)} · ${(g.players || []).join(", ")}`),
        g.status !== "playing" && g.log ? h("a", { href: g.log, download: `chocolatl-game-${g.id}.json`, class: "button" }, t("host.download")) : null,
      ),
    ),
  );
}

function bind() {
  delegate(document.body, ACTIONS);
  // A picker's level and a seat's menu, kept as the host leaves them, and drawn so at once:
  // the page's markup then says what the host sees, and the next frame leaves it in place.
  document.addEventListener("change", (e) => {
    const el = e.target;
    if (!(el instanceof HTMLSelectElement) || !el.classList.contains("bot-level")) return;
    host.botLevels[(el.dataset.keep || "").slice(4)] = el.value;
    render();
  });
  document.addEventListener(
    "toggle",
    (e) => {
      const el = e.target;
      if (!(el instanceof HTMLDetailsElement) || !el.classList.contains("seat-menu")) return;
      const seat = el.closest("li[data-seat]")?.getAttribute("data-seat") || null;
      if (el.open) host.openMenu = seat;
      else if (host.openMenu === seat) host.openMenu = null;
      render();
    },
    true, // toggle does not bubble
  );
  byId("start").addEventListener("click", () => {
    const dice = /** @type {HTMLInputElement | null} */ (document.querySelector('input[name="dice"]:checked'))?.value || "digital";
    send("start", { dice });
  });
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name="dice"]'))) {
    input.addEventListener("change", () => sendSetting("dice", input.value, "set_dice", { dice: input.value }));
  }
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[name="companion-dice"]'))) {
    input.addEventListener("change", () => sendSetting("companion-dice", input.value, "set_companion_dice", { dice: input.value }));
  }
  byId("undo").addEventListener(
    "click",
    confirmThen(() => t("host.confirm_undo", { what: undoWhat(host.frame?.host?.undo) || t("host.undo_last") }), () => send("undo", { game: host.frame?.host?.undo?.game, n: host.frame?.host?.undo?.n })),
  );
  byId("hints-level").addEventListener("change", (e) => send("set_hints", { level: /** @type {HTMLSelectElement} */ (e.target).value || null }));
  byId("pace").addEventListener("change", (e) => send("set_pace", { pace: /** @type {HTMLSelectElement} */ (e.target).value }));
  byId("show-next").addEventListener("click", () => send("show_next"));
  setInterval(() => {
    if (!host.frame) return;
    const key = `${beat.step}:${beat.current().index}`;
    if (key !== host.beatShown) {
      host.beatShown = key;
      render();
    } else renderShowLeft();
  }, 250);
  byId("end-game").addEventListener("click", confirmThen(() => t("host.confirm_end_game"), () => send("end_game")));
  byId("new-game").addEventListener("click", () => {
    if (confirm(t("host.new_game_confirm"))) send("new_game");
  });
  byId("rotate-join").addEventListener("click", confirmThen(() => t("host.confirm_rotate_join"), () => send("rotate_join")));
  byId("track-length").addEventListener("change", (e) => {
    const n = Math.max(1, Math.min(60, Number(/** @type {HTMLInputElement} */ (e.target).value) || 1));
    const old = host.trackDraft || [];
    host.trackDraft = Array.from({ length: n }, (_, b) => old[b] ?? boxColour({ track_colors: old }, b));
    render();
  });
  byId("track-save").addEventListener("click", () => send("set_track_colors", { colors: host.trackDraft }));
  const displayLang = /** @type {HTMLSelectElement} */ (document.getElementById("display-lang"));
  for (const code of LANGUAGES) displayLang.appendChild(h("option", { value: code, dataset: { i18n: `lang.${code}` } }, t(`lang.${code}`)));
  displayLang.value = host.frame?.table?.lang || "en";
  displayLang.addEventListener("change", () => send("set_language", { lang: displayLang.value }));
  const drawing = /** @type {HTMLInputElement} */ (document.getElementById("board-drawing"));
  drawing.addEventListener("change", () => sendSetting("board-drawing", drawing.checked, "set_board_drawing", { shown: drawing.checked }));
}

/** The display's settings as the table keeps them: the LED board's drawing (shown unless the
 * host hid it) and the language (the display's own picker may have changed it). */
function renderBoardDrawing() {
  const drawing = /** @type {HTMLInputElement} */ (document.getElementById("board-drawing"));
  if (drawing && host.frame?.table) drawing.checked = settingShown("board-drawing", host.frame.table.board_drawing !== false);
  const displayLang = /** @type {HTMLSelectElement} */ (document.getElementById("display-lang"));
  if (displayLang && host.frame?.table?.lang && document.activeElement !== displayLang) displayLang.value = host.frame.table.lang;
}

async function main() {
  await setLanguage(pickLanguage());
  languageSwitch(/** @type {HTMLSelectElement} */ (document.getElementById("lang")), { remember: true });
  onLanguageChange(() => render());
  bind();
  host.conn = new Connection({
    path: /** @type {string} */ (page.ws), // host.html always sets it
    hello: () => ({ type: "hello", token }),
    auth: () => ({ token }),
    onFrame,
    onStatus: (status) => {
      const el = byId("conn-status");
      el.dataset.status = status;
      el.textContent = status === "open" ? t("conn.online") : status === "reconnecting" ? t("conn.reconnecting") : t(`conn.${status}`);
    },
  });
  host.conn.start();
  // Tests draw the page at a moment of their choosing (as a frame arriving then would).
  window.__host = { frame: () => host.frame, conn: host.conn, render };
}

main();
