// The story of a game on the display, once it is over (companion/engine/story.py): every
// player's track score station by station as a chart ending at the final totals, the turning
// points as sentences, and who won most at which station. The server says when it may come
// up: the step that names the winner carries `show.story_at`, the seconds into that step
// after the winner's moment (never while a final-scoring line or the winner is still due). It
// stays until a new game. An ended game (the host's "End game") has no final scoring, so its
// story shows at once. Once the game's review is ready, the stations table gains a column:
// each player's review headline (points of margin lost per decision, lower is better).

import { fill, h, refill } from "./dom.js";
import { nameOf, oneDecimal, seat, stationName } from "./format.js";
import { has, plural, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const LEADS_SHOWN = 4; // the latest lead changes; earlier ones are dropped first if room is short

/** What this module keeps between draws: the timer that brings the story up when it is due,
 * and the stations table's last fit (what it was drawn in, and the chart's share it got). */
const kept = {
  /** @type {ReturnType<typeof setTimeout> | undefined} */ timer: undefined,
  fitKey: "",
  fitShare: 0,
};

/** Seconds until the story of ``frame`` may show (0: now, null: not for this frame). A
 * finished game's story waits for the moment the server gave; without one it never shows. */
function secondsLeft(frame, beat) {
  const game = frame.game;
  if (game.status === "ended") return 0;
  const at = frame.show?.story_at;
  if (typeof at !== "number" || !Number.isFinite(at) || beat.step !== frame.show.step) return null;
  return Math.max(0, at - beat.elapsed());
}

/** Whether the end of ``frame``'s game is still being shown on this screen (a final line or
 * the winner's moment still to come): what the story waits for, the review's status waits
 * for too (a phone opens its review only once the end is shown). */
export function endStillDue(frame, beat) {
  if (!frame?.game || frame.game.status === "playing") return false;
  const left = secondsLeft(frame, beat);
  return left !== null && left > 0;
}

/** Seconds until ``frame``'s story shows (null: not for this frame: a game still played, or
 * no story). */
function storyLeft(frame, beat) {
  const game = frame?.game;
  return frame?.story && game && game.status !== "playing" ? secondsLeft(frame, beat) : null;
}

/** Whether ``frame``'s story covers the screen now (a game the host ended: at once, over the
 * beats of its step still to come). */
export function storyDue(frame, beat) {
  return storyLeft(frame, beat) === 0;
}

/** Show the story of ``frame`` when it is due (``beat``: the page's show clock); ``rerender``
 * is called when it becomes due. */
export function renderStory(frame, rerender, beat) {
  const panel = document.getElementById("story-panel");
  if (!panel) return;
  clearTimeout(kept.timer);
  const story = frame?.story;
  const left = storyLeft(frame, beat);
  const due = left === 0;
  if (left !== null && left > 0) kept.timer = setTimeout(rerender, left * 1000 + 20);
  panel.hidden = !due;
  document.body.classList.toggle("story", due);
  if (!due) return;
  draw(panel, frame, story);
}

function draw(panel, frame, story) {
  const view = frame.game.view || {};
  const winners = view.winners || [];
  const totals = winners.map((p) => view.players?.[p]?.final?.total).filter((v) => v !== undefined);
  const names = winners.map(nameOf).join(", ");
  let headline = t("phase.ended");
  if (story.finished) {
    headline = t(winners.length > 1 ? "final.winners" : "final.winner", { names });
    if (totals.length) headline += ` · ${plural("common.points", totals[0])}`;
  }
  const chart = h("div", { class: "story-chart", dataset: { testid: "story-chart" } });
  refill(panel); // drawn whole each time: fit() shrinks and drops parts of the last one
  fill(
    panel,
    h("header", { class: "story-head" }, h("h2", {}, t("story.title")), h("p", { class: "story-headline" }, headline)),
    h(
      "div",
      { class: "story-body" },
      h("section", { class: "story-left" }, h("h3", {}, t("story.chart")), chart, legend(story)),
      h(
        "section",
        { class: "story-right" },
        h("h3", {}, t("story.turns")),
        turns(story),
        h("h3", {}, t("story.stats")),
        statsTable(story, frame.review),
        playersLines(story, frame.review),
      ),
    ),
  );
  fit(panel); // first: the table may take some of the chart's width
  drawChart(chart, story);
}

// ---------- chart ----------

/**
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {string | number | null} [text]
 */
function el(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = String(text);
  return node;
}

/** Dark text on light colours (yellow, sky), light text on dark ones. */
function inkOn(hex) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
  if (!m) return "#000";
  const [r, g, b] = m.slice(1).map((x) => parseInt(x, 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#000" : "#fff";
}

function initials(name) {
  return String(name || "?").slice(0, 2);
}

/** The gains the turning points name, numbered as in the list (1 = biggest). */
function numberedGains(story) {
  return story.turning_points.filter((tp) => tp.kind === "gain");
}

function drawChart(box, story) {
  const width = box.clientWidth;
  const height = box.clientHeight;
  if (width < 10 || height < 10) return;
  const fs = parseFloat(getComputedStyle(box).fontSize) || 16;
  const players = story.players;
  const n = story.marks.length - 1;
  const top = Math.max(10, ...players.map((p) => Math.max(...story.series[p])));
  const step = top <= 20 ? 5 : 10;
  const ymax = Math.ceil(top / step) * step;
  const r = fs * 0.85; // end badges
  const m = { left: fs * 2.2, right: r * 2 + fs * 2.4, top: r + 3, bottom: fs * 1.5 };
  const pw = width - m.left - m.right;
  const ph = height - m.top - m.bottom;
  const x = (i) => m.left + (n ? (i * pw) / n : 0);
  const y = (v) => m.top + ph * (1 - v / ymax);
  const svg = el("svg", {
    class: "story-svg",
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: "img",
    "aria-label": t("story.chart"),
    "data-testid": "story-svg",
  });
  // Score lines every 5 or 10 points, labelled on the left.
  for (let v = 0; v <= ymax; v += step) {
    svg.append(el("line", { class: "grid", x1: m.left, x2: m.left + pw, y1: y(v), y2: y(v) }));
    svg.append(el("text", { class: "axis", x: m.left - fs * 0.3, y: y(v) + fs * 0.35, "text-anchor": "end" }, v));
  }
  // Round marks: a line after every round's station 6 and the round's number under its span;
  // a finished game's last step is its final scoring (R7), marked as such.
  let start = 0;
  story.marks.forEach((mark, i) => {
    if (i === 0) return;
    if (mark.final) {
      svg.append(
        el(
          "text",
          { class: "axis final-label", x: (x(start) + x(i)) / 2, y: height - fs * 0.3, "text-anchor": "middle", "data-final": "true" },
          t("story.final_mark"),
        ),
      );
      return;
    }
    const endOfRound = mark.station === 6 || i === n || Boolean(story.marks[i + 1]?.final);
    if (!endOfRound) return;
    if (i < n) {
      svg.append(el("line", { class: "round-mark", x1: x(i), x2: x(i), y1: m.top, y2: m.top + ph }));
    }
    svg.append(
      el(
        "text",
        { class: "axis round-label", x: (x(start) + x(i)) / 2, y: height - fs * 0.3, "text-anchor": "middle", "data-round": mark.round },
        t("story.round_mark", { n: mark.round }),
      ),
    );
    start = i;
  });
  // One line per player, drawn over a dark edge so crossing lines stay apart.
  const stroke = Math.max(4, fs * 0.28);
  for (const p of n ? players : []) {
    const points = story.series[p].map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    svg.append(el("polyline", { class: "edge", points, "stroke-width": stroke + 3 }));
    svg.append(el("polyline", { class: "line", points, stroke: seat(p).hex, "stroke-width": stroke, "data-player": p }));
  }
  // The named gains, numbered as in the list beside the chart.
  numberedGains(story).forEach((tp, k) => {
    const i = story.marks.findIndex((mk) => mk.round === tp.round && mk.station === tp.station);
    if (i < 0) return;
    const cx = x(i);
    const cy = y(tp.score);
    svg.append(el("circle", { class: "turn-dot", cx, cy, r: fs * 0.62, fill: seat(tp.player).hex }));
    svg.append(el("text", { class: "turn-no", x: cx, y: cy + fs * 0.32, "text-anchor": "middle", fill: inkOn(seat(tp.player).hex) }, k + 1));
  });
  // End badges: initials on the player's colour and the final track score, pushed apart.
  const ends = players
    .map((p) => ({ p, v: story.series[p][n], cy: y(story.series[p][n]) }))
    .sort((a, b) => a.cy - b.cy);
  // Apart by a badge's height, inside the plot: down from the top, then up from the bottom.
  const gap = r * 2 + 2;
  const low = m.top + ph;
  for (let k = 1; k < ends.length; k += 1) ends[k].cy = Math.max(ends[k].cy, ends[k - 1].cy + gap);
  for (let k = ends.length - 1; k >= 0; k -= 1) {
    ends[k].cy = Math.min(ends[k].cy, k === ends.length - 1 ? low : ends[k + 1].cy - gap);
  }
  const bx = m.left + pw + r + fs * 0.4;
  for (const e of ends) {
    const hex = seat(e.p).hex;
    if (n) svg.append(el("line", { class: "end-tie", x1: x(n), y1: y(e.v), x2: bx - r, y2: e.cy, stroke: hex }));
    svg.append(el("circle", { class: "end-badge", cx: bx, cy: e.cy, r, fill: hex, "data-player": e.p }));
    svg.append(el("text", { class: "end-initials", x: bx, y: e.cy + fs * 0.3, "text-anchor": "middle", fill: inkOn(hex) }, initials(nameOf(e.p))));
    svg.append(el("text", { class: "end-score", x: bx + r + fs * 0.25, y: e.cy + fs * 0.35 }, e.v));
  }
  box.replaceChildren(svg);
}

/** A player as the chart marks them: initials on their colour, then the name (colour is
 * never the only cue). */
function who(p) {
  const hex = seat(p).hex;
  return h(
    "span",
    { class: "who", dataset: { player: p } },
    h("span", { class: "who-badge", style: { background: hex, color: inkOn(hex) }, "aria-hidden": "true" }, initials(nameOf(p))),
    h("span", { class: "who-name" }, nameOf(p)),
  );
}

/** Whose line is whose. */
function legend(story) {
  return h("ul", { class: "story-legend" }, story.players.map((p) => h("li", {}, who(p))));
}

// ---------- turning points ----------

function sentence(tp) {
  const params = {
    name: nameOf(tp.player),
    rival: nameOf(tp.rival),
    points: tp.points,
    score: tp.score,
    round: tp.round,
    station: stationName(tp.station),
  };
  if (tp.kind === "gain") {
    const key = `story.gain.${tp.reason}`;
    return t(has(key) ? key : "story.gain", params);
  }
  if (tp.kind === "final") return t("story.final_overtake", params);
  return t(`story.${tp.reason}`, params);
}

function turns(story) {
  const gains = numberedGains(story);
  const leads = story.turning_points.filter((tp) => tp.kind === "lead").slice(-LEADS_SHOWN);
  const finals = story.turning_points.filter((tp) => tp.kind === "final");
  const items = [
    ...gains.map((tp, k) =>
      h(
        "li",
        { class: "turn turn-gain", dataset: { kind: "gain", player: tp.player } },
        h("span", { class: "turn-mark", style: { background: seat(tp.player).hex, color: inkOn(seat(tp.player).hex) } }, String(k + 1)),
        h("span", { class: "turn-text" }, sentence(tp)),
      ),
    ),
    ...[...leads, ...finals].map((tp) =>
      h(
        "li",
        { class: `turn turn-${tp.kind}`, dataset: { kind: tp.kind, player: tp.player } },
        h("span", { class: "turn-mark", style: { background: seat(tp.player).hex, color: inkOn(seat(tp.player).hex) } }, tp.kind === "final" ? "★" : "▲"),
        h("span", { class: "turn-text" }, sentence(tp)),
      ),
    ),
  ];
  if (!items.length) items.push(h("li", { class: "turn" }, t("story.nothing")));
  return h("ol", { class: "story-turns", dataset: { testid: "story-turns" } }, items);
}

// ---------- station statistics ----------

/** Each player's review headline (points of margin lost per decision in the common mix,
 * players/review.py) once the review is ready, or null. */
function reviewed(review) {
  if (review?.state !== "ready" || !Array.isArray(review.players)) return null;
  return Object.fromEntries(review.players.map((p) => [p.seat, p.mean_loss]));
}

/** The figures the stations table and the players' lines show, and the best of each (drawn
 * out: the best is the accent). */
function statsOf(story, review) {
  const players = story.players;
  const losses = reviewed(review);
  const fewest = losses ? Math.min(...players.map((p) => losses[p] ?? Infinity)) : null;
  const best = story.stations.map((s) => Math.max(0, ...players.map((p) => s.wins[p])));
  const extras = ["huts", "dice_used", "cards_exchanged", "figures"];
  const most = Object.fromEntries(extras.map((k) => [k, Math.max(0, ...players.map((p) => story.players_stats[p][k]))]));
  return { players, losses, fewest, best, extras, most };
}

function statsTable(story, review) {
  const { players, losses, fewest, best, extras, most } = statsOf(story, review);
  const head = h(
    "tr",
    {},
    h("td", {}), // the corner: no header of its own
    story.stations.map((s) => h("th", { scope: "col", class: "num station", title: stationName(s.station) }, String(s.station))),
    extras.map((k) => h("th", { scope: "col", class: "num extra" }, t(`story.${k}`))),
    losses
      ? h(
          "th",
          { scope: "col", class: "num extra review-col", title: t("review.per_decision") },
          t(review.older ? "story.review_older" : "story.review"),
        )
      : null,
  );
  const rows = players.map((p) =>
    h(
      "tr",
      { dataset: { player: p } },
      h("th", { scope: "row" }, who(p)),
      story.stations.map((s, i) => {
        const v = s.wins[p];
        return h("td", { class: `num ${v && v === best[i] ? "most" : ""}`.trim() }, String(v));
      }),
      extras.map((k) => {
        const v = story.players_stats[p][k];
        return h("td", { class: `num extra ${v && v === most[k] ? "most" : ""}`.trim() }, String(v));
      }),
      losses
        ? h(
            "td",
            { class: `num extra review-col ${losses[p] === fewest ? "most" : ""}`.trim(), dataset: { testid: "story-review" } },
            typeof losses[p] === "number" ? oneDecimal(losses[p]) : "",
          )
        : null,
    ),
  );
  const played = h(
    "tr",
    { class: "played" },
    h("th", { scope: "row" }, t("story.played")),
    story.stations.map((s) => h("td", { class: "num" }, String(s.played))),
    h("td", { class: "extra", colspan: extras.length + (losses ? 1 : 0) }, ""),
  );
  return h(
    "table",
    { class: losses ? "story-stats reviewed" : "story-stats", dataset: { testid: "story-stats" } },
    h("thead", {}, head),
    h("tbody", {}, rows, played),
  );
}

/** The same figures beside the stations, a line for each player under their name: held in a
 * hand (story.css) the table keeps only the stations' six narrow columns, as the columns of
 * huts, dice, cards, figures and the review cut their headings inside words on a phone. */
function playersLines(story, review) {
  const { players, losses, fewest, extras, most } = statsOf(story, review);
  const item = (/** @type {string} */ label, /** @type {string} */ value, /** @type {boolean} */ top, title = "") =>
    h("span", { class: top ? "extra-item most" : "extra-item", title: title || null }, h("span", { class: "extra-label" }, label), " ", h("b", {}, value));
  return h(
    "ul",
    { class: "story-players", dataset: { testid: "story-players" } },
    players.map((p) =>
      h(
        "li",
        { dataset: { player: p } },
        who(p),
        h(
          "span",
          { class: "extra-items" },
          extras.map((k) => {
            const v = story.players_stats[p][k];
            return item(t(`story.${k}`), String(v), Boolean(v && v === most[k]));
          }),
          losses && typeof losses[p] === "number"
            ? item(t(review.older ? "story.review_older" : "story.review"), oneDecimal(losses[p]), losses[p] === fewest, t("review.per_decision"))
            : null,
        ),
      ),
    ),
  );
}

/** The stations table's names never break inside a word: a word too long for the names'
 * column makes every name there smaller, step by step, down to the display's smallest text
 * (`--small`, 0.8 of the panel's size); only a word too long even then may break (the table's
 * `squeezed` class). Returns how many names break. */
function fitNames(panel) {
  const table = panel.querySelector(".story-stats");
  const names = /** @type {HTMLElement[]} */ ([...panel.querySelectorAll(".story-stats .who-name")]);
  if (!table || !names.length) return 0;
  const tooLong = (/** @type {HTMLElement} */ n) => n.scrollWidth > n.clientWidth + 0.5;
  const wide = () => names.some(tooLong);
  table.classList.remove("squeezed");
  for (const n of names) n.style.fontSize = "";
  const smallest = 0.8 * parseFloat(getComputedStyle(panel).fontSize);
  let size = parseFloat(getComputedStyle(names[0]).fontSize);
  while (wide() && size > smallest) {
    size = Math.max(smallest, size - 1);
    for (const n of names) n.style.fontSize = `${size}px`;
  }
  const broken = names.filter(tooLong).length;
  if (broken) table.classList.add("squeezed");
  return broken;
}

/** The figures' headings break between words only. A heading whose word is wider than its
 * column gets the width the word needs (the other figures' columns share what is left); when
 * the table is then wider than its place, the names' column (`--names`) gives room, step by
 * step down to a fifth of the table. Only a word too long even then may break
 * (`squeezed-heads`). Returns whether a heading may break. */
function fitHeads(panel) {
  const table = /** @type {HTMLElement | null} */ (panel.querySelector(".story-stats"));
  const place = table?.parentElement;
  if (!table || !place) return false;
  const heads = /** @type {HTMLElement[]} */ ([...table.querySelectorAll("thead th.extra")]);
  const corner = /** @type {HTMLElement | null} */ (table.querySelector("thead tr > :first-child"));
  const cut = () => heads.filter((th) => th.offsetWidth && th.scrollWidth > th.clientWidth + 0.5);
  table.classList.remove("squeezed-heads");
  table.style.removeProperty("--names");
  for (const th of heads) th.style.width = "";
  const share = parseFloat(getComputedStyle(table).getPropertyValue("--names"));
  let names = share;
  // Columns wider than the table: the browser takes it out of the names' share (or the table
  // runs out of its place).
  const tooWide = () =>
    table.offsetWidth > place.clientWidth + 0.5 || (corner !== null && corner.offsetWidth < (names / 100) * table.clientWidth - 1);
  for (let step = 0; step < 40; step += 1) {
    const wide = cut();
    if (tooWide()) {
      if (names <= 20) break;
      names = Math.max(20, names - 2);
      table.style.setProperty("--names", `${names}%`);
    } else if (wide.length) {
      for (const th of wide) th.style.width = `${th.scrollWidth}px`;
    } else return false;
  }
  for (const th of heads) th.style.width = "";
  table.style.removeProperty("--names");
  table.classList.add("squeezed-heads");
  return true;
}

/** The stations table's headings and names whole at the chart's width; where they are not,
 * the chart gives the table room (`--chart`, its share of the width against the table side's
 * 1, from story.css's 1.15 down to 0.8) as far as that breaks fewer words (a name too long for any width
 * keeps the chart its width). */
function fitStats(panel) {
  const body = /** @type {HTMLElement | null} */ (panel.querySelector(".story-body"));
  const table = panel.querySelector(".story-stats");
  if (!body || !table) return;
  body.style.removeProperty("--chart");
  const start = parseFloat(getComputedStyle(body).getPropertyValue("--chart")); // story.css
  const shares = [start];
  while (shares[shares.length - 1] > 0.8 + 1e-9) shares.push(Math.round((shares[shares.length - 1] - 0.05) * 100) / 100);
  const tryShare = (/** @type {number} */ share) => {
    if (share === shares[0]) body.style.removeProperty("--chart");
    else body.style.setProperty("--chart", `${share}fr`);
    const heads = fitHeads(panel);
    return fitNames(panel) + (heads ? 10 : 0); // words broken (a heading's count as many)
  };
  // The story is drawn again with every frame (a phone connecting, the review's progress):
  // the same table in the same room gets the share found before, measured once.
  const key = `${panel.clientWidth}x${panel.clientHeight}:${table.textContent}`;
  if (kept.fitKey === key) {
    tryShare(kept.fitShare);
    return;
  }
  let best = shares[0];
  let fewest = Infinity;
  let tried = best;
  for (const share of shares) {
    tried = share;
    const broken = tryShare(share);
    if (broken < fewest) [best, fewest] = [share, broken];
    if (!broken) break;
  }
  if (best !== tried) tryShare(best);
  kept.fitKey = key;
  kept.fitShare = best;
}

/** What is optional goes first when the panel is short of room: the row of how often each
 * station was played, then the earliest lead changes. */
function fit(panel) {
  fitStats(panel);
  const right = panel.querySelector(".story-right");
  const over = () => right && right.scrollHeight > right.clientHeight + 1;
  const played = panel.querySelector(".story-stats tr.played");
  if (played && over()) played.remove();
  const leads = [...panel.querySelectorAll(".story-turns .turn-lead")];
  while (leads.length && over()) leads.shift().remove();
}
