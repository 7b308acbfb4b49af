"""The page: ``src/magdagdon/web/`` served at ``/``, with content types and caching for play
without a network (every file revalidates by ETag, so a new version is picked up at once), and
the offline engine's runtime, each file sent compressed by its build's checked copy
(``compressed.py``)."""

from __future__ import annotations

import mimetypes
from pathlib import Path
from typing import TYPE_CHECKING

from starlette.datastructures import Headers
from starlette.responses import FileResponse
from starlette.routing import Match, Mount
from starlette.staticfiles import NotModifiedResponse, StaticFiles

from magdagdon.api.page import compressed
from magdagdon.api.page.memory import encoded_etag

if TYPE_CHECKING:
    from starlette.responses import Response
    from starlette.types import Scope

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
#: Pyodide's runtime and the engine's zip (``make pyodide``, tools/pyodide/bundle.py), served at
#: ``/engine/runtime/`` beside the engine worker (web/engine/); absent, each is a plain 404.
ENGINE_RUNTIME_DIR = Path(__file__).resolve().parents[4] / "build" / "web-engine"

_TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".txt": "text/plain",
    ".wasm": "application/wasm",  # WebAssembly.instantiateStreaming requires it
    ".zip": "application/zip",
}
for _suffix, _type in _TYPES.items():
    mimetypes.add_type(_type, _suffix)


class WebFiles(StaticFiles):
    """Static files with ``Cache-Control: no-cache`` (use the cached copy after an ETag check)."""

    async def check_config(self) -> None:
        """A missing folder is no error: every path is then a plain 404."""
        if self.directory is not None and Path(self.directory).is_dir():
            await super().check_config()

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code == 200 and isinstance(response, FileResponse):
            response = self._encoded(response, scope)
        if response.status_code in (200, 304):
            response.headers["Cache-Control"] = "no-cache"
            response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    def _encoded(self, response: FileResponse, scope: Scope) -> Response:
        """The file's checked compressed copy the request takes, or the file's own answer."""
        headers = Headers(scope=scope)
        original = Path(response.path)
        if "range" in headers or not compressed.compressible(original.name):
            return response
        response.headers["Vary"] = "Accept-Encoding"
        for encoding in compressed.accepted(headers.get("accept-encoding")):
            copy = compressed.checked_sidecar(original, encoding)
            if copy is None:
                continue
            answer = FileResponse(copy, media_type=response.media_type)
            for name in ("last-modified", "cache-control", "x-content-type-options"):
                if name in response.headers:
                    answer.headers[name] = response.headers[name]
            answer.headers["ETag"] = encoded_etag(response.headers["etag"], encoding)
            answer.headers["Content-Encoding"] = encoding
            answer.headers["Vary"] = "Accept-Encoding"
            if answer.headers["etag"] in headers.get("if-none-match", ""):
                return NotModifiedResponse(answer.headers)
            return answer
        return response


class PageMount(Mount):
    """The page's files at ``/``, except under ``/api``: there the API router answers alone
    (a JSON 404 for an unknown path, a 405 with the right ``Allow`` for a wrong method)."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        path = str(scope.get("path", ""))
        if path == "/api" or path.startswith("/api/"):
            return Match.NONE, {}
        return super().matches(scope)


def page_mount(web_dir: Path) -> PageMount:
    return PageMount("/", app=WebFiles(directory=web_dir, html=True, check_dir=False), name="web")


def engine_runtime_mount(runtime_dir: Path = ENGINE_RUNTIME_DIR) -> Mount:
    """The engine worker's runtime files at ``/engine/runtime/`` (before the page's mount)."""
    return Mount("/engine/runtime", app=WebFiles(directory=runtime_dir, check_dir=False))
