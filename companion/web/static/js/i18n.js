// Translations: the catalogues live in companion/web/i18n/<lang>.json (flat key -> text with
// {name} placeholders). Every visible text goes through t(); templates mark elements with
// data-i18n="key" (text) or data-i18n-attr="attr:key;attr:key" (attributes). The lookup itself
// is catalogue.js (pure); this module fetches the catalogues and translates the page. At import
// it reads only the page's list of languages, and only when there is a page, so pure modules
// that translate load in Node too.

import { chooseLanguage, LANGUAGES, setLanguages, Words } from "./catalogue.js";

export { LANGUAGES };

/**
 * A list the server hands every page in a `<meta>` tag of base.html (JSON); none outside a page.
 * @param {string} name
 * @returns {unknown}
 */
export function pageList(name) {
  if (typeof document === "undefined") return null;
  try {
    return JSON.parse(/** @type {HTMLMetaElement | null} */ (document.querySelector(`meta[name="${name}"]`))?.content || "null");
  } catch {
    return null;
  }
}

// The languages the companion speaks (companion/web/i18n LANGUAGES): the server's one list.
setLanguages(pageList("languages"));

const STORAGE_KEY = "chocolatl.lang";

/** The page's language: its texts and who re-renders when it changes. */
const state = {
  words: new Words("en"),
  /** @type {Set<(code: string) => void>} */
  listeners: new Set(),
};

/**
 * The first supported language among the browser's preferences (or a stored choice).
 * @param {readonly string[]} [preferred]
 */
export function pickLanguage(preferred = navigator.languages || [navigator.language]) {
  return chooseLanguage(preferred, safeStorage()?.getItem(STORAGE_KEY));
}

function safeStorage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * Where a catalogue is fetched from; the page may override it with <meta name="i18n-url">.
 * @param {string} code
 */
function catalogueUrl(code) {
  const meta = /** @type {HTMLMetaElement | null} */ (document.querySelector('meta[name="i18n-url"]'));
  const pattern = meta ? meta.content : "/i18n/{lang}.json";
  return pattern.replace("{lang}", code);
}

/**
 * A catalogue: inlined in the page (a test page) or fetched.
 * @param {string} code
 * @returns {Promise<import("./catalogue.js").Strings>}
 */
async function fetchCatalogue(code) {
  const inline = document.getElementById(`i18n-${code}`);
  if (inline) return JSON.parse(inline.textContent || "{}");
  const response = await fetch(catalogueUrl(code), { cache: "no-cache" });
  if (!response.ok) throw new Error(`catalogue ${code}: HTTP ${response.status}`);
  return response.json();
}

/**
 * Load a language (English is always loaded as the fallback) and translate the page.
 * @param {string} code
 * @param {{remember?: boolean}} [options]
 */
export async function setLanguage(code, { remember = false } = {}) {
  if (!LANGUAGES.includes(code)) code = "en";
  const english = loaded() ? state.words.english : await fetchCatalogue("en");
  useCatalogues(code, code === "en" ? english : await fetchCatalogue(code), english);
  if (remember) safeStorage()?.setItem(STORAGE_KEY, code);
  document.documentElement.lang = code;
  translateDom(document);
  for (const fn of state.listeners) fn(code);
  return code;
}

/**
 * Use these catalogues from now on (what setLanguage does once they are fetched; the unit
 * tests hand in the catalogue files).
 * @param {string} code
 * @param {import("./catalogue.js").Strings} strings
 * @param {import("./catalogue.js").Strings} english
 */
export function useCatalogues(code, strings, english) {
  state.words = new Words(code, strings, english);
}

export function currentLanguage() {
  return state.words.lang;
}

/**
 * Call `fn(lang)` after every language change (to re-render dynamic parts).
 * @param {(code: string) => void} fn
 */
export function onLanguageChange(fn) {
  state.listeners.add(fn);
}

/**
 * Translate `key`, filling {placeholders} from `params`. Unknown keys show as the key.
 * @param {string} key
 * @param {import("./catalogue.js").Params} [params]
 */
export function t(key, params) {
  return state.words.t(key, params);
}

/**
 * A text that depends on a count ("1 die", "2 dice"): `key.one` / `key.other`, picked by the
 * language's plural rules (Intl.PluralRules); the count fills {n}.
 * @param {string} key
 * @param {number | string} count
 * @param {import("./catalogue.js").Params} [params]
 */
export function plural(key, count, params) {
  return state.words.plural(key, count, params);
}

/** Whether the catalogues are in (texts asked for before that would show as their keys). */
export function loaded() {
  return Object.keys(state.words.english).length > 0;
}

/**
 * Whether a key exists (for optional texts such as a reason code).
 * @param {string} key
 */
export function has(key) {
  return state.words.has(key);
}

/**
 * Join names as "a, b and c" in the current language.
 * @param {readonly unknown[]} items
 */
export function list(items) {
  return state.words.list(items);
}

/**
 * Fill every [data-i18n] / [data-i18n-attr] element below `root`.
 * @param {ParentNode} root
 */
export function translateDom(root) {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n]"))) {
    // data-i18n-args: the placeholders' values as JSON (e.g. the longest name allowed).
    el.textContent = t(el.dataset.i18n || "", el.dataset.i18nArgs ? JSON.parse(el.dataset.i18nArgs) : undefined);
  }
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n-attr]"))) {
    for (const pair of (el.dataset.i18nAttr || "").split(";")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
}

/**
 * A <select> that switches the language; `remember` keeps the phone's choice.
 * @param {HTMLSelectElement} select
 * @param {{remember?: boolean, onChange?: (code: string) => void}} [options]
 */
export function languageSwitch(select, { remember = true, onChange } = {}) {
  select.replaceChildren();
  for (const code of LANGUAGES) {
    const option = document.createElement("option");
    option.value = code;
    option.dataset.i18n = `lang.${code}`;
    option.textContent = t(`lang.${code}`);
    select.appendChild(option);
  }
  select.value = state.words.lang;
  select.addEventListener("change", async () => {
    await setLanguage(select.value, { remember });
    if (onChange) onChange(select.value);
  });
  onLanguageChange((code) => {
    select.value = code;
  });
}
