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
 * then may no longer be the markup, and a frame puts back what the table says. */
const listening = new WeakSet();
const LIVE = "input, select, textarea, details";

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
  node.replaceChildren(...fresh.childNodes);
  if (markup === null) filled.delete(node);
  else filled.set(node, markup);
  return node;
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
