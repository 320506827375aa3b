// The translation lookup, pure: a catalogue (flat key -> text with {name} placeholders, the
// files in companion/web/i18n/) and English as its fallback. No DOM, no fetch, no storage, so
// `node --test` loads it with the real catalogue files (tests/js/catalogue.test.mjs); i18n.js
// fetches the catalogues and keeps the page's current one.

/** @typedef {Record<string, string>} Strings a catalogue as the JSON files hold it */
/** @typedef {Record<string, string | number | null | undefined>} Params placeholder values */

/** The languages the companion speaks: the server's one list (companion/web/i18n LANGUAGES),
 * handed over by base.html and set by i18n.js (tests set it from the catalogue files). Until
 * then only English. Never a copy of the list. */
export const LANGUAGES = ["en"];

/**
 * Take the server's list of languages (kept in the same array: importers hold it).
 * @param {unknown} codes
 */
export function setLanguages(codes) {
  const valid = Array.isArray(codes) ? codes.filter((c) => typeof c === "string" && c) : [];
  if (valid.length) LANGUAGES.splice(0, LANGUAGES.length, ...valid);
}

/**
 * The language a page starts in: a stored choice when it is supported, else the first
 * supported language among the browser's preferences (only the tag's base, "de-AT" is "de"),
 * else English.
 * @param {readonly (string | null | undefined)[] | null | undefined} preferred
 * @param {string | null | undefined} [stored]
 * @returns {string}
 */
export function chooseLanguage(preferred, stored = null) {
  if (stored && LANGUAGES.includes(stored)) return stored;
  for (const tag of preferred || []) {
    const base = String(tag || "").toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

/** The texts of one language with English behind it. */
export class Words {
  /**
   * @param {string} lang the language's code (its plural rules)
   * @param {Strings} [strings] its catalogue
   * @param {Strings} [english] the English catalogue, for keys the language lacks
   */
  constructor(lang, strings = {}, english = {}) {
    this.lang = lang;
    this.strings = strings;
    this.english = english;
  }

  /**
   * Translate `key`, filling {placeholders} from `params` (a missing value leaves the
   * placeholder as it is). An unknown key shows as the key, with a warning. A value that
   * ends a sentence with its own full stop takes the sentence's ("the free seat of Anna B.",
   * not "Anna B..").
   * @param {string} key
   * @param {Params} [params]
   * @returns {string}
   */
  t(key, params = {}) {
    const text = this.strings[key] ?? this.english[key];
    if (text === undefined) {
      console.warn("missing translation", key);
      return key;
    }
    return text.replace(/\{(\w+)\}(\.?)/g, (whole, name, stop) => {
      const value = params[name];
      if (value === undefined || value === null) return whole;
      const shown = String(value);
      return stop && shown.endsWith(".") ? shown : shown + stop;
    });
  }

  /**
   * A counted text ("1 die", "2 dice"): `key.one`, `key.other` (and any other CLDR category
   * the language needs), chosen by the language's plural rules; the count fills {n}.
   * @param {string} key
   * @param {number | string} count
   * @param {Params} [params]
   * @returns {string}
   */
  plural(key, count, params = {}) {
    const category = new Intl.PluralRules(this.lang).select(Number(count));
    const chosen = this.has(`${key}.${category}`) ? `${key}.${category}` : `${key}.other`;
    return this.t(chosen, { n: count, ...params });
  }

  /**
   * Whether a key exists (for optional texts such as a reason code).
   * @param {string} key
   */
  has(key) {
    return key in this.strings || key in this.english;
  }

  /**
   * Names joined as "a, b and c" in this language.
   * @param {readonly unknown[]} items
   * @returns {string}
   */
  list(items) {
    const parts = items.map(String);
    if (parts.length <= 1) return parts.join("");
    return this.t("list.join", { first: parts.slice(0, -1).join(", "), last: parts.at(-1) });
  }
}
