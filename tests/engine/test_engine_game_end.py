"""docs/rules.md "End of the game", the turn count, and a roll's chance outcomes."""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest
from engine_helpers import board_of, cell, expect_illegal

from magdagdon.engine import (
    Adjust,
    Confirm,
    Difficulty,
    GameState,
    Phase,
    Reroll,
    Roll,
    Ruin,
    Stage,
    Unstage,
    roll_outcomes,
)
from plans import plan_placement

P, S, N = Difficulty.PEACEFUL, Difficulty.SURVIVAL, Difficulty.NIGHTMARE
LAST_TWO = ("3333", "3333", "3333", "33..")


def test_the_game_ends_when_a_confirm_fills_the_last_cell() -> None:
    s = GameState(P, 1, board=board_of(*LAST_TWO), turn=7, powers_used=1)
    s = s.roll_with((3, 4, 2, 6))
    s = s.apply(Stage(0, cell(3, 2)))
    assert s.phase is Phase.PLACE  # one cell still empty of anything permanent
    s = s.apply(Stage(1, cell(3, 3)))
    over = s.apply(Confirm())
    assert over.phase is Phase.OVER
    assert over.is_over
    assert over.turn == 8
    assert over.dice == ()
    assert list(over.legal_actions()) == []
    assert over.chance_outcomes() == ()
    assert over.valid_cells() == {}
    assert not over.can_confirm
    score = over.score()
    # rows: 3333 x3 (12+40 each), 3334 (13); columns 3333 x3 (52 each), 3334 (13)
    assert score.total == 2 * (3 * 52 + 13) - 10
    assert score.power_penalty == 10


def test_the_game_ends_when_a_ruin_fills_the_last_cell() -> None:
    s = GameState(S, 1, board=board_of("3333", "3333", "3333", "333.")).roll_with((1, 1, 5, 6))
    assert s.phase is Phase.MAGDAGDON
    assert s.min_required == 1
    over = s.apply(Ruin(cell(3, 3)))
    assert over.phase is Phase.OVER
    assert over.score().ruins == 1
    assert over.score().total == 2 * (3 * 52 + 9) - 15


def test_a_game_of_ruins_only() -> None:
    s = GameState(N, 4, board=board_of("RRRR", "RRRR", "RRRR", "RRR."))
    assert s.phase is Phase.ROLL
    s = s.roll_with((1, 2, 3, 4))
    assert s.phase is Phase.PLACE  # the first die goes on the last cell
    assert s.min_required == 1
    s = s.apply(Stage(3, 15)).apply(Confirm())
    assert s.phase is Phase.OVER
    assert s.score().total == 8 - 15 * 15


def test_the_game_is_not_over_while_a_cell_is_empty() -> None:
    s = GameState(P, 1, board=board_of(*LAST_TWO)).roll_with((3, 3, 3, 3))
    s = s.apply(Stage(0, cell(3, 2))).apply(Stage(1, cell(3, 3))).apply(Unstage(1))
    assert s.phase is Phase.PLACE
    assert not s.is_over


def test_every_action_after_the_end_is_refused_with_game_over() -> None:
    s = GameState(P, 1, board=board_of("3333", "3333", "3333", "333."))
    over = s.roll_with((3, 1, 1, 1)).apply(Stage(0, 15)).apply(Confirm())
    assert over.is_over
    for action in (
        Roll(),
        Stage(0, 0),
        Unstage(0),
        Confirm(),
        Adjust(0, 1),
        Reroll((0,)),
        Ruin(0),
    ):
        expect_illegal(over, action, "game_over")


def test_a_whole_game_turn_count_is_the_number_of_rolls() -> None:
    s = GameState.new(P, seed=2024)
    rolls = 0
    while not s.is_over:
        assert s.phase is Phase.ROLL
        s = s.apply(Roll())
        rolls += 1
        if s.phase is Phase.MAGDAGDON and s.powers_left:
            s = s.apply(Reroll(tuple(range(4))))
        if s.phase is Phase.MAGDAGDON:
            s = s.apply(Ruin(s.empty_cells()[0]))
        else:
            for stage in plan_placement(s):
                s = s.apply(stage)
            s = s.apply(Confirm())
        assert s.turn == rolls
    assert 1 <= s.turn <= 16


def test_the_126_chance_outcomes() -> None:
    s = GameState.new(P, 3)
    outcomes = s.chance_outcomes()
    assert len(outcomes) == 126
    assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
    counts = Counter(tuple(sorted(r)) for r in product(range(1, 7), repeat=4))
    assert dict(outcomes) == {values: ways / 1296 for values, ways in counts.items()}
    by_values = dict(outcomes)
    assert by_values[(1, 1, 1, 1)] == 1 / 1296
    assert by_values[(1, 1, 1, 2)] == 4 / 1296
    assert by_values[(1, 1, 2, 2)] == 6 / 1296
    assert by_values[(1, 1, 2, 3)] == 12 / 1296
    assert by_values[(1, 2, 3, 4)] == 24 / 1296
    assert not s.roll_with((1, 2, 3, 4)).chance_outcomes()


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_roll_outcomes_of_n_dice(n: int) -> None:
    counts = Counter(tuple(sorted(r)) for r in product(range(1, 7), repeat=n))
    assert dict(roll_outcomes(n)) == dict(counts)
    assert sum(w for _, w in roll_outcomes(n)) == 6**n
