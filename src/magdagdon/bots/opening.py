"""The first turn's look-ahead values, computed once: the hint's dearest search, kept.

On the first turn the board is empty, so every game meets the same few hundred boards: each roll's
best placements and Powers, and the RUINs of a MAGDAGDON. The look-ahead weighs each of them over
the next roll (``ExpectimaxBot.after_turn``: thousands of boards evaluated, 100–200 ms on
NIGHTMARE), and these are the values it finds, kept in ``bots/data/opening.bin`` by
:func:`build` from the bot itself. A bot with the tuned settings reads a value here before it
searches, so the book changes no hint, only its time; ``tests/bots/test_opening.py`` checks a
sample of it against the search, and fails when the evaluation or its tables change until the book
is built again (``python -m magdagdon.bots.opening``).

A review keeps one more figure of the first turn (``bots/review.py``, ``mean_after_choice``):
where a player placed otherwise, the computer's first choice valued as the exact mean of V over
the roll after it, 126 decisions' search (0.5–1 s of CPU) for a figure that is the same in every
game with that roll. They are kept in ``bots/data/opening-means.bin``, by the roll sorted.

And of the player's side, the boards a first turn leaves with at most two cells filled: on
PEACEFUL and SURVIVAL two dice placed (384 boards), on NIGHTMARE a RUIN (a first roll can be a
MAGDAGDON there: no three of its dice can be placed together; 16 boards). Where such a choice
stands apart from the computer's, the review values it as the exact mean of V over the roll
after it, as dear as any other (0.4–1.4 s) and the same in every game. Those means are kept in
``bots/data/opening-boards.bin``, by the board.
"""

from __future__ import annotations

import json
import zlib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from magdagdon.bots.advice import placed
from magdagdon.bots.planner import Placement, turn_plans
from magdagdon.engine import Difficulty, GameState, Phase, Ruin
from magdagdon.engine.board_codes import EMPTY
from magdagdon.engine.dice import roll_chances

if TYPE_CHECKING:
    from collections.abc import Iterator

    from magdagdon.engine.board_codes import Codes

#: ``after_turn``'s key: the board, the difficulty's base minimum, the next Power's penalty (-1:
#: none left).
Key = tuple["Codes", int, int]

PATH = Path(__file__).parent / "data" / "opening.bin"
MEANS = Path(__file__).parent / "data" / "opening-means.bin"
BOARDS = Path(__file__).parent / "data" / "opening-boards.bin"


@cache
def book(difficulty: Difficulty) -> dict[Key, float]:
    """The kept values of ``difficulty`` (empty when no book is there)."""
    if not PATH.exists():
        return {}
    rows = json.loads(zlib.decompress(PATH.read_bytes()))[difficulty.value]
    return {(tuple(codes), base, penalty): value for codes, base, penalty, value in rows}


@cache
def first_means(difficulty: Difficulty) -> dict[tuple[int, ...], float]:
    """The kept means of ``difficulty``'s first turns, by the roll sorted (empty when none)."""
    if not MEANS.exists():
        return {}
    rows = json.loads(zlib.decompress(MEANS.read_bytes()))[difficulty.value]
    return {tuple(dice): value for dice, value in rows}


@cache
def board_means(difficulty: Difficulty) -> dict[Codes, float]:
    """The kept means of the boards a first turn leaves with at most two cells filled
    (``first_boards``) on ``difficulty``, by the board (empty when none)."""
    if not BOARDS.exists():
        return {}
    rows = json.loads(zlib.decompress(BOARDS.read_bytes()))[difficulty.value]
    return {tuple(codes): value for codes, value in rows}


def first_turns(difficulty: Difficulty) -> list[GameState]:
    """The positions the book is made of: the empty board before its roll and after each of the
    126 rolls (no Power used yet)."""
    empty = GameState.new(difficulty, 0)
    return [empty, *(empty.roll_with(values) for values, _ in roll_chances(4))]


def first_plans(difficulty: Difficulty) -> Iterator[tuple[GameState, Codes, Placement]]:
    """Each first roll that can be placed (no Power used), with each board a plan of its turn
    leaves and that plan: the boards are many, so a caller places only those it keeps."""
    for state in first_turns(difficulty)[1:]:
        if state.phase is Phase.PLACE:
            plans = turn_plans(tuple(state.codes()), state.dice, state.min_required)
            for board, plan in plans.items():
                yield state, board, plan


def first_boards(difficulty: Difficulty) -> list[GameState]:
    """The positions a first turn leaves with at most two cells filled (phase roll, no Power
    used), one a board: two dice placed, or a RUIN where the first roll is a MAGDAGDON."""
    found: dict[Codes, GameState] = {}
    for state in first_turns(difficulty)[1:]:
        if state.phase is Phase.MAGDAGDON:
            for action in state.legal_actions():
                if isinstance(action, Ruin):
                    after = state.apply(action)
                    found.setdefault(tuple(after.codes()), after)
    for state, board, plan in first_plans(difficulty):
        if len(board) - board.count(EMPTY) <= 2:
            found.setdefault(board, placed(state, plan))
    return [found[codes] for codes in sorted(found)]


def build(path: Path = PATH) -> dict[str, int]:
    """Write the book: every value the look-ahead computes for the first turns' hints, by a bot
    without a book. Returns the number of values by difficulty."""
    from magdagdon.bots.expectimax import ExpectimaxBot  # the bot reads this module
    from magdagdon.bots.value import Values

    out: dict[str, list[tuple[list[int], int, int, float]]] = {}
    for difficulty in Difficulty:
        bot = ExpectimaxBot(opening=False)
        values = Values(bot, exact_rerolls=False)  # as the hint values (bots/hints.py)
        for state in first_turns(difficulty):
            values.judge(state)
        out[difficulty.value] = [
            (list(codes), base, penalty, value)
            for (codes, base, penalty), value in sorted(bot.after_values().items())
        ]
    data = json.dumps(out, separators=(",", ":")).encode()
    path.write_bytes(zlib.compress(data, 9))
    return {name: len(rows) for name, rows in out.items()}


def build_means(path: Path = MEANS) -> dict[str, int]:
    """Write the kept means: for each difficulty and first roll, ``mean_after_choice`` of the
    computer's choice, with the review's own ``Values``. Returns their number by difficulty."""
    from magdagdon.bots.review import mean_after_choice  # the review reads this module
    from magdagdon.bots.value import Values

    out: dict[str, list[tuple[list[int], float]]] = {}
    for difficulty in Difficulty:
        values = Values()
        out[difficulty.value] = [
            (sorted(state.dice), mean_after_choice(values, state, values.advice(state)))
            for state in first_turns(difficulty)[1:]
        ]
    data = json.dumps(out, separators=(",", ":")).encode()
    path.write_bytes(zlib.compress(data, 9))
    return {name: len(rows) for name, rows in out.items()}


def build_board_means(path: Path = BOARDS) -> dict[str, int]:
    """Write the kept means of the boards of ``first_boards``: the exact mean of V over the roll
    after each, with the review's own ``Values``. Returns their number by difficulty."""
    from magdagdon.bots.value import Values

    out: dict[str, list[tuple[list[int], float]]] = {}
    for difficulty in Difficulty:
        values = Values()
        out[difficulty.value] = [
            (list(state.codes()), values.expected(state)) for state in first_boards(difficulty)
        ]
    data = json.dumps(out, separators=(",", ":")).encode()
    path.write_bytes(zlib.compress(data, 9))
    return {name: len(rows) for name, rows in out.items()}


if __name__ == "__main__":
    print(build(), build_means(), build_board_means())
