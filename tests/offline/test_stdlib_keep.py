"""The page's Pyodide ships only the standard library its engine worker loads
(tools/pyodide/stdlib-keep.txt, bundle.py), compiled to bytecode: the worker's whole workload
(tools/pyodide/workload.mjs: Pyodide's start, the engine's, every kind of message the page
sends) loads nothing outside the list, and runs on the cut zip the page gets."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("pyodide")]

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools" / "pyodide"
WEB_ENGINE = ROOT / "build" / "web-engine"
FULL = ROOT / "build" / "pyodide" / "python_stdlib.zip"
BROTLI_BUDGET = 4_500_000  # README's Figures: the offline engine's files, brotli
#: The engine's files and the hint's bots (magdagdon-bots.zip, loaded after the engine), brotli.
BROTLI_BUDGET_WITH_HINTS = 5_000_000
BOTS = "engine/runtime/magdagdon-bots.zip"


def keep_list() -> list[str]:
    """stdlib-keep.txt's file names, as bundle.py reads them (``#`` lines are comments)."""
    lines = (TOOLS / "stdlib-keep.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def workload(stdlib: Path | None) -> dict[str, Any]:
    node = shutil.which("node")
    assert node, "node is missing: `make node`"
    command = [node, str(TOOLS / "workload.mjs"), str(WEB_ENGINE)]
    if stdlib is not None:
        command.append(str(stdlib))
    done = subprocess.run(command, capture_output=True, text=True, timeout=1800, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    answer: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return answer


@pytest.fixture(scope="module")
def built() -> Path:
    """build/web-engine/ made from the sources and the keep list of now."""
    assert (ROOT / "build" / "pyodide" / ".pin").is_file(), "Pyodide is missing: `make pyodide`"
    subprocess.run([sys.executable, str(TOOLS / "bundle.py")], check=True, capture_output=True)
    return WEB_ENGINE


def test_the_workload_loads_only_the_kept_files(built: Path) -> None:
    """Over Pyodide's full standard library, every file loaded is on the list, and every file
    on the list is loaded (else `python3 tools/pyodide/stdlib_keep.py` writes it anew)."""
    loaded = workload(FULL)
    assert loaded["games"] == 6
    keep = keep_list()
    outside = sorted(set(loaded["files"]) - set(keep))
    assert outside == [], f"loaded but not kept: {outside}; run tools/pyodide/stdlib_keep.py"
    assert loaded["files"] == keep, "kept but no longer loaded: run tools/pyodide/stdlib_keep.py"
    assert "encodings/__init__.py" in keep  # Pyodide's own start
    assert "_pyodide/_base.py" in keep


def test_the_page_gets_the_cut_zip_and_it_runs(built: Path) -> None:
    with zipfile.ZipFile(built / "python_stdlib.zip") as zf:
        assert zf.namelist() == sorted(f"{name}c" for name in keep_list())  # bytecode
        assert all(zf.read(name)[4:8] == b"\x01\0\0\0" for name in zf.namelist())  # PEP 552
        # stored: brotli compresses the whole zip on the wire, across its files
        assert {info.compress_type for info in zf.infolist()} == {zipfile.ZIP_STORED}
    with zipfile.ZipFile(FULL) as zf:
        assert len(zf.namelist()) > 2 * len(keep_list())
    loaded = workload(None)  # the page's own runtime: an import missing from it fails here
    assert loaded["files"] == keep_list()
    assert (built / "PYODIDE-NOTICE.txt").is_file()  # the licence ships with the runtime


def test_the_download_is_within_its_budget(built: Path) -> None:
    """engine-size.json (what SETTINGS states) sums the files the worker fetches; brotli at
    quality 11 (node's zlib), as bench/pyodide_bench.py reports them, fits the budget."""
    size = json.loads((built / "engine-size.json").read_text(encoding="utf-8"))
    assert size["bytes"] == sum(size["files"].values())
    stdlib = size["files"]["engine/runtime/python_stdlib.zip"]
    assert stdlib == (built / "python_stdlib.zip").stat().st_size
    paths = [
        str(built / name.removeprefix("engine/runtime/"))
        if name.startswith("engine/runtime/")
        else str(ROOT / "src" / "magdagdon" / "web" / name)
        for name in size["files"]
    ]
    script = (
        "const z = require('node:zlib'), fs = require('node:fs');"
        "const q = { params: { [z.constants.BROTLI_PARAM_QUALITY]: 11 } };"
        "for (const p of process.argv.slice(1)) console.log(z.brotliCompressSync("
        "fs.readFileSync(p), q).length);"
    )
    node = shutil.which("node")
    assert node
    done = subprocess.run([node, "-e", script, *paths], capture_output=True, text=True, check=True)
    brotli = dict(zip(size["files"], map(int, done.stdout.split()), strict=True))
    assert sum(n for name, n in brotli.items() if name != BOTS) <= BROTLI_BUDGET
    assert sum(brotli.values()) <= BROTLI_BUDGET_WITH_HINTS
