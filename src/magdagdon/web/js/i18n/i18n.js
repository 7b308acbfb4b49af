// The page's words: t(key, params) in the current language, and index.html's static labels;
// how the tables and their parts load: docs/web.md (Words).
import fil from "./fil.js";

export const LANGUAGES = ["fil", "en"];
const TABLES = { fil: { ...fil }, en: {} };
const LOADED = Object.fromEntries(LANGUAGES.map((lang) => [lang, new Map()])); // part → its load
LOADED.fil.set("", Promise.resolve()); // the play screen's Filipino words came with the page
const used = new Set(); // the parts asked for, in any language

let current = "fil";

export function language() {
  return current;
}

// Answers whether it did (a language whose play-screen words are not loaded yet stays unused).
export function setLanguage(lang) {
  if (!LANGUAGES.includes(lang) || !LOADED[lang].has("")) return false;
  current = lang;
  document.documentElement.lang = current;
  return true;
}

// A language's play-screen words, loaded once (before setLanguage).
export function use(lang) {
  return loadPart("", LANGUAGES.includes(lang) ? lang : "fil");
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
  return loadPart(part, LANGUAGES.includes(lang) ? lang : "fil");
}

function loadPart(part, lang) {
  const loads = LOADED[lang];
  if (!loads.has(part)) {
    const loading = import(part ? `./${lang}.${part}.js` : `./${lang}.js`).then((m) => {
      Object.assign(TABLES[lang], m.default);
    });
    loading.catch(() => loads.delete(part));
    loads.set(part, loading);
  }
  return loads.get(part);
}

// Before the language changes to `lang`: its play-screen words and the parts already in use.
export function prepare(lang) {
  return Promise.all([use(lang), ...Array.from(used, (part) => load(part, lang))]);
}

export function applyStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
    delete el.dataset.key; // what a renderer drew there is gone: it draws it again
  }
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  document.title = t("title");
}
