// Translations: the catalogues live in companion/web/i18n/<lang>.json (flat key -> text with
// {name} placeholders). Every visible text goes through t(); templates mark elements with
// data-i18n="key" (text) or data-i18n-attr="attr:key;attr:key" (attributes).

/** The languages the companion speaks (companion/web/i18n LANGUAGES, handed over by base.html):
 * the server's one list, never a copy. */
export const LANGUAGES = (() => {
  try {
    const codes = JSON.parse(document.querySelector('meta[name="languages"]')?.content || "[]");
    return Array.isArray(codes) && codes.length ? codes : ["en"];
  } catch {
    return ["en"];
  }
})();
const STORAGE_KEY = "chocolatl.lang";

let lang = "en";
let strings = {};
let english = {};
const listeners = new Set();

/** The first supported language among the browser's preferences (or a stored choice). */
export function pickLanguage(preferred = navigator.languages || [navigator.language]) {
  const stored = safeStorage()?.getItem(STORAGE_KEY);
  if (stored && LANGUAGES.includes(stored)) return stored;
  for (const tag of preferred || []) {
    const base = String(tag || "").toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

function safeStorage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Where a catalogue is fetched from; the page may override it with <meta name="i18n-url">. */
function catalogueUrl(code) {
  const meta = document.querySelector('meta[name="i18n-url"]');
  const pattern = meta ? meta.content : "/i18n/{lang}.json";
  return pattern.replace("{lang}", code);
}

async function fetchCatalogue(code) {
  const inline = document.getElementById(`i18n-${code}`);
  if (inline) return JSON.parse(inline.textContent);
  const response = await fetch(catalogueUrl(code), { cache: "no-cache" });
  if (!response.ok) throw new Error(`catalogue ${code}: HTTP ${response.status}`);
  return response.json();
}

/** Load a language (English is always loaded as the fallback) and translate the page. */
export async function setLanguage(code, { remember = false } = {}) {
  if (!LANGUAGES.includes(code)) code = "en";
  if (!Object.keys(english).length) english = await fetchCatalogue("en");
  strings = code === "en" ? english : await fetchCatalogue(code);
  lang = code;
  if (remember) safeStorage()?.setItem(STORAGE_KEY, code);
  document.documentElement.lang = code;
  translateDom(document);
  for (const fn of listeners) fn(code);
  return code;
}

export function currentLanguage() {
  return lang;
}

/** Call `fn(lang)` after every language change (to re-render dynamic parts). */
export function onLanguageChange(fn) {
  listeners.add(fn);
}

/** Translate `key`, filling {placeholders} from `params`. Unknown keys show as the key. */
export function t(key, params = {}) {
  let text = strings[key] ?? english[key];
  if (text === undefined) {
    console.warn("missing translation", key);
    return key;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    params[name] === undefined || params[name] === null ? whole : String(params[name]),
  );
}

/** A text that depends on a count ("1 die", "2 dice"): the catalogue holds `key.one` and
 * `key.other` (and any other CLDR category a language needs); the language's plural rules
 * pick one (Intl.PluralRules). The count fills {n}. */
export function plural(key, count, params = {}) {
  const category = new Intl.PluralRules(lang).select(Number(count));
  const chosen = has(`${key}.${category}`) ? `${key}.${category}` : `${key}.other`;
  return t(chosen, { n: count, ...params });
}

/** Whether the catalogues are in (texts asked for before that would show as their keys). */
export function loaded() {
  return Object.keys(english).length > 0;
}

/** Whether a key exists (for optional texts such as a reason code). */
export function has(key) {
  return key in strings || key in english;
}

/** Join names as "a, b and c" in the current language. */
export function list(items) {
  const parts = items.map(String);
  if (parts.length <= 1) return parts.join("");
  return t("list.join", { first: parts.slice(0, -1).join(", "), last: parts.at(-1) });
}

/** Fill every [data-i18n] / [data-i18n-attr] element below `root`. */
export function translateDom(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    // data-i18n-args: the placeholders' values as JSON (e.g. the longest name allowed).
    el.textContent = t(el.dataset.i18n, el.dataset.i18nArgs ? JSON.parse(el.dataset.i18nArgs) : undefined);
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
}

/** A <select> that switches the language; `remember` keeps the phone's choice. */
export function languageSwitch(select, { remember = true, onChange } = {}) {
  select.replaceChildren();
  for (const code of LANGUAGES) {
    const option = document.createElement("option");
    option.value = code;
    option.dataset.i18n = `lang.${code}`;
    option.textContent = t(`lang.${code}`);
    select.appendChild(option);
  }
  select.value = lang;
  select.addEventListener("change", async () => {
    await setLanguage(select.value, { remember });
    if (onChange) onChange(select.value);
  });
  onLanguageChange((code) => {
    select.value = code;
  });
}
