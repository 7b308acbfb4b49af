"""The page's files answered from memory: each file read once when the server starts, with its
whole answer's headers made then (those of ``static.WebFiles``: the same type, length, ETag,
Last-Modified, ``Cache-Control: no-cache``), so that a GET or HEAD of a page file, or its
revalidation (304 by ``If-None-Match``, else ``If-Modified-Since``), costs no thread, no
``stat`` and no read.

Each file is also sent compressed (``compressed.py``): brotli or gzip by ``Accept-Encoding``,
compressed the first time it is asked for so, and kept beside it.

Read at start-up like the service worker's list of hashes (``service_worker.py``): the files
served are the ones the worker announces; a new version of the page is a restart. Anything
else (a path that is not a file read here, a ``Range`` request, another method, a path under
``/api`` or one that a route answers) goes on to the app and its ``WebFiles`` mount unchanged.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from email.utils import parsedate
from typing import TYPE_CHECKING

from starlette.responses import FileResponse
from starlette.staticfiles import NotModifiedResponse

from magdagdon.api.page import compressed

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from starlette.types import ASGIApp, Receive, Scope, Send

RawHeaders = list[tuple[bytes, bytes]]


@dataclass(frozen=True, slots=True)
class PageFile:
    body: bytes
    headers: RawHeaders  # of the 200
    not_modified: RawHeaders  # of the 304
    etag: str
    last_modified: str
    name: str = ""
    # its compressed answers, by encoding, made when first asked for (None: not worth sending)
    packed: dict[str, PageFile | None] = field(default_factory=dict)

    def encoded(self, encodings: list[str]) -> PageFile:
        """This file's answer in the first of ``encodings`` worth sending, else its own."""
        for encoding in encodings:
            if encoding not in self.packed:
                self.packed[encoding] = self._pack(encoding)
            found = self.packed[encoding]
            if found is not None:
                return found
        return self

    def _pack(self, encoding: str) -> PageFile | None:
        if not compressed.compressible(self.name):
            return None
        body = compressed.compress(self.body, encoding)
        if not compressed.worth(len(self.body), len(body)):
            return None
        return PageFile(
            body,
            encoded_headers(self.headers, encoding, len(body)),
            encoded_headers(self.not_modified, encoding, None),
            encoded_etag(self.etag, encoding),
            self.last_modified,
            self.name,
        )


def encoded_etag(etag: str, encoding: str) -> str:
    """The ETag of a file's copy in ``encoding``: its own, marked (another entity)."""
    return f'{etag[:-1]}-{encoding}"' if etag.endswith('"') else f"{etag}-{encoding}"


def encoded_headers(headers: RawHeaders, encoding: str, length: int | None) -> RawHeaders:
    """A file's answer headers for its copy in ``encoding`` (``length`` bytes)."""
    out: RawHeaders = []
    for name, value in headers:
        if name == b"content-length":
            if length is None:
                continue
            value = str(length).encode()
        elif name == b"etag":
            value = encoded_etag(value.decode("latin-1"), encoding).encode("latin-1")
        out.append((name, value))
    return [*out, (b"content-encoding", encoding.encode()), (b"vary", b"Accept-Encoding")]


def _answer(path: Path) -> PageFile:
    """The file's answer, with the headers ``WebFiles`` gives it (built by the same classes)."""
    stat = path.stat()
    full = FileResponse(path, stat_result=stat)
    full.headers["Cache-Control"] = "no-cache"
    full.headers["X-Content-Type-Options"] = "nosniff"
    if compressed.compressible(path.name):
        full.headers["Vary"] = "Accept-Encoding"
    short = NotModifiedResponse(full.headers)
    short.headers["X-Content-Type-Options"] = "nosniff"
    body = path.read_bytes()
    if len(body) != stat.st_size:
        raise OSError(f"{path} changed while it was read")
    return PageFile(
        body,
        full.headers.raw,
        short.headers.raw,
        full.headers["etag"],
        full.headers["last-modified"],
        path.name,
    )


def load(web_dir: Path, answered_elsewhere: Callable[[str], bool]) -> dict[str, PageFile]:
    """Each regular file inside ``web_dir`` by the path a request names it by (``/`` and
    ``/folder/`` for an ``index.html``, as ``WebFiles(html=True)``), except the paths under
    ``/api`` and those ``answered_elsewhere`` (a route of the app)."""
    if not web_dir.is_dir():
        return {}
    root = os.path.realpath(web_dir)
    files: dict[str, PageFile] = {}
    for path in sorted(web_dir.rglob("*")):
        real = os.path.realpath(path)
        if not path.is_file() or os.path.commonpath([real, root]) != root:
            continue  # WebFiles refuses a link out of the folder too
        name = "/" + path.relative_to(web_dir).as_posix()
        names = [name]
        if path.name == "index.html":
            names.append(name.removesuffix("index.html"))
        for served in names:
            if served == "/api" or served.startswith("/api/") or answered_elsewhere(served):
                continue
            files[served] = _answer(path)
    return files


def not_modified(
    file: PageFile, if_none_match: bytes | None, if_modified_since: bytes | None
) -> bool:
    """``StaticFiles.is_not_modified``'s rule: the ETag when the request names one, else the
    date."""
    if if_none_match is not None:
        tags = if_none_match.decode("latin-1")
        if tags.strip() == "*":
            return True
        return file.etag in [tag.strip().removeprefix("W/") for tag in tags.split(",")]
    if if_modified_since is None:
        return False
    since = parsedate(if_modified_since.decode("latin-1"))
    modified = parsedate(file.last_modified)
    return since is not None and modified is not None and since >= modified


class PageFiles:
    """Answers GET and HEAD of a page file from memory; everything else goes on to ``app``."""

    def __init__(self, app: ASGIApp, *, files: dict[str, PageFile]) -> None:
        self.app = app
        self.files = files

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        file = None
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
            file = self.files.get(scope["path"])
        if file is None:
            await self.app(scope, receive, send)
            return
        if_none_match = if_modified_since = None
        encodings: list[str] = []
        for name, value in scope["headers"]:
            if name == b"range":
                await self.app(scope, receive, send)  # WebFiles answers ranges
                return
            if name == b"if-none-match":
                if_none_match = value
            elif name == b"if-modified-since":
                if_modified_since = value
            elif name == b"accept-encoding":
                encodings = compressed.accepted(value.decode("latin-1"))
        file = file.encoded(encodings)
        if not_modified(file, if_none_match, if_modified_since):
            await send({"type": "http.response.start", "status": 304, "headers": file.not_modified})
            await send({"type": "http.response.body", "body": b""})
            return
        await send({"type": "http.response.start", "status": 200, "headers": file.headers})
        body = b"" if scope["method"] == "HEAD" else file.body
        await send({"type": "http.response.body", "body": body})
