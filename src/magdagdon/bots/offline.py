"""The hint in the page's engine worker (Pyodide), when the server cannot be reached: the server's
own hint (``hints.best``, the same bots and tables) for a game the worker holds, JSON text in and
out like ``magdagdon.engine.host``.

``hint(request)``: ``{"state": codec state}`` (the caller's game), or ``{}`` for the game the
worker keeps open (``host.open_game`` / ``host.act``); answers the API's hint (``action``,
``placement`` as ``{"die", "cell"}`` in staging order, ``expected_value``, ``version`` when the
kept game's is known), or ``{"error": {"code", "message"}}``.
"""

from __future__ import annotations

import json
from typing import Any

from magdagdon.bots import hints
from magdagdon.engine import host, state_from_json
from magdagdon.engine.errors import MalformedError


def hint(request: str) -> str:
    """The hint for the requested game, as JSON text."""
    try:
        data = json.loads(request)
        if not isinstance(data, dict):
            raise MalformedError("a hint request is a JSON object")
        version: int | None = None
        kept = host.kept_game()
        if "state" in data:
            state = state_from_json(data["state"])
        elif kept is not None:
            state, version = kept
        else:
            return _error("not_found", "no game is open")
    except (MalformedError, ValueError, KeyError, TypeError) as exc:
        return _error("malformed", str(exc))
    if state.is_over:
        return _error("game_over", "the game is over; there is nothing left to hint")
    action, placement, value = hints.best(state)
    answer: dict[str, Any] = {
        "action": action,
        "placement": [{"die": die, "cell": cell} for die, cell in placement],
        "expected_value": value,
    }
    if version is not None:
        answer["version"] = version
    return json.dumps(answer)


def _error(code: str, message: str) -> str:
    return json.dumps({"error": {"code": code, "message": message}})
