// Replay controls on the display page: the display itself (display.js) renders each step's
// frame exactly as live; these buttons (and the arrow keys) move the server's replay, and the
// two lists jump to the start of a round or of a station of the shown round. Play (or the
// space bar) runs the game on its own as the live show did: the server puts each command up
// with the live show's beats at the chosen pace, and this page waits out their hold (a step
// that holds nothing stays a moment, so bids are seen to arrive). Stepping pauses it; the end
// stops it.
import { byId, fill, h, handheld } from "./dom.js";
import { loaded, onLanguageChange, t } from "./i18n.js";

const page = document.body.dataset;
const steps = Number(page.steps);
// Where each round and station starts: [{round, station (null for the round), step}].
const chapters = JSON.parse(page.chapters || "[]");
// Playing: the host page's paces (a test may ask for "test:<seconds>" in the page's address).
const PACES = ["quick", "normal", "relaxed"];
const asked = new URLSearchParams(location.search).get("pace");
const customPace = asked && /^test:\d+(\.\d+)?$/.test(asked) ? asked : null;
const QUICK = 0.6; // seconds a step that holds nothing stays while playing
const firstStep = Number(page.startStep || 0); // a replay opens at its first step (or the asked one)

/** Everything the replay controls hold that changes, in one object. */
const replay = {
  step: firstStep, // shown
  target: firstStep, // asked for (key presses may come faster than the answers)
  pace: customPace || (asked && PACES.includes(asked) ? asked : "normal"),
  /** @type {"playing" | "paused" | "stopped"} "paused" by the button or the space bar */
  mode: "stopped",
  /** @type {ReturnType<typeof setTimeout> | null} */
  timer: null,
  hold: 0, // seconds the playing step's beats hold
  shownAt: 0, // performance.now() at which the playing step's beats began
  /** @type {number | null} seconds into the step's beats where the pause froze it (null: none) */
  pausedAt: null,
  chain: Promise.resolve(), // one request at a time, so the server ends where we asked
  asking: 0, // requests on their way
};
/** The round the step belongs to (0 before the first round). */
function roundOf(at) {
  let round = 0;
  for (const c of chapters) if (c.station === null && c.step <= at) round = c.round;
  return round;
}

function label() {
  renderPlay();
  byId("replay-step").textContent = t("replay.step", { step: replay.step, last: steps - 1 });
  const round = roundOf(replay.step);
  const rounds = chapters.filter((c) => c.station === null);
  const roundSelect = /** @type {HTMLSelectElement} */ (document.getElementById("replay-round"));
  fill(
    roundSelect,
    h("option", { value: "0" }, t("replay.setup")),
    rounds.map((c) => h("option", { value: String(c.step), dataset: { round: c.round } }, t("replay.round_option", { n: c.round }))),
  );
  const current = rounds.find((c) => c.round === round);
  roundSelect.value = current ? String(current.step) : "0";
  const stations = chapters.filter((c) => c.round === round && c.station !== null);
  const stationSelect = /** @type {HTMLSelectElement} */ (document.getElementById("replay-station"));
  let shownStation = null;
  for (const c of stations) if (c.step <= replay.step) shownStation = c;
  fill(
    stationSelect,
    h("option", { value: "", disabled: true }, t("replay.station")),
    stations.map((c) => h("option", { value: String(c.step), dataset: { station: c.station } }, t("replay.station_option", { n: c.station }))),
  );
  stationSelect.disabled = !stations.length;
  stationSelect.value = shownStation ? String(shownStation.step) : "";
}

function renderPlay() {
  const button = byId("replay-play");
  // The word beside the sign gives way on a phone (the button's label still says it).
  const [sign, word] = replay.mode === "playing" ? ["❚❚", t("replay.pause")] : ["▷", t("replay.play")];
  fill(button, `${sign} `, h("span", { class: "replay-play-word" }, word));
  button.title = t("replay.play_key");
  button.setAttribute("aria-label", button.title);
  button.setAttribute("aria-pressed", String(replay.mode === "playing"));
  document.body.dataset.replayPlaying = replay.mode === "playing" ? "1" : "0";
  const select = /** @type {HTMLSelectElement} */ (document.getElementById("replay-pace"));
  if (document.activeElement === select) return; // not while it is being chosen from
  const custom = customPace ? [h("option", { value: customPace }, t("host.pace.custom", { s: customPace.slice(5) }))] : [];
  fill(
    select,
    PACES.map((p) => h("option", { value: p }, t(`host.pace.${p}`))),
    custom,
  );
  select.value = replay.pace;
}

function go(to) {
  stop();
  replay.target = Math.max(0, Math.min(steps - 1, to));
  const want = replay.target;
  replay.chain = replay.chain.then(() => show(want)).catch(() => {});
}

async function post(body) {
  replay.asking += 1;
  try {
    // replay.html always sets both.
    const response = await fetch(/** @type {string} */ (page.stepUrl), {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Admin-Token": /** @type {string} */ (page.adminToken) },
      body: JSON.stringify(body),
    });
    return response.ok ? await response.json() : null;
  } finally {
    replay.asking -= 1;
  }
}

async function show(want) {
  const answer = await post({ to: want });
  if (answer) {
    replay.step = answer.step;
    if (replay.step === replay.target) document.body.dataset.replayStep = String(replay.step);
    label();
  }
}

// ---------- playing ----------

/** Play on, or stop where we are (a manual step stops without holding the display). */
function stop() {
  replay.mode = "stopped";
  replay.pausedAt = null;
  replay.hold = 0;
  clearTimeout(replay.timer);
  renderPlay();
}

/**
 * The mode as it is now (not as it was before an await).
 * @returns {"playing" | "paused" | "stopped"}
 */
function modeNow() {
  return replay.mode;
}

/** The next command, as the live show put it up; then wait out its hold. */
async function advance() {
  if (replay.mode !== "playing") return;
  if (replay.step >= steps - 1) {
    stop(); // the end of the game
    return;
  }
  const answer = await post({ to: replay.step + 1, pace: replay.pace });
  if (!answer) return stop();
  replay.step = answer.step;
  // Read again: a tap or the space bar may have changed it while the step was on its way.
  const now = modeNow();
  if (now === "stopped") return; // a step by hand follows and says where to
  replay.target = replay.step;
  document.body.dataset.replayStep = String(replay.step);
  label();
  started(answer.show);
  if (now === "paused") {
    // Paused while the step was on its way: hold it at its start.
    replay.pausedAt = answer.show.elapsed;
    await post({ to: replay.step, pace: replay.pace, elapsed: replay.pausedAt, paused: true });
    return;
  }
  wait(answer.show);
}

function started(show) {
  replay.hold = show.hold;
  replay.shownAt = performance.now() - show.elapsed * 1000;
}

function wait(show) {
  const quick = Math.min(QUICK, Math.max(0.1, show.seconds));
  const left = show.hold > 0 ? show.hold - show.elapsed : quick;
  clearTimeout(replay.timer);
  replay.timer = setTimeout(() => {
    replay.chain = replay.chain.then(advance).catch(() => stop());
  }, left * 1000);
}

function play() {
  if (replay.mode === "playing") return;
  replay.mode = "playing";
  renderPlay();
  const frozen = replay.pausedAt;
  replay.pausedAt = null;
  replay.chain = replay.chain
    .then(async () => {
      if (frozen !== null && frozen < replay.hold) {
        // Resume the frozen step where it stood.
        const answer = await post({ to: replay.step, pace: replay.pace, elapsed: frozen });
        if (!answer) return stop();
        started(answer.show);
        wait(answer.show);
        return;
      }
      if (replay.step >= steps - 1) {
        // Played from the end: from the start again.
        const answer = await post({ to: 0 });
        if (answer) replay.step = replay.target = answer.step;
      }
      await advance();
    })
    .catch(() => stop());
}

function pause() {
  if (replay.mode !== "playing") return;
  replay.mode = "paused";
  clearTimeout(replay.timer);
  renderPlay();
  const into = (performance.now() - replay.shownAt) / 1000;
  // The display holds the beat that is up (its countdown stops) until play goes on; a step
  // already read (its hold over, the next one not asked yet) is held as it is, so every
  // pause says so on the display. (A step already on its way is held at its own start
  // instead: see advance.)
  const at = replay.step;
  const reading = replay.hold > 0 && into < replay.hold;
  replay.pausedAt = reading ? into : null;
  const elapsed = reading ? into : Math.max(0, replay.hold);
  replay.chain = replay.chain.then(() => (replay.step === at ? post({ to: at, pace: replay.pace, elapsed, paused: true }) : null)).catch(() => {});
}

function toggle() {
  if (replay.mode === "playing") pause();
  else play();
}

byId("replay-play").addEventListener("click", toggle);
byId("replay-pace").addEventListener("change", (event) => {
  replay.pace = /** @type {HTMLSelectElement} */ (event.target).value; // from the next step on
});
byId("replay-first").addEventListener("click", () => go(0));
byId("replay-back").addEventListener("click", () => go(replay.target - 1));
byId("replay-forward").addEventListener("click", () => go(replay.target + 1));
byId("replay-last").addEventListener("click", () => go(steps - 1));
for (const id of ["replay-round", "replay-station"]) {
  byId(id).addEventListener("change", (event) => {
    const value = /** @type {HTMLSelectElement} */ (event.target).value;
    if (value !== "") go(Number(value));
  });
}
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLSelectElement) return; // the lists use the arrow keys
  if (event.key === "ArrowLeft") go(replay.target - 1);
  else if (event.key === "ArrowRight") go(replay.target + 1);
  else if (event.key === "Home") go(0);
  else if (event.key === "End") go(steps - 1);
  else if (event.key === " ") {
    event.preventDefault(); // not also a click of the focused button
    toggle();
  }
});
document.addEventListener("keyup", (event) => {
  if (event.key === " " && !(event.target instanceof HTMLSelectElement)) event.preventDefault();
});
onLanguageChange(label);
document.body.dataset.replayStep = String(replay.step);

/** Opened at a moment (a phone's review link: "that moment of the replay"), a page held in a
 * hand scrolls to what the moment shows, the round's centre, under the step bar that stays at
 * the top; a page opened at the start stays at the top. */
function landAtTheMoment() {
  if (!firstStep || !handheld()) return;
  const started = performance.now();
  const look = () => {
    const centre = document.querySelector(".col-center");
    const bar = document.getElementById("replay-bar");
    if (!centre || !bar || !document.body.classList.contains("in-game")) {
      if (performance.now() - started < 5000) requestAnimationFrame(look);
      return;
    }
    const top = centre.getBoundingClientRect().top + window.scrollY - bar.getBoundingClientRect().height - 6;
    window.scrollTo({ top: Math.max(0, top) });
  };
  requestAnimationFrame(look);
}
landAtTheMoment();
// The step asked for last and the requests on their way, for the tests.
window.__replay = { target: () => replay.target, asking: () => replay.asking };
// The display loads the catalogue; until it is in, texts would show as their keys (the first
// language change draws the bar).
if (loaded()) label();
