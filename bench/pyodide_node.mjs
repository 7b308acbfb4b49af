// The node half of bench/pyodide_bench.py: Pyodide + engine start (wall and CPU), the engine's
// action times, and the brotli size (node's zlib, quality 11) of the page's files.
// usage: node bench/pyodide_node.mjs WEB_ENGINE_DIR ACTIONS  → one JSON line

import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { brotliCompressSync, constants } from "node:zlib";

const dir = resolve(process.argv[2]);
const actions = Number(process.argv[3]);
const here = import.meta.dirname;

const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const wall0 = performance.now();
const cpu0 = cpu();
const { loadPyodide } = await import(pathToFileURL(join(dir, "pyodide.mjs")).href);
const { startEngine } = await import(
  pathToFileURL(join(here, "../src/magdagdon/web/engine/boot.mjs")).href
);
const engine = await startEngine({
  loadPyodide,
  indexURL: dir + "/",
  engineZip: readFileSync(join(dir, "magdagdon-engine.zip")),
});
const start = { wall_ms: performance.now() - wall0, cpu_ms: cpu() - cpu0 };

// the page's path: the game kept in the worker's memory (host.open_game, then one host.act
// message per action, JSON in and out with the state view), over random survival games
let seed = 0;
const open = () => engine.open({ difficulty: "survival", seed, game_id: "b", actions: [] });
open();
const legal = engine.pyodide.runPython(`
import json, random
from magdagdon.engine import action_to_json, host
rng = random.Random(0)
def pick():
    return json.dumps(action_to_json(rng.choice(host.kept_game()[0].legal_actions())))
pick`);
let actMs = 0;
let actCpu = 0;
for (let i = 0; i < actions; i += 1) {
  const action = JSON.parse(legal());
  const t = performance.now();
  const c = cpu();
  const next = engine.act(action);
  actCpu += cpu() - c;
  actMs += performance.now() - t;
  if (next.view.phase === "over") {
    seed += 1;
    open();
  }
}
// the engine alone: GameState.apply on Python objects (what a worker keeping its state pays)
const applyMs = engine.pyodide.runPython(`
import time
from magdagdon.engine import Difficulty, GameState
rng = random.Random(1)
n, spent, seed = 0, 0.0, 0
while n < ${actions}:
    state = GameState.new(Difficulty.SURVIVAL, seed)
    seed += 1
    while not state.is_over and n < ${actions}:
        action = rng.choice(state.legal_actions())
        t = time.perf_counter()
        state = state.apply(action)
        spent += time.perf_counter() - t
        n += 1
spent * 1000 / n`);

const sizes = {};
for (const name of readdirSync(dir).sort()) {
  if (name.startsWith(".")) continue;
  const data = readFileSync(join(dir, name));
  const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  sizes[name] = { raw: data.length, brotli: br.length };
}
console.log(
  JSON.stringify({
    python: engine.python,
    start,
    act_ms: actMs / actions,
    act_cpu_ms: actCpu / actions,
    apply_ms: applyMs,
    sizes,
  }),
);
