// The hint without the server, as the page's engine worker answers it: Pyodide and the engine
// started by src/magdagdon/web/engine/boot.mjs over build/web-engine/, then the computer player
// (magdagdon-bots.zip) by its startHints; one hint for each state read.
//
// Also the bots' ordered sum and Python's own sum() of the same terms there, as `sums`.
//
// usage: node run_hints.mjs WEB_ENGINE_DIR < {"states": [codec state…], "terms": [float…]}
//          > {"hints": [...], "ms": [...], "sums": {"ordered": float, "builtin": float}}

import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const here = import.meta.dirname;
const webEngine = resolve(process.argv[2]);
const { loadPyodide } = await import(pathToFileURL(join(webEngine, "pyodide.mjs")).href);
const { startEngine, startHints } = await import(
  pathToFileURL(join(here, "../../src/magdagdon/web/engine/boot.mjs")).href
);

const { states, terms } = JSON.parse(readFileSync(0, "utf8"));
const engine = await startEngine({
  loadPyodide,
  indexURL: webEngine + "/",
  engineZip: readFileSync(join(webEngine, "magdagdon-engine.zip")),
});
const hint = startHints(engine, readFileSync(join(webEngine, "magdagdon-bots.zip")));
const hints = [];
const ms = [];
for (const state of states) {
  const t = performance.now();
  hints.push(hint({ state }));
  ms.push(performance.now() - t);
}
engine.pyodide.globals.set("terms", engine.pyodide.toPy(terms));
const sums = JSON.parse(engine.pyodide.runPython(`
import json
from magdagdon.bots.ordered import ordered_sum
json.dumps({"ordered": ordered_sum(terms), "builtin": sum(terms)})
`));
process.stdout.write(JSON.stringify({ hints, ms, sums }));
