// The engine worker: MAGDAGDON's Python engine on Pyodide, in a module Web Worker, answering
// with the server's JSON state view. Everything it loads is the page's own origin's:
// ./boot.mjs, and the runtime folder beside it (Pyodide's runtime and magdagdon-engine.zip, from
// build/web-engine/ by `make pyodide`).
// Start it with new Worker("/engine/worker.js", { type: "module" }); its answers' policy must
// allow 'wasm-unsafe-eval' (api/edge/security.py gives it to /engine/ only).
//
// Messages in (each with an `id` the answer repeats):
//   {id, type: "new_game", game: {difficulty, game_id, seed, daily_date?, mode?}}
//   {id, type: "play", action: {type: "stage", die: 0, cell: [1, 2]} …}  (the API's actions)
//   {id, type: "view"}
//   {id, type: "load", state, record}  (go on with a game kept earlier: its codec state, record)
// Answers: {id, view, state, record} — or {id, error: {code, message}}, the game unchanged.
// The page plays one game kept in Python's memory, so that a move costs the action alone:
//   {id, type: "open", game: {difficulty, game_id, seed, daily_date?, mode?, actions: [...]}}
//   {id, type: "act", action}
// Answers: {id, view, record} (and for "act" the action as the log keeps it) or {id, error}.
// The hint without the server: {id, type: "hint"} for the game in hand (the one kept by "open" /
//   "act", else the last "play" / "view" game) → {id, hint: {action, placement, expected_value,
//   version?}} or {id, error}; the computer player (./runtime/magdagdon-bots.zip) is fetched
//   and started in the background once the engine is ready.
// Once started, it posts {type: "ready", python, ms, seed_limit} (or {type: "failed", error});
// seed_limit: every seed is below it (the engine's own bound, engine/rules.py).

import { loadPyodide } from "./runtime/pyodide.mjs";
import { startEngine, startHints } from "./boot.mjs";

const RUNTIME = new URL("./runtime/", import.meta.url).href;

const started = performance.now();
const ready = (async () => {
  const answer = await fetch(new URL("magdagdon-engine.zip", RUNTIME));
  if (!answer.ok) throw new Error(`magdagdon-engine.zip: ${answer.status}`);
  return startEngine({ loadPyodide, indexURL: RUNTIME, engineZip: await answer.arrayBuffer() });
})();

// the hint's bots, loaded after the engine so that play never waits for them
const hints = ready.then(async (engine) => {
  const answer = await fetch(new URL("magdagdon-bots.zip", RUNTIME));
  if (!answer.ok) throw new Error(`magdagdon-bots.zip: ${answer.status}`);
  return startHints(engine, await answer.arrayBuffer());
});
hints.catch(() => {}); // a failure answers each hint asked

ready.then(
  (engine) => postMessage({ type: "ready", python: engine.python, ms: performance.now() - started, seed_limit: engine.seedLimit }),
  (error) => postMessage({ type: "failed", error: { code: "engine_failed", message: String(error) } }),
);

/** The current game: its codec state and record, as the last good answer gave them. */
let game = null;

function answer(engine, message) {
  switch (message.type) {
    case "new_game":
      return engine.newGame(message.game);
    case "load":
      return engine.view({ state: message.state, record: message.record });
    case "open":
      return engine.call("open_game", message.game);
    case "act":
      return engine.call("act", { action: message.action });
    case "play":
    case "view":
      if (game === null) return { error: { code: "not_found", message: "no game yet" } };
      return message.type === "play"
        ? engine.play({ ...game, action: message.action })
        : engine.view(game);
    default:
      return { error: { code: "malformed", message: `unknown message ${message.type}` } };
  }
}

async function hint() {
  const kept = game === null ? {} : { state: game.state };
  const found = (await hints)(opened ? {} : kept);
  return found.error ? { error: found.error } : { hint: found };
}

/** Whether the game in hand is the one "open" / "act" keep in Python (else "play" / "view"'s). */
let opened = false;

self.onmessage = async ({ data }) => {
  let reply;
  try {
    if (data.type === "open") opened = true;
    if (data.type === "new_game" || data.type === "load") opened = false;
    reply = data.type === "hint" ? await hint() : answer(await ready, data);
  } catch (error) {
    reply = { error: { code: "engine_failed", message: String(error) } };
  }
  if (!reply.error && reply.state) game = { state: reply.state, record: reply.record };
  postMessage({ id: data.id, ...reply });
};
