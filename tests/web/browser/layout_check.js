// The layout check run inside a page (see layout.py): returns a list of problems.
({kind, minText, minTap}) => {
  const problems = [];
  const W = window.innerWidth, H = window.innerHeight;
  const doc = document.documentElement;
  const describe = (el) => {
    const id = el.id ? `#${el.id}` : "";
    const tid = el.dataset && el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : "";
    const cls = typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\s+/).join(".") : "";
    const text = (el.innerText || el.value || "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `${el.tagName.toLowerCase()}${id}${tid}${cls} "${text}"`;
  };
  const skipped = (el) => el.closest("[data-layout-skip], .sr-only, .keep-awake-video, option");
  const visible = (el) => {
    if (skipped(el)) return false;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const s = getComputedStyle(el);
    return s.visibility !== "hidden" && s.display !== "none" && Number(s.opacity) > 0.05;
  };
  if (doc.scrollWidth > W + 1) problems.push(`page scrolls sideways: ${doc.scrollWidth}px wide in ${W}px`);
  if (kind === "display" && doc.scrollHeight > H + 1) problems.push(`page scrolls: ${doc.scrollHeight}px tall in ${H}px`);
  const all = [...document.body.querySelectorAll("*")].filter(visible);
  for (const el of all) {
    const s = getComputedStyle(el);
    const clipsX = s.overflowX !== "visible", clipsY = s.overflowY !== "visible";
    if (el.tagName === "SELECT" || el.tagName === "INPUT" || el.tagName === "TEXTAREA") continue;
    if ((clipsX && el.scrollWidth > el.clientWidth + 1) || (clipsY && el.scrollHeight > el.clientHeight + 1)) {
      if (el !== document.body && el !== doc) {
        problems.push(`clips or scrolls its content (${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}): ${describe(el)}`);
      }
    }
    if (kind === "display") {
      const r = el.getBoundingClientRect();
      if (r.right > W + 1 || r.bottom > H + 1 || r.left < -1 || r.top < -1) {
        problems.push(`off screen (${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}): ${describe(el)}`);
      }
    }
  }
  // Nothing spills out of its box (a badge wider than its player card, a name over the edge).
  for (const box of document.querySelectorAll(".panel, .seat, .final-card, .station-row, .card-btn, button")) {
    if (!visible(box)) continue;
    const b = box.getBoundingClientRect();
    for (const el of box.querySelectorAll("*")) {
      if (!visible(el)) continue;
      const r = el.getBoundingClientRect();
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) {
        problems.push(`spills out of ${describe(box)}: ${describe(el)}`);
        break;
      }
    }
  }
  // Text size: every element that directly holds visible text.
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim()) continue;
    const el = n.parentElement;
    if (!el || seen.has(el) || !visible(el)) continue;
    seen.add(el);
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < minText - 0.05) problems.push(`text ${size.toFixed(1)}px < ${minText.toFixed(1)}px: ${describe(el)}`);
  }
  if (minTap) {
    const targets = document.querySelectorAll("button, a[href], input:not([type=hidden]), select, summary, label.colour-option, [data-testid=join-colour]");
    for (const el of targets) {
      if (!visible(el)) continue;
      // A radio inside a large label: the label is the tap target.
      if (el.tagName === "INPUT" && (el.type === "radio" || el.type === "checkbox") && el.closest("label")) continue;
      const r = el.getBoundingClientRect();
      if (r.width < minTap - 0.5 || r.height < minTap - 0.5) problems.push(`tap target ${Math.round(r.width)}x${Math.round(r.height)} < ${minTap}: ${describe(el)}`);
    }
  }
  return [...new Set(problems)];
}
