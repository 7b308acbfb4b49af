"""The app's edge, wired in one call: each request's id, count and log line (outermost, so
that every answer is counted), security headers (so every answer has them),
the refusal of requests from other sites (before anything is counted or read), the page's files
from memory (``page/memory.py``), rate limits, then body limits, in front of the routes; the API
docs only when asked for; the edge's own answers in the OpenAPI document."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, TypedDict

from fastapi.openapi.constants import REF_PREFIX
from fastapi.openapi.utils import validation_error_response_definition
from starlette.routing import Match

from magdagdon.api import errors
from magdagdon.api.edge.bodylimit import BodyLimit
from magdagdon.api.edge.cross_site import SAFE_METHODS, CrossSiteGuard
from magdagdon.api.edge.observe import HEADER, SCOPE_KEY, Observe, RouteNames
from magdagdon.api.edge.ratelimit import RateLimits, Rule, rules
from magdagdon.api.edge.security import HeaderSet, SecurityHeaders, page_policy
from magdagdon.api.errors import (
    BodyTooLargeError,
    CrossSiteError,
    RateLimitedError,
    RequestTimeoutError,
    described,
)
from magdagdon.api.page import memory
from magdagdon.api.page.memory import PageFiles
from magdagdon.api.page.static import PageMount
from magdagdon.api.routes.sync import SYNC_MAX_BYTES, SYNC_PATH
from magdagdon.api.routes.transfer import IMPORT_PATH
from magdagdon.engine import MalformedError

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from fastapi import FastAPI, Request
    from fastapi.responses import JSONResponse

    from magdagdon.api.edge.ratelimit import Counting
    from magdagdon.settings import Settings


class DocsUrls(TypedDict):
    docs_url: str | None
    redoc_url: str | None
    openapi_url: str | None


DOCS_URLS = DocsUrls(docs_url="/docs", redoc_url="/redoc", openapi_url="/openapi.json")
NO_DOCS = DocsUrls(docs_url=None, redoc_url=None, openapi_url=None)
#: The content of the 422 entry FastAPI adds to an operation with parameters or a body: its
#: validation error model (``HTTPValidationError``), which this server never answers.
_FASTAPI_422 = {
    "application/json": {
        "schema": {"$ref": REF_PREFIX + str(validation_error_response_definition["title"])}
    }
}
_ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
        }
    },
}


def docs_urls(settings: Settings) -> DocsUrls:
    """``FastAPI(...)``'s docs arguments: the usual paths, or none when the docs are off."""
    return DOCS_URLS if settings.api_docs else NO_DOCS


def install(
    app: FastAPI, settings: Settings, web_dir: Path, rate_counting: Counting | None = None
) -> None:
    """Wrap ``app``'s routes in the edge (the last middleware added is the outermost);
    ``rate_counting`` keeps the rate counters (None: each process its own memory)."""
    limited = rules(settings)
    app.add_middleware(
        BodyLimit,
        max_bytes=settings.max_body_bytes,
        timeout=settings.body_timeout,
        larger={IMPORT_PATH: settings.max_import_bytes, SYNC_PATH: SYNC_MAX_BYTES},
    )
    if limited:
        app.add_middleware(RateLimits, rules=limited, counting=rate_counting)
    app.add_middleware(PageFiles, files=memory.load(web_dir, _routed(app)))
    # outside the rate limits: another site's requests must not spend the visitor's allowance
    app.add_middleware(CrossSiteGuard)
    urls = docs_urls(settings)
    docs = [url for url in (urls["docs_url"], urls["redoc_url"], urls["openapi_url"]) if url]
    docs += ["/docs/oauth2-redirect"] if docs else []
    headers = HeaderSet(
        policy=page_policy(web_dir), hsts_seconds=settings.hsts_seconds, docs_paths=docs
    )
    app.add_middleware(SecurityHeaders, headers=headers)
    # outermost: it counts and logs every answer, the other layers' refusals included
    routes = RouteNames(app.router.routes)
    app.add_middleware(Observe, routes=routes, log_requests=settings.log_format == "json")

    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        # Starlette answers an unexpected exception outside every middleware, so the headers
        # are added here (no input should ever get this far)
        answer = await errors.answer(request, exc)
        for name, value in headers.for_scope(request.scope):
            answer.headers[name.decode()] = value.decode()
        if SCOPE_KEY in request.scope:
            answer.headers[HEADER.decode()] = request.scope[SCOPE_KEY]
        return answer

    app.add_exception_handler(Exception, internal_error)
    _document(app, settings, limited)


def _routed(app: FastAPI) -> Callable[[str], bool]:
    """Whether a route of ``app`` other than the page's mount answers ``GET path``."""
    routes = [route for route in app.router.routes if not isinstance(route, PageMount)]

    def routed(path: str) -> bool:
        scope = {"type": "http", "method": "GET", "path": path, "root_path": "", "headers": []}
        return any(route.matches(scope)[0] is not Match.NONE for route in routes)

    return routed


def _document(app: FastAPI, settings: Settings, limited: tuple[Rule, ...]) -> None:
    """403 on every operation that can change something, 413 and 408 on every one with a body,
    429 on the rate-limited ones."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = build()
        for path, operations in schema.get("paths", {}).items():
            concrete = re.sub(r"\{[^}]+\}", "x", path)  # a path parameter as a request has it
            for method, operation in operations.items():
                answers = operation.setdefault("responses", {})
                if answers.get("422", {}).get("content") == _FASTAPI_422:
                    # FastAPI's own entry: this server answers a bad parameter as every error
                    answers["422"] = _answer(MalformedError)
                if method.upper() not in SAFE_METHODS:
                    answers["403"] = _answer(CrossSiteError)
                if method in ("post", "put", "patch"):
                    caps = {IMPORT_PATH: settings.max_import_bytes, SYNC_PATH: SYNC_MAX_BYTES}
                    cap = caps.get(path, settings.max_body_bytes)
                    answers["413"] = _answer(BodyTooLargeError, f" ({cap} bytes here)")
                    answers["408"] = _answer(RequestTimeoutError)
                if any(
                    method.upper() in rule.methods and rule.path.fullmatch(concrete)
                    for rule in limited
                ):
                    answers["429"] = _answer(RateLimitedError)
        return schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to extend it


def _answer(kind: type[Exception], more: str = "") -> dict[str, Any]:
    """The OpenAPI entry of the edge's answer to ``kind``, described by the one table."""
    _, description = described(kind)
    schema = {"schema": _ERROR_SCHEMA}
    return {"description": description + more, "content": {"application/json": schema}}
