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

/** Replace all children of `el` (or of the element with that id). */
export function fill(el, ...children) {
  const node = typeof el === "string" ? document.getElementById(el) : el;
  if (!node) return null;
  node.replaceChildren();
  append(node, children);
  return node;
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
