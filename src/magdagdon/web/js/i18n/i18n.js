// The page's words: t(key, params) in the current language, and the static labels of index.html
// (elements with data-i18n="key" get their text, data-i18n-label="key" their aria-label).
//
// Each language is one table of key → words, in files of one shape (`export default {key: …}`):
// LANG.js loads with the play screen; the parts that only some screens need load when first
// shown (load(part)) and join their language's table: LANG.long.js (LAYUNIN, TUNGKOL SA LARO,
// the tutorial's coach), LANG.sheets.js (the daily challenge, STATISTIKA, the share step,
// SETTINGS' name and data), LANG.review.js (the game review). A part's keys are its own (the
// review's start with "review.", the coach's with "coach.", the long texts' with "long."), so
// joining never replaces a word.
import fil from "./fil.js";
import en from "./en.js";

const TABLES = { fil: { ...fil }, en: { ...en } };
export const LANGUAGES = Object.keys(TABLES);
const LOADED = Object.fromEntries(LANGUAGES.map((lang) => [lang, new Map()])); // part → its load
const used = new Set(); // the parts asked for, in any language

let current = "fil";

export function language() {
  return current;
}

export function setLanguage(lang) {
  current = lang in TABLES ? lang : "fil";
  document.documentElement.lang = current;
}

export function fill(text, params = {}) {
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}

// The entry itself (the long texts are lists of sections), or undefined before its part loads.
export function entry(key) {
  return TABLES[current][key] ?? TABLES.fil[key];
}

// A count of one has its own words where the table has them (KEYOne: "1 die", not "1 dice").
export function t(key, params = {}) {
  const one = params.n === 1 ? entry(`${key}One`) : undefined;
  return fill(one ?? entry(key) ?? key, params);
}

// A part of `lang`'s words (the current language's by default), loaded once; a failed load
// (no connection) is tried again the next time.
export function load(part, lang = current) {
  used.add(part);
  if (!(lang in TABLES)) lang = "fil";
  const loads = LOADED[lang];
  if (!loads.has(part)) {
    const loading = import(`./${lang}.${part}.js`).then((m) => {
      Object.assign(TABLES[lang], m.default);
    });
    loading.catch(() => loads.delete(part));
    loads.set(part, loading);
  }
  return loads.get(part);
}

// Before the language changes to `lang`: the parts already in use, in that language.
export function prepare(lang) {
  return Promise.all(Array.from(used, (part) => load(part, lang)));
}

export function applyStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  document.title = t("title");
}
