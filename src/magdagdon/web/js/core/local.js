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
import { ApiError, call } from "./api.js";
import * as kept from "./kept.js";

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
// `onChange()` when the engine becomes ready, or a game starts or stops being played offline
export function onChange(listener) {
  changed = listener;
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
  return games;
}

export const holds = (id) => held.has(id);
export const playing = () => held.size > 0;

// The server game `state` can go on here: the engine is ready and its log is at its version.
export function canTakeOver(state) {
  const log = readLog();
  return isReady && log !== null && log.id === state.id && log.actions.length === state.version;
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
  return act(state, action);
}

export async function act(state, action) {
  const game = await kept.get(state.id);
  await openGame(game);
  const { version, ...plain } = action;
  const answer = await ask({ type: "act", action: plain });
  game.actions.push(answer.action);
  game.view = answer.view;
  await kept.put(game);
  return answer.view;
}

export async function view(id) {
  return (await kept.get(id))?.view ?? null;
}

// A new game begun here: its id and seed made on this device (the seed below 2^53, as the
// server's: exact in JavaScript). `day` (YYYY-MM-DD): that day's challenge, whose seed the
// engine takes from the day — as practice, since a game played here never ranks.
export async function newGame(difficulty, day = null) {
  const words = crypto.getRandomValues(new Uint32Array(3));
  const made = (words[0] % 2 ** 21) * 2 ** 32 + words[1];
  const id = `o${Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("")}`;
  const mode = day ? "practice" : "normal";
  const opened = day ? { daily_date: day } : { seed: made };
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
