"""docs/rules.md "A turn" 5 and its Decision: returning a die, and the cascade in staging order."""

from __future__ import annotations

from itertools import permutations

from engine_helpers import cell, expect_illegal, live_codes, ref_valid, state_on

from magdagdon.engine import OFF, Confirm, Difficulty, GameState, Phase, Roll, Stage, Unstage, legal

P = Difficulty.PEACEFUL
ONE_THREE = ("3...", "....", "....", "....")


def _stage_all(s: GameState, *moves: tuple[int, int]) -> GameState:
    for die, c in moves:
        s = s.apply(Stage(die, c))
    return s


def test_a_returned_die_goes_back_to_the_tray_and_can_be_placed_again() -> None:
    s = state_on(P, ONE_THREE, (4, 2, 1, 1))
    s = s.apply(Stage(0, cell(0, 1)))
    s = s.apply(Unstage(0))
    assert s.staged == (OFF, OFF, OFF, OFF)
    assert s.order == ()
    assert s.live == s.board
    assert s.tray == (0, 1, 2, 3)
    s = s.apply(Stage(0, cell(1, 0)))
    assert s.staged[0] == cell(1, 0)


def test_cascade_chain_returns_every_die_that_depended_on_the_returned_one() -> None:
    # 3 | 4 5 6 in row 0: the 5 hangs on the 4 and the 6 on the 5
    s = state_on(P, ONE_THREE, (4, 5, 6, 1))
    s = _stage_all(s, (0, cell(0, 1)), (1, cell(0, 2)), (2, cell(0, 3)))
    s = s.apply(Unstage(0))
    assert s.staged == (OFF, OFF, OFF, OFF)
    assert s.order == ()
    assert s.live == s.board


def test_cascade_rechecks_in_staging_order() -> None:
    # Stage 4 at (0,1), then 5 at (1,1) (hangs on the 4), then 5 at (1,2) (hangs on the first 5).
    # Returning the 4 returns the first 5 (checked first), and then the second 5, which only had
    # the first 5 as a neighbour. Checked in another order, the second 5 would have stayed.
    s = state_on(P, ONE_THREE, (4, 5, 5, 1))
    s = _stage_all(s, (0, cell(0, 1)), (1, cell(1, 1)), (2, cell(1, 2)))
    s = s.apply(Unstage(0))
    assert s.staged == (OFF, OFF, OFF, OFF)
    assert s.order == ()


def test_a_later_die_that_is_still_valid_stays() -> None:
    # 4 at (0,1); 3 at (1,0) next to the permanent 3; 4 at (1,1) next to the 4 and the staged 3
    s = state_on(P, ONE_THREE, (4, 3, 4, 6))
    s = _stage_all(s, (0, cell(0, 1)), (1, cell(1, 0)), (2, cell(1, 1)))
    s = s.apply(Unstage(0))
    assert s.staged == (OFF, cell(1, 0), cell(1, 1), OFF)
    assert s.order == (1, 2)
    codes = live_codes(s)
    assert codes[cell(1, 1)] == 4
    assert codes[cell(0, 1)] == 0


def test_a_die_before_the_returned_one_stays() -> None:
    s = state_on(P, ONE_THREE, (4, 5, 6, 1))
    s = _stage_all(s, (0, cell(0, 1)), (1, cell(0, 2)), (2, cell(0, 3)))
    s = s.apply(Unstage(1))  # the 6 hung on the 5: it returns; the 4 stays
    assert s.staged == (cell(0, 1), OFF, OFF, OFF)
    assert s.order == (0,)


def test_on_an_empty_board_the_next_die_becomes_the_first_die() -> None:
    # with no number left, any empty cell is valid: the die next to the returned one stays
    s = state_on(P, ("....", "....", "....", "...."), (3, 4, 5, 1))
    s = _stage_all(s, (0, cell(0, 0)), (1, cell(0, 1)), (2, cell(0, 2)))
    s = s.apply(Unstage(0))
    assert s.staged == (OFF, cell(0, 1), cell(0, 2), OFF)
    assert s.order == (1, 2)
    s = state_on(P, ("....", "....", "....", "...."), (3, 4, 5, 1))
    s = _stage_all(s, (1, cell(0, 1)), (0, cell(0, 0)), (2, cell(0, 2)))
    s = s.apply(Unstage(1))  # the 3 stays as the first die; the 5 no longer touches a number
    assert s.staged == (cell(0, 0), OFF, OFF, OFF)
    assert s.order == (0,)


def test_remaining_dice_keep_their_staging_order_and_a_restaged_die_goes_last() -> None:
    s = state_on(P, ONE_THREE, (3, 2, 4, 4))
    s = _stage_all(s, (2, cell(0, 1)), (0, cell(1, 0)), (1, cell(2, 0)))
    assert s.order == (2, 0, 1)
    s = s.apply(Unstage(0))  # the 2 at (2,0) hung on the 3 at (1,0): it returns too
    assert s.order == (2,)
    s = s.apply(Stage(0, cell(1, 0)))
    assert s.order == (2, 0)


def test_every_die_left_staged_is_valid_without_the_returned_one() -> None:
    s = state_on(P, ONE_THREE, (4, 3, 4, 5))
    s = _stage_all(s, (0, cell(0, 1)), (1, cell(1, 0)), (2, cell(1, 1)), (3, cell(0, 2)))
    for die in range(4):
        after = s.apply(Unstage(die))
        codes = after.codes()
        for d in after.order:
            assert ref_valid(codes, after.staged[d], after.dice[d])
            codes[after.staged[d]] = after.dice[d]


def test_unstage_errors() -> None:
    s = state_on(P, ONE_THREE, (4, 3, 4, 5))
    expect_illegal(s, Unstage(0), "die_not_staged")
    expect_illegal(s, Unstage(4), "unknown_die")
    expect_illegal(s, Unstage(-1), "unknown_die")
    expect_illegal(GameState.new(P, 1), Unstage(0), "not_your_turn_phase")
    m = state_on(P, ("1...", "....", "....", "...."), (4, 4, 6, 6))
    assert m.phase is Phase.MAGDAGDON
    expect_illegal(m, Unstage(0), "not_your_turn_phase")


def test_roll_after_unstage_is_still_refused() -> None:
    s = state_on(P, ONE_THREE, (4, 3, 4, 5)).apply(Stage(0, cell(0, 1))).apply(Unstage(0))
    expect_illegal(s, Roll(), "not_your_turn_phase")


def test_returning_the_last_die_gives_the_position_before_it() -> None:
    # 3 4 5 along row 0, then the 5 goes back: the 4 stays, and the 5 may go there again.
    start = state_on(P, ONE_THREE, (4, 5, 1, 1))
    one = start.apply(Stage(0, cell(0, 1)))
    two = one.apply(Stage(1, cell(0, 2)))
    back = two.apply(Unstage(1))
    assert back == one
    assert back.valid_cells() == one.valid_cells()
    assert cell(0, 2) in back.valid_cells()[1]
    assert back.apply(Stage(1, cell(0, 2))) == two
    # and the same position reached in a new roll of another game is equal, not shared
    other = state_on(P, ONE_THREE, (4, 5, 1, 1)).apply(Stage(0, cell(0, 1)))
    assert other == one
    assert other.legal_actions() == one.legal_actions()


def test_returning_the_last_staged_die_answers_the_state_it_was_staged_from() -> None:
    s = state_on(P, ONE_THREE, (4, 5, 6, 1))
    one = s.apply(Stage(0, cell(0, 1)))
    two = one.apply(Stage(1, cell(0, 2)))
    assert two.apply(Unstage(1)) is one
    assert one.apply(Unstage(0)) is s
    # Not the last die: the 5 hangs on the 4, so the cascade returns it too.
    assert two.apply(Unstage(0)) == s


def test_the_returns_and_confirm_of_a_position() -> None:
    assert legal.unstages((2, 0), 3) == (Unstage(2), Unstage(0))  # below NIGHTMARE's minimum
    assert legal.unstages((2, 0), 2) == (Unstage(2), Unstage(0), Confirm())
    assert legal.unstages((), 2) == ()
    for minimum in range(5):
        for order in (
            *permutations(range(4), 1),
            *permutations(range(4), 2),
            *permutations(range(4), 3),
            *permutations(range(4)),
        ):
            confirm = (Confirm(),) if len(order) >= minimum else ()
            assert legal.unstages(order, minimum) == (*(Unstage(d) for d in order), *confirm)
