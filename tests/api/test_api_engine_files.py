"""The engine worker's files under ``/engine/``: the worker from the page's folder, Pyodide's
runtime and the engine's zip from build/web-engine/ (``make pyodide``), and a policy that lets
WebAssembly compile there and nowhere else."""

from __future__ import annotations

from fastapi.testclient import TestClient

from magdagdon.api.app import create_app
from magdagdon.api.page.static import ENGINE_RUNTIME_DIR


def test_engine_files_are_served_with_their_policy(db_url: str) -> None:
    assert (ENGINE_RUNTIME_DIR / "pyodide.asm.wasm").is_file(), "run `make pyodide`"
    types = {
        "/engine/worker.js": "text/javascript; charset=utf-8",
        "/engine/boot.mjs": "text/javascript; charset=utf-8",
        "/engine/runtime/pyodide.mjs": "text/javascript; charset=utf-8",
        "/engine/runtime/pyodide.asm.wasm": "application/wasm",
        "/engine/runtime/magdagdon-engine.zip": "application/zip",
        "/engine/runtime/PYODIDE-NOTICE.txt": "text/plain; charset=utf-8",
    }
    with TestClient(create_app(db_url)) as client:
        for path, content_type in types.items():
            response = client.get(path)
            assert response.status_code == 200, path
            assert response.headers["content-type"] == content_type
            assert response.headers["cache-control"] == "no-cache"
            policy = response.headers["content-security-policy"]
            assert "script-src 'self' 'wasm-unsafe-eval'" in policy
            assert "unsafe-eval'" not in policy.replace("'wasm-unsafe-eval'", "")
        assert client.get("/engine/runtime/pyodide-lock.json").json()["packages"] == {}
        assert client.get("/engine/runtime/absent.js").status_code == 404
        for path in ("/", "/api/games/current"):
            assert "wasm" not in client.get(path).headers["content-security-policy"]
