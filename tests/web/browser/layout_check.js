// The layout check run inside a page (see layout.py): returns a list of problems.
({kind, minText, minTap, width}) => {
  const problems = [];
  // The screen's width as the test set it: a phone's browser zooms out to a page wider than
  // the screen, and then its innerWidth is the page's width (the page never seemed too wide).
  const W = width || window.innerWidth, H = window.innerHeight;
  const doc = document.documentElement;
  const describe = (el) => {
    const id = el.id ? `#${el.id}` : "";
    const tid = el.dataset && el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : "";
    const cls = typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\s+/).join(".") : "";
    const text = (el.innerText || el.value || "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `${el.tagName.toLowerCase()}${id}${tid}${cls} "${text}"`;
  };
  const skipped = (el) => el.closest("[data-layout-skip], .sr-only, .keep-awake-video, option");
  // A closed <details> shows its summary only (the rest keeps a box, but is not drawn).
  const folded = (el) => {
    const d = el.closest("details:not([open])");
    return Boolean(d && d !== el && !el.closest("summary"));
  };
  // Nothing moves while the check runs (one synchronous task), so each element's box, style
  // and visibility are read once: the checks below ask for them many times (every box
  // inside a panel, card or button again), and the display's check took 75 ms a screen.
  const memo = (read) => {
    const known = new Map();
    return (el) => {
      let value = known.get(el);
      if (value === undefined) known.set(el, (value = read(el)));
      return value;
    };
  };
  const rect = memo((el) => el.getBoundingClientRect());
  const style = memo((el) => getComputedStyle(el));
  const visible = memo((el) => {
    if (skipped(el) || folded(el)) return false;
    const r = rect(el);
    if (r.width === 0 || r.height === 0) return false;
    const s = style(el);
    return s.visibility !== "hidden" && s.display !== "none" && Number(s.opacity) > 0.05;
  });
  if (doc.scrollWidth > W + 1) problems.push(`page scrolls sideways: ${doc.scrollWidth}px wide in ${W}px`);
  if (kind === "display" && doc.scrollHeight > H + 1) problems.push(`page scrolls: ${doc.scrollHeight}px tall in ${H}px`);
  const all = [...document.body.querySelectorAll("*")].filter(visible);
  for (const el of all) {
    const s = style(el);
    const clipsX = s.overflowX !== "visible", clipsY = s.overflowY !== "visible";
    if (el.tagName === "SELECT" || el.tagName === "INPUT" || el.tagName === "TEXTAREA") continue;
    if ((clipsX && el.scrollWidth > el.clientWidth + 1) || (clipsY && el.scrollHeight > el.clientHeight + 1)) {
      if (el !== document.body && el !== doc) {
        problems.push(`clips or scrolls its content (${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}): ${describe(el)}`);
      }
    }
    if (kind === "display") {
      const r = rect(el);
      if (r.right > W + 1 || r.bottom > H + 1 || r.left < -1 || r.top < -1) {
        problems.push(`off screen (${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}): ${describe(el)}`);
      }
    }
  }
  // Nothing spills out of its box (a badge wider than its player card, a name over the edge).
  for (const box of document.querySelectorAll(".panel, .seat, .final-card, .station-row, .card-btn, button")) {
    if (!visible(box)) continue;
    const b = rect(box);
    for (const el of box.querySelectorAll("*")) {
      if (!visible(el)) continue;
      const r = rect(el);
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) {
        problems.push(`spills out of ${describe(box)}: ${describe(el)}`);
        break;
      }
    }
  }
  // A table cell draws what does not fit over the next cell (cells do not clip): a name
  // too long for its column covers the figures beside it.
  for (const cell of document.querySelectorAll("td, th")) {
    if (!visible(cell)) continue;
    if (cell.scrollWidth > cell.clientWidth + 1) {
      problems.push(`runs out of its cell (${cell.scrollWidth}px in ${cell.clientWidth}px): ${describe(cell)}`);
    }
  }
  // Any other box whose content is wider than itself draws it over what is beside it (a long
  // word in a fixed-width column): blocks, inline blocks and flex boxes, not what is clipped
  // away on purpose (screen-reader-only headings).
  for (const el of all) {
    if (el.matches("td, th, body")) continue; // cells above; the page's own width before
    const st = style(el);
    if (st.display.startsWith("inline") && !["inline-block", "inline-flex"].includes(st.display)) continue;
    if (st.overflowX !== "visible" || !el.clientWidth || st.clipPath !== "none") continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      problems.push(`draws its content past its edge (${el.scrollWidth}px in ${el.clientWidth}px): ${describe(el)}`);
    }
  }
  const overlap = (a, b) =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const nested = (a, b) => a.contains(b) || b.contains(a);
  // Cut by a box that clips (overflow other than visible): the element itself, named.
  for (const el of kind === "display" ? all : []) {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const s = style(up);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const r = rect(el), b = rect(up);
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 || r.bottom > b.bottom + 1) {
        problems.push(`cut by ${describe(up)}: ${describe(el)}`);
      }
      break;
    }
  }
  if (kind === "display") {
    // The top bar's badges and controls side by side, never one over another.
    const bar = document.querySelector(".topbar");
    const items = bar ? [...bar.querySelectorAll("*")].filter((el) => visible(el) && !el.closest("select")) : [];
    for (let i = 0; i < items.length; i += 1) {
      for (let j = i + 1; j < items.length; j += 1) {
        const a = items[i], b = items[j];
        if (!nested(a, b) && overlap(rect(a), rect(b))) {
          problems.push(`header items overlap: ${describe(a)} and ${describe(b)}`);
        }
      }
    }
    // Panels side by side or one above the other, never one over another.
    const panels = [...document.querySelectorAll(".panel")].filter(visible);
    for (let i = 0; i < panels.length; i += 1) {
      for (let j = i + 1; j < panels.length; j += 1) {
        const a = panels[i], b = panels[j];
        if (!nested(a, b) && overlap(rect(a), rect(b))) {
          problems.push(`panels overlap: ${describe(a)} and ${describe(b)}`);
        }
      }
    }
  }
  // An empty box: a panel that shows nothing but its headings (no text, picture or light).
  for (const panel of kind === "display" ? document.querySelectorAll(".panel") : []) {
    if (!visible(panel)) continue;
    const shows = [...panel.querySelectorAll("*")].some((el) => {
      if (!visible(el) || el.closest("h1, h2, h3, h4")) return false;
      if (el.matches("img, svg, canvas, input, select, button, .led, .cell, .box, .die, .card")) return true;
      return [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    });
    if (!shows) problems.push(`empty box: ${describe(panel)}`);
  }
  // Text size: every element that directly holds visible text.
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim()) continue;
    const el = n.parentElement;
    if (!el || seen.has(el) || !visible(el)) continue;
    seen.add(el);
    const size = parseFloat(style(el).fontSize);
    if (size < minText - 0.05) problems.push(`text ${size.toFixed(1)}px < ${minText.toFixed(1)}px: ${describe(el)}`);
  }
  if (minTap) {
    const targets = document.querySelectorAll("button, a[href], input:not([type=hidden]), select, summary, label.colour-option, [data-testid=join-colour]");
    for (const el of targets) {
      if (!visible(el)) continue;
      // A radio inside a large label: the label is the tap target.
      if (el.tagName === "INPUT" && (el.type === "radio" || el.type === "checkbox") && el.closest("label")) continue;
      const r = rect(el);
      if (r.width < minTap - 0.5 || r.height < minTap - 0.5) problems.push(`tap target ${Math.round(r.width)}x${Math.round(r.height)} < ${minTap}: ${describe(el)}`);
    }
  }
  return [...new Set(problems)];
}
