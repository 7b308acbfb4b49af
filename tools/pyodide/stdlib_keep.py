"""Write ``tools/pyodide/stdlib-keep.txt``: the files of Pyodide's standard library that the
page's engine worker loads, which ``bundle.py`` keeps in the ``python_stdlib.zip`` it ships.

It runs ``workload.mjs`` under node over the full standard library of ``build/pyodide/``
(``fetch.py``): Pyodide's own start, the engine's start as the worker does it, and every kind of
message the page sends, then lists the zip's file of every module loaded (a package's
``__init__.py`` is loaded with it). Run it again when the engine, ``engine/host.py``, the worker
or the pinned Pyodide change; ``tests/offline/test_stdlib_keep.py`` fails until then.

Usage: ``python3 tools/pyodide/stdlib_keep.py`` (after ``make pyodide``). Standard library only.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
KEEP = HERE / "stdlib-keep.txt"
FULL = ROOT / "build" / "pyodide" / "python_stdlib.zip"
WEB_ENGINE = ROOT / "build" / "web-engine"
HEADER = """\
# The files of Pyodide's python_stdlib.zip that the page's engine worker loads: the only ones
# tools/pyodide/bundle.py ships. Written by tools/pyodide/stdlib_keep.py; do not edit by hand.
"""


def loaded_files(web_engine: Path = WEB_ENGINE, stdlib: Path | None = FULL) -> list[str]:
    """The standard library's files that the worker's workload loads, run over ``web_engine``'s
    runtime with ``stdlib`` as its standard library (None: ``web_engine``'s own zip)."""
    node = shutil.which("node")
    if node is None:
        sys.exit("node is missing: `make node`")
    command = [node, str(HERE / "workload.mjs"), str(web_engine)]
    if stdlib is not None:
        command.append(str(stdlib))
    done = subprocess.run(command, capture_output=True, text=True, timeout=1800, check=False)
    if done.returncode != 0:
        sys.exit(f"workload.mjs failed:\n{done.stderr[-3000:]}")
    files: list[str] = json.loads(done.stdout.splitlines()[-1])["files"]
    return files


if __name__ == "__main__":
    if not (WEB_ENGINE / "magdagdon-engine.zip").is_file():
        sys.exit("build/web-engine/ is missing: run `make pyodide` first")
    kept = loaded_files()
    KEEP.write_text(HEADER + "".join(f"{name}\n" for name in kept), encoding="utf-8")
    print(f"{KEEP.relative_to(ROOT)}: {len(kept)} files")
