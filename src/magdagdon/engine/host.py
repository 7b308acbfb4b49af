"""The engine for a host that speaks JSON text only: the page's engine worker (Pyodide).

Each call takes one JSON request and answers one JSON reply, so no Python object crosses into
JavaScript. The host keeps one game in memory, the one the page plays: :func:`open_game` opens
it from its log (its seed and actions, replayed by the engine's one replay, ``replays.py``, as a
sync or an import replays it) and :func:`act` plays one action on it, so that a move costs the
action alone. Each reply brings the game's ``record`` (the state view's record fields:
``game_id``, ``version``, ``mode``, ``daily_date``, ``hints_used``…) and its state ``view``
(``magdagdon.engine.view``), the server's JSON. A refused request answers
``{"error": {"code", "message", "status"}}`` with the server's codes and statuses and changes
nothing; every call reads its request and answers its errors the same way (:func:`answer`), the
worker's hint too (``magdagdon.bots.offline``).

>>> import json
>>> game = {"difficulty": "peaceful", "seed": 1, "game_id": "g1", "actions": []}
>>> opened = json.loads(open_game(json.dumps(game)))
>>> opened["view"]["phase"], opened["record"]["version"], opened["seed"]
('roll', 0, 1)
>>> rolled = json.loads(act('{"action": {"type": "roll"}}'))
>>> rolled["view"]["phase"], rolled["view"]["version"], len(rolled["view"]["dice"])
('place', 1, 4)
>>> json.loads(act('{"action": {"type": "roll"}}'))["error"]["code"]
'not_your_turn_phase'
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from magdagdon.engine.codec import action_from_json, action_to_json
from magdagdon.engine.errors import IllegalActionError, MalformedError
from magdagdon.engine.replays import ReplayError, replay_log
from magdagdon.engine.rules import Difficulty
from magdagdon.engine.view import state_view

if TYPE_CHECKING:
    from collections.abc import Callable

    from magdagdon.engine.state import GameState

#: The record fields a state view takes besides the state, with their types.
RECORD_FIELDS: dict[str, tuple[type, ...]] = {
    "game_id": (str,),
    "version": (int,),
    "mode": (str,),
    "daily_date": (str, type(None)),
    "hints_used": (int,),
    "rank": (int, type(None)),
    "rank_among": (int, type(None)),
    "finished_at": (str, type(None)),
    "abandoned": (bool,),
}

#: The game modes of docs/api.md.
MODES = ("normal", "daily", "practice", "tutorial")


class NoGameOpenError(IllegalActionError):
    """An action before any game is open."""

    code = "not_found"


#: The game kept open: its state and record (one at most).
_kept: list[tuple[GameState, dict[str, Any]]] = []


def answer(request: str, what: str, work: Callable[[dict[str, Any]], dict[str, Any]]) -> str:
    """``work`` of the request's JSON object (``what`` names it in an error) as JSON text, or
    the error of what it raised — a rule's refusal answers the rule's code, a log that does not
    replay the code of its first refused action, anything else not understood ``malformed`` —
    with the status the API answers the same refusal with (docs/api.md: 409 a rule's refusal now,
    422 what is not understood or does not replay, 404 no game), so that the page treats an
    answer of its engine as one of the server."""
    try:
        data = json.loads(request)
        if not isinstance(data, dict):
            raise MalformedError(f"{what} is a JSON object")
        return json.dumps(work(data))
    except ReplayError as exc:
        code, message, status = exc.code, str(exc), 422
    except NoGameOpenError as exc:
        code, message, status = exc.code, exc.message, 404
    except IllegalActionError as exc:
        code, message, status = exc.code, exc.message, 409
    except (MalformedError, ValueError) as exc:
        code, message, status = "malformed", str(exc), 422
    return json.dumps({"error": {"code": code, "message": message, "status": status}})


def _record(data: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(data.get("game_id"), str):
        raise MalformedError("a game has at least a game_id")
    for key, value in data.items():
        types = RECORD_FIELDS.get(key)
        if types is None:
            raise MalformedError(f"{key!r} is no record field")
        if type(value) not in types:
            raise MalformedError(f"{key!r} may not be {value!r}")
    if data.get("mode", "normal") not in MODES:
        raise MalformedError(f"the mode is one of {', '.join(MODES)}")
    return data


def _keep(state: GameState, record: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """Keep ``state`` as the open game and answer ``{"record", "view"}`` and ``extra``."""
    _kept[:] = [(state, record)]
    return {"record": record, "view": state_view(state, **record), **extra}


def open_game(request: str) -> str:
    """Keep a game: ``{"difficulty", "game_id", "seed", "actions": [...]}`` and the other
    record fields but ``version``; the actions are replayed from the seed. Answers ``{"record",
    "view", "seed"}`` (``version`` is the number of actions), or an error naming the action
    that does not replay (the game kept before stays). A daily challenge's seed is its server's
    secret until the day is over: the page brings the published seed of a past day (``GET
    /api/daily?date=``) and never has today's."""

    def work(data: dict[str, Any]) -> dict[str, Any]:
        fields = dict(data)
        difficulty = Difficulty(fields.pop("difficulty", None))
        seed = fields.pop("seed", None)
        actions = fields.pop("actions", [])
        if not isinstance(actions, list):
            raise MalformedError("the actions are a list")
        if "version" in fields:
            raise MalformedError("a game's version is the number of its actions")
        record = _record(fields)
        replayed = replay_log(difficulty, seed, actions)
        return _keep(replayed.state, {**record, "version": len(actions)}, seed=replayed.state.seed)

    return answer(request, "a game to open", work)


def act(request: str) -> str:
    """``{"action"}`` on the kept game → ``{"record", "view", "action"}`` (the action as the log
    keeps it), ``version`` one more; a refused action answers an error and changes nothing."""

    def work(data: dict[str, Any]) -> dict[str, Any]:
        if not _kept:
            raise NoGameOpenError("no game is open")
        state, record = _kept[0]
        action = action_from_json(data.get("action"))
        after = state.apply(action)
        record_after = {**record, "version": record["version"] + 1}
        return _keep(after, record_after, action=action_to_json(action))

    return answer(request, "an action request", work)


def kept_game() -> tuple[GameState, int] | None:
    """The game kept open and its version, or None: what the worker's hint
    (``magdagdon.bots.offline``) is asked about."""
    if not _kept:
        return None
    state, record = _kept[0]
    return state, record["version"]
