"""docs/rules.md "MAGDAGDON and RUINs": the check after ROLL and after every Power, RUINs, being
stuck."""

from __future__ import annotations

from engine_helpers import (
    cell,
    codes_of,
    expect_illegal,
    live_codes,
    ref_can_place,
    state_on,
)

from magdagdon.engine import (
    OFF,
    Adjust,
    Confirm,
    Difficulty,
    GameState,
    Phase,
    Roll,
    Ruin,
    Stage,
    Unstage,
)
from magdagdon.engine.board import EMPTY_BOARD
from magdagdon.engine.search import can_place

P, S, N = Difficulty.PEACEFUL, Difficulty.SURVIVAL, Difficulty.NIGHTMARE
ONE = ("1...", "....", "....", "....")
EMPTY_ROWS = ("....", "....", "....", "....")
CORRIDOR = ("3...", "RRRR", "RRRR", "RRRR")  # three empty cells in a row after a 3


def test_magdagdon_right_after_a_roll() -> None:
    s = state_on(P, ONE, (4, 4, 6, 6))  # nothing fits next to a 1
    assert s.phase is Phase.MAGDAGDON
    assert s.dice == (4, 4, 6, 6)
    assert s.staged == (OFF, OFF, OFF, OFF)
    assert s.valid_cells() == {}
    assert not s.can_confirm
    assert not s.stuck
    assert not ref_can_place(codes_of(*ONE), s.dice, 2)
    actions = list(s.legal_actions())
    assert [a for a in actions if isinstance(a, Ruin)] == [Ruin(c) for c in range(1, 16)]
    assert not [a for a in actions if isinstance(a, Stage | Confirm | Unstage)]


def test_nightmare_far_apart_dice_on_an_empty_board() -> None:
    # 1, 1, 3, 5: two 1s fit side by side, but no third die can join them
    s = state_on(N, EMPTY_ROWS, (1, 3, 5, 1))
    assert s.phase is Phase.MAGDAGDON
    assert not ref_can_place([0] * 16, (1, 3, 5, 1), 3)
    assert state_on(P, EMPTY_ROWS, (1, 3, 5, 1)).phase is Phase.PLACE
    assert state_on(N, EMPTY_ROWS, (1, 2, 5, 6)).phase is Phase.MAGDAGDON
    assert state_on(N, EMPTY_ROWS, (1, 2, 3, 6)).phase is Phase.PLACE
    assert can_place(EMPTY_BOARD, (1, 1, 6, 6), 2)
    assert not can_place(EMPTY_BOARD, (1, 1, 6, 6), 3)


def test_the_check_needs_an_order_not_one_die_at_a_time() -> None:
    # 3 | . . : a 5 fits only after a 4; the roll 4, 5 can place 2 only in that order
    s = state_on(P, ("3..R", "RRRR", "RRRR", "RRRR"), (5, 4, 1, 1))
    assert s.phase is Phase.PLACE
    assert s.min_required == 2
    assert s.valid_cells() == {0: [], 1: [cell(0, 1)], 2: [], 3: []}
    s = s.apply(Stage(1, cell(0, 1)))
    assert s.valid_cells() == {0: [cell(0, 2)], 2: [], 3: []}


def test_magdagdon_may_be_accepted_with_powers_left() -> None:
    s = state_on(P, ONE, (4, 4, 6, 6))
    assert s.powers_left == 3
    after = s.apply(Ruin(cell(2, 2)))
    assert after.phase is Phase.ROLL
    assert after.codes() == codes_of("1...", "....", "..R.", "....")
    assert after.powers_used == 0
    assert after.dice == ()
    assert after.turn == s.turn


def test_ruin_only_on_an_empty_cell() -> None:
    s = state_on(P, ("1R..", "....", "....", "...."), (4, 4, 6, 6))
    assert s.phase is Phase.MAGDAGDON
    expect_illegal(s, Ruin(cell(0, 0)), "invalid_cell")  # a number
    expect_illegal(s, Ruin(cell(0, 1)), "invalid_cell")  # a RUIN
    expect_illegal(s, Ruin(16), "invalid_cell")
    expect_illegal(s, Ruin(-1), "invalid_cell")
    assert s.empty_cells() == list(range(2, 16))


def test_magdagdon_cannot_be_forced() -> None:
    s = state_on(P, ONE, (2, 2, 6, 6))
    assert s.phase is Phase.PLACE
    expect_illegal(s, Ruin(cell(3, 3)), "not_your_turn_phase")
    assert not [a for a in s.legal_actions() if isinstance(a, Ruin)]
    expect_illegal(GameState.new(P, 1), Ruin(0), "not_your_turn_phase")


def test_a_power_turns_a_good_roll_bad_and_the_staged_dice_return() -> None:
    s = state_on(P, ONE, (2, 3, 5, 6))  # 2 then 3 fit next to the 1
    s = s.apply(Stage(0, cell(0, 1)))
    assert s.phase is Phase.PLACE
    s = s.apply(Adjust(1, 1))  # 2, 4, 5, 6: no two of them can be placed from the 1
    assert s.dice == (2, 4, 5, 6)
    assert s.phase is Phase.MAGDAGDON
    assert s.staged == (OFF, OFF, OFF, OFF)
    assert s.order == ()
    assert s.live == s.board
    assert s.powers_used == 1
    assert not ref_can_place(s.codes(), s.dice, 2)


def test_a_power_that_keeps_the_roll_good_keeps_the_staged_dice() -> None:
    s = state_on(P, ONE, (2, 3, 5, 6)).apply(Stage(0, cell(0, 1)))
    s = s.apply(Adjust(2, -1))  # 2, 3, 4, 6 still places two
    assert s.phase is Phase.PLACE
    assert s.staged == (cell(0, 1), OFF, OFF, OFF)
    assert s.order == (0,)


def test_the_check_is_against_the_permanent_board_not_the_staged_dice() -> None:
    # staged: 2 at (0,1). The roll 2,4,4,6 from the permanent 1: 2 then ... nothing; MAGDAGDON,
    # although the staged 2 would not matter; the check ignores what is staged.
    s = state_on(P, ONE, (2, 3, 4, 6)).apply(Stage(0, cell(0, 1))).apply(Stage(1, cell(0, 2)))
    s = s.apply(Adjust(2, -1))  # 2,3,3,6: still fine from the permanent board
    assert s.phase is Phase.PLACE
    assert s.order == (0, 1)


def test_a_power_rescues_a_magdagdon() -> None:
    s = state_on(P, ONE, (2, 4, 5, 6))
    assert s.phase is Phase.MAGDAGDON
    s = s.apply(Adjust(1, -1))
    assert s.dice == (2, 3, 5, 6)
    assert s.phase is Phase.PLACE
    assert s.valid_cells()[0] == [cell(0, 1), cell(1, 0)]


def test_a_reroll_rescues_a_magdagdon_or_not() -> None:
    s = state_on(P, ONE, (4, 4, 6, 6))
    saved = s.reroll_with((0, 1), (1, 2))
    assert saved.phase is Phase.PLACE
    assert saved.dice == (1, 2, 6, 6)
    still = s.reroll_with((0,), (5,))
    assert still.phase is Phase.MAGDAGDON
    assert still.powers_used == 1
    # a Power that does not rescue: the check ran again, the phase stays magdagdon
    still = s.apply(Adjust(3, -1))
    assert still.phase is Phase.MAGDAGDON


def test_powers_are_optional_in_magdagdon_and_ruin_comes_after_powers() -> None:
    s = state_on(S, ONE, (4, 4, 6, 6)).apply(Adjust(0, -1))
    assert s.phase is Phase.MAGDAGDON
    assert s.powers_left == 0
    after = s.apply(Ruin(cell(3, 3)))
    assert after.phase is Phase.ROLL
    assert after.power_penalty == 70


def test_stuck_state() -> None:
    # 3 . . . then RUINs: 4 then 5 places the minimum, but a staged 2 blocks every way
    s = state_on(P, CORRIDOR, (2, 4, 5, 6))
    assert s.phase is Phase.PLACE
    assert not s.stuck
    s = s.apply(Stage(0, cell(0, 1)))
    assert s.stuck
    assert not s.can_confirm
    assert s.phase is Phase.PLACE
    assert s.valid_cells() == {1: [], 2: [], 3: []}
    expect_illegal(s, Ruin(cell(0, 3)), "not_your_turn_phase")
    expect_illegal(s, Confirm(), "below_minimum")
    actions = list(s.legal_actions())
    assert not [a for a in actions if isinstance(a, Ruin | Confirm)]
    assert Unstage(0) in actions
    # independent check: the roll places the minimum from the permanent board, not from the live
    assert ref_can_place(s.codes(), s.dice, 2)
    assert not ref_can_place(live_codes(s), (4, 5, 6), 1)
    # returning the die resolves it
    s = s.apply(Unstage(0))
    assert not s.stuck
    s = s.apply(Stage(1, cell(0, 1))).apply(Stage(2, cell(0, 2)))
    assert s.can_confirm


def test_stuck_is_false_once_the_minimum_is_staged() -> None:
    s = state_on(P, CORRIDOR, (3, 3, 5, 6)).apply(Stage(0, cell(0, 1))).apply(Stage(1, cell(0, 2)))
    assert not s.stuck
    assert s.can_confirm


def test_stuck_is_never_reported_outside_place() -> None:
    assert not GameState.new(P, 1).stuck
    assert not state_on(P, ONE, (4, 4, 6, 6)).stuck


def test_ruin_ends_the_turn_and_the_next_roll_goes_on() -> None:
    m = state_on(P, ONE, (4, 4, 6, 6)).apply(Ruin(5))
    assert m.phase is Phase.ROLL
    assert m.min_required == 2
    assert m.score().ruins == 1
    assert m.score().ruin_penalty == 15
    assert m.apply(Roll()).turn == 2


def test_a_power_on_a_tray_die_can_end_being_stuck() -> None:
    s = state_on(P, CORRIDOR, (2, 4, 5, 6)).apply(Stage(0, cell(0, 1)))
    assert s.stuck
    s = s.apply(Adjust(1, -1))  # the 4 becomes a 3: it fits next to the staged 2
    assert s.phase is Phase.PLACE
    assert s.order == (0,)
    assert not s.stuck
    assert s.valid_cells()[1] == [cell(0, 2)]


def test_a_power_while_stuck_that_ruins_the_roll_returns_the_dice() -> None:
    # 2, 4, 5, 6 from the 3: only 4 then 5 works. Turning the 5 into a 6 leaves nothing
    s = state_on(P, CORRIDOR, (2, 4, 5, 6)).apply(Stage(0, cell(0, 1)))
    s = s.apply(Adjust(2, 1))
    assert s.phase is Phase.MAGDAGDON
    assert s.order == ()
    assert s.staged == (OFF, OFF, OFF, OFF)
