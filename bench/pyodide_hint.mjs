// The node half of bench/pyodide_hint.py: the server's hint (magdagdon.bots.hints.best) under
// Pyodide, started as the page's engine worker starts it, with the bots' modules and tables
// unpacked beside the engine.
// usage: node bench/pyodide_hint.mjs WEB_ENGINE_DIR STDLIB_ZIP BOTS_ZIP < states.json → JSON line

import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dir, stdLibURL, botsZip] = process.argv.slice(2).map((p) => resolve(p));
const here = import.meta.dirname;
const states = JSON.parse(readFileSync(0, "utf8"));
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const { loadPyodide } = await import(pathToFileURL(join(dir, "pyodide.mjs")).href);
const { startEngine } = await import(
  pathToFileURL(join(here, "../src/magdagdon/web/engine/boot.mjs")).href
);
const engine = await startEngine({
  loadPyodide: (options) => loadPyodide({ ...options, stdLibURL }),
  indexURL: dir + "/",
  engineZip: readFileSync(join(dir, "magdagdon-engine.zip")),
});
const { pyodide } = engine;
const bytes = readFileSync(botsZip);
pyodide.unpackArchive(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), "zip", {
  extractDir: "/home/pyodide/magdagdon-engine",
});
const before = new Set(pyodide.runPython("import sys; list(sys.modules)").toJs());
const timed = (f) => {
  const w = performance.now();
  const c = cpu();
  f();
  return { wall: performance.now() - w, cpu: cpu() - c };
};
let hint = null;
const importing = timed(() => {
  hint = pyodide.runPython(`
import json
from magdagdon.bots import hints
from magdagdon.engine import state_from_json
def hint(state):
    action, placement, value = hints.best(state_from_json(json.loads(state)))
    return json.dumps({"action": action, "placement": placement, "value": value})
hint`);
});
const warm = timed(() => pyodide.runPython("hints.warm()"));
const runs = {};
const answers = {};
for (const [difficulty, list] of Object.entries(states)) {
  runs[difficulty] = list.map((state) => {
    let answer = null;
    const t = timed(() => (answer = hint(JSON.stringify(state))));
    (answers[difficulty] ??= []).push(JSON.parse(answer));
    return t;
  });
}
const files = pyodide.runPython(`
import sys
_zip = sys.path[[p.endswith(".zip") for p in sys.path].index(True)] + "/"
sorted({
    m.__file__[len(_zip):]
    for m in list(sys.modules.values())
    if isinstance(getattr(m, "__file__", None), str) and m.__file__.startswith(_zip)
})`).toJs();
const added = pyodide.runPython("list(sys.modules)").toJs().filter((m) => !before.has(m));
const heap = pyodide._module.HEAP8.length;
process.stdout.write(
  JSON.stringify({ importing, warm, runs, answers, files, added, wasm_memory: heap }) + "\n",
);
