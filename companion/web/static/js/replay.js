// Replay controls on the display page: the display itself (display.js) renders each step's
// frame exactly as live; these buttons (and the arrow keys) move the server's replay, and the
// two lists jump to the start of a round or of a station of the shown round.
import { fill, h } from "./dom.js";
import { onLanguageChange, t } from "./i18n.js";

const page = document.body.dataset;
const steps = Number(page.steps);
// Where each round and station starts: [{round, station (null for the round), step}].
const chapters = JSON.parse(page.chapters || "[]");
let step = Number(page.startStep || 0); // shown: a replay opens at its first step (or the asked one)
let target = step; // asked for (key presses may come faster than the answers)

/** The round the step belongs to (0 before the first round). */
function roundOf(at) {
  let round = 0;
  for (const c of chapters) if (c.station === null && c.step <= at) round = c.round;
  return round;
}

function label() {
  document.getElementById("replay-step").textContent = t("replay.step", { step, last: steps - 1 });
  const round = roundOf(step);
  const rounds = chapters.filter((c) => c.station === null);
  const roundSelect = document.getElementById("replay-round");
  fill(
    roundSelect,
    h("option", { value: "0" }, t("replay.setup")),
    rounds.map((c) => h("option", { value: String(c.step), dataset: { round: c.round } }, t("replay.round_option", { n: c.round }))),
  );
  const current = rounds.find((c) => c.round === round);
  roundSelect.value = current ? String(current.step) : "0";
  const stations = chapters.filter((c) => c.round === round && c.station !== null);
  const stationSelect = document.getElementById("replay-station");
  let shownStation = null;
  for (const c of stations) if (c.step <= step) shownStation = c;
  fill(
    stationSelect,
    h("option", { value: "", disabled: true }, t("replay.station")),
    stations.map((c) => h("option", { value: String(c.step), dataset: { station: c.station } }, t("replay.station_option", { n: c.station }))),
  );
  stationSelect.disabled = !stations.length;
  stationSelect.value = shownStation ? String(shownStation.step) : "";
}

let chain = Promise.resolve(); // one request at a time, so the server ends where we asked

function go(to) {
  target = Math.max(0, Math.min(steps - 1, to));
  const want = target;
  chain = chain.then(() => show(want)).catch(() => {});
}

async function show(want) {
  const response = await fetch(page.stepUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Admin-Token": page.adminToken },
    body: JSON.stringify({ to: want }),
  });
  if (response.ok) {
    step = (await response.json()).step;
    if (step === target) document.body.dataset.replayStep = String(step);
    label();
  }
}

document.getElementById("replay-first").addEventListener("click", () => go(0));
document.getElementById("replay-back").addEventListener("click", () => go(target - 1));
document.getElementById("replay-forward").addEventListener("click", () => go(target + 1));
document.getElementById("replay-last").addEventListener("click", () => go(steps - 1));
for (const id of ["replay-round", "replay-station"]) {
  document.getElementById(id).addEventListener("change", (event) => {
    if (event.target.value !== "") go(Number(event.target.value));
  });
}
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLSelectElement) return; // the lists use the arrow keys
  if (event.key === "ArrowLeft") go(target - 1);
  else if (event.key === "ArrowRight") go(target + 1);
  else if (event.key === "Home") go(0);
  else if (event.key === "End") go(steps - 1);
});
onLanguageChange(label);
document.body.dataset.replayStep = String(step);
label();
