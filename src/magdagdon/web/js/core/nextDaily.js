// The time to the next daily challenge, by the server's clock (GET /api/daily: "now" and
// "next_at", the next UTC midnight): shown in the daily sheet and at a daily game's end, and
// kept current in place every few seconds without drawing the page again. Loaded with the
// daily sheet's words (i18n/*.sheets.js) when first needed.
import { call } from "./api.js";
import { h } from "../lib/dom.js";
import { t } from "../i18n/i18n.js";

const TICK_MS = 10_000;
const MINUTE_MS = 60_000;
let known = null; // { next: ms on the server's clock, skew: server's clock − this device's }
let asking = null;
let askedAt = -Infinity; // a failed question is asked again a minute later, not at every drawing
let ticking = null;

// What GET /api/daily answered: the start of the next challenge and the server's time.
export function learn(overview) {
  if (!overview?.next_at || !overview?.now) return;
  known = { next: Date.parse(overview.next_at), skew: Date.parse(overview.now) - Date.now() };
  update();
  ticking ??= setInterval(update, TICK_MS);
}

// Milliseconds to the next challenge, or null when not known yet.
export function remaining() {
  return known ? Math.max(0, known.next - (Date.now() + known.skew)) : null;
}

// "3 oras 5 min": a part started counts whole (never "0 min" while some time is left).
function words(ms) {
  if (ms === null) return "";
  if (ms <= 0) return t("nextDailyOpen");
  const minutes = Math.ceil(ms / MINUTE_MS);
  const hours = Math.floor(minutes / 60);
  const time = hours > 0 ? t("nextDailyHours", { h: hours, m: minutes % 60 }) : t("nextDailyMinutes", { m: minutes });
  return t("nextDaily", { time });
}

function update() {
  const text = words(remaining());
  for (const el of document.querySelectorAll("[data-next-daily]")) {
    if (el.textContent !== text) el.textContent = text;
    el.hidden = text === "";
  }
}

// The time is asked for when not known yet (every line is filled in then).
function ensure() {
  if (!known && !asking && performance.now() - askedAt > MINUTE_MS) {
    askedAt = performance.now();
    asking = call("GET", "/api/daily").then(learn, () => null).finally(() => { asking = null; });
  }
}

// Every line on the page filled in (the game over's, drawn empty: render/over.js).
export function show() {
  ensure();
  update();
}

// The words of the line now ("" while the time is not known): the share text ends with them.
export function nextDailyWords() {
  return words(remaining());
}

// The line itself (the daily sheet).
export function nextDailyLine() {
  ensure();
  const text = words(remaining());
  return h("p", { class: "next-daily", "data-next-daily": "", hidden: text === "" }, text);
}
