"""The most frequent requests, an action (``POST /api/games/{game_id}/actions``) and the read of
a game (``GET /api/games/{game_id}``), handed to their route functions without FastAPI's
routing and request machinery (matching every route, resolving parameters and dependencies,
its exit stack): measured, that machinery cost more than the action's own work.

:class:`DirectRoutes` is the innermost layer of the edge (``app.py``): everything outside it
(security headers, the cross-site guard, rate limits, body limits) applies as to every request.
It calls the very route functions of ``games.py`` in the request thread pool, with the body
validated by the same model FastAPI would use, and answers their exceptions with the app's own
handlers (``errors.py``), as FastAPI would. On SQLite an action goes instead to the store's
group commit (``api/grouped.py``, ``store/groupcommit.py``): the same service function, the
same answer (``view.game_response``'s), with no thread of the pool held while it waits.
Anything else goes on to FastAPI unchanged: another path or method, a body that is not exactly
``Content-Type: application/json``, or one the model refuses (FastAPI then answers its 422 as
ever, from the same bytes).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import anyio.to_thread
from pydantic import TypeAdapter
from starlette.requests import Request
from starlette.responses import Response

from magdagdon.api import grouped
from magdagdon.api.deps import cookie_token
from magdagdon.api.edge.bodylimit import replay_body
from magdagdon.api.routes.games import play, read_game
from magdagdon.api.schemas.requests import ActionBody
from magdagdon.engine import action_from_json

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

    from magdagdon.store import Store

_ACTION = re.compile(r"/api/games/([^/]+)/actions")
_GAME = re.compile(r"/api/games/([^/]+)")
_NOT_A_GAME = frozenset({"current"})  # GET /api/games/current is a route of its own
_ACTION_BODY: TypeAdapter[Any] = TypeAdapter(ActionBody)
_JSON = b"application/json"


class DirectRoutes:
    """ASGI middleware: an action and a game's read straight to their route functions."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            method, path = scope["method"], scope["path"]
            if method == "POST" and (found := _ACTION.fullmatch(path)) is not None:
                await self._action(found[1], scope, receive, send)
                return
            if (
                method == "GET"
                and (found := _GAME.fullmatch(path)) is not None
                and found[1] not in _NOT_A_GAME
            ):
                await self._answer(scope, receive, send, read_game, found[1])
                return
        await self.app(scope, receive, send)

    async def _action(self, game_id: str, scope: Scope, receive: Receive, send: Send) -> None:
        body = await _whole_body(receive)
        if body is None:  # the client left: nobody to answer
            return
        action = _valid_action(scope, body)
        if action is None:  # FastAPI answers it, from the same bytes
            await self.app(scope, replay_body(body, receive), send)
            return
        receive = replay_body(body, receive)
        store: Store = scope["app"].state.store
        if store.group is None:  # PostgreSQL: each action its own transaction, side by side
            await self._answer(scope, receive, send, play, game_id, action)
            return
        request = Request(scope, receive)
        response: Response
        try:
            view = await grouped.play(
                store.group,
                store,
                cookie_token(request),
                game_id,
                action_from_json(action.model_dump(exclude={"version"})),
                action.version,
            )
            response = Response(view, media_type="application/json")
        except Exception as exc:
            response = await _handled(request, exc)
        await response(scope, receive, send)

    async def _answer(
        self, scope: Scope, receive: Receive, send: Send, route: Any, *args: object
    ) -> None:
        """``route(request, *args)`` in the request thread pool, as FastAPI runs a plain ``def``
        route, and its answer; an exception answered by the app's handler of its kind (the
        others go on up, to the 500 answer)."""
        request = Request(scope, receive)
        try:
            response: Response = await anyio.to_thread.run_sync(route, request, *args)
        except Exception as exc:
            response = await _handled(request, exc)
        await response(scope, receive, send)


async def _handled(request: Request, exc: Exception) -> Response:
    """The answer of the app's exception handler for ``exc`` (Starlette's lookup: the nearest
    class of its MRO that has one); ``exc`` again when none but the 500's does."""
    handlers = request.app.exception_handlers
    for kind in type(exc).__mro__:
        handler = handlers.get(kind)
        if handler is not None and kind is not Exception:
            response: Response = await handler(request, exc)
            return response
    raise exc


def _valid_action(scope: Scope, body: bytes) -> Any:
    """The action body as the route's model validates it, or None: not JSON as FastAPI reads
    JSON here (exactly ``application/json``), or refused by the model."""
    content_type = next((v for n, v in scope["headers"] if n == b"content-type"), None)
    if content_type != _JSON or not body:
        return None
    try:
        return _ACTION_BODY.validate_python(json.loads(body))
    except ValueError:  # JSON's error or the model's (ValidationError): FastAPI says which
        return None


async def _whole_body(receive: Receive) -> bytes | None:
    """The request's body (the body limit has read it already, and hands it on in one
    message); None when the client left."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)
