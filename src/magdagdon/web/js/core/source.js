// play.js's seam: the server (api.js), or local.js once loaded (the server, else the engine).
import * as api from "./api.js";
import * as prefs from "./prefs.js";

let local = null;
let loading = null;
let last = null;
let page = null; // app.js's

export const attach = (p) => { page = p; };
export const loaded = () => local;
// A first visit's service worker keeps only what the page loaded: local.js may be out of reach
// offline until the first finished turn has kept the rest; a failed load is tried again later.
export const loadLocal = () => (loading ??= import("./local.js").then(
  (m) => (m.attach(page, last), local = m),
  (err) => { loading = null; throw err; }));
export const startLocal = () => loadLocal().then((m) => m.start());
export const waiting = () => prefs.get("offlineGames") > 0;
export const offlineOn = () => prefs.get("offlinePlay") !== "0";
// the games played here (none readable while local.js is out of reach: they stay kept)
export const played = () => (waiting() || !navigator.onLine
  ? loadLocal().then((m) => m.load(), () => [])
  : []);
export const sendPlayed = () => loadLocal().then((m) => m.sendPlayed());
// the games finished here that the server does not have yet, as High Scores entries
export const finishedHere = () => (waiting() ? loadLocal().then((m) => m.finishedHere(), () => []) : []);

// The offline engine's download (docs/web.md, "The download"): after the player's first finished
// turn (turnFinished), not with the page; at once on a device that has it already (kept by the
// service worker: nothing to download); never by itself on a connection that saves data, where
// SETTINGS offers it with its size (saveData()); never when off.
const FETCHED = "magdagdon.engineFetched";
export const saveData = () => Boolean(navigator.connection?.saveData || navigator.connection?.metered);
let wanted = false;

function fetchedBefore() {
  try {
    return localStorage.getItem(FETCHED) === "1";
  } catch {
    return false; // storage refused: as a first visit
  }
}

export function prepareLater() {
  if (!offlineOn()) return void (document.body.dataset.offline = "off");
  if (fetchedBefore()) whenKept(() => offlineOn() && startLocal().catch(console.warn));
  else if (saveData()) document.body.dataset.offline = "asks";
}

// The first finished turn: the downloads start, once the service worker keeps the page.
export function turnFinished() {
  if (wanted) return;
  wanted = true;
  // the page's files not kept by the first visit (the service worker, sw.js)
  whenKept(() => navigator.serviceWorker?.controller?.postMessage({ type: "keep-page" }));
  if (!offlineOn() || saveData() || local?.readyNow()) return;
  whenKept(() => offlineOn() && startLocal().catch(console.warn));
}

function whenKept(go) {
  const sw = navigator.serviceWorker;
  const later = () => setTimeout(go, 1000);
  if (sw && sw.controller === null) sw.addEventListener("controllerchange", later, { once: true });
  else later();
}

// What a tap that waits for the server waits for (the words' key), or null: the engine here
// takes the game over as soon as it can.
export function waitsFor(state) {
  if (local) return local.waitsFor(state);
  return offlineOn() ? "offlineWaitMissing" : "offlineWaitOff";
}
export const exportRefused = () => loadLocal().then((m) => m.exportRefused());

export const holds = (id) => local?.holds(id) ?? false;
export const seen = (game) => { last = game; local?.seen(game); };
// On a device with the engine, a tap made before local.js has loaded goes through it too: the
// engine, starting, may take the game over if the server does not answer.
export const act = (state, action, onWait) => (local || !offlineOn() || !fetchedBefore()
  ? (local ?? api).act(state, action, onWait)
  : loadLocal().then((m) => m.act(state, action, onWait)));
export const game = (id) => (local ?? api).game(id);
// a game played here is hinted by the engine worker's bots, any other by the server
export const hint = (state) => (local?.holds(state.id) ? local.hint(state) : api.hint(state));
export const newGame = (difficulty, options) => (local ?? api).newGame(difficulty, options);
