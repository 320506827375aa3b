// The table display: everything public about the game, readable from two metres.

import { Connection } from "./connection.js";
import { fill, h, handheld, refill } from "./dom.js";
import {
  boxColour,
  chip,
  decidingText,
  diceRow,
  eventText,
  finalCard,
  finalTable,
  lastRoundReason,
  leaderBox,
  modeName,
  nameOf,
  rankingTies,
  seat,
  shortTies,
  setSeats,
  signed,
  stakeText,
  stationLabel,
  stationName,
} from "./format.js";
import { LANGUAGES, onLanguageChange, plural, setLanguage, t } from "./i18n.js";
import { Beat, beatSound, Sound, stepSound } from "./show.js";
import { reviewStatus } from "./review.js";
import { endStillDue, renderStory, storyDue } from "./story.js";
import {
  boxPlace,
  connectionText,
  followTold,
  initials,
  initialTold,
  ledColour,
  pendingByType,
  roundStartLeaderBox,
} from "./displayview.js";

const page = document.body.dataset;
/** Everything the display holds that changes: one object, so what the page's state is can
 * be read in one place (the pure decisions are displayview.js and show.js). */
const display = {
  /** @type {import("./frames.js").ViewFrame | null} the latest view frame */
  frame: null,
  refitting: false, // a render that looks again at what fitOptional dropped (once a frame)
  /** @type {number | null} */ droppedAt: null, // the reveal panel's height when fitOptional last dropped results
  told: initialTold(), // this round's events, the round before, the log (displayview.js)
  connStatus: "connecting",
  /** @type {string | null} "step:index" last rendered, to render once per beat */
  beatShown: null,
  /** @type {string | null} the walking markers last drawn between two renders (tickShow) */
  walked: null,
  /** @type {string | null} the top bar's and its items' widths when fitHeader last fitted it */
  barFitted: null,
  /** whether render() is drawing: the top bar is fitted once, when the whole page is drawn */
  rendering: false,
  /** @type {string | null} the layout, language and number of lights the LED board was drawn with */
  boardDrawn: null,
  /** @type {HTMLElement[]} the LED board's drawn lights, in strip order */
  ledDots: [],
  /** @type {string[]} the colours they were given */
  ledColours: [],
  /** @type {Animation | null} the countdown pill's fill (fillCountdown) */
  fill: null,
  /** @type {string | null} the beat and length the fill runs for */
  fillKey: null,
  /** @type {string | null} "step:index" whose sound was played (whatever rendered it first) */
  beatSounded: null,
  /** @type {string | null} chosen on a display whose socket cannot keep it (a replay) */
  ownLanguage: null,
  /** @type {{key: string, at: number} | null} the open dice window and when this screen first saw it */
  windowSeen: null,
  /** @type {{step: number, index: number, kind: string | null, station: number | null, at: number, into: number}[]} when each beat went up, and how far into it the show was then (window.__display.beatLog) */
  beatLog: [],
};
const beat = new Beat(); // the show's current step and which of its beats is up
const sound = new Sound("chocolatl.display.sound", true);
const serverTitle = document.getElementById("table-title")?.textContent || "";

// ---------- frames ----------

function onFrame(f) {
  if (f.type === "error" && f.code === "rate_limited") {
    // A language change the table refused (too many at once): the picker says what is shown.
    const select = /** @type {HTMLSelectElement} */ (document.getElementById("display-lang"));
    if (select) select.value = document.documentElement.lang;
    return;
  }
  if (f.type === "board") {
    onBoard(f.board);
    return;
  }
  if (f.type !== "view") return;
  setSeats(f.seats);
  display.told = followTold(display.told, f);
  display.frame = f;
  if (beat.update(f)) {
    sound.play(stepSound(f));
    display.beatSounded = beatKey(); // the step's first beat has its "bids in" (or nothing)
  }
  const wanted = display.ownLanguage || f.table?.lang;
  if (wanted && LANGUAGES.includes(wanted) && wanted !== document.documentElement.lang) {
    setLanguage(wanted); // re-renders through onLanguageChange
    return;
  }
  render();
}

// ---------- rendering ----------

function render() {
  display.rendering = true;
  try {
    renderPage();
  } finally {
    display.rendering = false;
  }
  fitHeader(); // the board's status is in the top bar too
  fitOptional();
}

/** Everything but the fitting, which measures the page: measured in the middle of drawing, the
 * page was laid out for the top bar and again for the rest (up to three times a frame). */
function renderPage() {
  renderStatusBar();
  renderTitle();
  if (!display.frame) return;
  const game = display.frame.game;
  // The view on the show's beat; the game is over on screen once its final scoring starts.
  const view = beat.beforeFinale(beat.view(game?.view || null));
  if (beatKey() !== display.beatShown) noteBeat();
  display.beatShown = beatKey();
  if (beatKey() !== display.beatSounded) {
    // Any render may be the first to see a new beat (a frame, a resize): its sound plays once.
    display.beatSounded = beatKey();
    const cur = beat.current();
    if (!storyDue(display.frame, beat)) sound.play(beatSound(cur.index >= 0 ? beat.beats[cur.index] : null));
  }
  const body = document.body.classList;
  body.toggle("in-game", Boolean(view));
  body.toggle("lobby", !view);
  body.toggle("seat-free", (display.frame.seats || []).some((s) => s.state === "vacant"));
  document.body.style.setProperty("--n", String(Math.max(3, (display.frame.seats || []).length)));
  renderJoin(Boolean(view));
  display.walked = null; // the seats and track are drawn whole here
  renderSeats(view);
  renderPhase(view);
  renderOffer(view);
  renderReveal(view);
  renderSpotlight(view);
  renderTrack(view);
  renderPyramid(view);
  renderLog(view);
  renderFinal(view);
  renderStory(display.frame, render, beat); // once the winner's moment has been, as the server says
  renderBoard();
}

/** A header of the results matrix whose word is wider than its fixed column would run over
 * the next cell ("KonstantinopelüberallxyzHarvest"). The players' column first grows to the
 * longest name (up to 40 % of the matrix, from the stations' columns); what still does not
 * fit ("Kakaotrunk" among six stations on a 1280×720 TV) breaks inside the word (`.cut`).
 * Type is never set smaller: the display's text is at its smallest legible size already. */
function fitCells(root) {
  for (const table of root.querySelectorAll(".past-list")) {
    // Fixed table layout: the first row's cells set the columns' widths.
    const corner = /** @type {HTMLElement | null} */ (table.querySelector("thead .past-player"));
    if (corner) corner.style.width = "";
    const cells = /** @type {HTMLElement[]} */ ([...table.querySelectorAll("th")]);
    table.classList.remove("one-line");
    for (const cell of cells) cell.classList.remove("cut");
    const need = namesNeed(table);
    if (corner && need > 1) {
      const wider = Math.min(corner.getBoundingClientRect().width + need, table.clientWidth * 0.4);
      corner.style.width = `${wider}px`;
    }
    // Every cell measured, then marked: a mark between two measures laid the page out again.
    const cut = cells.filter((cell) => cell.scrollWidth > cell.clientWidth + 1);
    for (const cell of cut) cell.classList.add("cut");
  }
}

/** How much wider the players' column must be for its widest name, as the names are laid out
 * now (px). */
function namesNeed(table) {
  const names = /** @type {HTMLElement[]} */ ([...table.querySelectorAll("tbody .past-player")]);
  return Math.max(0, ...names.map((c) => c.scrollWidth - c.clientWidth));
}

/** The smallest width a station's column keeps when the players' column grows, in ems of the
 * matrix ("2. 19 ⚖ Punkte" takes two lines below it, as it may). */
const STATION_MIN_EM = 6;

/** Each player's row one line high where the matrix is too tall: the players' column takes
 * the width its longest name needs on one line, from the stations' columns (down to
 * STATION_MIN_EM each); a name wrapped over two lines made every row two lines high, and the
 * whole matrix went where a row of single lines fitted (German at 1280×720, five long names).
 * Where the names do not fit on one line, they wrap as before. */
function oneLineNames(table) {
  const corner = /** @type {HTMLElement | null} */ (table.querySelector("thead .past-player"));
  if (!corner) return;
  table.classList.add("one-line");
  const need = namesNeed(table);
  if (need <= 1) return;
  const stations = table.querySelectorAll("thead th[data-station]").length;
  const em = parseFloat(getComputedStyle(table).fontSize) || 16;
  const wider = corner.getBoundingClientRect().width + need + 1;
  if (wider <= table.clientWidth - stations * STATION_MIN_EM * em) corner.style.width = `${wider}px`;
  else table.classList.remove("one-line");
}

/** What is optional is dropped until every panel fits the screen (nothing clips or scrolls):
 * the oldest log lines; in the results, the ties' long words, the tie legend, two-line names,
 * then the earliest stations. */
function fitOptional() {
  const over = (el) => el && !el.hidden && el.scrollHeight > el.clientHeight + 1;
  const revealed = document.getElementById("reveal");
  if (revealed) fitCells(revealed);
  const logPanel = document.getElementById("log-panel");
  if (logPanel && over(logPanel)) {
    // Every line that ends below the panel goes at once, from one measure (a line at a time
    // laid the page out again for each: hundreds of times a frame late in a game); the gaps'
    // rounding may leave one more to go.
    const items = [...document.querySelectorAll("#log li")];
    const box = logPanel.getBoundingClientRect();
    const inside = box.top + logPanel.clientTop + logPanel.clientHeight - parseFloat(getComputedStyle(logPanel).paddingBottom) + 0.5;
    const out = items.findIndex((li) => li.getBoundingClientRect().bottom > inside);
    if (out >= 0) for (const li of items.splice(out)) li.remove();
    while (items.length && over(logPanel)) items.pop()?.remove();
    refill(document.getElementById("log")); // the next frame puts every line back and fits again
  }
  const reveal = document.getElementById("reveal-panel");
  // First the ties in a few words each, then the earliest stations of the matrix (the log and
  // the round's summary beat have them all).
  reveal?.classList.remove("compact");
  if (over(reveal)) reveal?.classList.add("compact");
  const table = document.querySelector("#reveal .past-list");
  let dropped = false;
  // Then the line that explains the tie words ("⚖ figure" says enough on its own): a line of
  // explanation goes before a station's results (a German legend two lines long once took
  // the whole matrix with it at 1920×1080, five long names).
  const legend = document.querySelector("#reveal .past-wrap .tie-legend");
  if (legend && over(reveal)) {
    legend.remove();
    dropped = true;
  }
  // Then the names on one line each (rows of one line), then the earliest stations, each
  // leaving the names more room.
  if (table && over(reveal)) oneLineNames(table);
  while (table && over(reveal) && table.querySelectorAll("thead th[data-station]").length > 1) {
    for (const row of table.querySelectorAll("tr")) row.children[1]?.remove();
    dropped = true;
    if (over(reveal)) oneLineNames(table);
  }
  const prev = document.querySelector("#reveal .previous-round");
  if (table && over(reveal)) {
    // The earlier round's results go whole, their heading with them: never an empty box.
    table.closest(".past-wrap")?.remove();
    prev?.remove();
    dropped = true;
  }
  // A panel measured before the page has settled (a frame's first paint on a busy screen) can
  // seem too tall for a moment: results dropped then are looked at again once, on the next
  // frame, so a moment's overflow never hides a station for the rest of the step.
  // A panel that grows later (the page settled, the window grew) gets its results back.
  if (dropped) refill(document.getElementById("reveal"));
  if (dropped && reveal) display.droppedAt = reveal.clientHeight;
  if (dropped && !display.refitting) {
    display.refitting = true;
    requestAnimationFrame(() => {
      render();
      display.refitting = false;
    });
  }
  if (reveal && !reveal.hidden && !document.getElementById("reveal")?.children.length) reveal.hidden = true;
}

function renderStatusBar() {
  const conn = document.getElementById("conn-status");
  if (conn) {
    conn.dataset.status = display.connStatus;
    const text = display.connStatus === "open" ? t("conn.online") : t(`conn.${display.connStatus}`);
    // A squeezed top bar shows a connected display as its dot alone (the label says it).
    conn.setAttribute("aria-label", text);
    conn.title = text;
    fill(conn, h("span", { class: "conn-text" }, text));
  }
  const view = beat.beforeFinale(beat.view(display.frame?.game?.view || null)); // the round the show is on
  const over = Boolean(view && (view.finished || display.frame?.game?.status === "ended"));
  fill(
    "round",
    !view
      ? t("phase.lobby")
      : over
        ? t(view.finished ? "phase.finished" : "phase.ended_short")
        : view.round
          ? t("round.label", { round: view.round, max: view.profile?.max_rounds ?? 7 })
          : t("round.before"),
    view?.last_round && !over
      ? h(
          "span",
          {
            class: "badge last",
            dataset: { testid: "last-round" },
            title: t("show.last_round_why", { reason: lastRoundReason(view.last_round_reason, view) }),
          },
          t("round.last"),
        )
      : null,
    // The review's progress once the end is shown, not under the final lines still turning.
    over && !endStillDue(display.frame, beat) ? reviewStatus(display.frame) : null,
  );
  renderCountdown();
  const hints = document.getElementById("hints-on");
  if (hints) {
    // Learning mode (host option): everybody at the table knows the pads may give hints.
    hints.hidden = !display.frame?.table?.hints;
    // The lobby's bar has room for the whole sentence; a game's keeps to a short badge.
    hints.textContent = view ? t("hint.on_badge") : t("hint.on_display");
    hints.title = t("hint.on_display");
  }
  const mode = document.getElementById("mode");
  if (mode) {
    mode.hidden = !view?.mode || over;
    if (view?.mode) {
      mode.dataset.mode = view.mode;
      mode.textContent = t("mode.round", { mode: modeName(view.mode) });
    }
  }
  fitHeader();
}

/** The top bar stays one line inside the screen, whatever it holds (last round, mode,
 * hints, countdown, review, four languages): first the controls' labels give way, then the
 * statuses say it shorter, then the countdown; only as a last resort it takes two lines. */
const SQUEEZES = ["squeeze-lang", "squeeze-volume", "squeeze-status", "squeeze-countdown", "squeeze-wrap"];
function fitHeader() {
  const bar = /** @type {HTMLElement | null} */ (document.querySelector(".topbar"));
  if (!bar || display.rendering) return;
  // Fitted again only when the bar or one of its items is not as wide as when it was last
  // fitted (whatever made it so: words, a language, a badge shown or hidden, the screen); a
  // countdown's next second is as wide as the last (its digits are tabular). Measuring the
  // widths is one layout, which the page needs anyway; fitting it again ten times a second
  // laid it out up to six times each.
  const widths = () => `${innerWidth}x${innerHeight} ${bar.clientWidth} ${[...bar.children].map((el) => el.getBoundingClientRect().width.toFixed(1)).join(" ")}`;
  if (widths() === display.barFitted) return;
  bar.classList.remove(...SQUEEZES);
  for (const step of SQUEEZES) {
    if (!barOverflows(bar)) break;
    bar.classList.add(step);
  }
  display.barFitted = widths();
}

/** Whether an item of the bar ends past the bar's inside edge. Not `scrollWidth`: it leaves
 * out the bar's end padding and is rounded, so an item a pixel past the screen's edge passed. */
function barOverflows(bar) {
  const box = bar.getBoundingClientRect();
  const inside = box.right - parseFloat(getComputedStyle(bar).paddingRight) + 0.5;
  for (const el of bar.children) {
    if (el.getBoundingClientRect().right > inside) return true;
  }
  return false;
}

function renderJoin(inGame) {
  const panel = document.getElementById("join-panel");
  if (!panel) return;
  panel.classList.toggle("small", inGame);
  const url = display.frame?.table?.urls?.join;
  const link = document.getElementById("join-url");
  if (link && url) link.textContent = url;
  const vacant = (display.frame?.seats || []).filter((s) => s.state === "vacant");
  const note = document.getElementById("join-vacant");
  if (note) {
    note.hidden = !inGame || !vacant.length;
    note.textContent = vacant.length ? t("display.join_vacant", { names: vacant.map((s) => s.name).join(", ") }) : "";
  }
  const img = /** @type {HTMLImageElement} */ (document.getElementById("qr"));
  const qr = display.frame?.table?.urls?.qr;
  // A rotated join secret changes the QR: reload the image when the join URL changes.
  if (img && qr && img.dataset.forUrl !== url) {
    img.dataset.forUrl = url || "";
    img.src = `${qr}${qr.includes("?") ? "&" : "?"}v=${encodeURIComponent(url || "")}`;
  }
}

function renderSeats(view) {
  const frame = display.frame;
  if (!frame) return; // drawn only once a frame is in
  const seats = frame.seats || [];
  const items = seats.map((s) => {
    const p = view?.players?.[s.id];
    const auto = s.state === "auto";
    // Who still owes an answer: bids (never what), dice decisions, sacrifices (R2.7, R3.2).
    let waiting;
    let doneKey = "display.has_bid";
    if (view?.bid_status) waiting = !view.bid_status[s.id];
    else if (view?.dice_window?.decided && s.id in view.dice_window.decided) {
      waiting = !view.dice_window.decided[s.id];
      doneKey = "display.has_decided";
    } else if (view?.phase === "sacrifice") {
      waiting = (view.pending || []).some((e) => e.type === "sacrifice" && e.player === s.id);
      doneKey = "display.has_sacrificed";
    }
    if (view?.finished || (frame.game && frame.game.status !== "playing")) waiting = undefined;
    const badges = [];
    if (view?.chocolatl === s.id) badges.push(h("span", { class: "badge figure" }, t("display.figure")));
    if (view?.old_man === s.id) badges.push(h("span", { class: "badge oldman" }, t("display.old_man")));
    if (view?.returning === s.id && view?.old_man !== s.id) {
      badges.push(h("span", { class: "badge oldman" }, t("display.returning")));
    }
    const status = auto
      ? h("span", { class: "badge auto", dataset: { testid: "seat-auto" } }, t("display.auto_short"))
      : waiting === undefined
        ? null
        : h("span", { class: `bid-status ${waiting ? "waiting" : "done"}` }, waiting ? t("display.thinking") : `✓ ${t(doneKey)}`);
    return h(
      "li",
      { class: `seat state-${s.state} ${s.connected || s.companion ? "on" : "off"}${s.companion ? " companion" : ""}`, dataset: { seat: s.id }, style: { "--seat": seat(s.id).hex || "#888" } },
      h("div", { class: "seat-head" }, chip(s.id, { class: "big" })),
      p ? h("span", { class: "seat-score", title: t("display.score") }, String(p.score)) : null,
      h(
        "div",
        { class: "seat-line" },
        status,
        auto || s.companion ? null : h("span", { class: `dot ${s.connected ? "on" : "off"}`, "aria-hidden": "true" }),
        auto ? null : view && s.connected && s.state === "phone" ? null : h("span", { class: "conn-text" }, connectionText(s)),
        p ? h("span", { class: "stat" }, `${t("display.huts")} ${p.huts ?? 0}`) : null,
        p ? h("span", { class: "stat" }, `${t("display.dice")} ${p.dice ?? 0}`) : null,
        p ? h("span", { class: "stat" }, `${t("display.cubes")} ${Math.max(0, (view.profile?.cubes ?? 9) - (p.cubes_used ?? 0))}`) : null,
        badges,
      ),
    );
  });
  const max = frame.table?.seats_max ?? 5;
  if (!view) {
    for (let i = seats.length; i < max; i += 1) {
      items.push(h("li", { class: "seat free" }, t("display.free_seat")));
    }
  }
  fill("seats", items);
}

function renderPhase(view) {
  const box = document.getElementById("phase");
  const frame = display.frame;
  if (!box || !frame) return; // drawn only once a frame is in
  if (!view) {
    const n = (frame.seats || []).length;
    fill(
      box,
      h("p", { class: "phase-main" }, plural("display.waiting_players", n)),
      n >= 3 ? h("p", { class: "phase-sub" }, t("display.waiting_host")) : null,
    );
    return;
  }
  const parts = [];
  if (view.mode && !view.finished) {
    const lb = leaderBox(view);
    // R2.3: the round's mode is the colour of the leader's box at the start of the round.
    const startBox = roundStartLeaderBox(display.told.roundEvents) ?? lb;
    parts.push(
      h(
        "div",
        { class: "mode-explain", dataset: { mode: view.mode } },
        h("span", { class: "mode-swatch", "aria-hidden": "true" }),
        h(
          "div",
          {},
          h("p", { class: "mode-how" }, t(`mode.how.${view.mode}`)),
          h(
            "p",
            { class: "mode-why" },
            t("mode.why", { box: startBox, colour: t(`colour.${boxColour(view.profile, startBox)}`) }),
          ),
        ),
      ),
    );
  }
  const status = frame.game?.status;
  let main;
  const by = pendingByType(view);
  if (status === "ended") main = t(frame.game?.ended_by === "cafe" ? "phase.ended_cafe" : "phase.ended");
  else if (view.finished) main = t("phase.finished");
  else if (by.harvest) main = t("wait.harvest");
  else if (by.improvements) main = t("wait.improvements");
  else if (by.city) main = t("phase.city", { name: nameOf(by.city[0].player) });
  else if (by.pyramid) main = t("phase.pyramid", { name: nameOf(by.pyramid[0].player) });
  else if (by.bid) {
    const step = view.step;
    const stepText =
      step === "all" || step === "first" || step === "second"
        ? t(`step.${step}`)
        : step
          ? stationLabel(step)
          : "";
    main = `${t("phase.bid")}: ${stepText}`;
  } else if (view.phase && view.phase !== "bid") main = t(`phase.${view.phase}`, { name: "" });
  else main = t("phase.bid");
  if (by.roll && !by.bid) {
    main += ` — ${list(by.roll.map((p) => t("wait.roll", { name: nameOf(p.player) })))}`;
  }
  parts.unshift(h("p", { class: "phase-main" }, main));
  if (view.station && !view.finished) {
    parts.push(h("p", { class: "phase-sub" }, t("display.station_now", { n: view.station })));
  }
  if (view.last_round && !view.finished) {
    // R6.3: why this round is the last stays in view for the whole round.
    parts.push(
      h(
        "p",
        { class: "phase-sub last-why", dataset: { testid: "last-round-why" } },
        t("show.last_round_why", { reason: lastRoundReason(view.last_round_reason, view) }),
      ),
    );
  }
  fill(box, parts);
}

function list(items) {
  return items.join(", ");
}

function renderOffer(view) {
  const box = document.getElementById("offer");
  if (!box) return;
  const panel = document.getElementById("offer-panel");
  if (panel) panel.hidden = !view || !view.round || view.finished;
  if (!view || !view.round || view.finished) return;
  const prof = view.profile || {};
  const drink = prof.drink || [];
  const [d1, d2] = drink[Math.min(view.round, drink.length) - 1] || [0, 0];
  const hutsBuilt = Object.values(view.players || {}).reduce((n, p) => n + (p.huts || 0), 0);
  const free = (prof.hut_spaces ?? 7) - hutsBuilt;
  fill(
    box,
    h(
      "div",
      { class: "offer-item" },
      h("div", { class: "offer-label" }, t("display.harvest")),
      view.harvest ? diceRow(view.harvest) : h("div", { class: "muted" }, "…"),
    ),
    h(
      "div",
      { class: "offer-item" },
      h("div", { class: "offer-label" }, t("display.improvements")),
      view.improvements
        ? h("span", { class: "cards" }, view.improvements.map((c) => h("span", { class: "card" }, String(c))))
        : h("div", { class: "muted" }, view.last_round ? t("display.no_cards") : "…"),
    ),
    h(
      "div",
      { class: "offer-item" },
      h("div", { class: "offer-label" }, t("display.city_die")),
      h("span", { class: "die black" }, "●"),
      h("div", { class: "offer-note" }, t("display.huts_free", { n: Math.max(0, free) })),
    ),
    h(
      "div",
      { class: "offer-item" },
      h("div", { class: "offer-label" }, t("display.drink")),
      h("div", { class: "offer-big" }, t("display.drink_value", { first: d1, second: d2, penalty: prof.drink_penalty ?? 2 })),
    ),
  );
}

function bidCells(e) {
  return [
    h("td", { class: "place" }, `${e.place}.`),
    h("td", {}, chip(e.player)),
    h("td", { class: "cards-cell", dataset: { label: t("col.cards") } }, (e.cards || []).join(" + ")),
    h("td", { dataset: { label: t("col.huts") } }, e.huts ? signed(e.huts) : ""),
    h("td", { dataset: { label: t("col.old_man") } }, e.old_man ? signed(e.old_man) : ""),
    h("td", { dataset: { label: t("col.dice") } }, e.dice && e.dice.length ? `+${e.dice.join("+")}` : ""),
    h("td", { class: "total" }, String(e.total)),
  ];
}

function rankingBlock(ev, current, view = display.frame?.game?.view) {
  const head = h(
    "tr",
    {},
    ["col.place", "col.player", "col.cards", "col.huts", "col.old_man", "col.dice", "col.total"].map((k) =>
      h("th", { scope: "col", class: k === "col.total" ? "total" : "" }, t(k)),
    ),
  );
  const rows = (ev.entries || []).map((e) => h("tr", { dataset: { player: e.player } }, bidCells(e)));
  const ties = rankingTies(ev);
  const short = shortTies(ev);
  return h(
    "article",
    { class: `ranking ${current ? "current" : "past"}`, dataset: { station: ev.station } },
    h("h3", {}, stationLabel(ev.station), h("span", { class: "stake" }, stakeText(ev.station, view))),
    h("table", { class: "bids" }, h("thead", {}, head), h("tbody", {}, rows)),
    ties.length
      ? h(
          "ul",
          { class: "ties" },
          ties.map((x, i) => h("li", {}, h("span", { class: "tie-full" }, x), h("span", { class: "tie-short" }, short[i]))),
        )
      : null,
  );
}

/** The bonus dice window (R3.2, R3.3): every bid as its parts and its value before dice, best
 * first, and for each holder what dice could still reach (or that no roll changes the place). */
function windowBlock(view, bids) {
  const order = Object.keys(bids).sort((a, b) => bids[a].place - bids[b].place);
  const head = ["col.place", "col.player", "col.cards", "col.huts", "col.old_man", "col.total", "col.dice"];
  const reach = (b) => {
    if (!b.dice) return "";
    if (b.fixed) return plural("display.dice_fixed", b.dice);
    const best = Math.min(b.place, ...Object.values(b.best || {}));
    return plural("display.dice_could", b.dice, { place: t(`place.${best}`) });
  };
  return h(
    "article",
    { class: "ranking current dice-window", dataset: { station: view.dice_window.station, testid: "dice-window" } },
    h("h3", {}, stationLabel(view.dice_window.station), h("span", { class: "stake" }, t("phase.dice"))),
    h(
      "table",
      { class: "bids" },
      h("thead", {}, h("tr", {}, head.map((k) => h("th", { scope: "col", class: k === "col.total" ? "total" : "" }, t(k))))),
      h(
        "tbody",
        {},
        order.map((p) => {
          const b = bids[p];
          return h(
            "tr",
            { dataset: { player: p } },
            h("td", { class: "place" }, `${b.place}.`),
            h("td", {}, chip(p)),
            h("td", { class: "cards-cell", dataset: { label: t("col.cards") } }, b.cards.join(" + ")),
            h("td", { dataset: { label: t("col.huts") } }, b.huts ? signed(b.huts) : ""),
            h("td", { dataset: { label: t("col.old_man") } }, b.old_man ? signed(b.old_man) : ""),
            h("td", { class: "total" }, String(b.base)),
            h("td", { dataset: { label: t("col.dice") } }, reach(b)),
          );
        }),
      ),
    ),
  );
}

// A bonus dice window is drawn once it has been open this long: one that companion players
// close at once (opened and answered within a few frames) would only flash (R3.2).
const WINDOW_SETTLE_MS = 300;

/** Whether the open dice window has stayed open long enough to be drawn (a re-render is
 * scheduled for the moment it has). */
function windowSettled(view) {
  const w = view.dice_window;
  const key = `${display.frame?.game?.id}:${view.round}:${w.station}`;
  if (display.windowSeen?.key !== key) {
    display.windowSeen = { key, at: performance.now() };
    setTimeout(render, WINDOW_SETTLE_MS + 20);
  }
  return performance.now() - display.windowSeen.at >= WINDOW_SETTLE_MS;
}

/** Cards revealed but not yet ranked (green first cards, or a station whose dice are pending). */
function revealedBlock(view, rankedStations) {
  if (!view.dice_window?.bids) display.windowSeen = null;
  else if (!rankedStations.has(String(view.dice_window.station)) && windowSettled(view)) return windowBlock(view, view.dice_window.bids);
  const revealed = view.revealed || {};
  const stations = Object.keys(revealed)
    .filter((s) => !rankedStations.has(String(s)))
    .sort((a, b) => Number(a) - Number(b));
  if (!stations.length) return null;
  const players = view.seats || Object.keys(view.players || {});
  return h(
    "article",
    { class: "ranking current revealed-only" },
    h("h3", {}, view.step === "second" || view.step === "first" ? t("display.first_cards") : t("display.reveal")),
    h(
      "table",
      { class: "bids matrix" },
      h("thead", {}, h("tr", {}, h("th", {}, t("col.player")), stations.map((s) => h("th", { scope: "col" }, t("station.number", { n: s }))))),
      h(
        "tbody",
        {},
        players.map((p) =>
          h(
            "tr",
            {},
            h("td", {}, chip(p)),
            stations.map((s) => h("td", { class: "cards-cell", dataset: { label: t("station.number", { n: s }) } }, (revealed[s]?.[p] || []).join(" + "))),
          ),
        ),
      ),
    ),
  );
}

/** Rankings as a matrix, one row per player and one column per station: each player's place
 * and effective bid there, and where a tie was decided, a word for the reason beside the
 * player it favoured (R3.4). Where five long names and six stations do not fit beside the
 * offer, the legend goes first, then the earliest stations (fitOptional). */
function pastList(rankings) {
  if (!rankings.length) return null;
  const order = display.frame?.game?.view?.seats || [];
  const cells = rankings.map((ev) => {
    const byPlayer = Object.fromEntries((ev.entries || []).map((e) => [e.player, { ...e, station: ev.station, won: [] }]));
    for (const tie of ev.ties || []) {
      const [a] = tie.players || [];
      const rule = ["figure", "lower_score", "stack"].includes(tie.rule) ? tie.rule : "stack";
      if (byPlayer[a] && !byPlayer[a].won.includes(rule)) byPlayer[a].won.push(rule);
    }
    return byPlayer;
  });
  const anyTie = rankings.some((ev) => (ev.ties || []).length);
  return h(
    "div",
    { class: "past-wrap" },
    h(
      "table",
      { class: "past-list summary", dataset: { testid: "round-summary" } },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("td", { class: "past-player" }), // the corner: no header of its own (an empty th is one no reader can name)
          rankings.map((ev) => h("th", { scope: "col", class: "past-station", dataset: { station: ev.station } }, stationName(ev.station))),
        ),
      ),
      h(
        "tbody",
        {},
        order.map((p) =>
          h(
            "tr",
            { dataset: { player: p } },
            h("th", { scope: "row", class: "past-player" }, chip(p)),
            cells.map((byPlayer) => {
              const e = byPlayer[p];
              if (!e) return h("td", {}, "");
              return h(
                "td",
                { class: e.place === 1 ? "won" : "", dataset: { label: stationName(e.station) } },
                h("span", { class: "sum-place" }, `${e.place}.`),
                " ",
                h("b", {}, String(e.total)),
                // The reason may go to a line of its own: a column narrower than "30 ⚖ figure"
                // ran it into the next one (the round's summary at 1280×720).
                e.won.flatMap((rule) => [" ", h("span", { class: "past-tie" }, t(`tie.cell.${rule}`))]),
              );
            }),
          ),
        ),
      ),
    ),
    anyTie ? h("p", { class: "tie-legend" }, t("show.tie_legend")) : null,
  );
}

function renderReveal(view) {
  const box = document.getElementById("reveal");
  const panel = document.getElementById("reveal-panel");
  if (!box) return;
  if (!view || !view.round || view.finished) {
    document.body.classList.remove("revealing");
    if (panel) panel.hidden = true;
    return;
  }
  const rankings = display.told.roundEvents.filter((e) => e.type === "ranking");
  const ranked = new Set(rankings.map((e) => String(e.station)));
  const blocks = [];
  // The newest reveal in full (every bid's parts, the ranking, the ties), earlier ones short.
  const pendingReveal = revealedBlock(view, ranked);
  const newestFirst = rankings.slice().reverse();
  if (pendingReveal) blocks.push(pendingReveal);
  else if (newestFirst.length) blocks.push(rankingBlock(newestFirst.shift(), true));
  if (rankings.length || pendingReveal) blocks.push(pastList(newestFirst.slice().reverse()));
  else if (display.told.previousRound.length) {
    const started = display.told.previousRound.find((e) => e.type === "round_started");
    if (started) blocks.push(h("h3", { class: "previous-round" }, t("display.previous_round", { round: started.round })));
    blocks.push(pastList(display.told.previousRound.filter((e) => e.type === "ranking")));
  }
  const shown = blocks.filter(Boolean);
  // Once this round has revealed something the reveal takes the offer's place: the stakes are
  // in each station's line, and every bid's parts, the ranking and the ties fit at once.
  document.body.classList.toggle("revealing", Boolean(rankings.length || pendingReveal));
  if (panel) panel.hidden = shown.length === 0;
  fill(box, shown);
}

function renderTrack(view) {
  const box = document.getElementById("track");
  const panel = document.getElementById("track-panel");
  if (panel) panel.hidden = !view;
  if (!box || !view) return;
  const stacks = view.track || {};
  const top = Math.max(0, ...Object.keys(stacks).map(Number));
  // Rows of 50 boxes (0–49, then 50–99): the stacks need the height, and a third row took
  // the room the pyramid needs in the last round (it covered the track at 1920×1080 in German).
  const perRow = 50;
  const length = Math.max(perRow, Math.ceil((top + 1) / perRow) * perRow);
  box.style.setProperty("--per-row", String(perRow));
  const cells = [];
  for (let b = 0; b < length; b += 1) {
    const stack = stacks[String(b)] || [];
    const colour = boxColour(view.profile, b);
    cells.push(
      h(
        "div",
        { class: `box box-${colour} ${stack.length ? "occupied" : ""}`, dataset: { box: b }, title: `${b}` },
        h("span", { class: "box-no" }, String(b)),
        // Bottom to top: drawn as a column whose top marker is on top (R6.1).
        h(
          "span",
          { class: "stack" },
          stack
            .slice()
            .reverse()
            .map((p) =>
              h(
                "span",
                {
                  class: `marker${(view.walking || []).includes(p) ? " walking" : ""}`,
                  style: { background: seat(p).hex },
                  title: nameOf(p),
                  dataset: { player: p },
                },
                initials(nameOf(p)),
              ),
            ),
        ),
      ),
    );
  }
  fill(box, cells);
}

function renderPyramid(view) {
  const box = document.getElementById("pyramid");
  const panel = document.getElementById("pyramid-panel");
  if (panel) panel.hidden = !view;
  if (!box || !view) return;
  const rows = view.pyramid || [];
  const prior = beat.before(display.frame?.game?.view); // cells taken in this step are new
  const bonuses = (view.profile?.pyramid_rows || []).map((r) => r[1]);
  const out = [];
  for (let r = rows.length - 1; r >= 0; r -= 1) {
    out.push(
      h(
        "div",
        { class: "pyr-row", dataset: { row: r } },
        rows[r].map((owner, c) =>
          owner
            ? h(
                "span",
                { class: `cell taken${prior && !prior.pyramid?.[r]?.[c] ? " new" : ""}`, style: { background: seat(owner).hex }, title: nameOf(owner), dataset: { player: owner } },
                initials(nameOf(owner)),
              )
            : h("span", { class: "cell" }, ""),
        ),
        h("span", { class: "pyr-bonus", title: t("display.row_bonus", { n: bonuses[r] ?? "" }) }, `+${bonuses[r] ?? ""}`),
      ),
    );
  }
  fill(box, out);
}

/** The newest lines the log is drawn with: type follows the screen size (display.css), so a
 * TV of any size holds about the same number, far fewer than this. */
const LOG_LINES = 60;

function renderLog(view) {
  const box = document.getElementById("log");
  const panel = document.getElementById("log-panel");
  if (panel) panel.hidden = !view;
  if (!box) return;
  const lines = [];
  const hidden = beat.untold();
  for (const ev of display.told.log.slice(0, display.told.log.length - hidden).reverse()) {
    const text = eventText(ev, view, { short: true });
    if (!text) continue;
    lines.push(h("li", { class: `ev ev-${ev.type}`, dataset: { type: ev.type } }, text));
    if (lines.length >= LOG_LINES) break; // more than any screen holds (fitOptional drops the rest)
  }
  fill(box, lines);
  // Nothing told yet (the sacrifices): no empty box; one with lines but no room is a fault.
  if (panel && !lines.length) panel.hidden = true;
}

function renderFinal(view) {
  const panel = document.getElementById("final-panel");
  if (!panel) return;
  // R7 on the show's beat: each player's line (their sacrifice turned over) one at a time,
  // then the winner; a screen that joins later sees it all. The panel comes with the first
  // line (the last round's stations before it keep their spotlight and board).
  const { started, turned, crowned } = beat.finale(view);
  panel.hidden = !started;
  panel.dataset.turned = String(turned.length);
  panel.dataset.crowned = String(crowned);
  document.body.classList.toggle("finished", started);
  if (!started) return;
  const order = view.seats || Object.keys(view.players || {});
  const cur = beat.current();
  const beats = beat.beats;
  const lines = Object.fromEntries(order.map((p) => [p, turned.includes(p) ? view.players?.[p]?.final || {} : {}]));
  const winners = crowned ? view.winners || [] : [];
  const names = winners.map(nameOf);
  const newest = cur.index >= 0 ? beats[cur.index] : null;
  fill(
    "final",
    h("p", { class: "end-reason", dataset: { testid: "end-reason" } }, t("show.end_reason", { reason: lastRoundReason(view.last_round_reason, view) })),
    crowned
      ? h(
          "p",
          { class: "winners" },
          names.length > 1 ? t("final.winners", { names: names.join(", ") }) : t("final.winner", { names: names[0] || "" }),
        )
      : h("p", { class: "winners pending" }, t("show.final_turning", { name: newest?.player ? nameOf(newest.player) : "" })),
    handheld()
      ? h(
          "div",
          { class: "final-cards" },
          order.map((p) => finalCard(p, lines[p], { winner: winners.includes(p), turning: newest?.kind === "final_line" && newest.player === p })),
        )
      : finalTable(order, lines, winners),
  );
  panel.querySelectorAll("th, td").forEach((cell) => cell.classList.remove("turning"));
  if (newest?.kind === "final_line") {
    const col = order.indexOf(newest.player) + 2;
    panel.querySelectorAll(`.final-table tr > :nth-child(${col})`).forEach((cell) => cell.classList.add("turning"));
  }
}

// ---------- the show: the step's beats on this screen ----------

/** When each beat went up on this screen (for tests and for whoever debugs a table). */
function noteBeat() {
  const cur = beat.current();
  const b = cur.index >= 0 ? beat.beats[cur.index] : null;
  display.beatLog.push({ step: beat.step, index: cur.index, kind: b?.kind || null, station: b?.station ?? null, at: performance.now(), into: cur.into });
  if (display.beatLog.length > 500) display.beatLog.shift();
}

function beatKey() {
  const cur = beat.current();
  return `${beat.step}:${cur.index}`;
}

/** The moment of the current beat, over the centre column: a station's whole result and what
 * it gave, the round's summary, the last-round notice. */
function renderSpotlight(view) {
  const panel = document.getElementById("spotlight");
  if (!panel) return;
  const cur = beat.current();
  const b = cur.index >= 0 ? beat.beats[cur.index] : null;
  const kind = b && ["station", "decision", "summary", "last_round"].includes(b.kind) ? b.kind : null;
  panel.hidden = !kind;
  document.body.classList.toggle("spotlit", Boolean(kind));
  if (!kind) return;
  panel.dataset.kind = kind;
  // The cells turn over once, when the beat comes up: any later render of the same beat (a
  // frame about a phone, a resize, a language) shows them settled, never turning again.
  const key = beatKey();
  panel.classList.toggle("settled", panel.dataset.beat === key);
  panel.dataset.beat = key;
  const stakeView = beat.before(display.frame?.game?.view) || view;
  const stations = beat.beats.filter((x) => x.kind === "station");
  if (kind === "station") {
    const n = stations.indexOf(b) + 1;
    fill(
      panel,
      h("p", { class: "spot-count" }, stations.length > 1 ? t("show.station_of", { n, count: stations.length }) : ""),
      rankingBlock(b.ranking, true, stakeView),
      b.effects?.length
        ? h("ul", { class: "effects" }, b.effects.map((ev) => h("li", { dataset: { type: ev.type } }, eventText(ev, view))))
        : h("p", { class: "effects none" }, decidingLine(view, b)),
    );
    fitSpotlight(panel);
    return;
  }
  if (kind === "decision") {
    fill(
      panel,
      h("div", { class: "ranking current" }, h("h3", {}, stationLabel(b.station), h("span", { class: "stake" }, t(b.asked === false ? "show.decided_by_table" : "show.decided", { name: nameOf(b.player) })))),
      h("ul", { class: "effects" }, (b.effects || []).map((ev) => h("li", { dataset: { type: ev.type } }, eventText(ev, view)))),
    );
    fitSpotlight(panel);
    return;
  }
  if (kind === "summary") {
    fill(panel, h("h3", {}, t("show.summary", { round: b.round })), pastList(b.rankings || []));
    fitSpotlight(panel);
    return;
  }
  fill(
    panel,
    h(
      "div",
      { class: "last-round-notice" },
      h("p", { class: "big" }, t("round.last")),
      h("p", {}, t("show.last_round_detail", { reason: lastRoundReason(b.reason, view) })),
    ),
  );
}

/** What a station's beat without effects says: who completes its result next (the server
 * names a decision already made, `next`: a companion's, or the table's own, R5.4), or that
 * it gave nothing. */
function decidingLine(view, b) {
  const next = b.next || awaited(view, b);
  if (!next) return t("show.nothing_given");
  if (next.asked === false) return t(`show.deciding_table.${next.type}`);
  return decidingText(next, b.ranking);
}

/** The decision first still makes at this station (the city R5.3, the pyramid's order
 * R5.4), when it is the step's last station: the pending entry, or null. */
function awaited(view, b) {
  if (beat.beats.filter((x) => x.kind === "station").at(-1) !== b) return null;
  return (view?.pending || []).find((e) => e.type === "city" || e.type === "pyramid") || null;
}

/** Everything of the beat stays on screen, never cut and never below the smallest type:
 * first the ties in a few words each, then ties and effects side by side, then tighter rows. */
function fitSpotlight(panel) {
  const over = () => panel.scrollHeight > panel.clientHeight + 1;
  panel.classList.remove("compact", "two-col", "tight");
  fitCells(panel); // the round's summary is a results matrix too
  for (const step of ["compact", "two-col", "tight"]) {
    if (!over()) return;
    panel.classList.add(step);
    fitCells(panel);
  }
}

/** The top bar's countdown to the next beat; true when its words came or went (the bar's
 * layout may have changed), false when only its fill moved on. */
function renderCountdown() {
  const box = document.getElementById("show-countdown");
  if (!box) return false;
  const cur = beat.current();
  const wasHidden = box.hidden;
  // A game the host ended shows its story at once, over the beats of the step that were still
  // to come: they are not counted down (nor heard) under it.
  const none = cur.index < 0 || storyDue(display.frame, beat);
  box.hidden = none;
  if (none) {
    if (!wasHidden) fitHeader();
    return !wasHidden;
  }
  const left = Math.ceil(beat.left());
  const b = beat.beats[cur.index];
  fillCountdown(box, b.seconds || 1, cur.into);
  const text = t(beat.more || cur.index < beat.beats.length - 1 ? "show.next_in" : "show.hold_for", { s: left });
  const changed = box.dataset.text !== text;
  if (changed) {
    box.dataset.text = text;
    box.title = text;
    // The seconds alone when the top bar is squeezed (fitHeader): the bar still fills up.
    fill(box, h("span", { class: "countdown-long" }, text), h("span", { class: "countdown-short" }, t("show.countdown_short", { s: left })));
  }
  if (changed || wasHidden) fitHeader();
  return changed || wasHidden;
}

/** The pill fills up over the beat as one animation the browser runs itself (a style set ten
 * times a second cost the TV 0.15 CPU seconds a 2 s beat). Set again only when it is
 * off by more than a tenth of a second from the beat's clock: a new beat, a frame that moved
 * the clock, a replay's pause (it then stands still where the beat is held). */
function fillCountdown(box, seconds, into) {
  const key = `${beatKey()}:${seconds}`;
  const held = beat.frozen !== null;
  const anim = display.fill;
  const at = anim ? Number(anim.currentTime) / 1000 : NaN;
  if (anim && display.fillKey === key && Math.abs(at - into) < 0.1 && (anim.playState === "paused") === held) return;
  anim?.cancel();
  display.fillKey = key;
  // Four steps a second: a fill moving every frame kept the screen redrawing 60 times a
  // second (14.5 % of a core against 9.3 %, measured with benchmarks/bench_pages.py).
  const fill = box.animate([{ transform: "scaleX(0)" }, { transform: "scaleX(1)" }], {
    duration: seconds * 1000,
    fill: "both",
    easing: `steps(${Math.max(1, Math.round(seconds * 4))})`,
    pseudoElement: "::before",
  });
  fill.currentTime = into * 1000;
  if (held) fill.pause();
  display.fill = fill;
}

function tickShow() {
  const key = beatKey();
  if (key !== display.beatShown) {
    render();
    return;
  }
  if (beat.active()) {
    const cur = beat.current();
    let moved = false;
    if (cur.into < 2 && display.frame?.game?.view) {
      // Markers walk box by box: only the track and the scores change, and only when a
      // marker has reached its next box are they drawn again (a Pi draws the TV too).
      const view = beat.view(display.frame.game.view);
      const walked = JSON.stringify([view.track, view.walking, Object.values(view.players || {}).map((p) => p.score)]);
      moved = walked !== display.walked;
      if (moved) {
        display.walked = walked;
        renderSeats(view);
        renderTrack(view);
      }
    }
    // A seat card that grew with its new score, or a top bar the countdown made taller, takes
    // room from the panels below: they fit again now, not at the next beat (the log's last
    // line was cut for the rest of a beat at 1280×720). Between such changes the layout is
    // the same, so it is not measured again ten times a second.
    if (renderCountdown() || moved) fitOptional();
  }
}

function renderSound() {
  const button = document.getElementById("sound-toggle");
  const volume = /** @type {HTMLInputElement} */ (document.getElementById("sound-volume"));
  if (!button || !volume) return;
  button.textContent = sound.on ? t("show.sound_is_on") : t("show.sound_is_off");
  // Its accessible name is the visible "Sound: on" (WCAG 2.5.3); what a tap does is the title.
  button.title = sound.on ? t("show.sound_off") : t("show.sound_on");
  button.removeAttribute("aria-label");
  button.setAttribute("aria-pressed", String(sound.on));
  volume.value = String(Math.round(sound.volume * 100));
  volume.title = t("show.volume");
  volume.setAttribute("aria-label", t("show.volume"));
}

// ---------- title and language picker ----------

/** The table's title, never cut: the default one ("Table 1") in the display's language, a
 * title the café gave the table as it is. */
function renderTitle() {
  const el = document.getElementById("table-title");
  if (!el) return;
  const name = display.frame?.table?.name ?? page.table;
  const title = display.frame?.table?.title ?? serverTitle;
  el.textContent = !title || title === `Table ${name}` ? t("display.table_title", { name }) : title;
}

/** The display's own language picker: the choice is the table's display setting (the host
 * page shows the same one; phones keep their own). On a replay it stays on this page. */
function bindLanguagePicker(conn) {
  const select = /** @type {HTMLSelectElement} */ (document.getElementById("display-lang"));
  if (!select) return;
  fill(
    select,
    LANGUAGES.map((code) => h("option", { value: code, dataset: { i18n: `lang.${code}` } }, t(`lang.${code}`))),
  );
  select.value = document.documentElement.lang;
  select.addEventListener("change", () => {
    const lang = select.value;
    if (page.stepUrl || !conn.send({ type: "set_language", lang })) {
      display.ownLanguage = page.stepUrl ? lang : null;
      setLanguage(lang);
    }
  });
  onLanguageChange((code) => {
    select.value = code;
  });
}

// ---------- LED board ----------

/** A `board` frame: the LED board's status alone (its picture changed, or its link), the rest
 * of the view as it was. Only the board is drawn again, and only the lights that changed;
 * the whole page when the drawing came or went (the panels share the screen). */
function onBoard(board) {
  if (!display.frame) return; // the first view brings the board with it
  const leds = document.getElementById("leds-panel");
  const wasShown = Boolean(leds && !leds.hidden);
  display.frame.board = board;
  renderBoard();
  if (Boolean(leds && !leds.hidden) !== wasShown) render();
}

function renderBoard() {
  const status = document.getElementById("board-status");
  const board = display.frame?.board;
  if (status) {
    let key = "board.none";
    if (board) {
      if (board.mode === "simulated" || board.simulated) key = "board.simulated";
      else if (board.connected) key = "board.connected";
      else key = "board.disconnected";
    }
    status.dataset.state = key.split(".")[1];
    // The long label, and the short one a squeezed top bar shows instead (fitHeader); `fill`
    // leaves it in place while its words stay the same (a board frame per picture).
    fill(
      status,
      h("span", { class: "board-label" }, `${t("board.title")}: `),
      h("span", { class: "board-label-short" }, `${t("board.short")}: `),
      t(key),
    );
  }
  const leds = document.getElementById("leds-panel");
  if (!leds) return;
  const pixels = board?.pixels;
  const simulated = board && (board.mode === "simulated" || board.simulated);
  // The host may hide the drawing (table setting board_drawing).
  const wanted = display.frame?.table?.board_drawing !== false;
  leds.hidden = !(wanted && simulated && Array.isArray(pixels) && pixels.length);
  document.body.classList.toggle("leds-shown", !leds.hidden);
  if (leds.hidden || !pixels) return;
  // Built again only when its layout, its words or its number of lights changed; a new
  // picture (many a step: a marker walks box by box) recolours the lights that changed.
  const drawn = JSON.stringify([board?.layout ?? null, document.documentElement.lang, pixels.length]);
  if (drawn === display.boardDrawn && display.ledDots.length === pixels.length && display.ledDots[0]?.isConnected) {
    pixels.forEach((colour, i) => {
      if (display.ledColours[i] === colour) return;
      display.ledColours[i] = colour;
      display.ledDots[i].style.background = ledColour(colour ?? "#000");
    });
    return;
  }
  display.boardDrawn = drawn;
  display.ledColours = pixels.slice();
  const dots = (display.ledDots = []);
  const dot = (i) => {
    const el = h("span", { class: "led", style: { background: ledColour(pixels[i] ?? "#000") }, dataset: { led: i } });
    dots[i] = el;
    return el;
  };
  if (!board?.layout) {
    fill("leds", h("div", { class: "led-strip" }, pixels.map((_, i) => dot(i))));
    return;
  }
  fill("leds", boardDrawing(board.layout, dot));
}

/** The simulated board as the physical one: the score track around the edge (box numbers
 * every five, LEDs in the direction of play), the pyramid and the labelled status lights. */
function boardDrawing(layout, dot) {
  const track = layout.track || [];
  const perSide = Math.max(1, Math.ceil(track.length / 4));
  const cells = [];
  track.forEach((group, b) => {
    const at = boxPlace(b, perSide);
    cells.push(
      h(
        "span",
        {
          class: `led-box side-${at.side}${b % 5 === 0 ? " fifth" : ""}`,
          title: t("board.box", { n: b }),
          dataset: { box: b },
          style: { gridRow: String(at.row), gridColumn: String(at.col) },
        },
        group.map(dot),
      ),
    );
    if (b % 5 === 0) {
      cells.push(
        h(
          "span",
          // Numbers beside the left and right sides lean inwards, clear of the boxes.
          { class: `led-box-no${at.labelCol === 2 ? " lean-right" : at.labelCol === perSide ? " lean-left" : ""}`, dataset: { boxNo: b }, style: { gridRow: String(at.labelRow), gridColumn: String(at.labelCol) } },
          String(b),
        ),
      );
    }
  });
  const st = layout.status || {};
  const numbered = (leds, kind) =>
    h(
      "span",
      { class: "led-numbered" },
      leds.map((led, k) => h("span", { class: "led-cell", dataset: { [kind]: k + 1 } }, dot(led), h("span", { class: "led-no" }, String(k + 1)))),
    );
  const centre = h(
    "div",
    { class: "led-centre", style: { gridRow: `3 / ${perSide}`, gridColumn: `3 / ${perSide}` } },
    h(
      "div",
      { class: "led-pyramid", title: t("display.pyramid") },
      h("span", { class: "led-label" }, t("board.pyramid_leds")),
      (layout.pyramid || [])
        .slice()
        .reverse()
        .map((row) => h("div", { class: "led-row" }, row.map(dot))),
    ),
    h(
      "div",
      { class: "led-status", title: t("board.status_lights") },
      st.mode !== undefined && st.mode !== null
        ? h("div", { class: "led-status-row", dataset: { status: "mode" } }, h("span", { class: "led-label" }, t("board.mode_led")), h("span", { class: "led-numbered" }, h("span", { class: "led-cell" }, dot(st.mode))))
        : null,
      st.round?.length
        ? h("div", { class: "led-status-row", dataset: { status: "round" } }, h("span", { class: "led-label" }, t("board.round_leds")), numbered(st.round, "round"))
        : null,
      st.station?.length
        ? h("div", { class: "led-status-row", dataset: { status: "station" } }, h("span", { class: "led-label" }, t("board.station_leds")), numbered(st.station, "station"))
        : null,
    ),
  );
  // Corner boxes are square; the others narrow along the side and deep towards the centre,
  // so each of a box's LEDs (a marker of its stack, R6.1) is as large as the box numbers.
  const tracks = `var(--deep) repeat(${Math.max(0, perSide - 1)}, var(--side)) var(--deep)`;
  const perBox = Math.max(1, ...track.map((group) => group.length));
  return h(
    "div",
    { class: "led-board", style: { "--cells": String(perSide + 1), "--per-box": String(perBox), gridTemplateColumns: tracks, gridTemplateRows: tracks } },
    cells,
    centre,
  );
}

// ---------- start ----------

async function main() {
  const params = new URLSearchParams(location.search);
  const asked = params.get("lang");
  const lang = asked || page.lang || "en";
  await setLanguage(LANGUAGES.includes(lang) ? lang : "en");
  // A replay opened in a language (a phone's review link) keeps it: the replayed table's
  // language is only the default, as when the language is picked on the page.
  if (page.stepUrl && asked && LANGUAGES.includes(asked)) display.ownLanguage = asked;
  onLanguageChange(() => render());
  const conn = new Connection({
    path: /** @type {string} */ (page.ws), // display.html always sets it
    onFrame,
    onStatus: (status) => {
      display.connStatus = status;
      renderStatusBar();
    },
  });
  conn.start();
  bindLanguagePicker(conn);
  // Tests and the host's preview feed frames through the same path as the socket.
  window.__display = { frame: () => display.frame, conn, inject: (f) => onFrame(f) };
  // Sound: off or on, and how loud, kept on this display; browsers start audio on a click.
  document.getElementById("sound-toggle")?.addEventListener("click", () => {
    sound.on = !sound.on;
    sound.unlock();
    sound.save();
    renderSound();
  });
  document.getElementById("sound-volume")?.addEventListener("input", (e) => {
    sound.volume = Number(/** @type {HTMLInputElement} */ (e.target).value) / 100;
    sound.unlock();
    sound.save();
  });
  document.addEventListener("click", () => sound.unlock(), { once: true });
  onLanguageChange(() => renderSound());
  renderSound();
  setInterval(tickShow, 100);
  window.__display.beatLog = () => display.beatLog.map((x) => ({ ...x, now: performance.now() }));
  window.__display.beatKey = () => beatKey();
  window.__display.beat = () => ({ step: beat.step, ...beat.current(), left: beat.left(), beats: beat.beats.map((b) => b.kind) });
  // Type follows the screen size, so what fits (log lines, earlier rankings) is recomputed.
  window.addEventListener("resize", () => render());
  // An item of the top bar that grows or shrinks between frames (a label translated after the
  // render, a sound button's words) has the bar fitted again then, not at the next frame.
  const bar = document.querySelector(".topbar");
  if (bar && typeof ResizeObserver === "function") {
    const watch = new ResizeObserver(() => fitHeader());
    for (const el of bar.children) watch.observe(el);
  }
  const revealPanel = document.getElementById("reveal-panel");
  if (revealPanel && typeof ResizeObserver === "function") {
    new ResizeObserver(() => {
      if (display.droppedAt === null || revealPanel.clientHeight <= display.droppedAt + 1) return;
      display.droppedAt = null;
      requestAnimationFrame(() => render());
    }).observe(revealPanel);
  }
  render();
}

main();
