"""FastAPI without the two layers this app never uses, which every request would pass through.

FastAPI wraps each request in its native OpenTelemetry (a check of the configured providers on
every request, reading the environment) and an ``ExceptionTelemetryMiddleware`` that reports
exceptions to it, and in ``AppBodyLimitMiddleware`` (for ``FastAPI(max_body_size=…)``, unset
here). MAGDAGDON configures no telemetry and limits bodies at its edge (``bodylimit.py``), so
its stack is FastAPI's own without those: ``ServerErrorMiddleware`` (the 500 answer, with the
headers, ``stack.py``), the app's middleware (the edge), ``ExceptionMiddleware`` (the error
map), ``AsyncExitStackMiddleware``, then the router. Lifespan events still go through FastAPI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI
from fastapi.middleware.asyncexitstack import AsyncExitStackMiddleware
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.errors import ServerErrorMiddleware
from starlette.middleware.exceptions import ExceptionMiddleware

if TYPE_CHECKING:
    from starlette.types import ASGIApp, ExceptionHandler, Receive, Scope, Send


class LeanFastAPI(FastAPI):
    def build_middleware_stack(self) -> ASGIApp:
        if self.max_body_size is not None:  # not this app's: FastAPI's own stack
            return super().build_middleware_stack()
        error_handler = None
        handlers: dict[Any, ExceptionHandler] = {}
        for key, value in self.exception_handlers.items():
            if key in (500, Exception):
                error_handler = value
            else:
                handlers[key] = value
        middleware = [
            Middleware(ServerErrorMiddleware, handler=error_handler, debug=self.debug),
            *self.user_middleware,
            Middleware(ExceptionMiddleware, handlers=handlers, debug=self.debug),
            Middleware(AsyncExitStackMiddleware),
        ]
        app: ASGIApp = self.router
        for cls, args, kwargs in reversed(middleware):
            app = cls(app, *args, **kwargs)
        return app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        if self.root_path:
            scope["root_path"] = self.root_path
        await Starlette.__call__(self, scope, receive, send)
