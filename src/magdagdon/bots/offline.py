"""The hint in the page's engine worker (Pyodide), when the server cannot be reached: the server's
own hint (``hints.best``, the same bots and tables) for a game the worker holds, JSON text in and
out like ``magdagdon.engine.host``.

``hint(request)``: ``{"state": codec state}`` (the caller's game), or ``{}`` for the game the
worker keeps open (``host.open_game`` / ``host.act``); answers the API's hint (``action``,
``placement`` as ``{"die", "cell"}`` in staging order, ``expected_value``, ``version`` when the
kept game's is known), or ``{"error": {"code", "message", "status"}}`` as every refusal of
``host.answer``.
"""

from __future__ import annotations

from typing import Any

from magdagdon.bots import hints
from magdagdon.engine import host, state_from_json
from magdagdon.engine.errors import GameOverError


def hint(request: str) -> str:
    """The hint for the requested game, as JSON text; its errors answered as every request of
    the worker's engine is (``host.answer``)."""

    def work(data: dict[str, Any]) -> dict[str, Any]:
        version: int | None = None
        kept = host.kept_game()
        if "state" in data:
            state = state_from_json(data["state"])
        elif kept is not None:
            state, version = kept
        else:
            raise host.NoGameOpenError("no game is open")
        if state.is_over:
            raise GameOverError("the game is over; there is nothing left to hint")
        action, placement, value = hints.best(state)
        found: dict[str, Any] = {
            "action": action,
            "placement": [{"die": die, "cell": cell} for die, cell in placement],
            "expected_value": value,
        }
        if version is not None:
            found["version"] = version
        return found

    return host.answer(request, "a hint request", work)
