"""The engine for a host that speaks JSON text only: the page's engine worker (Pyodide).

Each call takes one JSON request and answers one JSON reply, so no Python object crosses into
JavaScript. A game is carried by the caller as two JSON values — ``state`` (the engine's codec
form, ``state_to_json``: enough to go on playing) and ``record`` (the state view's record
fields: ``game_id``, ``version``, ``mode``, ``daily_date``, ``hints_used``…) — and every reply
brings the next ones with the state ``view`` (``magdagdon.engine.view``), the server's JSON.
A refused action answers ``{"error": {"code", "message"}}`` with the server's codes and changes
nothing.

>>> import json
>>> game = json.loads(new_game('{"difficulty": "peaceful", "seed": 1, "game_id": "g1"}'))
>>> game["view"]["phase"], game["record"]["version"]
('roll', 0)
>>> request = {"state": game["state"], "record": game["record"], "action": {"type": "roll"}}
>>> rolled = json.loads(play(json.dumps(request)))
>>> rolled["view"]["phase"], rolled["view"]["version"], len(rolled["view"]["dice"])
('place', 1, 4)
>>> request["action"] = {"type": "confirm"}
>>> json.loads(play(json.dumps(request)))["error"]["code"]
'not_your_turn_phase'
"""

from __future__ import annotations

import json
from typing import Any

from magdagdon.engine.codec import (
    action_from_json,
    action_to_json,
    state_from_json,
    state_to_json,
)
from magdagdon.engine.errors import IllegalActionError, MalformedError
from magdagdon.engine.rules import Difficulty
from magdagdon.engine.state import GameState
from magdagdon.engine.view import state_view

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


def _record(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict) or not isinstance(data.get("game_id"), str):
        raise MalformedError("a record is an object with at least a game_id")
    record = {"version": 0, **data}
    for key, value in record.items():
        types = RECORD_FIELDS.get(key)
        if types is None:
            raise MalformedError(f"{key!r} is no record field")
        if type(value) not in types:
            raise MalformedError(f"{key!r} may not be {value!r}")
    if record.get("mode", "normal") not in MODES:
        raise MalformedError(f"the mode is one of {', '.join(MODES)}")
    return record


def _reply(state: GameState, record: dict[str, Any]) -> str:
    view = state_view(state, **record)
    return json.dumps({"state": state_to_json(state), "record": record, "view": view})


def _error(code: str, message: str) -> str:
    return json.dumps({"error": {"code": code, "message": message}})


def new_game(request: str) -> str:
    """A new game: ``{"difficulty", "game_id", "seed"}``, ``mode`` and the other record fields.
    A daily challenge's seed is its server's secret until the day is over: the page brings the
    published seed of a past day (``GET /api/daily?date=``) and never has today's."""
    try:
        data = json.loads(request)
        if not isinstance(data, dict):
            raise MalformedError("a new game is a JSON object")
        fields = dict(data)
        difficulty = Difficulty(fields.pop("difficulty", None))
        seed = fields.pop("seed", None)
        record = _record(fields)
        if type(seed) is not int or seed < 0:
            raise MalformedError(f"the seed must be a whole number ≥ 0, not {seed!r}")
        return _reply(GameState.new(difficulty, seed), record)
    except (MalformedError, ValueError) as exc:
        return _error("malformed", str(exc))


def play(request: str) -> str:
    """``{"state", "record", "action"}`` → the state after the action, ``version`` one more."""
    try:
        data = json.loads(request)
        if not isinstance(data, dict):
            raise MalformedError("a play is a JSON object")
        state = state_from_json(data.get("state"))
        record = _record(data.get("record"))
        action = action_from_json(data.get("action"))
        after = state.apply(action)
    except IllegalActionError as exc:
        return _error(exc.code, exc.message)
    except (MalformedError, ValueError) as exc:
        return _error("malformed", str(exc))
    return _reply(after, {**record, "version": record["version"] + 1})


def view(request: str) -> str:
    """``{"state", "record"}`` → the same reply as :func:`play` without an action."""
    try:
        data = json.loads(request)
        if not isinstance(data, dict):
            raise MalformedError("a view request is a JSON object")
        return _reply(state_from_json(data.get("state")), _record(data.get("record")))
    except (MalformedError, ValueError) as exc:
        return _error("malformed", str(exc))


# ----- one game kept in memory ---------------------------------------------------------------
# The page's engine worker plays one game at a time: it opens it once (from its seed and action
# log) and then sends only actions, so a move costs the action alone, not a re-read of the
# whole state.

_kept: list[tuple[GameState, dict[str, Any]]] = []


def _keep(state: GameState, record: dict[str, Any], **extra: Any) -> str:
    """Keep ``state`` as the open game and answer ``{"record", "view"}`` and ``extra``: the one
    answer shape of :func:`open_game` and :func:`act`."""
    _kept[:] = [(state, record)]
    return json.dumps({"record": record, "view": state_view(state, **record), **extra})


def open_game(request: str) -> str:
    """Keep a game: ``{"difficulty", "game_id", "seed", "actions": [...]}`` and the other
    record fields; the actions are replayed from the seed. Answers ``{"record", "view",
    "seed"}`` (``version`` is the number of actions), or an error naming the action that does
    not replay (nothing kept then)."""
    try:
        data = json.loads(request)
        if not isinstance(data, dict):
            raise MalformedError("a game to open is a JSON object")
        fields = dict(data)
        actions = fields.pop("actions", [])
        if not isinstance(actions, list):
            raise MalformedError("the actions are a list")
        started = json.loads(new_game(json.dumps({**fields, "version": 0})))
        if "error" in started:
            return json.dumps(started)
        state = state_from_json(started["state"])
        for index, action in enumerate(actions, 1):
            try:
                state = state.apply(action_from_json(action))
            except IllegalActionError as exc:
                return _error(exc.code, f"action {index} does not replay: {exc.message}")
    except (MalformedError, ValueError) as exc:
        return _error("malformed", str(exc))
    record = {**started["record"], "version": len(actions)}
    return _keep(state, record, seed=started["state"]["seed"])


def act(request: str) -> str:
    """``{"action"}`` on the kept game → ``{"record", "view", "action"}`` (the action as the log
    keeps it), ``version`` one more; a refused action answers an error and changes nothing."""
    if not _kept:
        return _error("not_found", "no game is open")
    state, record = _kept[0]
    try:
        data = json.loads(request)
        if not isinstance(data, dict):
            raise MalformedError("an action request is a JSON object")
        action = action_from_json(data.get("action"))
        after = state.apply(action)
    except IllegalActionError as exc:
        return _error(exc.code, exc.message)
    except (MalformedError, ValueError) as exc:
        return _error("malformed", str(exc))
    return _keep(after, {**record, "version": record["version"] + 1}, action=action_to_json(action))
