// Tiny DOM helpers shared by the display, the bid pad and the host page (no framework).

/**
 * Build an element: h("div", {class: "x", onclick: fn, dataset: {a: 1}}, "text", child).
 * Strings become text nodes, so player names can never inject markup.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) {
        if (prop.startsWith("--")) el.style.setProperty(prop, v);
        else el.style[prop] = v;
      }
    }
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
      listening.add(el);
    } else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Elements given a listener by `h`: a subtree holding one is always put in, since its
 * handlers may close over the newest frame, which the markup does not show. So is one with
 * something a person changes in place (a field, a tick, a folded section): what is on screen
 * then may no longer be the markup, and a frame puts back what the table says. A field marked
 * `data-keep` (its key) is the exception: what is typed there belongs to the person until it
 * is sent, so an unchanged panel keeps it, and a panel put in again carries it over. */
const listening = new WeakSet();
const LIVE = "input:not([data-keep]), select:not([data-keep]), textarea:not([data-keep]), details:not([data-keep])";

/** The markup `fill` last put into each element. */
const filled = new WeakMap();

/**
 * Replace all children of `el` (or of the element with that id), unless they are the same
 * markup the last `fill` of it put there: then the page is left as it is. Every frame
 * draws every panel, and a panel put in again unchanged is styled, laid out and painted
 * again. Code that changes the children afterwards calls `refill(el)` first.
 */
export function fill(el, ...children) {
  const node = typeof el === "string" ? document.getElementById(el) : el;
  if (!node) return null;
  const fresh = document.createElement("div");
  append(fresh, children);
  const live = fresh.querySelector(LIVE) || [...fresh.querySelectorAll("*")].some((e) => listening.has(e));
  const markup = live ? null : fresh.innerHTML;
  if (markup !== null && filled.get(node) === markup) return node;
  const focus = carryOver(node, fresh);
  node.replaceChildren(...fresh.childNodes);
  focus?.focus({ preventScroll: true });
  if (markup === null) filled.delete(node);
  else filled.set(node, markup);
  return node;
}

/** Copy what was typed into `data-keep` fields of `from` to the fields of `to` with the same
 * key (unless the new markup sets a value); returns the new field to focus if the old one had
 * the focus (a phone's keyboard stays up while a frame redraws the question). */
function carryOver(from, to) {
  const kept = from.querySelectorAll("[data-keep]");
  if (!kept.length) return null;
  const old = new Map([...kept].map((e) => [e.getAttribute("data-keep"), e]));
  let focus = null;
  for (const field of to.querySelectorAll("[data-keep]")) {
    const before = old.get(field.getAttribute("data-keep"));
    if (!before) continue;
    if ("value" in before && !field.hasAttribute("value")) field.value = before.value;
    if (before === document.activeElement) focus = field;
  }
  return focus;
}

/**
 * One listener on `root` for every control drawn inside it: a control names its action in
 * `data-act` and carries its arguments in its other `data-` fields, so a panel holds no
 * listener of its own and `fill` leaves it in place while its markup is unchanged (a tap never
 * chases a button drawn again). Clicks reach `actions[act](el)`; a form's submit reaches it
 * too, with the default (a page load) prevented.
 * @param {HTMLElement} root
 * @param {Record<string, (el: HTMLElement) => void>} actions
 */
export function delegate(root, actions) {
  const run = (event, selector) => {
    const el = /** @type {HTMLElement | null} */ (event.target instanceof Element ? event.target.closest(selector) : null);
    if (!el || !root.contains(el) || el.matches(":disabled")) return;
    const action = actions[el.dataset.act || ""];
    if (!action) return;
    if (event.type === "submit") event.preventDefault();
    action(el);
  };
  root.addEventListener("click", (e) => run(e, "[data-act]:not(form)"));
  root.addEventListener("submit", (e) => run(e, "form[data-act]"));
}

/** Forget what `fill` last put into `el`: its next `fill` puts the children in again. */
export function refill(el) {
  if (el) filled.delete(el);
}

/** Show exactly one of several sibling screens, by id. */
export function showOnly(ids, visibleId) {
  for (const id of ids) {
    const el = document.getElementById(id);
    if (el) el.hidden = id !== visibleId;
  }
}

/**
 * The element with this id, one the page's HTML always has: a missing one is a broken page, so
 * this throws at once (where the caller would have thrown a TypeError on `null`).
 * @param {string} id
 * @returns {HTMLElement}
 */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing`);
  return el;
}

/** Whether the page is held in a hand (display.css's query: upright and narrower than 1,077 px,
 * or under 500 px tall): there the display's page is one column that scrolls, its final scoring
 * one card per player, and a replay's controls stay at the top. */
const HANDHELD = "(orientation: portrait) and (max-width: 1076px), (max-height: 500px) and (max-width: 1076px)";
export function handheld() {
  return typeof matchMedia === "function" && matchMedia(HANDHELD).matches;
}
