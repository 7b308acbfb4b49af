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

// Whole points: the one rounding of every expected score, luck and points given up a person reads
// (the review). Halves go away from zero, so a figure and its negation round alike.
export function whole(n) {
  const r = Math.round(Math.abs(n));
  return n < 0 && r !== 0 ? -r : r;
}

// 283, −12 (whole points)
export function points(n) {
  return num(whole(n));
}

// Luck with its sign, in whole points: +3, −12, 0
export function signedPoints(n) {
  const r = whole(n);
  return r === 0 ? "0" : signed(r);
}

// Whole points for parts that add up to a total (each part with its sign: start, luck, −given up
// → the Final Score): each part rounded, then the few whose rounding most went the wrong way moved
// by 1 until the shown parts add up to the shown total exactly. Each stays within 1 point of its
// value; the total is `total` rounded.
export function wholeParts(parts, total) {
  const shown = parts.map(whole);
  let gap = whole(total) - shown.reduce((a, b) => a + b, 0);
  const moved = new Set();
  while (gap !== 0) {
    const step = Math.sign(gap);
    let pick = -1;
    parts.forEach((p, i) => {
      if (moved.has(i)) return;
      if (pick < 0 || (p - shown[i]) * step > (parts[pick] - shown[pick]) * step) pick = i;
    });
    if (pick < 0) break;
    moved.add(pick);
    shown[pick] += step;
    gap -= step;
  }
  return shown;
}

// A mean as the language writes it, to at most `digits` places (STATISTIKA): 1,234.5; "—" for none.
export function rounded(n, digits = 1) {
  if (n === null || n === undefined) return "—";
  const text = n.toLocaleString(LOCALES[language()] ?? "fil-PH", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
  return n < 0 ? `${MINUS}${text.replace(/^[-\u2212]/, "")}` : text;
}
