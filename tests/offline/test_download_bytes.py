"""The offline engine's download on the wire (api/page/compressed.py, tools/pyodide/bundle.py):
brotli where the request takes it, gzip as the fallback, the files as they are otherwise; each
compressed copy decodes to the bytes whose hash the service worker checks, a copy that does not
is never sent, and the page's own files go compressed the same way."""

from __future__ import annotations

import hashlib
import json
import shutil
from typing import TYPE_CHECKING

import brotli  # type: ignore[import-untyped]
import pytest
from fastapi.testclient import TestClient
from starlette.applications import Starlette

from magdagdon.api.app import create_app
from magdagdon.api.page import compressed, service_worker
from magdagdon.api.page.static import ENGINE_RUNTIME_DIR, WEB_DIR, engine_runtime_mount

if TYPE_CHECKING:
    from pathlib import Path

SIZE = ENGINE_RUNTIME_DIR / "engine-size.json"


def fetched() -> list[str]:
    """The paths the engine worker fetches (engine-size.json, as SETTINGS states them)."""
    assert SIZE.is_file(), "run `make pyodide`"
    return ["/" + name for name in json.loads(SIZE.read_text())["files"]]


def on_the_wire(client: TestClient, path: str, accept: str) -> tuple[int, bytes, str]:
    """The bytes the answer carries (as sent), the bytes it decodes to, its encoding."""
    with client.stream("GET", path, headers={"Accept-Encoding": accept}) as answer:
        assert answer.status_code == 200, path
        raw = b"".join(answer.iter_raw())
        encoding = answer.headers.get("content-encoding", "identity")
    decoded = raw if encoding == "identity" else compressed.decompress(raw, encoding)
    return len(raw), decoded, encoding


def listed_hashes() -> dict[str, str]:
    files = service_worker.engine_files(ENGINE_RUNTIME_DIR)
    files.update(service_worker.page_files(WEB_DIR))
    return {"/" + name: digest for name, digest in files.items()}


def test_the_engine_on_the_wire_with_and_without_brotli(db_url: str) -> None:
    paths = fetched()
    hashes = listed_hashes()
    sizes = json.loads(SIZE.read_text())
    totals: dict[str, int] = {}
    with TestClient(create_app(db_url)) as client:
        for accept in ("gzip, deflate, br, zstd", "gzip, deflate", "identity"):
            total = 0
            for path in paths:
                sent, decoded, encoding = on_the_wire(client, path, accept)
                total += sent
                # what the service worker's integrity check sees: the listed hash
                assert hashlib.sha256(decoded).hexdigest() == hashes[path], path
                if path.endswith(".wasm"):
                    assert encoding == ("br" if "br" in accept else accept.split(",")[0])
            totals[accept] = total
    raw = sizes["bytes"]
    assert totals["identity"] == raw
    assert totals["gzip, deflate, br, zstd"] == sizes["wire"]["br"]  # as SETTINGS states it
    assert totals["gzip, deflate"] == sizes["wire"]["gzip"]
    # about 4.4 MB, not 19: the zips are stored, and go compressed whole like the rest
    bots = sizes["files"]["engine/runtime/magdagdon-bots.zip"]
    assert totals["gzip, deflate, br, zstd"] < 0.3 * raw
    assert totals["gzip, deflate, br, zstd"] - bots < 4.6e6 < raw
    assert totals["gzip, deflate"] - bots < 5.5e6


def test_a_damaged_compressed_copy_is_never_sent(tmp_path: Path) -> None:
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    source = ENGINE_RUNTIME_DIR / "pyodide.asm.mjs"
    shutil.copy(source, runtime / source.name)
    compressed.precompress([runtime / source.name])
    app = Starlette(routes=[engine_runtime_mount(runtime)])
    path = "/engine/runtime/pyodide.asm.mjs"
    with TestClient(app) as client:
        sent, decoded, encoding = on_the_wire(client, path, "br")
        assert encoding == "br"
        assert sent < len(decoded) == source.stat().st_size
        etag = client.get(path, headers={"Accept-Encoding": "br"}).headers["etag"]
        again = client.get(path, headers={"Accept-Encoding": "br", "If-None-Match": etag})
        assert again.status_code == 304
        # another file's bytes in the copy: it decodes, to the wrong bytes
        (runtime / "pyodide.asm.mjs.br").write_bytes(brotli.compress(b"export const x = 1;\n"))
        sent, decoded, encoding = on_the_wire(client, path, "br")
        assert encoding == "identity"
        assert decoded == source.read_bytes()
        sent, decoded, encoding = on_the_wire(client, path, "gzip")  # its gzip copy is sound
        assert encoding == "gzip"
        assert decoded == source.read_bytes()


@pytest.mark.parametrize("path", ["/", "/js/app/play.js", "/css/page.css", "/sw.js"])
def test_the_page_files_go_compressed(db_url: str, path: str) -> None:
    with TestClient(create_app(db_url)) as client:
        plain = client.get(path, headers={"Accept-Encoding": "identity"})
        for encoding in ("br", "gzip"):
            sent, decoded, used = on_the_wire(client, path, encoding)
            assert used == encoding
            assert decoded == plain.content
            assert sent < len(decoded) / 2
        answer = client.get(path, headers={"Accept-Encoding": "br"})
        assert "Accept-Encoding" in answer.headers["vary"]
        if path != "/sw.js":  # the worker's script is never revalidated by the page
            etag = answer.headers["etag"]
            assert etag != plain.headers["etag"]
            again = client.get(path, headers={"Accept-Encoding": "br", "If-None-Match": etag})
            assert again.status_code == 304
