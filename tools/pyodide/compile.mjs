// Compiles Python sources to bytecode with Pyodide's own Python (its magic number, which the
// build machine's CPython does not have), so that the page's Python starts without compiling
// its standard library: bundle.py ships the .pyc files instead of the .py ones.
//
// usage: node compile.mjs PYODIDE_DIR < {"prefix": "/lib/python314.zip/", "files": {name: base64}}
//        → {name.pyc: base64} on stdout. Unchecked-hash .pyc (PEP 552): the same bytes every time,
//        and valid without their source beside them.

import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dir = resolve(process.argv[2]);
const request = readFileSync(0, "utf8");
const { loadPyodide } = await import(pathToFileURL(join(dir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: dir + "/", packages: [] });
const compileAll = pyodide.runPython(`
import base64, importlib.util, json
from importlib._bootstrap_external import _code_to_hash_pyc

def compile_all(request):
    request = json.loads(request)
    out = {}
    for name, text in sorted(request["files"].items()):
        source = base64.b64decode(text)
        code = compile(source, request["prefix"] + name, "exec", dont_inherit=True)
        data = _code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)
        out[name + "c"] = base64.b64encode(bytes(data)).decode()
    return json.dumps(out)
compile_all`);
process.stdout.write(compileAll(request));
