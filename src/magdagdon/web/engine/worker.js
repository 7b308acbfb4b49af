// The engine worker: MAGDAGDON's Python engine on Pyodide, in a module Web Worker, answering
// with the server's JSON state view. Everything it loads is the page's own origin's:
// ./boot.mjs, and the runtime folder beside it (Pyodide's runtime and magdagdon-engine.zip, from
// build/web-engine/ by `make pyodide`).
// Start it with new Worker("/engine/worker.js", { type: "module" }); its answers' policy must
// allow 'wasm-unsafe-eval' (api/edge/security.py gives it to /engine/ only).
//
// It keeps one game in Python's memory, the one the page plays, so that a move costs the action
// alone (engine/host.py). Messages in (each with an `id` the answer repeats):
//   {id, type: "open", game: {difficulty, game_id, seed, daily_date?, mode?, actions: [...]}}
//     the game replayed from its log (the engine's one replay, as a sync replays it) and kept
//   {id, type: "act", action: {type: "stage", die: 0, cell: [1, 2]} …}  (the API's actions)
// Answers: {id, record, view} with "open"'s seed, "act"'s action as the log keeps it — or
//   {id, error: {code, message, status}}, the game kept unchanged; status: what the API answers
//   the same refusal with (409, 422, 404), 503 when the engine (or the hint's bots) did not start.
// The hint without the server: {id, type: "hint"} for the kept game → {id, hint: {action,
//   placement, expected_value, version}} or {id, error}; the computer player
//   (./runtime/magdagdon-bots.zip) is fetched and started in the background once the engine is
//   ready.
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

function answer(engine, message) {
  switch (message.type) {
    case "open":
      return engine.open(message.game);
    case "act":
      return engine.act(message.action);
    default:
      return { error: { code: "malformed", message: `unknown message ${message.type}`, status: 422 } };
  }
}

async function hint() {
  const found = (await hints)({});
  return found.error ? { error: found.error } : { hint: found };
}

self.onmessage = async ({ data }) => {
  let reply;
  try {
    reply = data.type === "hint" ? await hint() : answer(await ready, data);
  } catch (error) {
    reply = { error: { code: "engine_failed", message: String(error), status: 503 } };
  }
  postMessage({ id: data.id, ...reply });
};
