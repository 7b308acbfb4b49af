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
import * as prefs from "./prefs.js";
import { backoff, wake } from "./resend.js";
import { checkEngine } from "./offline.js";
import { load as loadWords, t } from "../i18n/i18n.js";

const { ApiError, call } = api;

const FETCHED = "magdagdon.engineFetched"; // the engine was once ready here: it starts with the page
const LOG = "magdagdon.log"; // the current server game's {id, difficulty, seed, mode, daily_date, actions}
const WAITING = "magdagdon.offlineGames"; // how many games held: source.js loads this module then

let worker = null;
let ready = null; // a promise of the started engine
let isReady = false;
let seedLimit = null; // every seed is below it: the engine's own bound (its ready message)
let openId = null; // the game open in the worker
let asked = 0;
const answers = new Map();
let changed = () => {};

// ----- the engine worker ----------------------------------------------------------------------
// The engine's state, as SETTINGS and the connection's words say it (<body data-offline>):
// "loading", "ready", "missing" (not on this device, and no connection to fetch it), "damaged"
// (a kept file did not match: fetched again once the connection allows), "off".
function stateIs(name) {
  document.body.dataset.offline = name;
  changed();
}

export function start() {
  if (ready) return ready;
  if (!isReady) stateIs("loading");
  // the rest of the page with the engine (the worker's own scripts among it): kept for offline
  navigator.serviceWorker?.controller?.postMessage({ type: "keep-page" });
  ready = new Promise((resolve, reject) => {
    worker = new Worker("/engine/worker.js", { type: "module" });
    worker.onmessage = ({ data }) => {
      if (data.type === "ready") {
        isReady = true;
        seedLimit = data.seed_limit;
        try {
          localStorage.setItem(FETCHED, "1");
        } catch {
          // storage refused: the next visit waits for a finished turn again
        }
        resolve();
        stateIs("ready");
        wake(); // a tap that waits for the server may go on here now
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
    worker?.terminate();
    worker = null;
    ready = null;
    heal();
  });
  return ready;
}

// The engine did not start: the service worker checks the kept files against their hashes and
// drops any that do not match; the engine starts again as soon as the connection allows (each
// try fetches what is missing), and meanwhile the page says what offline play still needs.
let healing = null;
function heal() {
  healing ??= (async () => {
    // tries 0.5, 1, 2… at most 15 s apart, at once when the browser or the server says the
    // connection is back (resend.js's pause)
    const next = backoff();
    while (!isReady) {
      const found = await checkEngine().catch(() => ({ damaged: [] }));
      stateIs(found.damaged.length ? "damaged" : "missing");
      await next();
      if (document.body.dataset.offline === "off") return;
      await start().catch(() => null);
    }
  })().finally(() => { healing = null; });
}

// Offline play switched off: the engine stops (started again by the next game played here).
export function stop() {
  worker?.terminate();
  worker = null;
  ready = null;
  isReady = false;
  openId = null;
  document.body.dataset.offline = "off";
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
    page.view.localPlay = playing();
    page.view.engine = document.body.dataset.offline ?? null;
    if (page.view.game) page.draw();
  };
  if (lastSeen) seen(lastSeen);
}

// The games played here go to the server; one it refuses stays here, and the page names it and
// offers it as a file. A game the server kept as a practice game of its own (it went another way
// than the server's copy) is that game from now on, and the page says so.
export async function sendPlayed() {
  const { view, draw, keep } = page;
  const { synced, refused } = await syncAll();
  view.localPlay = playing();
  const mine = synced.find((game) => (game.sync?.sent_id ?? game.id) === view.game?.id);
  const shown = mine ?? (view.game && !held.has(view.game.id) ? null : synced.at(-1)) ?? null;
  if (shown) keep(shown);
  const branched = synced.find((game) => game.sync?.outcome === "branch");
  if (branched) view.message = { key: "syncBranch", params: { name: gameName(branched) }, kind: "info", sync: true };
  if (refused.length) {
    const game = refused.at(-1);
    view.message = { key: "syncRefusedGame", params: { name: gameName(game), n: refused.length }, kind: "error", action: "export-refused", sync: true };
  }
  if (view.game) draw();
  return shown;
}

// A game as the player knows it: its difficulty, when it was played and its score.
function gameName(game) {
  const when = game.began ?? game.played_at;
  const date = when ? new Date(when).toLocaleDateString() : "";
  return [t(game.difficulty), date, `${game.score?.total ?? game.view?.score?.total ?? 0}`].filter(Boolean).join(" · ");
}

// The games the server refused, as one file the player keeps (the import of SETTINGS takes it
// back once the server can replay it).
export async function exportRefused() {
  const games = (await kept.all()).filter((game) => game.refused);
  const file = games.map((game) => ({ ...syncBody(game), refused: game.refused }));
  const blob = new Blob([JSON.stringify({ magdagdon_offline_games: file }, null, 1)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "magdagdon-offline-games.json";
  document.body.append(link);
  link.click();
  setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
}

// ----- play.js's calls (source.js): the server, else this engine ------------------------------
const noAnswer = (err) => err instanceof ApiError && err.status === 0;
const notNow = (err) => err.status === 0 || err.status === 429 || err.status >= 500;

// A server game's action: sent until the server answers, unless the engine here can take the
// game over (ready, with the game's log at its version): then at once, or as soon as it can.
export async function act(state, action, onWait) {
  if (holds(state.id)) return actHere(state, action);
  let here = false;
  const instead = () => (canTakeOver(state) ? () => { here = true; return takeOver(state, action); } : null);
  const game = await api.act(state, action, onWait, instead);
  if (!here) followed(state, action, game);
  return game;
}

// What a tap that waits for the server waits for, as the page says it: the engine's download
// ("offlineWaitLoading"), a download it still needs ("offlineWaitMissing"), this game's record
// that never reached this device ("offlineWaitNoLog"), or offline play switched off.
export function waitsFor(state) {
  const engine = document.body.dataset.offline;
  if (engine === "off") return "offlineWaitOff";
  if (engine === "missing" || engine === "damaged") return "offlineWaitMissing";
  if (!isReady) return "offlineWaitLoading";
  return canTakeOver(state) ? null : "offlineWaitNoLog";
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
  if (data.error) {
    const { status, code, message } = data.error;
    throw new ApiError(status, code, message, data.error); // the status the server would answer
  }
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
  for (const game of games) {
    held.add(game.id);
    if (game.refused) refusedHere.add(game.id);
  }
  counted();
  changed();
  keepSyncing();
  return games;
}

// While a game played here waits for the server, it is sent again and again (0.5 s, 1, 2… at
// most 15 s apart, and at once when the browser is online again or any answer comes).
const refusedHere = new Set();
const toSend = () => [...held].some((id) => !refusedHere.has(id));
let syncLoop = null;
function keepSyncing() {
  if (syncLoop || !toSend() || !page) return;
  syncLoop = (async () => {
    const next = backoff();
    while (toSend()) {
      await next();
      if (toSend()) await sendPlayed().catch(() => null);
    }
  })().finally(() => { syncLoop = null; });
}

// The games finished here, as High Scores entries dated when they ended (sheets/scores.js
// shows them with the last lists the server sent while it cannot be reached); `here`: the
// game's id on this device (no review without the server).
export async function finishedHere() {
  const games = await kept.all().catch(() => []);
  return games.filter((game) => game.view?.phase === "over").map(({ id, difficulty, began, ended, view }) => ({
    difficulty, score: view.score.total, date: isoTime(ended) ?? isoTime(began), turns: view.turn,
    powers_used: view.powers.used, ruins: view.score.ruins, hints_used: view.hints_used, game_id: null, here: id,
  }));
}

// A game that ended here: its place among the last High Scores the server sent and the games
// finished here ({rank, among}), said as this device's until the server has the game.
async function rankHere(state) {
  const others = [...(prefs.getJson("scores", {})[state.difficulty] ?? []),
    ...(await finishedHere()).filter((e) => e.difficulty === state.difficulty && e.here !== state.id)];
  return { rank: 1 + others.filter((e) => e.score > state.score.total).length, among: others.length + 1 };
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
  const answer = await actHere(state, action);
  page.view.message = { key: "offlineMoved", kind: "info" }; // a word, nothing to answer
  keepSyncing();
  return answer;
}

async function actHere(state, action) {
  const game = await kept.get(state.id);
  await openGame(game);
  const { version, ...plain } = action;
  const answer = await ask({ type: "act", action: plain });
  game.actions.push(answer.action);
  game.view = answer.view;
  if (answer.view.phase === "over") game.ended ??= Date.now(); // this device's clock: the game's date
  if (answer.view.phase === "over") answer.view.rank_here = await rankHere(answer.view);
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

// A new game begun here: its id and seed made on this device (the seed below the engine's bound,
// as the server's). `day` (YYYY-MM-DD): that past day's challenge on `daySeed`, the seed the
// server published once the day was over — as practice, since a game played here never ranks.
export async function begin(difficulty, day = null, daySeed = null) {
  await start();
  const words = crypto.getRandomValues(new Uint32Array(2));
  const made = Number(((BigInt(words[0]) << 32n) | BigInt(words[1])) % BigInt(seedLimit));
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
  keepSyncing();
  return answer.view;
}

// ----- back online ------------------------------------------------------------------------------
let syncing = null;

// A time kept here (ms since 1970, or a date's text) as the API's ISO 8601 text; null when
// there is none.
function isoTime(when) {
  const moment = when == null ? NaN : new Date(when).getTime();
  return Number.isFinite(moment) ? new Date(moment).toISOString() : null;
}

// A game kept here as POST /api/games/sync takes it: its log, and when it began and ended by
// this device's clock (the server dates the game by them: docs/api.md); `dated` false: without.
function syncBody({ id, difficulty, seed, mode, daily_date, actions, began, ended }, dated = true) {
  const body = { id, difficulty, seed, mode, daily_date, actions };
  return dated ? { ...body, played_at: isoTime(began), finished_at: isoTime(ended) } : body;
}

// One game to the server. A time it refuses (this device's clock far ahead of the server's, or
// a server that takes no times) never costs the game: it goes again undated, dated by the server.
async function sendOne(game) {
  try {
    return await call("POST", "/api/games/sync", syncBody(game));
  } catch (err) {
    const field = err.error?.field;
    const times = field === "played_at" || field === "finished_at" || err.code === "malformed";
    if (err.status !== 422 || !times) throw err;
    return call("POST", "/api/games/sync", syncBody(game, false));
  }
}

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
          answer = await sendOne(current);
          current = await kept.get(current.id);
        }
      } catch (err) {
        if (notNow(err)) break;
        current.refused = { code: err.code, message: err.message };
        await kept.put(current);
        refusedHere.add(current.id);
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
