"""``/sw.js``: the page's service worker (``web/sw.js``), served with the list of the page's
files and the SHA-256 of each, read once when the server starts.

The list goes at the head of the script, so the worker's bytes change whenever any page file
does: the browser, which compares the worker's bytes on every visit, installs the new version on
the next visit, and the worker fetches only the files whose hash changed. The icons are left
out (the system fetches those itself when the page is installed), and so is the worker. The
script is sent compressed like every page file (``compressed.py``), compressed once.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from magdagdon.api.page import compressed

if TYPE_CHECKING:
    from pathlib import Path

    from starlette.requests import Request

WORKER = "sw.js"
_LEFT_OUT = ("icons/",)
_HEADERS = {"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}


def page_files(web_dir: Path) -> dict[str, str]:
    """Each file of the page as the worker asks for it (``./`` for ``index.html``), and the
    SHA-256 of its bytes, hex."""
    found: dict[str, str] = {}
    for path in sorted(p for p in web_dir.rglob("*") if p.is_file()):
        name = path.relative_to(web_dir).as_posix()
        if name == WORKER or name.startswith(_LEFT_OUT) or name.startswith("."):
            continue
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        found["./" if name == "index.html" else name] = digest
    return found


def engine_files(runtime_dir: Path) -> dict[str, str]:
    """The offline engine's runtime files (``/engine/runtime/``, ``make pyodide``) as the worker
    asks for them, and the SHA-256 of each: kept in a cache of their own, only once the page
    has fetched them (never on the first visit's install)."""
    if not runtime_dir.is_dir():
        return {}
    return {
        f"engine/runtime/{path.name}": hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(runtime_dir.iterdir())
        if path.is_file() and not path.name.startswith(".") and not compressed.is_sidecar(path.name)
    }


def engine_sizes(runtime_dir: Path) -> dict[str, int]:
    """The bytes of each engine file (``engine_files``'s names): a kept copy of another size is
    damaged, and the worker fetches it again instead of serving it."""
    return {
        name: (runtime_dir / name.removeprefix("engine/runtime/")).stat().st_size
        for name in engine_files(runtime_dir)
    }


def _listed(files: dict[str, str], sizes: dict[str, int] | None = None) -> str:
    version = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:16]
    listed: dict[str, object] = {"version": version, "files": files}
    if sizes is not None:
        listed["sizes"] = sizes
    return json.dumps(listed, separators=(",", ":"))


def worker_script(web_dir: Path, runtime_dir: Path | None = None) -> bytes | None:
    """The worker as served: the page's files and their version, the engine's (when
    ``runtime_dir`` is given), then ``web/sw.js``; None when the page has no worker."""
    source = web_dir / WORKER
    if not source.is_file():
        return None
    page = _listed(page_files(web_dir))
    engine = (
        _listed(engine_files(runtime_dir), engine_sizes(runtime_dir))
        if runtime_dir is not None and runtime_dir.is_dir()
        else _listed({})
    )
    head = f"self.MAGDAGDON_PAGE = {page};\nself.MAGDAGDON_ENGINE = {engine};\n"
    return head.encode() + source.read_bytes()


def route(web_dir: Path, runtime_dir: Path | None = None) -> Route:
    """The ``/sw.js`` route of the page in ``web_dir`` (its worker as it was at start-up)."""
    script = worker_script(web_dir, runtime_dir)
    packed = compressed.variants(script, WORKER) if script is not None else {}

    async def serve(request: Request) -> Response:
        if script is None:
            return PlainTextResponse("no service worker", status_code=404, headers=_HEADERS)
        headers = {**_HEADERS, "Vary": "Accept-Encoding"}
        for encoding in compressed.accepted(request.headers.get("accept-encoding")):
            if encoding in packed:
                headers["Content-Encoding"] = encoding
                return Response(packed[encoding], media_type="text/javascript", headers=headers)
        return Response(script, media_type="text/javascript", headers=headers)

    return Route("/" + WORKER, serve, methods=["GET", "HEAD"], include_in_schema=False)
