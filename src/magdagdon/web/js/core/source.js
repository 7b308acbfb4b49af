// play.js's seam: the server (api.js), or local.js once loaded (the server, else the engine).
import * as api from "./api.js";
import * as prefs from "./prefs.js";

let local = null;
let loading = null;
let last = null;
let page = null; // app.js's

export const attach = (p) => { page = p; };
export const loaded = () => local;
export const loadLocal = () => (loading ??= import("./local.js").then((m) => (m.attach(page, last), local = m)));
export const startLocal = () => loadLocal().then((m) => m.start());
export const waiting = () => prefs.get("offlineGames") > 0;
export const offlineOn = () => prefs.get("offlinePlay") !== "0";
export const played = () => (waiting() || !navigator.onLine ? loadLocal().then((m) => m.load()) : []);
export const sendPlayed = () => loadLocal().then((m) => m.sendPlayed());

// Fetched once the service worker keeps the page, after a few quiet seconds; never when off.
export function prepareLater() {
  if (!offlineOn()) return void (document.body.dataset.offline = "off");
  const go = () => setTimeout(() => offlineOn() && startLocal().catch(console.warn), 3000);
  const sw = navigator.serviceWorker;
  if (sw?.controller === null) sw.addEventListener("controllerchange", go, { once: true });
  else go();
}

export const holds = (id) => local?.holds(id) ?? false;
export const seen = (game) => { last = game; local?.seen(game); };
export const act = (state, action, onWait) => (local ?? api).act(state, action, onWait);
export const game = (id) => (local ?? api).game(id);
// a game played here is hinted by the engine worker's bots, any other by the server
export const hint = (state) => (local?.holds(state.id) ? local.hint(state) : api.hint(state));
export const newGame = (difficulty, options) => (local ?? api).newGame(difficulty, options);
