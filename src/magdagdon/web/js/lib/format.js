// Numbers, dates and ranks as each language writes them: a true minus sign (U+2212), never a
// hyphen, and dates in the language's own form.
import { language } from "../i18n/i18n.js";

export const MINUS = "\u2212";

// 12, −15
export function num(n) {
  return n < 0 ? `${MINUS}${-n}` : String(n);
}

// +12, −15
export function signed(n) {
  return n < 0 ? `${MINUS}${-n}` : `+${n}`;
}

const LOCALES = { fil: "fil-PH", en: "en-GB" };

export function date(iso) {
  const when = new Date(iso);
  if (Number.isNaN(when.getTime())) return iso;
  return when.toLocaleDateString(LOCALES[language()] ?? "fil-PH", {
    day: "numeric", month: "short", year: "numeric",
  });
}

// Expected scores to a tenth (the review): 12.3, −4.0; halves as JavaScript's toFixed rounds them.
export function decimal(n, places = 1) {
  const text = Math.abs(n).toFixed(places);
  return n < 0 && Number(text) !== 0 ? `${MINUS}${text}` : text;
}

// Luck with its sign: +2.5, −1.0
export function signedDecimal(n, places = 1) {
  const text = decimal(n, places);
  return text.startsWith(MINUS) ? text : `+${text}`;
}

// A mean as the language writes it, to at most `digits` places (STATISTIKA): 1,234.5; "—" for none.
export function rounded(n, digits = 1) {
  if (n === null || n === undefined) return "—";
  const text = n.toLocaleString(LOCALES[language()] ?? "fil-PH", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
  return n < 0 ? `${MINUS}${text.replace(/^[-\u2212]/, "")}` : text;
}
