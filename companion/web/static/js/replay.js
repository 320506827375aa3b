// Replay controls on the display page: the display itself (display.js) renders each step's
// frame exactly as live; these buttons (and the arrow keys) move the server's replay.
import { onLanguageChange, t } from "./i18n.js";

const page = document.body.dataset;
const steps = Number(page.steps);
let step = steps - 1; // shown
let target = step; // asked for (key presses may come faster than the answers)

function label() {
  document.getElementById("replay-step").textContent = t("replay.step", { step, last: steps - 1 });
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
document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowLeft") go(target - 1);
  else if (event.key === "ArrowRight") go(target + 1);
  else if (event.key === "Home") go(0);
  else if (event.key === "End") go(steps - 1);
});
onLanguageChange(label);
document.body.dataset.replayStep = String(step);
label();
