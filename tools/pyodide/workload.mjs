// The engine worker's real workload under node, and the standard-library files it loaded.
//
// Pyodide and the engine start as the page's worker starts them (src/magdagdon/web/engine/
// boot.mjs), then every kind of message the page sends runs through the same calls as
// worker.js's answer(): seeded games of every difficulty opened and played action by action
// (open, act), a daily and a practice game, each whole game replayed from its log (open), the
// errors the worker answers (malformed, refused, no game open), and a Python exception reaching
// JavaScript (the worker's failure path formats it); then the hint (magdagdon-bots.zip, started
// as the worker starts it) on the kept game.
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
from magdagdon.engine import action_to_json, host
def pick(k):
    actions = host.kept_game()[0].legal_actions()
    return json.dumps(action_to_json(actions[k % len(actions)]))
pick`);
const choose = (k) => JSON.parse(pick(k));
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

// no game open yet: an error, not a throw
if (engine.act({ type: "roll" }).error?.code !== "not_found") throw new Error("an action with no game open");
let games = 0;
const logs = [];
for (const difficulty of ["peaceful", "survival", "nightmare"]) {
  for (const seed of [0, 1]) {
    let game = check(engine.open({ difficulty, seed, game_id: `w${seed}`, actions: [] }), "open");
    const actions = [];
    const next = generator(seed);
    while (game.view.phase !== "over") {
      game = check(engine.act(choose(next())), "act");
      actions.push(game.action);
    }
    logs.push({ difficulty, seed, actions });
    process.stderr.write(`${difficulty} ${seed}: ${actions.length} actions\n`);
    games += 1;
  }
}
// a past day's practice on its published seed, and a daily, their first moves, then reopened
for (const game of [
  { difficulty: "nightmare", daily_date: "2026-12-01", mode: "daily", seed: 11, game_id: "d" },
  { difficulty: "survival", daily_date: "2026-12-01", mode: "practice", seed: 12, game_id: "p" },
]) {
  check(engine.open({ ...game, actions: [] }), "daily");
  const actions = [];
  for (let k = 0; k < 6; k += 1) actions.push(check(engine.act(choose(k)), "act").action);
  check(engine.open({ ...game, actions }), "reopen");
}
// open: a whole game replayed from its log
for (const { difficulty, seed, actions } of logs) {
  const opened = check(engine.open({ difficulty, seed, game_id: "r", mode: "normal", actions }), "open");
  if (opened.view.phase !== "over") throw new Error("the replay did not end the game");
}
// the errors the worker answers: each must be an error, not a throw
const refused = [
  engine.open({ difficulty: "easy", seed: 0, game_id: "x", actions: [] }),
  engine.open({ difficulty: "survival", seed: -1, game_id: "x", actions: [] }),
  engine.open({ difficulty: "survival", daily_date: "2026-13-01", game_id: "x", actions: [] }),
  engine.open({ difficulty: "survival", seed: 0, game_id: "x", actions: [{ type: "confirm" }] }),
  engine.open({ difficulty: "survival", seed: 0, game_id: "x", actions: [{ type: "fly" }] }),
  engine.act({ type: "fly" }),
  engine.act({ type: "stage", die: 9, cell: [9, 9] }),
];
if (!refused.every((answer) => answer.error)) throw new Error("an error was not refused");
try {
  pyodide.runPython("raise RuntimeError('the failure path')");
  throw new Error("no exception");
} catch (error) {
  if (!String(error).includes("the failure path")) throw error;
}

// the hint: a few turns of a kept game played by it
const hint = startHints(engine, readFileSync(join(dir, "magdagdon-bots.zip")));
check(engine.open({ difficulty: "peaceful", seed: 3, game_id: "h", actions: [] }), "open");
for (let k = 0; k < 8; k += 1) check(engine.act(check(hint({}), "hint").action), "act");
check(engine.open({ difficulty: "nightmare", seed: 3, game_id: "n", actions: [] }), "open");
check(hint({}), "hint");
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
