// The parts of the page that load when first used (the daily challenge, STATISTIKA,
// the share step, High Scores' lists, the name and the player's data in SETTINGS), so the first
// load stays small.
// play.js hands an action it does not know to lazyAction, and tells opened() when a sheet
// opens; render/sheet.js draws a sheet, or a section of one (<div data-more="name">), that a loaded
// module registered. Nothing here decides a rule.
import { lazy } from "../lib/lazy.js";
import { actions, opens, sections, sheets } from "./registered.js";

const MODULES = {
  daily: () => import("./daily.js"),
  stats: () => import("./stats.js"),
  share: () => import("./share.js"),
  settings: () => import("./settings.js"),
  highscores: () => import("./scores.js"),
  export: () => import("./settings.js"),
  import: () => import("./settings.js"),
};
export { sheets };

async function load(name) {
  if (MODULES[name]) await lazy(MODULES[name], { css: ["css/sheet.css", "css/more.css"], words: "sheets" });
}

// ctx: {view, dom, render, request, begin, announce}; intent: the tap (its el, keyboard…).
export async function lazyAction(name, ctx, intent) {
  if (!actions[name]) await load(name);
  return actions[name]?.(ctx, intent);
}

// A sheet opens: its module loads first, then fetches what it shows.
export async function opened(name, ctx) {
  await load(name);
  return opens[name]?.(ctx);
}

export function drawSections(body, view) {
  for (const el of body.querySelectorAll("[data-more]")) sections[el.dataset.more]?.(el, view);
}
