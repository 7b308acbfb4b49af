// Starts Pyodide and MAGDAGDON's engine in it: the one start-up shared by the page's engine
// worker (worker.js) and the node conformance tests (tests/offline/run_engine.mjs), so the tests
// run the engine exactly as the page does.
//
// The engine is magdagdon-engine.zip (tools/pyodide/bundle.py): magdagdon/engine/ only, pure
// standard-library Python. Its JSON API is magdagdon.engine.host: JSON text in, JSON text out,
// so no Python object is ever held by JavaScript beyond the module itself; it keeps the one game
// played (opened from its log, then one action at a time).

const ENGINE_DIR = "/home/pyodide/magdagdon-engine";

/**
 * Starts the engine.
 * @param {object} options
 * @param {Function} options.loadPyodide  pyodide.mjs's loadPyodide
 * @param {string} options.indexURL  the folder (URL, or path under node) of Pyodide's files
 * @param {ArrayBuffer|Uint8Array} options.engineZip  the bytes of magdagdon-engine.zip
 * @returns {Promise<{pyodide: object, python: string, seedLimit: number, open: Function,
 *   act: Function}>}
 */
export async function startEngine({ loadPyodide, indexURL, engineZip }) {
  // no package is loaded: the lock file beside the runtime lists none, and nothing is fetched
  const pyodide = await loadPyodide({ indexURL, packages: [] });
  // a plain Uint8Array: Pyodide refuses node's Buffer subclass
  const bytes =
    engineZip instanceof ArrayBuffer
      ? new Uint8Array(engineZip)
      : new Uint8Array(engineZip.buffer, engineZip.byteOffset, engineZip.byteLength);
  pyodide.unpackArchive(bytes, "zip", { extractDir: ENGINE_DIR });
  pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(ENGINE_DIR)})`);
  const host = pyodide.pyimport("magdagdon.engine.host");
  const python = pyodide.runPython("import sys; '.'.join(map(str, sys.version_info[:3]))");
  const call = (name, request) => JSON.parse(host[name](JSON.stringify(request)));
  // as JSON: a Python int beyond JavaScript's exact integers would come over as a BigInt
  const seedLimit = JSON.parse(pyodide.runPython(
    "import json\nfrom magdagdon.engine.rules import SEED_LIMIT\njson.dumps(SEED_LIMIT)"));
  return {
    pyodide,
    python,
    seedLimit,
    /** {difficulty, game_id, seed, actions, mode?, daily_date?} → {record, view, seed} or {error}:
     * the game kept open, replayed from its log */
    open: (game) => call("open_game", game),
    /** an action on the kept game → {record, view, action} or {error} (nothing changed) */
    act: (action) => call("act", { action }),
  };
}

/**
 * Starts the hint beside a started engine: the server's own computer player
 * (magdagdon-bots.zip: magdagdon/bots/, tools/pyodide/bundle.py), answering as
 * magdagdon.bots.offline.hint does, JSON in and out.
 * @param {{pyodide: object}} engine  startEngine's answer
 * @param {ArrayBuffer|Uint8Array} botsZip  the bytes of magdagdon-bots.zip
 * @returns {(request: object) => object}  {state?} → {action, placement, expected_value, version?} or {error}
 */
export function startHints(engine, botsZip) {
  const bytes =
    botsZip instanceof ArrayBuffer
      ? new Uint8Array(botsZip)
      : new Uint8Array(botsZip.buffer, botsZip.byteOffset, botsZip.byteLength);
  engine.pyodide.unpackArchive(bytes, "zip", { extractDir: ENGINE_DIR });
  const offline = engine.pyodide.pyimport("magdagdon.bots.offline");
  return (request) => JSON.parse(offline.hint(JSON.stringify(request)));
}
