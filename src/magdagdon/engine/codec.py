"""JSON at the edge: actions and states to plain dicts and back.

Actions use the API's form (``{"type": "stage", "die": 1, "cell": [2, 3]}``); a state's form keeps
everything needed to go on playing, so ``state_from_json(state_to_json(s)) == s``.
"""

from __future__ import annotations

from typing import Any

from magdagdon.engine import rules
from magdagdon.engine.actions import Action, Adjust, Confirm, Reroll, Roll, Ruin, Stage, Unstage
from magdagdon.engine.board import CELLS, SIZE, cell_of, from_codes, row_col, to_codes
from magdagdon.engine.errors import MalformedError
from magdagdon.engine.rules import Difficulty
from magdagdon.engine.state import GameState, Phase

STATE_FORMAT = 1


def cell_to_json(cell: int) -> list[int]:
    """A cell as JSON: ``[row, column]``, as the API writes every cell.

    >>> cell_to_json(11)
    [2, 3]
    """
    return list(row_col(cell))


def cell_from_json(data: Any) -> int:
    """The cell of ``[row, column]``; :class:`MalformedError` when it is not one."""
    if (
        not isinstance(data, list | tuple)
        or len(data) != 2
        or not all(type(x) is int and 0 <= x < SIZE for x in data)
    ):
        raise MalformedError(f"a cell is [row, column] with each 0–3, not {data!r}")
    return cell_of(int(data[0]), int(data[1]))


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if type(value) is not int:
        raise MalformedError(f"{key!r} must be an integer, not {value!r}")
    return value


def action_to_json(action: Action) -> dict[str, Any]:
    if isinstance(action, Roll):
        return {"type": "roll"}
    if isinstance(action, Stage):
        return {"type": "stage", "die": action.die, "cell": cell_to_json(action.cell)}
    if isinstance(action, Unstage):
        return {"type": "unstage", "die": action.die}
    if isinstance(action, Confirm):
        return {"type": "confirm"}
    if isinstance(action, Adjust):
        return {"type": "adjust", "die": action.die, "delta": action.delta}
    if isinstance(action, Reroll):
        return {"type": "reroll", "dice": list(action.dice)}
    return {"type": "ruin", "cell": cell_to_json(action.cell)}


def action_from_json(data: Any) -> Action:
    """An action from its JSON form; :class:`MalformedError` when it is not one."""
    if not isinstance(data, dict):
        raise MalformedError("an action is a JSON object")
    kind = data.get("type")
    if kind == "roll":
        return Roll()
    if kind == "confirm":
        return Confirm()
    if kind == "stage":
        return Stage(_int(data, "die"), cell_from_json(data.get("cell")))
    if kind == "unstage":
        return Unstage(_int(data, "die"))
    if kind == "adjust":
        return Adjust(_int(data, "die"), _int(data, "delta"))
    if kind == "reroll":
        dice = data.get("dice")
        if not isinstance(dice, list) or not all(type(d) is int for d in dice):
            raise MalformedError("'dice' must be a list of die ids")
        return Reroll(tuple(dice))
    if kind == "ruin":
        return Ruin(cell_from_json(data.get("cell")))
    raise MalformedError(f"unknown action type {kind!r}")


def state_to_json(state: GameState) -> dict[str, Any]:
    return {
        "format": STATE_FORMAT,
        "difficulty": state.difficulty.value,
        "seed": state.seed,
        "draws": state.draws,
        "phase": state.phase.value,
        "turn": state.turn,
        "board": to_codes(state.board),
        "dice": list(state.dice),
        "staged": list(state.staged),
        "order": list(state.order),
        "powers_used": state.powers_used,
        "min_required": state.min_required,
    }


def state_from_json(data: Any) -> GameState:
    """A state from :func:`state_to_json`; the staged dice are re-placed on the board."""
    try:
        if data["format"] != STATE_FORMAT:
            raise MalformedError(f"unknown state format {data['format']!r}")
        codes = [int(c) for c in data["board"]]
        if len(codes) != CELLS or not all(0 <= c <= 7 for c in codes):
            raise MalformedError("a board is 16 cell codes 0–7")
        board = from_codes(codes)
        dice = tuple(int(v) for v in data["dice"])
        staged = tuple(int(c) for c in data["staged"])
        order = tuple(int(d) for d in data["order"])
        _check_roll(dice, staged, order)
        live_codes = list(codes)
        for die in order:
            if live_codes[staged[die]]:
                raise MalformedError("a staged die stands on a cell that is not empty")
            live_codes[staged[die]] = dice[die]
        difficulty = Difficulty(data["difficulty"])
        min_required = int(data["min_required"])
        if min_required != rules.min_required(difficulty.base_minimum, codes.count(0)):
            raise MalformedError("'min_required' does not follow from the board")
        return GameState(
            difficulty,
            int(data["seed"]),
            draws=int(data["draws"]),
            phase=Phase(data["phase"]),
            turn=int(data["turn"]),
            board=board,
            dice=dice,
            staged=staged,
            order=order,
            powers_used=int(data["powers_used"]),
            min_required=min_required,
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        if isinstance(exc, MalformedError):
            raise
        raise MalformedError(f"not a saved game state: {exc}") from exc


def _check_roll(dice: tuple[int, ...], staged: tuple[int, ...], order: tuple[int, ...]) -> None:
    if len(dice) not in (0, 4) or len(staged) != len(dice):
        raise MalformedError("a roll is four dice, each with its cell or -1")
    if not all(1 <= v <= 6 for v in dice) or not all(-1 <= c < CELLS for c in staged):
        raise MalformedError("die values are 1–6 and cells 0–15 (or -1 in the tray)")
    on_board = {d for d, cell in enumerate(staged) if cell >= 0}
    if len(set(order)) != len(order) or set(order) != on_board:
        raise MalformedError("the staging order must list exactly the staged dice, once each")
    cells = [staged[d] for d in order]
    if len(set(cells)) != len(cells):
        raise MalformedError("two staged dice on one cell")


def replay(difficulty: Difficulty, seed: int, actions: list[Action]) -> GameState:
    """The state reached by playing ``actions`` from a new game of ``seed``."""
    state = GameState.new(difficulty, seed)
    for action in actions:
        state = state.apply(action)
    return state
