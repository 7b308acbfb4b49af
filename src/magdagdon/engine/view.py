"""The state view: the JSON game state of docs/api.md, built from the engine alone.

The server (``magdagdon.api.game_state``) and the page's engine worker (Pyodide) both answer
with it, so a game looks the same whether played online or in the page. Standard library and
engine only: the few fields that are the game record's, not the rules' (its id, version, mode,
day, hints, rank), are passed in.

>>> from magdagdon.engine import Difficulty, GameState
>>> view = state_view(GameState.new(Difficulty.PEACEFUL, seed=1), game_id="g1", version=0)
>>> view["phase"], view["board"][0], view["powers"]["left"], view["daily"]
('roll', [None, None, None, None], 3, None)
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from datetime import date
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Literal,
    TypedDict,
    get_args,
    get_origin,
    get_type_hints,
)

from magdagdon.engine.actions import Adjust, Reroll, Ruin
from magdagdon.engine.board import RUIN_CODE, SIZE, to_codes
from magdagdon.engine.codec import cell_to_json
from magdagdon.engine.daily import daily_number
from magdagdon.engine.scoring import Score, score_codes
from magdagdon.engine.state import OFF

if TYPE_CHECKING:
    from collections.abc import Callable

    from magdagdon.engine.state import GameState

# The view's shapes, declared once: the API's response models are read off them
# (``api/schemas/derive.py``); a string beside a type is the field's description there, a
# dataclass beside it the shape it is the JSON form of (:func:`json_form`).
Cell = list[int]  # [row, column]


Mode = Literal["normal", "daily", "practice", "tutorial"]


class DieView(TypedDict):
    id: int
    value: int
    cell: Annotated[Cell | None, "Where the die is staged, or null in the tray."]


class PowersView(TypedDict):
    total: int
    used: int
    left: int
    penalty: int
    next_penalty: int | None


#: A score as JSON: the engine's ``Score`` (``engine/scoring.py``), its lines ``LineScore``.
ScoreView = Annotated[dict[str, Any], Score]


class DailyView(TypedDict):
    date: Annotated[str, "YYYY-MM-DD (UTC)"]
    number: int


class StateView(TypedDict):
    """A game as the player sees it (docs/api.md's "game state"); every field comes from the engine
    or the store. (The engine's state is ``magdagdon.engine.GameState``.)"""

    id: str
    difficulty: Literal["peaceful", "survival", "nightmare"]
    phase: Literal["roll", "place", "magdagdon", "over"]
    turn: int
    version: Annotated[int, "The number of accepted actions."]
    board: Annotated[list[list[int | Literal["ruin"] | None]], "4 rows of 4: permanent cells only."]
    dice: list[DieView]
    valid_cells: dict[str, list[Cell]]
    min_required: int
    can_confirm: bool
    stuck: bool
    powers: PowersView
    score: ScoreView
    preview: Annotated[
        ScoreView,
        "The score of the board with the staged dice, as if KUMPIRMAHIN were pressed now (the "
        "same as score when nothing is staged).",
    ]
    adjust: Annotated[
        dict[str, list[Literal[-1, 1]]], "For each tray die, the deltas a Power may apply now."
    ]
    can_reroll: bool
    ruinable: list[Cell]
    hints_used: int
    rank: int | None
    rank_among: Annotated[
        int | None, "In phase over, for a ranked game: how many High Scores its difficulty has."
    ]
    finished_at: str | None
    abandoned: Annotated[bool, "The game was abandoned when a newer one started."]
    mode: Mode
    daily: Annotated[DailyView | None, "The day's challenge of a daily or practice game."]


def board_view(state: GameState) -> list[list[int | Literal["ruin"] | None]]:
    """4 rows of 4 permanent cells: a number, ``"ruin"`` or None (empty)."""
    cells: list[int | Literal["ruin"] | None]
    cells = [None if c == 0 else "ruin" if c == RUIN_CODE else c for c in state.codes()]
    return [cells[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]


def _json_form(shape: type) -> Callable[[Any], dict[str, Any]]:
    """The function that answers an instance of the dataclass ``shape`` as JSON: the object of
    its fields in their order, a field that is a tuple of dataclasses as the list of their
    forms. It is compiled once from the fields, as ``dataclasses`` compiles a class's
    ``__init__``, so that it costs what the dict written out would (the view is built after
    every action): a generic walk over the fields costs three times as much."""
    hints = get_type_hints(shape)
    scope: dict[str, Any] = {}
    items = []
    for field in fields(shape):
        hint, name = hints[field.name], field.name
        inner = get_args(hint)[0] if get_origin(hint) is tuple else None
        if isinstance(inner, type) and is_dataclass(inner):
            scope[f"_{name}"] = _json_form(inner)
            items.append(f"{name!r}: [_{name}(item) for item in value.{name}]")
        else:
            items.append(f"{name!r}: value.{name}")
    exec(f"def form(value):\n    return {{{', '.join(items)}}}", scope)
    form: Callable[[Any], dict[str, Any]] = scope["form"]
    return form


#: A score's JSON form (``ScoreView``): its fields in their order, its lines' too.
score_view: Callable[[Score], dict[str, Any]] = _json_form(Score)


def daily_view(daily_date: str | None) -> DailyView | None:
    """The day's challenge (``YYYY-MM-DD``) of a daily or practice game, with its number."""
    if daily_date is None:
        return None
    return {"date": daily_date, "number": daily_number(date.fromisoformat(daily_date))}


def state_view(
    state: GameState,
    *,
    game_id: str,
    version: int,
    mode: Mode = "normal",
    daily_date: str | None = None,
    hints_used: int = 0,
    rank: int | None = None,
    rank_among: int | None = None,
    finished_at: str | None = None,
    abandoned: bool = False,
) -> StateView:
    """The game state JSON (a dict of JSON values, keys in the API's order) of ``state`` in the
    game ``game_id`` after ``version`` accepted actions; the rest is the game record's."""
    adjust: dict[str, list[Literal[-1, 1]]] = {}
    can_reroll = False
    ruinable: list[list[int]] = []
    for action in state.legal_actions():
        if isinstance(action, Adjust):
            adjust.setdefault(str(action.die), []).append(-1 if action.delta < 0 else 1)
        elif isinstance(action, Reroll):
            can_reroll = True
        elif isinstance(action, Ruin):
            ruinable.append(cell_to_json(action.cell))
    score = state.score()
    # the score of the board with the staged dice, as if KUMPIRMAHIN were pressed now
    preview = score_codes(to_codes(state.live), state.power_penalty) if state.order else score
    difficulty = state.difficulty
    return {
        "id": game_id,
        "difficulty": difficulty.value,
        "phase": state.phase.value,
        "turn": state.turn,
        "version": version,
        "board": board_view(state),
        "dice": [
            {"id": die, "value": value, "cell": None if cell == OFF else cell_to_json(cell)}
            for die, (value, cell) in enumerate(zip(state.dice, state.staged, strict=True))
        ],
        "valid_cells": {
            str(die): [cell_to_json(c) for c in cells] for die, cells in state.valid_cells().items()
        },
        "min_required": state.min_required,
        "can_confirm": state.can_confirm,
        "stuck": state.stuck,
        "powers": {
            "total": difficulty.power_uses,
            "used": state.powers_used,
            "left": state.powers_left,
            "penalty": state.power_penalty,
            "next_penalty": state.next_penalty,
        },
        "score": score_view(score),
        "preview": score_view(preview),
        "adjust": adjust,
        "can_reroll": can_reroll,
        "ruinable": ruinable,
        "hints_used": hints_used,
        "rank": rank,
        "rank_among": rank_among,
        "finished_at": finished_at,
        "abandoned": abandoned,
        "mode": mode,
        "daily": daily_view(daily_date),
    }
