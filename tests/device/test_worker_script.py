"""``/sw.js``: the page's worker with the list of the page's files and their hashes at its head,
so its bytes change whenever a page file does (and the browser installs the new version)."""

from __future__ import annotations

import hashlib
import json
import shutil
from typing import TYPE_CHECKING, Any

from fastapi.testclient import TestClient

from magdagdon.api.app import create_app
from magdagdon.api.page.static import WEB_DIR
from magdagdon.settings import Settings

if TYPE_CHECKING:
    from pathlib import Path

PRELUDE = "self.MAGDAGDON_PAGE = "
ENGINE = "self.MAGDAGDON_ENGINE = "


def served_worker(db: Path, web_dir: Path) -> tuple[str, dict[str, Any]]:
    with TestClient(create_app(db, web_dir=web_dir, settings=Settings())) as client:
        answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    assert "worker-src 'self'" in answer.headers["content-security-policy"]
    first, _, rest = answer.text.partition("\n")
    second, _, rest = rest.partition("\n")
    assert first.startswith(PRELUDE)
    assert second.startswith(ENGINE)
    assert rest == (web_dir / "sw.js").read_text(encoding="utf-8")
    page: dict[str, Any] = json.loads(first.removeprefix(PRELUDE).removesuffix(";"))
    return answer.text, page


def test_the_worker_lists_every_page_file_with_its_hash(tmp_path: Path) -> None:
    _, page = served_worker(tmp_path / "db.sqlite3", WEB_DIR)
    files = page["files"]
    assert files["./"] == hashlib.sha256((WEB_DIR / "index.html").read_bytes()).hexdigest()
    assert "index.html" not in files
    assert "sw.js" not in files
    assert not [name for name in files if name.startswith("icons/")]
    assert "manifest.webmanifest" in files
    expected = {
        p.relative_to(WEB_DIR).as_posix()
        for p in WEB_DIR.rglob("*")
        if p.is_file() and p.suffix in (".js", ".css") and p.name != "sw.js"
    }
    assert expected <= set(files)
    for name, digest in files.items():
        path = WEB_DIR / ("index.html" if name == "./" else name)
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest


def test_a_changed_page_file_changes_the_workers_bytes(tmp_path: Path) -> None:
    web = tmp_path / "web"
    shutil.copytree(WEB_DIR, web)
    before, page_before = served_worker(tmp_path / "db.sqlite3", web)
    assert served_worker(tmp_path / "db.sqlite3", web)[0] == before  # stable across starts
    css = web / "css" / "page.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n/* a new version */\n", encoding="utf-8")
    after, page_after = served_worker(tmp_path / "db.sqlite3", web)
    assert after != before
    assert page_after["version"] != page_before["version"]
    changed = {n for n in page_after["files"] if page_after["files"][n] != page_before["files"][n]}
    assert changed == {"css/page.css"}


def test_without_a_worker_file_sw_js_is_404(tmp_path: Path) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html>", encoding="utf-8")
    with TestClient(create_app(tmp_path / "db.sqlite3", web_dir=web)) as client:
        assert client.get("/sw.js").status_code == 404


def test_the_worker_lists_the_engine_files_apart(tmp_path: Path) -> None:
    """The offline engine's files (``make pyodide``) with their hashes, under their own version:
    a new engine makes a new worker, and the page's own list does not name them."""
    from magdagdon.api.page.service_worker import engine_files, worker_script

    runtime = tmp_path / "runtime"
    runtime.mkdir()
    (runtime / "pyodide.asm.wasm").write_bytes(b"\0asm one")
    first = worker_script(WEB_DIR, runtime)
    assert first is not None
    line = first.decode().split("\n")[1]
    engine = json.loads(line.removeprefix(ENGINE).removesuffix(";"))
    digest = hashlib.sha256(b"\0asm one").hexdigest()
    assert engine["files"] == {"engine/runtime/pyodide.asm.wasm": digest}
    assert engine_files(runtime) == engine["files"]
    (runtime / "pyodide.asm.wasm").write_bytes(b"\0asm two")
    assert worker_script(WEB_DIR, runtime) != first
