"""The rules engine of MAGDAGDON: pure Python, standard library only, no I/O, no clock, no global
random. Everything a player, the server or a bot may do goes through :class:`GameState`.

>>> from magdagdon.engine import Difficulty, GameState, Roll, Stage, Confirm
>>> s = GameState.new(Difficulty.PEACEFUL, seed=1).roll_with((3, 4, 4, 6))
>>> s.phase.value, s.min_required, sorted(s.valid_cells()[0])[:3]
('place', 2, [0, 1, 2])
>>> s = s.apply(Stage(0, 5)).apply(Stage(1, 6))
>>> s.can_confirm, s.valid_cells()  # no cell takes the 6 now: it would touch the 4
(True, {2: [1, 2, 4, 7, 9, 10], 3: []})
>>> s.apply(Stage(3, 7))
Traceback (most recent call last):
...
magdagdon.engine.errors.InvalidCellError: a 6 may not be placed on row 1, column 3
>>> s.apply(Confirm()).phase.value
'roll'
"""

from magdagdon.engine.actions import Action, Adjust, Confirm, Reroll, Roll, Ruin, Stage, Unstage
from magdagdon.engine.board import CELLS, RUIN_CODE, SIZE, cell_of, row_col
from magdagdon.engine.codec import (
    action_from_json,
    action_to_json,
    cell_from_json,
    cell_to_json,
    replay,
    state_from_json,
    state_to_json,
)
from magdagdon.engine.dice import die_value, roll_outcomes
from magdagdon.engine.errors import IllegalActionError, MalformedError
from magdagdon.engine.rules import RUIN_PENALTY, SEED_LIMIT, Difficulty
from magdagdon.engine.scoring import LineScore, Score
from magdagdon.engine.state import OFF, GameState, Phase

__all__ = [
    "CELLS",
    "OFF",
    "RUIN_CODE",
    "RUIN_PENALTY",
    "SEED_LIMIT",
    "SIZE",
    "Action",
    "Adjust",
    "Confirm",
    "Difficulty",
    "GameState",
    "IllegalActionError",
    "LineScore",
    "MalformedError",
    "Phase",
    "Reroll",
    "Roll",
    "Ruin",
    "Score",
    "Stage",
    "Unstage",
    "action_from_json",
    "action_to_json",
    "cell_from_json",
    "cell_of",
    "cell_to_json",
    "die_value",
    "replay",
    "roll_outcomes",
    "row_col",
    "state_from_json",
    "state_to_json",
]
