"""Security headers on every answer the app gives: a Content-Security-Policy that lets the page
load only the server's own files and be framed by no one, ``X-Content-Type-Options: nosniff``, a
Referrer-Policy, and ``Strict-Transport-Security`` when the request came over HTTPS."""

from __future__ import annotations

import base64
import hashlib
from html.parser import HTMLParser
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    from magdagdon.api.edge.answers import Headers

_PAGE_POLICY = (
    "default-src 'self'",
    "script-src 'self'{inline}",
    "style-src 'self'",
    "img-src 'self' data:",  # the page's icon is href="data:,"
    "connect-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
)
# JSON and the connection's own answers are no document: nothing may load from them at all
NO_DOCUMENT_POLICY = "default-src 'none'; frame-ancestors 'none'"
# the API docs (opt-in, for developers) load Swagger UI and ReDoc from their CDN with inline
# scripts: only framing is refused there
DOCS_POLICY = "frame-ancestors 'none'"

# the engine worker's files (web/engine/ and Pyodide's runtime, all under /engine/): a worker runs
# under the policy of its own script's answer, so WebAssembly may be compiled there and only there
ENGINE_PREFIX = "/engine/"
_WASM = "'wasm-unsafe-eval'"

COMMON: Headers = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers that predate it
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
CSP = b"content-security-policy"
HSTS = b"strict-transport-security"


class _InlineScripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[str] = []
        self._inside: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script" and not any(name == "src" for name, _ in attrs):
            self._inside = []

    def handle_data(self, data: str) -> None:
        if self._inside is not None:
            self._inside.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._inside is not None:
            self.scripts.append("".join(self._inside))
            self._inside = None


def inline_script_sources(html: str) -> list[str]:
    """A ``'sha256-…'`` source for each inline ``<script>`` of ``html``, as browsers hash it (its
    text after the HTML parser's newline normalisation, in UTF-8)."""
    parser = _InlineScripts()
    parser.feed(html.replace("\r\n", "\n").replace("\r", "\n"))
    parser.close()
    digests = (hashlib.sha256(text.encode()).digest() for text in parser.scripts)
    return [f"'sha256-{base64.b64encode(digest).decode()}'" for digest in digests]


def page_policy(web_dir: Path) -> str:
    """The page's policy; its inline scripts (read once, at start-up) are allowed by hash."""
    index = web_dir / "index.html"
    html = index.read_text(encoding="utf-8") if index.is_file() else ""
    inline = "".join(f" {source}" for source in inline_script_sources(html))
    return "; ".join(_PAGE_POLICY).format(inline=inline)


def engine_policy(policy: str) -> str:
    """The page's ``policy`` with WebAssembly's compilation allowed (for the engine worker)."""
    return policy.replace("script-src 'self'", f"script-src 'self' {_WASM}", 1)


class HeaderSet:
    """The headers of each answer: by its scheme (HSTS over HTTPS only) and path (the docs)."""

    def __init__(self, *, policy: str, hsts_seconds: int, docs_paths: Iterable[str] = ()) -> None:
        self.docs_paths = frozenset(docs_paths)
        self._plain = [*COMMON, (CSP, policy.encode())]
        self._docs = [*COMMON, (CSP, DOCS_POLICY.encode())]
        hsts = [(HSTS, b"max-age=%d" % hsts_seconds)] if hsts_seconds else []
        self._https = [*self._plain, *hsts]
        self._https_docs = [*self._docs, *hsts]
        self._engine = [*COMMON, (CSP, engine_policy(policy).encode())]
        self._https_engine = [*self._engine, *hsts]
        self.names = frozenset(name for name, _ in self._https)

    def for_scope(self, scope: Scope) -> Headers:
        docs = scope.get("path") in self.docs_paths
        if str(scope.get("path", "")).startswith(ENGINE_PREFIX):
            return self._https_engine if scope.get("scheme") == "https" else self._engine
        if scope.get("scheme") == "https":
            return self._https_docs if docs else self._https
        return self._docs if docs else self._plain


class SecurityHeaders:
    """Adds the headers to each answer's start (replacing any of the same name)."""

    def __init__(self, app: ASGIApp, *, headers: HeaderSet) -> None:
        self.app = app
        self.headers = headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = self.headers.for_scope(scope)
        names = self.headers.names

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(n, v) for n, v in message.get("headers", ()) if n.lower() not in names]
                message = {**message, "headers": kept + extra}
            await send(message)

        await self.app(scope, receive, send_with_headers)
