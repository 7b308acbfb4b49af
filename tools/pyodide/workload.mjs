// The engine worker's real workload under node, and the standard-library files it loaded.
//
// Pyodide and the engine start as the page's worker starts them (src/magdagdon/web/engine/
// boot.mjs), then every kind of message the page sends runs through the same calls as
// worker.js's answer(): seeded games of every difficulty (new_game, play, view, load), a daily
// and a practice game, a whole game replayed from its log (open) and played action by action
// (act), the errors the worker answers (malformed, refused, no game open), and a Python
// exception reaching JavaScript (the worker's failure path formats it); then the hint
// (magdagdon-bots.zip, started as the worker starts it) on a kept game and on a given state.
// Actions are picked from the engine's own legal actions by a seeded generator in JavaScript, so
// that the picking imports nothing the worker does not.
//
// usage: node workload.mjs WEB_ENGINE_DIR [STDLIB_ZIP]  → one JSON line:
//   {"files": [paths inside the standard library's zip of every module loaded, sorted],
//    "games": n, "python": "3.x.y"}
// With STDLIB_ZIP the runtime's standard library is that zip (the full one of build/pyodide/,
// tools/pyodide/stdlib_keep.py), else WEB_ENGINE_DIR's own (the cut one).

import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const here = import.meta.dirname;
const dir = resolve(process.argv[2]);
const stdLibURL = process.argv[3] ? resolve(process.argv[3]) : undefined;
const { loadPyodide } = await import(pathToFileURL(join(dir, "pyodide.mjs")).href);
const { startEngine, startHints } = await import(
  pathToFileURL(join(here, "../../src/magdagdon/web/engine/boot.mjs")).href
);
const engine = await startEngine({
  loadPyodide: (options) => loadPyodide({ ...options, ...(stdLibURL ? { stdLibURL } : {}) }),
  indexURL: dir + "/",
  engineZip: readFileSync(join(dir, "magdagdon-engine.zip")),
});
const { pyodide } = engine;

// json and magdagdon.engine are loaded by the host module already: nothing new is imported
const pick = pyodide.runPython(`
import json
from magdagdon.engine import action_to_json, state_from_json
def pick(state, k):
    actions = state_from_json(json.loads(state)).legal_actions()
    return json.dumps(action_to_json(actions[k % len(actions)]))
pick`);
const choose = (state, k) => JSON.parse(pick(JSON.stringify(state), k));
// Park and Miller's generator (exact in doubles): a fixed rule such as "the k-th action" may
// stage and unstage one die forever
const generator = (seed) => {
  let x = seed + 1;
  return () => (x = (x * 48271) % 2147483647);
};
const check = (answer, what) => {
  if (answer.error) throw new Error(`${what}: ${JSON.stringify(answer.error)}`);
  return answer;
};

let games = 0;
const logs = [];
for (const difficulty of ["peaceful", "survival", "nightmare"]) {
  for (const seed of [0, 1]) {
    let game = check(engine.newGame({ difficulty, seed, game_id: `w${seed}` }), "new_game");
    const actions = [];
    const next = generator(seed);
    while (game.view.phase !== "over") {
      const action = choose(game.state, next());
      actions.push(action);
      game = check(engine.play({ state: game.state, record: game.record, action }), "play");
    }
    check(engine.view({ state: game.state, record: game.record }), "view");
    logs.push({ difficulty, seed, actions });
    process.stderr.write(`${difficulty} ${seed}: ${actions.length} actions\n`);
    games += 1;
  }
}
// a past day's practice on its published seed, and a daily, their first moves
for (const game of [
  { difficulty: "nightmare", daily_date: "2026-12-01", mode: "daily", seed: 11, game_id: "d" },
  { difficulty: "survival", daily_date: "2026-12-01", mode: "practice", seed: 12, game_id: "p" },
]) {
  let answer = check(engine.newGame(game), "daily");
  for (let k = 0; k < 6; k += 1) {
    const action = choose(answer.state, k);
    answer = check(engine.play({ state: answer.state, record: answer.record, action }), "play");
  }
  check(engine.view({ state: answer.state, record: answer.record }), "load");
}
// open: a whole game replayed from its log; act: a game played action by action
for (const { difficulty, seed, actions } of logs) {
  const opened = check(
    engine.call("open_game", { difficulty, seed, game_id: "r", mode: "normal", actions }),
    "open",
  );
  if (opened.view.phase !== "over") throw new Error("the replay did not end the game");
  check(engine.call("open_game", { difficulty, seed, game_id: "a", actions: [] }), "open");
  for (const action of actions) check(engine.call("act", { action }), "act");
}
// the errors the worker answers: each must be an error, not a throw
const refused = [
  engine.newGame({ difficulty: "easy", seed: 0, game_id: "x" }),
  engine.newGame({ difficulty: "survival", seed: -1, game_id: "x" }),
  engine.newGame({ difficulty: "survival", daily_date: "2026-13-01", game_id: "x" }),
  engine.play({ state: { seed: "x" }, record: { game_id: "x" }, action: { type: "roll" } }),
  engine.call("act", { action: { type: "fly" } }),
  engine.call("act", { action: { type: "stage", die: 9, cell: [9, 9] } }),
  engine.call("open_game", { difficulty: "survival", seed: 0, game_id: "x", actions: [{ type: "confirm" }] }),
  engine.view({ state: null, record: null }),
];
if (!refused.every((answer) => answer.error)) throw new Error("an error was not refused");
try {
  pyodide.runPython("raise RuntimeError('the failure path')");
  throw new Error("no exception");
} catch (error) {
  if (!String(error).includes("the failure path")) throw error;
}

// the hint: a few turns of a kept game played by it, and one for a given state
const hint = startHints(engine, readFileSync(join(dir, "magdagdon-bots.zip")));
check(engine.call("open_game", { difficulty: "peaceful", seed: 3, game_id: "h", actions: [] }), "open");
for (let k = 0; k < 8; k += 1) check(engine.call("act", { action: check(hint({}), "hint").action }), "act");
const given = check(engine.newGame({ difficulty: "nightmare", seed: 3, game_id: "n" }), "new_game");
check(hint({ state: given.state }), "hint");
if (!hint({ state: { seed: "x" } }).error) throw new Error("a malformed hint was not refused");

// every module object's file inside the standard library's zip (sys is built in: no import)
// (the page's zip holds bytecode: x.pyc is listed as its source x.py, the name in the full zip)
const files = pyodide.runPython(`
import sys
_zip = sys.path[[p.endswith(".zip") for p in sys.path].index(True)] + "/"
sorted({
    m.__file__[len(_zip):].removesuffix("c")
    for m in list(sys.modules.values())
    if isinstance(getattr(m, "__file__", None), str) and m.__file__.startswith(_zip)
})`).toJs();
process.stdout.write(JSON.stringify({ files, games, python: engine.python }) + "\n");
