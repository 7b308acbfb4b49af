"""docs/rules.md "A turn" and "Difficulty": ROLL, the minimum, CONFIRM, unused dice, the turn
count."""

from __future__ import annotations

import pytest
from engine_helpers import board_of, cell, codes_of, expect_illegal, state_on

from magdagdon.engine import (
    OFF,
    Confirm,
    Difficulty,
    GameState,
    Phase,
    Reroll,
    Roll,
    Stage,
)

P, S, N = Difficulty.PEACEFUL, Difficulty.SURVIVAL, Difficulty.NIGHTMARE
EMPTY_ROWS = ("....", "....", "....", "....")


def test_a_new_game_waits_for_the_first_roll() -> None:
    s = GameState.new(P, seed=5)
    assert (s.phase, s.turn, s.dice, s.staged, s.order, s.powers_used) == (
        Phase.ROLL,
        0,
        (),
        (),
        (),
        0,
    )
    assert s.codes() == [0] * 16
    assert list(s.legal_actions()) == [Roll()]


def test_roll_draws_four_dice_from_the_seeded_stream() -> None:
    s = GameState.new(S, seed=99).apply(Roll())
    assert s.dice == (5, 2, 3, 6)  # die_value(99, 0…3)
    assert s.draws == 4
    assert s.turn == 1
    assert s.staged == (OFF, OFF, OFF, OFF)
    assert s.order == ()
    assert s.tray == (0, 1, 2, 3)
    # the next turn's roll goes on with the stream: the two dice left unused are not drawn again
    s = s.apply(Stage(2, cell(1, 1))).apply(Stage(1, cell(1, 2)))  # the 3, the 2 beside it
    s = s.apply(Confirm()).apply(Roll())
    assert s.codes() == codes_of("....", ".32.", "....", "....")
    assert (s.dice, s.draws, s.turn) == ((3, 3, 2, 6), 8, 2)  # die_value(99, 4…7)


def test_same_seed_same_dice_other_seed_other_dice() -> None:
    a = GameState.new(P, seed=7).apply(Roll())
    b = GameState.new(P, seed=7).apply(Roll())
    assert a == b
    rolls = {GameState.new(P, seed=s).apply(Roll()).dice for s in range(20)}
    assert len(rolls) > 10


@pytest.mark.parametrize(("difficulty", "minimum"), [(P, 2), (S, 2), (N, 3)])
def test_base_minimum(difficulty: Difficulty, minimum: int) -> None:
    s = state_on(difficulty, EMPTY_ROWS, (3, 3, 4, 4))
    assert s.min_required == minimum


FULL_BUT = {
    3: ("3333", "3333", "3333", "3..."),
    2: ("3333", "3333", "3333", "33.."),
    1: ("3333", "3333", "3333", "333."),
}


@pytest.mark.parametrize(
    ("difficulty", "empty", "minimum"),
    [(N, 3, 3), (N, 2, 2), (N, 1, 1), (P, 3, 2), (P, 2, 2), (P, 1, 1), (S, 1, 1)],
)
def test_minimum_shrinks_to_the_empty_cells(
    difficulty: Difficulty, empty: int, minimum: int
) -> None:
    s = state_on(difficulty, FULL_BUT[empty], (3, 3, 3, 3))
    assert s.phase is Phase.PLACE
    assert s.min_required == minimum


def test_nightmare_last_cells_need_three_then_two_then_one() -> None:
    # a NIGHTMARE game on a board with 4 empty cells: 3 dice, then the minimum follows the board
    s = state_on(N, ("3333", "3333", "3333", "...."), (3, 3, 3, 3))
    assert s.min_required == 3
    s = s.apply(Stage(0, cell(3, 0))).apply(Stage(1, cell(3, 1))).apply(Stage(2, cell(3, 2)))
    s = s.apply(Confirm())
    assert s.min_required == 1
    s = state_on(N, ("3333", "3333", "3333", "3..."), (3, 3, 3, 3))
    assert s.min_required == 3
    s = state_on(N, ("3333", "3333", "3333", "33.."), (4, 4, 4, 4))
    assert s.min_required == 2


def test_minimum_counts_empty_cells_at_the_start_of_the_turn() -> None:
    # 2 empty cells on PEACEFUL: the minimum stays 2 after one die is staged (one cell left)
    s = state_on(P, FULL_BUT[2], (3, 3, 3, 3))
    s = s.apply(Stage(0, cell(3, 2)))
    assert s.min_required == 2
    assert not s.can_confirm
    expect_illegal(s, Confirm(), "below_minimum")
    s = s.apply(Stage(1, cell(3, 3)))
    assert s.can_confirm
    # NIGHTMARE, 3 empty cells: staging does not lower the minimum either
    s = state_on(N, FULL_BUT[3], (3, 3, 3, 3))
    s = s.apply(Stage(0, cell(3, 1))).apply(Stage(1, cell(3, 2)))
    assert s.min_required == 3
    expect_illegal(s, Confirm(), "below_minimum")


def test_ruins_are_not_empty_for_the_minimum() -> None:
    s = state_on(N, ("3RRR", "RRRR", "RRRR", "RR.."), (3, 3, 3, 3))
    assert s.min_required == 2


def test_confirm_below_minimum_is_refused() -> None:
    s = state_on(P, EMPTY_ROWS, (3, 3, 4, 4))
    assert not s.can_confirm
    expect_illegal(s, Confirm(), "below_minimum")
    s = s.apply(Stage(0, cell(1, 1)))
    assert not s.can_confirm
    expect_illegal(s, Confirm(), "below_minimum")
    s = s.apply(Stage(2, cell(1, 2)))
    assert s.can_confirm
    assert Confirm() in list(s.legal_actions())


def test_confirm_makes_the_staged_numbers_permanent_and_discards_the_rest() -> None:
    s = state_on(P, EMPTY_ROWS, (3, 5, 4, 1))
    s = s.apply(Stage(0, cell(1, 1))).apply(Stage(2, cell(1, 2)))
    draws = s.draws
    score_before = s.score()
    assert score_before.base == 0  # staged dice are not yet permanent
    s = s.apply(Confirm())
    assert s.phase is Phase.ROLL
    assert s.codes() == codes_of("....", ".34.", "....", "....")
    assert s.dice == ()
    assert s.staged == ()
    assert s.order == ()
    assert s.score().base == 14
    # the two unused dice are gone: the next roll draws four new dice
    s = s.apply(Roll())
    assert draws == 4
    assert s.dice == (6, 6, 2, 6)  # die_value(1, 4…7)
    assert s.staged == (OFF, OFF, OFF, OFF)


def test_more_than_the_minimum_may_be_staged() -> None:
    s = state_on(P, EMPTY_ROWS, (3, 4, 4, 5))
    s = s.apply(Stage(0, cell(0, 0))).apply(Stage(1, cell(0, 1)))
    assert s.can_confirm
    s = s.apply(Stage(2, cell(1, 0))).apply(Stage(3, cell(0, 2)))
    assert s.can_confirm
    assert s.tray == ()
    s = s.apply(Confirm())
    assert s.codes() == codes_of("345.", "4...", "....", "....")


def test_the_turn_count_is_the_number_of_rolls() -> None:
    s = GameState(P, 3, board=board_of("3...", "....", "....", "....")).roll_with((4, 4, 1, 1))
    assert s.turn == 1
    s = s.apply(Reroll((2, 3)))  # a reroll is not a new turn
    assert s.turn == 1
    s = s.reroll_with((2,), (4,))
    assert s.turn == 1
    s = s.apply(Stage(0, cell(0, 1))).apply(Stage(1, cell(1, 0))).apply(Confirm())
    assert s.turn == 1
    s = s.roll_with((4, 4, 4, 4))
    assert s.turn == 2


def test_roll_is_refused_during_a_turn() -> None:
    s = state_on(P, EMPTY_ROWS, (3, 3, 4, 4))
    expect_illegal(s, Roll(), "not_your_turn_phase")
