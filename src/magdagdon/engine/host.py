"""The engine for a host that speaks JSON text only: the page's engine worker (Pyodide).

Each call takes one JSON request and answers one JSON reply, so no Python object crosses into
JavaScript. A game is carried by the caller as two JSON values — ``state`` (the engine's codec
form, ``state_to_json``: enough to go on playing) and ``record`` (the state view's record
fields: ``game_id``, ``version``, ``mode``, ``daily_date``, ``hints_used``…) — and every reply
brings the next ones with the state ``view`` (``magdagdon.engine.view``), the server's JSON.
A refused action answers ``{"error": {"code", "message"}}`` with the server's codes and changes
nothing. Every call reads its request and answers its errors the same way (:func:`_answer`);
a game opened from its log is replayed by the engine's one replay (``replays.py``).

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
from typing import TYPE_CHECKING, Any

from magdagdon.engine.codec import action_from_json, action_to_json, state_from_json, state_to_json
from magdagdon.engine.errors import IllegalActionError, MalformedError
from magdagdon.engine.replays import ReplayError, game_seed, replay_log
from magdagdon.engine.rules import Difficulty
from magdagdon.engine.state import GameState
from magdagdon.engine.view import state_view

if TYPE_CHECKING:
    from collections.abc import Callable

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


def _answer(request: str, what: str, work: Callable[[dict[str, Any]], str]) -> str:
    """``work`` of the request's JSON object (``what`` names it in an error): its reply, or the
    error of what it raised — a rule's refusal answers the rule's code, a log that does not
    replay the code of its first refused action, anything else not understood ``malformed``."""
    try:
        data = json.loads(request)
        if not isinstance(data, dict):
            raise MalformedError(f"{what} is a JSON object")
        return work(data)
    except ReplayError as exc:
        return _error(exc.code, str(exc))
    except IllegalActionError as exc:
        return _error(exc.code, exc.message)
    except (MalformedError, ValueError) as exc:
        return _error("malformed", str(exc))


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


def _started(data: dict[str, Any]) -> tuple[Difficulty, int, dict[str, Any]]:
    """A new game's difficulty, seed and record fields. A daily challenge's seed is its
    server's secret until the day is over: the page brings the published seed of a past day
    (``GET /api/daily?date=``) and never has today's."""
    fields = dict(data)
    difficulty = Difficulty(fields.pop("difficulty", None))
    seed = game_seed(fields.pop("seed", None))
    return difficulty, seed, _record(fields)


def new_game(request: str) -> str:
    """A new game: ``{"difficulty", "game_id", "seed"}``, ``mode`` and the other record
    fields."""

    def work(data: dict[str, Any]) -> str:
        difficulty, seed, record = _started(data)
        return _reply(GameState.new(difficulty, seed), record)

    return _answer(request, "a new game", work)


def play(request: str) -> str:
    """``{"state", "record", "action"}`` → the state after the action, ``version`` one more."""

    def work(data: dict[str, Any]) -> str:
        state = state_from_json(data.get("state"))
        record = _record(data.get("record"))
        after = state.apply(action_from_json(data.get("action")))
        return _reply(after, {**record, "version": record["version"] + 1})

    return _answer(request, "a play", work)


def view(request: str) -> str:
    """``{"state", "record"}`` → the same reply as :func:`play` without an action."""

    def work(data: dict[str, Any]) -> str:
        return _reply(state_from_json(data.get("state")), _record(data.get("record")))

    return _answer(request, "a view request", work)


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

    def work(data: dict[str, Any]) -> str:
        fields = dict(data)
        actions = fields.pop("actions", [])
        if not isinstance(actions, list):
            raise MalformedError("the actions are a list")
        difficulty, seed, record = _started({**fields, "version": 0})
        replayed = replay_log(difficulty, seed, actions)
        record["version"] = len(actions)
        return _keep(replayed.state, record, seed=replayed.state.seed)

    return _answer(request, "a game to open", work)


def act(request: str) -> str:
    """``{"action"}`` on the kept game → ``{"record", "view", "action"}`` (the action as the log
    keeps it), ``version`` one more; a refused action answers an error and changes nothing."""
    if not _kept:
        return _error("not_found", "no game is open")
    state, record = _kept[0]

    def work(data: dict[str, Any]) -> str:
        action = action_from_json(data.get("action"))
        after = state.apply(action)
        record_after = {**record, "version": record["version"] + 1}
        return _keep(after, record_after, action=action_to_json(action))

    return _answer(request, "an action request", work)


def kept_game() -> tuple[GameState, int] | None:
    """The game kept open (:func:`open_game`, :func:`act`) and its version, or None: what the
    worker's hint (``magdagdon.bots.offline``) is asked about."""
    if not _kept:
        return None
    state, record = _kept[0]
    return state, record["version"]
