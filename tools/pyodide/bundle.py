"""Build ``build/web-engine/``: every file the page's engine worker loads, and nothing else.

- Pyodide's runtime (``pin.json``'s ``runtime`` list) copied from ``build/pyodide/``
  (``fetch.py``), with ``PYODIDE-NOTICE.txt`` (its licence and its parts') beside it, but for
  ``python_stdlib.zip``: cut to the files of ``stdlib-keep.txt`` (``stdlib_keep.py`` lists what
  the worker loads), each compiled to bytecode by Pyodide's Python (``compile.mjs``): the page's
  Python then starts without compiling them (about 1.9 s of CPU in node);
- ``pyodide-lock.json``: the package's lock file cut to its ``info`` (Pyodide checks the ABI in
  it at start-up) and no packages: the engine needs none, and the full one is 118 kB;
- ``magdagdon-engine.zip``: ``magdagdon/__init__.py`` and ``magdagdon/engine/*.py`` only (the
  engine is pure standard-library Python), byte-for-byte reproducible (fixed dates, sorted);
- ``magdagdon-bots.zip``: ``magdagdon/bots/*.py`` and their tables (``bots/data``), the hint's
  computer player, which the worker loads after the engine has started (the hint without the
  connection: ``magdagdon.bots.offline``), reproducible the same way; each table, a zlib stream,
  is written again as one of stored blocks (the same bytes to ``zlib.decompress``);
- the three zips hold their files stored, not deflated: brotli over the whole zip, with its
  window across files, sends them in about 690 kB less than deflate file by file could (the
  standard library 1,495 → 1,023 kB, the bots 474 → 266 kB);
- ``NAME.br`` and ``NAME.gz`` beside each runtime file that compresses (the server sends them
  by ``Accept-Encoding``, once checked against the file's hash: api/page/compressed.py); made
  again only when the file changed (brotli's quality 11 takes about 30 s on the wasm);
- ``engine-size.json``: the bytes of every file the engine worker fetches (its two scripts in
  ``web/engine/`` and the runtime above, not the notice), as they are and as the wire carries
  them (brotli, gzip), which SETTINGS states as the offline engine's download.

The worker unpacks the zip into Pyodide's file system and imports ``magdagdon.engine``.
Usage: ``uv run python tools/pyodide/bundle.py`` (``make pyodide``): it needs the project's
``brotli``.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SOURCE = ROOT / "build" / "pyodide"
DEST = ROOT / "build" / "web-engine"
SRC = ROOT / "src"
ENGINE_ZIP = "magdagdon-engine.zip"
BOTS_ZIP = "magdagdon-bots.zip"
NOTICE = "PYODIDE-NOTICE.txt"
SIZE = "engine-size.json"
WORKER_DIR = SRC / "magdagdon" / "web" / "engine"
STDLIB = "python_stdlib.zip"
KEEP = HERE / "stdlib-keep.txt"
_DATE = (2026, 1, 1, 0, 0, 0)

sys.path.insert(0, str(SRC))
from magdagdon.api.page import compressed  # noqa: E402  (the server's own rules)


def engine_files() -> list[Path]:
    """The bundle's files, relative to ``src/``: the package marker and the engine's modules."""
    engine = sorted((SRC / "magdagdon" / "engine").glob("*.py"))
    return [Path("magdagdon/__init__.py"), *(p.relative_to(SRC) for p in engine)]


def _replace(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all: test workers may build at the same time."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _zip(files: dict[str, bytes]) -> bytes:
    """A zip of ``files`` (name → bytes), byte-for-byte reproducible: fixed dates, sorted.
    Stored: the server sends it compressed whole (brotli, gzip: ``compressed.precompress``)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as zf:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=_DATE)
            info.compress_type = zipfile.ZIP_STORED
            info.external_attr = 0o644 << 16
            zf.writestr(info, files[name])
    return out.getvalue()


def bots_files() -> list[Path]:
    """The hint's files, relative to ``src/``: the bots' modules and their tables."""
    bots = SRC / "magdagdon" / "bots"
    found = sorted([*bots.glob("*.py"), *(bots / "data").glob("*.bin")])
    return [p.relative_to(SRC) for p in found]


def engine_zip() -> bytes:
    return _zip({rel.as_posix(): (SRC / rel).read_bytes() for rel in engine_files()})


def stored_blocks(table: bytes) -> bytes:
    """A bots table (a zlib stream) as a zlib stream of stored blocks: the same bytes
    decompressed, and left for the wire's brotli to compress (deflated, it could not)."""
    return zlib.compress(zlib.decompress(table), 0)


def bots_zip() -> bytes:
    files = {rel.as_posix(): (SRC / rel).read_bytes() for rel in bots_files()}
    return _zip({n: stored_blocks(b) if n.endswith(".bin") else b for n, b in files.items()})


def keep_list(path: Path = KEEP) -> list[str]:
    """``stdlib-keep.txt``'s file names (its ``#`` lines are comments)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def stdlib_zip(full: Path, keep: list[str], python: str) -> bytes:
    """Pyodide's standard library cut to ``keep`` (each must be in ``full``), as bytecode."""
    with zipfile.ZipFile(full) as zf:
        names = set(zf.namelist())
        missing = sorted(set(keep) - names)
        if missing:
            sys.exit(f"tools/pyodide/stdlib-keep.txt names files not in {full}: {missing[:5]}")
        sources = {name: zf.read(name) for name in keep}
    major, minor = python.split(".")[:2]
    request = {
        "prefix": f"/lib/python{major}{minor}.zip/",  # where Pyodide puts it: the tracebacks' name
        "files": {name: base64.b64encode(data).decode() for name, data in sources.items()},
    }
    node = shutil.which("node")
    if node is None:
        sys.exit("node is missing: `make node`")
    done = subprocess.run(
        [node, str(HERE / "compile.mjs"), str(full.parent)],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        sys.exit(f"compile.mjs failed:\n{done.stderr[-3000:]}")
    compiled = json.loads(done.stdout)
    return _zip({name: base64.b64decode(data) for name, data in compiled.items()})


def _stdlib(dest: Path, pin: dict[str, object]) -> None:
    """``python_stdlib.zip`` made again only when its inputs changed (a start of Pyodide)."""
    keep = keep_list()
    inputs = [json.dumps(pin, sort_keys=True).encode(), *(k.encode() for k in keep)]
    # how the zip is made (this file: its storage) and how its files are compiled
    inputs += [Path(__file__).read_bytes(), (HERE / "compile.mjs").read_bytes()]
    key = hashlib.sha256(b"\0".join(inputs)).hexdigest()
    stamp = SOURCE / ".stdlib-key"
    target = dest / STDLIB
    if target.is_file() and stamp.is_file() and stamp.read_text(encoding="utf-8") == key:
        return
    _replace(target, stdlib_zip(SOURCE / STDLIB, keep, str(pin["python"])))
    stamp.write_text(key, encoding="utf-8")


def build(dest: Path = DEST) -> None:
    pin = json.loads((HERE / "pin.json").read_text(encoding="utf-8"))
    if not (SOURCE / ".pin").is_file():
        sys.exit("build/pyodide/ is missing: run `make pyodide` (tools/pyodide/fetch.py) first")
    notice = (HERE / NOTICE).read_bytes()
    if f"version {pin['version']} ".encode() not in notice:
        sys.exit(f"tools/pyodide/{NOTICE} does not name version {pin['version']}: update it")
    dest.mkdir(parents=True, exist_ok=True)
    for name in pin["runtime"]:
        if name == STDLIB:
            _stdlib(dest, pin)
            continue
        target = dest / name
        if not target.is_file() or target.stat().st_size != (SOURCE / name).stat().st_size:
            _replace(target, (SOURCE / name).read_bytes())
    lock = json.loads((SOURCE / "pyodide-lock.json").read_text(encoding="utf-8"))
    info = json.dumps({"info": lock["info"], "packages": {}}, sort_keys=True)
    _replace(dest / "pyodide-lock.json", info.encode())
    _replace(dest / NOTICE, notice)
    _replace(dest / ENGINE_ZIP, engine_zip())
    _replace(dest / BOTS_ZIP, bots_zip())
    runtime = [dest / name for name in [*pin["runtime"], "pyodide-lock.json", ENGINE_ZIP, BOTS_ZIP]]
    wire = compressed.precompress(runtime)
    _replace(dest / SIZE, download_size(dest, pin["runtime"], wire).encode())


def download_size(dest: Path, runtime: list[str], wire: dict[str, dict[str, int]]) -> str:
    """``{"bytes", "wire", "files"}``: each file the engine worker fetches, as the page asks for
    it, with its size in bytes, and their sum; ``wire``: the sum as sent in each encoding
    (``identity``, ``br``, ``gzip``), the worker's scripts compressed as the server does."""
    fetched = {f"engine/{p.name}": p for p in sorted(WORKER_DIR.iterdir()) if p.is_file()}
    for name in [*runtime, "pyodide-lock.json", ENGINE_ZIP, BOTS_ZIP]:
        fetched[f"engine/runtime/{name}"] = dest / name
    files = {name: path.stat().st_size for name, path in fetched.items()}
    sent = {"identity": sum(files.values()), "br": 0, "gzip": 0}
    for name, path in fetched.items():
        sizes = wire.get(path.name) if name.startswith("engine/runtime/") else None
        if sizes is None:
            data = path.read_bytes()
            packed = compressed.variants(data, path.name)
            sizes = {e: len(packed.get(e, data)) for e in compressed.ENCODINGS}
        for encoding in compressed.ENCODINGS:
            sent[encoding] += sizes[encoding]
    return json.dumps({"bytes": sum(files.values()), "wire": sent, "files": files}, indent=1)


if __name__ == "__main__":
    build()
    print(f"build/web-engine: {sorted(p.name for p in DEST.iterdir())}")
