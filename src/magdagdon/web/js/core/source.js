// Who answers: the server (api.js) or, when it cannot be reached, the page's engine (local.js,
// loaded in the background). Both answer the same state view: play.js never cares which.
import * as api from "./api.js";
import * as prefs from "./prefs.js";

const WAITING = "magdagdon.offlineGames"; // games kept offline (local.js counts)
let local = null; // local.js, once loaded
let loading = null;
let lastSeen = null;

const noAnswer = (err) => err instanceof api.ApiError && err.status === 0;

export function loadLocal() {
  loading ??= import("./local.js").then((module) => {
    local = module;
    if (lastSeen) local.seen(lastSeen);
    return module;
  });
  return loading;
}

export function waiting() {
  try {
    return Number(localStorage.getItem(WAITING) ?? "0") > 0;
  } catch {
    return false;
  }
}

// The engine, once the service worker keeps the page (and the engine's files) and after a few
// quiet seconds: nothing of the first visit waits for it. `onLoaded(local)` first. Switched off
// (SETTINGS), it is not fetched at all: `<body data-offline="off">`.
const QUIET_MS = 3000;
let loaded = null;

function startLocal() {
  return loadLocal().then((module) => {
    loaded?.(module);
    return module.start();
  });
}

export function prepareLater(onLoaded) {
  loaded = onLoaded;
  if (!offlineOn()) {
    document.body.dataset.offline = "off";
    return;
  }
  const go = () => setTimeout(() => (window.requestIdleCallback ?? setTimeout)(() => {
    if (offlineOn()) startLocal().catch((err) => console.warn(err));
  }), QUIET_MS);
  if (!("serviceWorker" in navigator) || navigator.serviceWorker.controller) go();
  else navigator.serviceWorker.addEventListener("controllerchange", go, { once: true });
}

export const offlineOn = () => prefs.get("offlinePlay") !== "0";

// SETTINGS' switch: on fetches the engine now; off stops it (games already played here are
// still sent when the connection returns).
export function setOfflinePlay(on) {
  prefs.set("offlinePlay", on ? "1" : "0");
  if (on) {
    delete document.body.dataset.offline;
    startLocal().catch((err) => console.warn(err));
  } else {
    local?.stop();
    document.body.dataset.offline = "off";
  }
}

export const holds = (id) => local?.holds(id) ?? false;

export function seen(game) {
  lastSeen = game;
  local?.seen(game);
}

export async function act(state, action, onWait) {
  if (local?.holds(state.id)) return local.act(state, action);
  if (local?.canTakeOver(state)) {
    let game;
    try {
      game = await api.call("POST", `/api/games/${encodeURIComponent(state.id)}/actions`, { ...action, version: state.version });
    } catch (err) {
      if (!noAnswer(err)) throw err;
      return local.takeOver(state, action);
    }
    local.followed(state, action, game);
    return game;
  }
  const game = await api.act(state, action, onWait);
  local?.followed(state, action, game);
  return game;
}

export async function game(id) {
  if (local?.holds(id)) return local.view(id);
  return api.game(id);
}

// The page's engine can begin games now (offline play on and its engine started).
export const playsHere = () => local?.readyNow() ?? false;

// A practice game of `day`'s challenge begun here, while the server cannot be reached: never
// ranked (the daily sheet says so before it starts).
export async function newDaily(difficulty, day) {
  return local.newGame(difficulty, day);
}

// A new game: the server's, else one begun here. Games played here are sent first (a new game
// abandons the one under way).
export async function newGame(difficulty, options = {}) {
  if (local?.playing() && navigator.onLine && !options.mode) {
    await local.syncAll().catch(() => null);
  }
  try {
    return await api.newGame(difficulty, options);
  } catch (err) {
    if (!noAnswer(err) || !local?.readyNow() || options.mode) throw err;
    return local.newGame(difficulty);
  }
}
