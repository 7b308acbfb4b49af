"""The look-ahead's memos across Power penalties give the values it gives without them: the end
values for every later penalty from one walk (``bots/penalty_walk.py``), and the evaluation's
best board by roll kept by board and minimum (``ExpectimaxBot._evaluated_by_roll``)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pytest

from magdagdon.bots.expectimax import ExpectimaxBot
from magdagdon.bots.penalty_walk import boards_by_multiset
from magdagdon.bots.planner import extension_table
from magdagdon.engine import Difficulty, GameState
from magdagdon.engine.board_codes import EMPTY

if TYPE_CHECKING:
    from magdagdon.engine.board_codes import Codes

#: Literal boards of a PEACEFUL game (greedy, seed 7) and two more near the end.
EXACT: tuple[Codes, ...] = (
    (6, 5, 4, 4, 5, 4, 3, 0, 4, 3, 2, 0, 3, 0, 1, 1),
    (6, 5, 4, 4, 5, 4, 3, 0, 4, 3, 2, 0, 3, 0, 0, 1),
    (6, 0, 4, 7, 5, 4, 3, 2, 4, 3, 2, 1, 3, 0, 1, 1),
    (0, 5, 4, 4, 5, 4, 3, 2, 4, 3, 2, 1, 3, 2, 1, 1),
)
EARLY: tuple[Codes, ...] = (
    (0, 0, 4, 4, 0, 4, 3, 0, 0, 0, 2, 0, 0, 0, 1, 1),
    (0, 0, 4, 4, 0, 4, 3, 0, 0, 3, 2, 0, 0, 0, 1, 1),
    (0, 0, 4, 0, 0, 4, 3, 0, 0, 0, 2, 0, 0, 0, 1, 1),
)
PENALTIES = (*Difficulty.PEACEFUL.penalties, None)


def _tuned(penalties_from: int | None) -> ExpectimaxBot:
    bot = ExpectimaxBot()
    bot.expected_before_roll(GameState.new(Difficulty.PEACEFUL, 1))  # PEACEFUL's settings
    bot.penalties_from = penalties_from
    return bot


def _random_boards(empties: int, count: int, seed: int) -> list[Codes]:
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        codes = [rng.choice((1, 2, 3, 3, 4, 4, 5, 6, 7)) for _ in range(16)]
        for cell in rng.sample(range(16), empties):
            codes[cell] = EMPTY
        boards.append(tuple(codes))
    return boards


@pytest.mark.parametrize("codes", [*EXACT, *EARLY, *_random_boards(4, 6, 3)])
def test_boards_by_multiset_is_the_table(codes: Codes) -> None:
    """The best of each multiset's boards is ``extension_table``'s entry (a score telling every
    board apart), and each board adds exactly its multiset's values to ``codes``."""
    empties = codes.count(EMPTY)
    low, high = min(2, empties), min(4, empties)
    score: dict[Codes, float] = {}

    def scored(board: Codes) -> float:
        return score.setdefault(board, float(hash(board) % 1_000_003))

    groups = boards_by_multiset(codes, low, high)
    table = extension_table(codes, low, high, scored)
    assert {part: max(map(scored, boards)) for part, boards in groups.items()} == table
    met = [board for boards in groups.values() for board in boards]
    assert len(met) == len(set(met))  # each board under one multiset only
    for part, boards in groups.items():
        for board in boards:
            added = sorted(b for a, b in zip(codes, board, strict=True) if a != b)
            assert tuple(added) == part
            assert all(a in (EMPTY, b) for a, b in zip(codes, board, strict=True))


@pytest.mark.parametrize("start", [0, 2])
@pytest.mark.parametrize("order", [PENALTIES, PENALTIES[::-1], (20, None, 10, 40)])
def test_end_values_for_every_penalty_are_the_same(
    order: tuple[int | None, ...], start: int
) -> None:
    """Near the end, the values filled for the later penalties from one walk are each
    penalty's own value to the last bit, whatever penalty is asked first and whichever are
    filled; penalties are never mixed up."""
    shared, alone = _tuned(start), _tuned(None)
    for codes in EXACT:
        values = {p: shared.after_turn(codes, 3, p) for p in order}
        for p in order:
            own = _tuned(None).after_turn(codes, 3, p)
            assert values[p] == own == alone.after_turn(codes, 3, p)
        assert len(set(values.values())) > 1 or codes.count(EMPTY) == 0


def test_evaluated_by_roll_is_kept_by_board_and_minimum() -> None:
    """The evaluation's table kept by board and minimum gives every penalty the value a bot
    without it gives, and two boards or two minimums never share an entry."""
    shared = _tuned(None)
    for codes in EARLY:
        for p in PENALTIES:
            assert shared.after_turn(codes, 3, p) == _tuned(None).after_turn(codes, 3, p)
    for codes in EARLY:
        for minimum in (1, 2, 3):
            fresh = _tuned(None)
            assert shared._evaluated_by_roll(codes, minimum) == fresh._evaluated_by_roll(
                codes, minimum
            )
    kept = shared._evaluated
    assert set(kept) >= {(codes, 3) for codes in EARLY}
    assert len({id(found) for found in kept.values()}) == len(kept)
