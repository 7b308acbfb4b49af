"""The engine under Pyodide gives CPython's exact results: the same checks
(``engine_conformance.py``) run here and in one node process that starts Pyodide as the page's
engine worker does (``run_engine.mjs``, ``src/magdagdon/web/engine/boot.mjs``), over the files
the page gets (``build/web-engine/``, ``make pyodide``)."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from magdagdon.engine import Difficulty
from offline import engine_conformance

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("pyodide")]

ROOT = Path(__file__).resolve().parents[2]
WEB_ENGINE = ROOT / "build" / "web-engine"
FULL_SEEDS = range(2)  # every reply compared
DIGEST_SEEDS = range(2, 12)  # the SHA-256 of every reply compared
DAYS = ["2026-12-01", "2027-01-01", "2027-02-28", "2028-02-29"]


class _Constants(ast.NodeTransformer):
    """Names of the module's earlier literal constants (``EMPTY``) replaced by their values."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ast.Constant(self.values[node.id]) if node.id in self.values else node


def perft_fixtures() -> list[list[Any]]:
    """tests/engine/test_engine_perft.py's PERFT list, read from its source: one copy of the
    pinned counts."""
    source = (ROOT / "tests" / "engine" / "test_engine_perft.py").read_text(encoding="utf-8")
    values: dict[str, Any] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            name = ast.unparse(node.target)
            value = _Constants(values).visit(node.value)
            if name == "PERFT":
                return [list(case) for case in ast.literal_eval(value)]
            try:
                values[name] = ast.literal_eval(value)
            except ValueError:
                continue
    raise AssertionError("no PERFT in test_engine_perft.py")


def request() -> dict[str, Any]:
    games = [
        [d.value, seed, seed in FULL_SEEDS]
        for d in Difficulty
        for seed in [*FULL_SEEDS, *DIGEST_SEEDS]
    ]
    return {"games": games, "perft": perft_fixtures(), "daily": DAYS}


@pytest.fixture(scope="module")
def web_engine() -> Path:
    """build/web-engine/ with the engine's zip made from the engine's sources of now."""
    assert (ROOT / "build" / "pyodide" / ".pin").is_file(), "Pyodide is missing: `make pyodide`"
    bundle = ROOT / "tools" / "pyodide" / "bundle.py"
    subprocess.run([sys.executable, str(bundle)], check=True, capture_output=True)
    return WEB_ENGINE


@pytest.fixture(scope="module")
def pyodide_run(web_engine: Path) -> dict[str, Any]:
    """One node process: Pyodide's start, then every check."""
    node = shutil.which("node")
    assert node, "node is missing: `make node`"
    done = subprocess.run(
        [node, str(Path(__file__).with_name("run_engine.mjs")), str(web_engine)],
        input=json.dumps(request()),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    # a failure's stderr ends with the error; before it node may print a whole minified line
    assert done.returncode == 0, done.stderr[-3000:]
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


@pytest.fixture(scope="module")
def cpython_run() -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(engine_conformance.run(json.dumps(request())))
    return answer


def test_pyodide_python_is_newer(pyodide_run: dict[str, Any], cpython_run: dict[str, Any]) -> None:
    """The engine is written for 3.11 and must stay valid on Pyodide's newer Python."""
    pinned = json.loads((ROOT / "tools" / "pyodide" / "pin.json").read_text(encoding="utf-8"))
    version = pyodide_run["result"]["python"]["version"]
    assert pyodide_run["python"] == pinned["python"] == ".".join(map(str, version))
    assert tuple(version) > (3, 11)
    assert pyodide_run["result"]["python"]["platform"] == "emscripten"
    assert cpython_run["python"]["platform"] != "emscripten"


def test_no_warnings(pyodide_run: dict[str, Any], cpython_run: dict[str, Any]) -> None:
    """No syntax or deprecation warning from the engine's code, compiled or run, on either."""
    assert pyodide_run["result"]["warnings"] == []
    assert cpython_run["warnings"] == []


@pytest.mark.parametrize("difficulty", list(Difficulty), ids=lambda d: d.value)
def test_same_games(
    difficulty: Difficulty, pyodide_run: dict[str, Any], cpython_run: dict[str, Any]
) -> None:
    """Every reply of seeded random games, played through magdagdon.engine.host: the codec
    state and the state view are CPython's."""
    mine = [g for g in cpython_run["games"] if g["difficulty"] == difficulty.value]
    theirs = [g for g in pyodide_run["result"]["games"] if g["difficulty"] == difficulty.value]
    assert len(mine) == len(theirs) == len(FULL_SEEDS) + len(DIGEST_SEEDS)
    for a, b in zip(mine, theirs, strict=True):
        if "replies" in a:
            assert len(a["replies"]) == len(b["replies"])
            for i, (x, y) in enumerate(zip(a["replies"], b["replies"], strict=True)):
                assert x == y, f"seed {a['seed']}, reply {i}"
            assert a["replies"][-1]["view"]["phase"] == "over"
        else:
            assert a == b


def test_perft(pyodide_run: dict[str, Any], cpython_run: dict[str, Any]) -> None:
    """tests/engine/test_engine_perft.py's exact counts, under Pyodide too."""
    expected = {name: counts for name, _rows, _roll, counts in perft_fixtures()}
    assert pyodide_run["result"]["perft"] == expected
    assert cpython_run["perft"] == expected


def test_daily(pyodide_run: dict[str, Any], cpython_run: dict[str, Any]) -> None:
    """A day's commitment (what the page may check a published seed against) and the first
    roll of its published seed, on every difficulty for a few days."""
    assert pyodide_run["result"]["daily"] == cpython_run["daily"]
    assert sorted(cpython_run["daily"]) == DAYS
    assert cpython_run["daily"]["2026-12-01"]["nightmare"]["daily"] == {
        "date": "2026-12-01",
        "number": 1,
    }


def test_bundle_is_the_engine_only(web_engine: Path) -> None:
    """The page's zip holds magdagdon/engine/ (and the package marker), whose modules import
    the standard library and the engine only: nothing else exists in Pyodide."""
    with zipfile.ZipFile(web_engine / "magdagdon-engine.zip") as zf:
        names = zf.namelist()
        sources = {name: zf.read(name).decode() for name in names}
    engine = sorted(p.name for p in (ROOT / "src" / "magdagdon" / "engine").glob("*.py"))
    assert names == ["magdagdon/__init__.py", *(f"magdagdon/engine/{n}" for n in engine)]
    for name, source in sources.items():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                ok = module.startswith("magdagdon.engine") or top in sys.stdlib_module_names
                assert ok, f"{name} imports {module}"
