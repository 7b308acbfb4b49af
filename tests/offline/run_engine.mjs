// Runs tests/offline/engine_conformance.py inside Pyodide, started as the page's engine worker
// starts it
// (src/magdagdon/web/engine/boot.mjs, the files of build/web-engine/): one node process for all
// the checks, since Pyodide's start is the slow part.
//
// usage: node run_engine.mjs WEB_ENGINE_DIR < request.json > result.json
// It prints {"result": <engine_conformance.run's answer>, "python": "3.x.y", "ms": {start, run}}.

import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const here = import.meta.dirname;
const webEngine = resolve(process.argv[2]);
const { loadPyodide } = await import(pathToFileURL(join(webEngine, "pyodide.mjs")).href);
const { startEngine } = await import(
  pathToFileURL(join(here, "../../src/magdagdon/web/engine/boot.mjs")).href
);

const request = readFileSync(0, "utf8");
const t0 = performance.now();
const engine = await startEngine({
  loadPyodide,
  indexURL: webEngine + "/",
  engineZip: readFileSync(join(webEngine, "magdagdon-engine.zip")),
});
const t1 = performance.now();
const { pyodide } = engine;
const driver = pyodide.globals.get("dict")();
pyodide.runPython(readFileSync(join(here, "engine_conformance.py"), "utf8"), { globals: driver });
const result = driver.get("run")(request);
const t2 = performance.now();
process.stdout.write(
  JSON.stringify({
    result: JSON.parse(result),
    python: engine.python,
    ms: { start: t1 - t0, run: t2 - t1 },
  }),
);
