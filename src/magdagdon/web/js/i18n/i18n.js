// The page's words: t(key, params) in the current language, and the static labels of index.html
// (elements with data-i18n="key" get their text, data-i18n-label="key" their aria-label). The
// long texts (LAYUNIN, TUNGKOL SA LARO, the tutorial's coach) load when first shown.
import fil from "./fil.js";
import en from "./en.js";

const TABLES = { fil, en };
const TEXTS = {};
export const LANGUAGES = Object.keys(TABLES);

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

export function t(key, params = {}) {
  return fill(TABLES[current][key] ?? TABLES.fil[key] ?? key, params);
}

export async function loadLongText() {
  TEXTS[current] ??= (await import(`./${current}.long.js`)).default;
  return TEXTS[current];
}

export function longText() {
  return TEXTS[current] ?? { rules: [], keys: [], about: [], tutorial: {} };
}

export function applyStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  document.title = t("title");
}
