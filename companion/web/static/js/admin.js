// Café admin: every table (state, seats, LED board, time since the last command, actions),
// the history of games that are over (logs, replays), the leaderboard and the CSV exports.
import { byId, fill, h } from "./dom.js";
import { reviewAction } from "./admin-review.js";
import { languageSwitch, onLanguageChange, pickLanguage, setLanguage, t } from "./i18n.js";
import { oneDecimal } from "./texts.js";

const token = /** @type {string} */ (document.body.dataset.adminToken); // admin.html always sets it
const headers = { "X-Admin-Token": token };
/** Everything the admin page holds that changes, in one object. */
const admin = {
  /** @type {any[] | null} the tables' summaries */
  tables: null,
  /** @type {any[] | null} the games that are over */
  history: null,
  /** @type {string | null} each table's game and its state, when the tables were last loaded */
  games: null,
  /** @type {any[]} the rows the history skipped (damaged) */
  skipped: [],
  /** @type {any[]} webhook deliveries whose own row cannot be read (not sent) */
  unsent: [],
  /** @type {any[] | null} */
  leaderboard: null,
  /** @type {number | null} */
  retentionDays: null,
  /** @type {Record<string, string>} the players' screen colours */
  colourHex: {},
};

function periodQuery() {
  const q = new URLSearchParams();
  const from = /** @type {HTMLInputElement} */ (document.getElementById("period-from")).value;
  const to = /** @type {HTMLInputElement} */ (document.getElementById("period-to")).value;
  if (from) q.set("from", from);
  if (to) q.set("to", to);
  if (/** @type {HTMLInputElement} */ (document.getElementById("people-only"))?.checked) q.set("people_only", "1");
  return q;
}

function message(text) {
  byId("admin-message").textContent = text || "";
}

async function getJson(url) {
  const response = await fetch(url, { headers, cache: "no-store" });
  const body = await response.json();
  if (!response.ok) throw new Error(body.reason || response.statusText);
  return body;
}

function ago(seconds) {
  if (seconds == null) return "–";
  if (seconds < 90) return t("admin.ago_s", { n: Math.round(seconds) });
  if (seconds < 5400) return t("admin.ago_min", { n: Math.round(seconds / 60) });
  return t("admin.ago_h", { n: Math.round(seconds / 3600) });
}

function boardText(board) {
  if (!board) return t("board.none");
  if (board.mode === "simulated") return t("board.simulated");
  return board.connected ? t("board.connected") : t("board.disconnected");
}

async function act(table, action) {
  if (!confirm(action === "close" ? t("admin.confirm_close", { table }) : t("admin.confirm_rotate", { table }))) return;
  const response = await fetch(`/admin/api/tables/${encodeURIComponent(table)}/${action}`, { method: "POST", headers });
  const body = await response.json();
  message(response.ok ? t(`admin.done.${action}`, { table }) : body.reason);
  await loadTables();
}

function renderTables() {
  if (!admin.tables) return;
  fill(
    "admin-tables",
    admin.tables.map((tb) =>
      h(
        "tr",
        { dataset: { table: tb.name } },
        h("td", {}, tb.title),
        h(
          "td",
          { class: "state" },
          t(`cafe.status.${tb.status}`),
          tb.round ? ` · ${t("admin.round", { n: tb.round })}` : "",
          // The table's open sockets by kind of screen: a table at play has its display and
          // a phone a seat connected (a number that only grows: a socket that outlived its page).
          tb.sockets ? h("span", { class: "screens", dataset: { testid: "sockets" } }, t("admin.screens", tb.sockets)) : null,
        ),
        h(
          "td",
          {},
          tb.seats.map((s) => h("span", { class: "who", style: { color: s.hex || "inherit" } }, `${s.connected ? "●" : "○"} ${s.name}`)),
        ),
        h("td", { class: "board" }, boardText(tb.board)),
        h("td", { class: "since" }, ago(tb.seconds_since_command)),
        h(
          "td",
          { class: "actions" },
          h("a", { class: "button", href: tb.host_url, target: "_blank", rel: "noopener" }, t("admin.open_host")),
          h("button", { class: "close-game", disabled: tb.game_status !== "playing", onclick: () => act(tb.name, "close") }, t("admin.close_game")),
          h("button", { class: "rotate", onclick: () => act(tb.name, "rotate") }, t("admin.rotate")),
        ),
      ),
    ),
  );
}

/** Results that cannot be read (a damaged row): left out of the lists, named here; and
 * webhook deliveries whose own row cannot be read (not sent). */
function renderSkipped() {
  const box = byId("admin-damaged");
  /** @param {any[]} list */
  const rows = (list) => list.map((d) => `#${d.id} (${d.reason})`).join(", ");
  const lines = [];
  if (admin.skipped.length) lines.push(t("admin.damaged", { n: admin.skipped.length, rows: rows(admin.skipped) }));
  if (admin.unsent.length) lines.push(t("admin.damaged_delivery", { n: admin.unsent.length, rows: rows(admin.unsent) }));
  box.hidden = !lines.length;
  box.textContent = lines.join(" ");
}

function renderHistory() {
  if (!admin.history) return;
  renderSkipped();
  byId("retention").textContent = admin.retentionDays ? t("admin.retention", { days: admin.retentionDays }) : t("admin.retention_off");
  if (!admin.history.length) {
    fill("admin-history", h("tr", {}, h("td", { colspan: 5, class: "muted" }, t("admin.no_games"))));
    return;
  }
  fill(
    "admin-history",
    admin.history.map((g) =>
      h(
        "tr",
        { dataset: { game: g.game_id, status: g.status } },
        h("td", {}, new Date(g.ended_at).toLocaleString(), " · ", t(`host.game_status.${g.status}`)),
        h("td", {}, g.table.title),
        h(
          "td",
          {},
          g.players.map((p) =>
            h(
              "span",
              { class: `who${p.companion ? " companion" : ""}`, dataset: { seat: p.seat } },
              swatch(p.colour),
              companionMark(p),
              `${p.name} ${p.score}`,
              holdersNote(p),
            ),
          ),
        ),
        h("td", { class: "winners" }, g.players.filter((p) => p.winner).map((p) => p.name).join(", ") || "–"),
        h(
          "td",
          { class: "actions" },
          h("a", { class: "button", href: g.log, download: `chocolatl-game-${g.game_id}.json` }, t("host.download")),
          h("a", { class: "button replay", href: g.replay, target: "_blank", rel: "noopener" }, t("admin.replay")),
          reviewAction(g, headers, loadPeriod),
        ),
      ),
    ),
  );
}

/** A dot in a player's colour (the colour a seat's holder played in). */
function swatch(colour) {
  const hex = admin.colourHex[colour];
  return hex ? h("span", { class: "swatch", title: colour, style: { background: hex, marginRight: "0.3em", verticalAlign: "-0.1em" } }) : null;
}

/** Rounds as short ranges: [1, 2, 3, 5] -> "1–3, 5". */
function spans(rounds) {
  const out = [];
  for (const r of [...rounds].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last && last[1] === r - 1) last[1] = r;
    else out.push([r, r]);
  }
  return out.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)).join(", ");
}

/** Who held a seat in which rounds, when that was more than the one credited (a companion
 * player's rounds, a phone that took the seat over). */
function holdersNote(p) {
  const holders = p.holders || [];
  if (holders.length < 2) return null;
  return h(
    "small",
    { class: "holders" },
    ` (${t("admin.holders")} `,
    holders.map((x, i) =>
      h(
        "span",
        { class: `holder${x.companion ? " companion" : ""}`, dataset: { name: x.name, companion: x.companion || "" } },
        i ? "; " : "",
        swatch(x.colour),
        companionMark(x),
        t("admin.holder_rounds", { name: x.name, rounds: spans(x.rounds) }),
      ),
    ),
    ")",
  );
}

/** ⚙ before a companion player's name (the leaderboard ranks them apart from people). */
function companionMark(p) {
  return p.companion ? h("span", { class: "companion-mark", title: t("admin.companion_mark"), "aria-label": t("admin.companion_mark") }, "⚙ ") : null;
}

function renderLeaderboard() {
  if (!admin.leaderboard) return;
  fill(
    "admin-leaderboard",
    admin.leaderboard.map((p) =>
      h(
        "tr",
        { dataset: { name: p.name, companion: p.companion ? "1" : "0" } },
        h("td", {}, companionMark(p), p.name),
        h("td", { class: "num" }, p.games),
        h("td", { class: "num" }, p.wins),
        h("td", { class: "num" }, `${Math.round(p.win_share * 100)} %`),
        h("td", { class: "num" }, oneDecimal(p.mean_score)),
        h("td", { class: "num" }, p.best_score),
        h("td", { class: "num helped" }, p.helped ? `⚙ ${p.helped}` : "–"),
      ),
    ),
  );
}

async function loadTables() {
  try {
    const body = await getJson("/admin/api/tables");
    admin.tables = body.tables;
    admin.retentionDays = body.retention_days;
    renderTables();
    // A game whose end its screens have now shown joins the history (until then the server
    // leaves it out, and its result is recorded a moment later): the history is loaded again
    // when a table's game or its state changes, and while a table's game that is over is not
    // in it yet, not only when the period changes.
    const games = JSON.stringify(body.tables.map((/** @type {any} */ tb) => [tb.name, tb.game_id, tb.game_status, tb.ahead_of_screens]));
    const listed = new Set([...(admin.history || []).map((g) => g.game_id), ...admin.skipped.map((d) => Number(d.id))]);
    const missing = body.tables.some((/** @type {any} */ tb) => tb.game_id != null && tb.game_status !== "playing" && !listed.has(tb.game_id));
    if (admin.history && ((admin.games !== null && games !== admin.games) || missing)) loadPeriod();
    admin.games = games;
  } catch (err) {
    message(String(err instanceof Error ? err.message : err));
  }
}

async function loadPeriod() {
  const q = periodQuery();
  for (const kind of ["games", "leaderboard"]) {
    const link = new URLSearchParams(q);
    link.set("token", token);
    /** @type {HTMLAnchorElement} */ (document.getElementById(`export-${kind}`)).href = `/admin/export/${kind}.csv?${link}`;
    // Spreadsheets with a decimal comma (German Excel) split on semicolons.
    link.set("sep", "semicolon");
    /** @type {HTMLAnchorElement} */ (document.getElementById(`export-${kind}-semicolon`)).href = `/admin/export/${kind}.csv?${link}`;
  }
  try {
    const body = await getJson(`/admin/api/history?${q}`);
    admin.history = body.games;
    admin.colourHex = body.colours || {};
    admin.skipped = body.skipped || [];
    admin.unsent = body.unsent || [];
    admin.leaderboard = (await getJson(`/admin/api/leaderboard?${q}`)).players;
    message("");
    renderHistory();
    renderLeaderboard();
  } catch (err) {
    message(String(err instanceof Error ? err.message : err));
  }
}

await setLanguage(pickLanguage());
languageSwitch(/** @type {HTMLSelectElement} */ (document.getElementById("lang")), { remember: true });
onLanguageChange(() => {
  renderTables();
  renderHistory();
  renderLeaderboard();
});
byId("period-from").addEventListener("change", loadPeriod);
byId("period-to").addEventListener("change", loadPeriod);
byId("people-only").addEventListener("change", loadPeriod);
await loadTables();
await loadPeriod();
document.body.dataset.loaded = "1";
setInterval(loadTables, 5000);
