// Play without the server: the game's own engine (Python on Pyodide, /engine/worker.js) in a Web
// Worker, answering with the server's state view, so that play.js cannot tell who answered.
//
// - It starts in the background once the first game is drawn (the first visit loads only the
//   page), and `<body data-offline="ready">` says when it can play.
// - While online, the page keeps the current server game's seed and action log (GET
//   /api/games/{id}/log once, then each answered action), so that when the server cannot be
//   reached the game goes on here from the very same state.
// - Games played here are kept in IndexedDB (kept.js) and sent back when the connection returns
//   (POST /api/games/sync): the server replays them, stores each once, and a game it refuses
//   stays on this device with the server's word.
import * as api from "./api.js";
import * as kept from "./kept.js";
import { load as loadWords } from "../i18n/i18n.js";

const { ApiError, call } = api;

const LOG = "magdagdon.log"; // the current server game's {id, difficulty, seed, mode, daily_date, actions}
const WAITING = "magdagdon.offlineGames"; // how many games held: source.js loads this module then

let worker = null;
let ready = null; // a promise of the started engine
let isReady = false;
let openId = null; // the game open in the worker
let asked = 0;
const answers = new Map();
let changed = () => {};

// ----- the engine worker ----------------------------------------------------------------------
export function start() {
  if (ready) return ready;
  ready = new Promise((resolve, reject) => {
    worker = new Worker("/engine/worker.js", { type: "module" });
    worker.onmessage = ({ data }) => {
      if (data.type === "ready") {
        isReady = true;
        document.body.dataset.offline = "ready";
        resolve();
        changed();
      } else if (data.type === "failed") {
        reject(new Error(data.error.message));
      } else {
        answers.get(data.id)?.(data);
        answers.delete(data.id);
      }
    };
    worker.onerror = (event) => reject(new Error(event.message));
  });
  ready.catch((err) => {
    console.warn(err);
    ready = null; // tried again later
  });
  return ready;
}

// Offline play switched off: the engine stops (started again by the next game played here).
export function stop() {
  worker?.terminate();
  worker = null;
  ready = null;
  isReady = false;
  openId = null;
  for (const [id, resolve] of answers) resolve({ id, error: { code: "engine_stopped", message: "offline play was switched off" } });
  answers.clear();
  changed();
}

export const readyNow = () => isReady;

// ----- the page (app.js: its view, how it draws, how it keeps a state) --------------------------
let page = null;

export function attach(given, lastSeen) {
  page = given;
  // the notice's words while playing here
  loadWords("offline").then(() => page.view.game && page.draw(), () => {});
  // the engine became ready, or a game starts or stops being played here
  changed = () => {
    page.view.localPlay = playing() && notice;
    if (page.view.localPlay && !navigator.onLine) page.view.offline = true;
    if (page.view.game) page.draw();
  };
  if (lastSeen) seen(lastSeen);
}

// The offline notice while a game is played here (core/offline.js draws it): it goes on here
// and is saved on the server when the connection returns; a word on the last tap beside it.
function notice(view, t) {
  const said = view.message ? [" ", ["span", {}, t(view.message.key, view.message.params)]] : [];
  return [["strong", { class: "notice-title" }, t("offlineTitle")], " ",
    ["span", { "data-offline-playing": "" }, t("offlinePlaying")], ...said];
}

// The games played here go to the server; one it refuses stays here, and the page says so.
export async function sendPlayed() {
  const { view, draw, keep } = page;
  const { synced, refused } = await syncAll();
  view.localPlay = playing() && notice;
  const shown = synced.find((game) => game.id === view.game?.id) ?? synced.at(-1) ?? null;
  if (view.game && shown) keep(shown);
  if (refused.length) view.message = { key: "syncRefused", params: { n: refused.length }, kind: "error" };
  if (view.game) draw();
  return shown;
}

// ----- play.js's calls (source.js): the server, else this engine ------------------------------
const noAnswer = (err) => err instanceof ApiError && err.status === 0;

export async function act(state, action, onWait) {
  if (holds(state.id)) return actHere(state, action);
  if (canTakeOver(state)) {
    let game;
    try {
      game = await call("POST", `/api/games/${encodeURIComponent(state.id)}/actions`, { ...action, version: state.version });
    } catch (err) {
      if (!noAnswer(err)) throw err;
      return takeOver(state, action);
    }
    followed(state, action, game);
    return game;
  }
  const game = await api.act(state, action, onWait);
  followed(state, action, game);
  return game;
}

export const game = (id) => (holds(id) ? view(id) : api.game(id));

// A new game: the server's, else one begun here. Games played here are sent first (a new game
// abandons the one under way).
export async function newGame(difficulty, options = {}) {
  if (playing() && navigator.onLine && !options.mode) await syncAll().catch(() => null);
  try {
    return await api.newGame(difficulty, options);
  } catch (err) {
    if (!noAnswer(err) || !isReady || options.mode) throw err;
    return begin(difficulty);
  }
}

async function ask(message) {
  await start();
  asked += 1;
  const id = asked;
  const answer = new Promise((resolve) => answers.set(id, resolve));
  worker.postMessage({ ...message, id });
  const data = await answer;
  if (data.error) throw new ApiError(409, data.error.code, data.error.message, data.error);
  return data;
}

// ----- the current server game's log, kept while online -----------------------------------------
function readLog() {
  try {
    return JSON.parse(localStorage.getItem(LOG) ?? "null");
  } catch {
    return null;
  }
}

function writeLog(log) {
  try {
    localStorage.setItem(LOG, JSON.stringify(log));
  } catch {
    // storage refused: this game cannot go on offline
  }
}

let fetching = null;

// A state the server sent: its log is asked for when the one kept is not at its version.
export function seen(game) {
  if (!game || game.mode === "tutorial" || held.has(game.id)) return;
  const log = readLog();
  if (log && log.id === game.id && log.actions.length === game.version) return;
  if (fetching === game.id || !navigator.onLine) return;
  fetching = game.id;
  call("GET", `/api/games/${encodeURIComponent(game.id)}/log`)
    .then((found) => writeLog(found))
    .catch(() => {})
    .finally(() => { fetching = null; });
}

// The server answered `action` on `before` with `game`: the kept log follows.
export function followed(before, action, game) {
  const log = readLog();
  if (log && log.id === game.id && log.actions.length === before.version && game.version === before.version + 1) {
    const { version, ...plain } = action;
    log.actions.push(plain);
    writeLog(log);
  }
  seen(game);
}

// ----- games played here ----------------------------------------------------------------------
const held = new Set(); // ids of the games kept in IndexedDB, not yet the server's

function counted() {
  try {
    localStorage.setItem(WAITING, String(held.size));
  } catch {
    // storage refused: the next start looks in IndexedDB only when it loads this module
  }
}

export async function load() {
  const games = await kept.all().catch(() => []);
  for (const game of games) held.add(game.id);
  counted();
  changed();
  return games;
}

export const holds = (id) => held.has(id);
export const playing = () => held.size > 0;

// The server game `state` can go on here: the engine is ready and its log is at its version.
// A game of today's challenge has no seed in its log (its dice are the server's secret until
// rolled): its next move waits for the connection.
export function canTakeOver(state) {
  const log = readLog();
  return isReady && log !== null && log.seed != null && log.id === state.id && log.actions.length === state.version;
}

async function openGame(game) {
  if (openId === game.id) return;
  const { id, difficulty, seed, mode, daily_date, actions } = game;
  await ask({ type: "open", game: { game_id: id, difficulty, seed, mode, daily_date, actions } });
  openId = game.id;
}

// The server game `state` goes on here: kept, then `action` played on it.
export async function takeOver(state, action) {
  const log = readLog();
  const game = { ...log, view: state, began: Date.now(), refused: null };
  await kept.put(game);
  held.add(game.id);
  counted();
  changed();
  return actHere(state, action);
}

async function actHere(state, action) {
  const game = await kept.get(state.id);
  await openGame(game);
  const { version, ...plain } = action;
  const answer = await ask({ type: "act", action: plain });
  game.actions.push(answer.action);
  game.view = answer.view;
  await kept.put(game);
  return answer.view;
}

// The hint for a game played here: the worker's computer player, the server's own bots
// (worker.js "hint"), the same answer as GET /api/games/{id}/hint.
export async function hint(state) {
  await openGame(await kept.get(state.id));
  return (await ask({ type: "hint" })).hint;
}

export async function view(id) {
  return (await kept.get(id))?.view ?? null;
}

// A new game begun here: its id and seed made on this device (the seed below 2^53, as the
// server's: exact in JavaScript). `day` (YYYY-MM-DD): that past day's challenge on `daySeed`,
// the seed the server published once the day was over — as practice, since a game played
// here never ranks.
export async function begin(difficulty, day = null, daySeed = null) {
  const words = crypto.getRandomValues(new Uint32Array(3));
  const made = (words[0] % 2 ** 21) * 2 ** 32 + words[1];
  const id = `o${Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("")}`;
  const mode = day ? "practice" : "normal";
  const opened = day ? { daily_date: day, seed: daySeed } : { seed: made };
  openId = null;
  const answer = await ask({ type: "open", game: { game_id: id, difficulty, mode, ...opened, actions: [] } });
  openId = id;
  const game = { id, difficulty, seed: answer.seed, mode, daily_date: day, actions: [], began: Date.now(), refused: null };
  game.view = answer.view;
  await kept.put(game);
  held.add(id);
  counted();
  changed();
  return answer.view;
}

// ----- back online ------------------------------------------------------------------------------
let syncing = null;

// Each game played here, oldest first, to the server; a game it stored is forgotten here, one it
// refused is kept with its word. Answers {synced: [state…], refused: [game…]}; stops at the first
// request with no answer (the connection is not back after all).
export function syncAll() {
  syncing ??= (async () => {
    const synced = [];
    const refused = [];
    for (const game of await load()) {
      if (game.refused) {
        refused.push(game);
        continue;
      }
      let sent = -1;
      let answer = null;
      let current = game;
      try {
        while (current && current.actions.length !== sent) { // played on while it was sent
          sent = current.actions.length;
          const { id, difficulty, seed, mode, daily_date, actions } = current;
          answer = await call("POST", "/api/games/sync", { id, difficulty, seed, mode, daily_date, actions });
          current = await kept.get(id);
        }
      } catch (err) {
        if (err.status === 0) break;
        current.refused = { code: err.code, message: err.message };
        await kept.put(current);
        refused.push(current);
        continue;
      }
      await kept.remove(game.id);
      held.delete(game.id);
      counted();
      if (openId === game.id) openId = null;
      synced.push(answer);
    }
    changed();
    return { synced, refused };
  })().finally(() => { syncing = null; });
  return syncing;
}
