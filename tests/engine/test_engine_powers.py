"""docs/rules.md "Majda Powers": BAWAS −1, DAGDAG +1, I-ROLL ULIT, uses and penalties."""

from __future__ import annotations

import pytest
from engine_helpers import cell, expect_illegal, state_on

from magdagdon.engine import (
    Adjust,
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


def _place(difficulty: Difficulty, roll: tuple[int, int, int, int]) -> GameState:
    s = state_on(difficulty, EMPTY_ROWS, roll)
    assert s.phase is Phase.PLACE
    return s


def test_minus_and_plus_change_one_tray_die_by_one() -> None:
    s = _place(P, (3, 3, 4, 4))
    minus = s.apply(Adjust(0, -1))
    assert minus.dice == (2, 3, 4, 4)
    assert minus.powers_used == 1
    assert minus.draws == s.draws  # no die drawn
    plus = minus.apply(Adjust(3, 1))
    assert plus.dice == (2, 3, 4, 5)
    assert plus.powers_used == 2


@pytest.mark.parametrize(("value", "delta"), [(1, -1), (6, 1)])
def test_out_of_range_is_refused_at_no_cost(value: int, delta: int) -> None:
    s = _place(P, (value, 3, 3, 4))
    expect_illegal(s, Adjust(0, delta), "value_out_of_range")
    assert s.powers_used == 0
    assert Adjust(0, delta) not in list(s.legal_actions())


def test_out_of_range_on_survival_after_the_use_is_spent() -> None:
    s = _place(S, (1, 3, 3, 6))
    expect_illegal(s, Adjust(0, -1), "value_out_of_range")
    expect_illegal(s, Adjust(3, 1), "value_out_of_range")
    s = s.apply(Adjust(1, 1))
    assert s.powers_used == 1


@pytest.mark.parametrize("delta", [0, 2, -2])
def test_adjust_changes_by_exactly_one(delta: int) -> None:
    expect_illegal(_place(P, (3, 3, 4, 4)), Adjust(0, delta), "invalid_delta")


def test_powers_only_on_tray_dice() -> None:
    s = _place(P, (3, 3, 4, 4)).apply(Stage(0, cell(1, 1)))
    expect_illegal(s, Adjust(0, 1), "die_staged")
    expect_illegal(s, Adjust(0, -1), "die_staged")
    expect_illegal(s, Reroll((0,)), "die_staged")
    expect_illegal(s, Reroll((1, 0)), "die_staged")
    expect_illegal(s, Adjust(4, 1), "unknown_die")
    expect_illegal(s, Reroll((4,)), "unknown_die")
    legal = list(s.legal_actions())
    assert not [a for a in legal if isinstance(a, Adjust) and a.die == 0]
    assert not [a for a in legal if isinstance(a, Reroll) and 0 in a.dice]


def test_penalties_peaceful() -> None:
    s = _place(P, (3, 3, 4, 4))
    seen = []
    for die in (0, 1, 2):
        assert s.powers_left == 3 - s.powers_used
        seen.append((s.power_penalty, s.next_penalty))
        s = s.apply(Adjust(die, 1))
    seen.append((s.power_penalty, s.next_penalty))
    assert seen == [(0, 10), (10, 20), (30, 40), (70, None)]
    assert s.powers_left == 0
    expect_illegal(s, Adjust(3, 1), "no_powers_left")
    expect_illegal(s, Reroll((3,)), "no_powers_left")
    assert not [a for a in s.legal_actions() if isinstance(a, Adjust | Reroll)]


def test_penalties_survival() -> None:
    s = _place(S, (3, 3, 4, 4))
    assert (s.powers_left, s.power_penalty, s.next_penalty) == (1, 0, 70)
    s = s.apply(Reroll((0, 1, 2, 3)))
    assert (s.powers_left, s.power_penalty, s.next_penalty) == (0, 70, None)
    expect_illegal(s, Adjust(0, 1), "no_powers_left")


def test_nightmare_has_no_powers() -> None:
    s = _place(N, (3, 3, 4, 4))
    assert (s.powers_left, s.power_penalty, s.next_penalty) == (0, 0, None)
    expect_illegal(s, Adjust(0, 1), "no_powers_left")
    expect_illegal(s, Reroll((0,)), "no_powers_left")
    m = state_on(N, EMPTY_ROWS, (1, 3, 5, 1))
    assert m.phase is Phase.MAGDAGDON
    expect_illegal(m, Adjust(1, -1), "no_powers_left")
    assert not [a for a in m.legal_actions() if isinstance(a, Adjust | Reroll)]


def test_power_penalty_is_in_the_score() -> None:
    s = _place(P, (3, 3, 4, 4)).apply(Adjust(0, 1)).apply(Adjust(1, 1))
    score = s.score()
    assert score.power_penalty == 30
    assert score.total == -30


def test_uses_are_per_game_not_per_turn() -> None:
    s = _place(P, (3, 3, 4, 4)).apply(Adjust(0, 1))
    s = s.apply(Stage(0, cell(1, 1))).apply(Stage(1, cell(1, 2))).apply(Confirm())
    s = s.roll_with((3, 3, 3, 3))
    assert s.powers_used == 1
    assert s.powers_left == 2
    assert s.next_penalty == 20


def test_reroll_one_die_draws_from_the_seeded_stream() -> None:
    s = GameState.new(P, seed=42).apply(Roll())
    assert s.dice == (3, 2, 4, 2)  # die_value(42, 0…3)
    after = s.apply(Reroll((2,)))
    assert after.dice == (3, 2, 1, 2)  # die 2 takes die_value(42, 4)
    assert after.draws == 5
    assert after.powers_used == 1


def test_reroll_several_dice_is_one_use() -> None:
    s = GameState.new(P, seed=42).apply(Roll())
    after = s.apply(Reroll((3, 1)))
    assert after.powers_used == 1
    assert after.draws == 6
    # the rerolled dice take the next values of the stream, lowest die id first: 1, then 4
    assert after.dice == (3, 1, 4, 4)
    again = after.apply(Reroll((0, 1, 2, 3)))
    assert again.powers_used == 2
    assert again.dice == (5, 6, 6, 2)  # die_value(42, 6…9)


def test_reroll_with_sets_exact_values_and_keeps_the_others() -> None:
    s = _place(P, (3, 3, 4, 4))
    after = s.reroll_with((0, 2), (5, 1))
    assert after.dice == (5, 3, 1, 4)
    assert after.powers_used == 1


def test_reroll_errors() -> None:
    s = _place(P, (3, 3, 4, 4))
    expect_illegal(s, Reroll(()), "no_dice_chosen")
    expect_illegal(s, Reroll((1, 1)), "duplicate_die")
    expect_illegal(s, Reroll((0, 2, 0)), "duplicate_die")
    expect_illegal(s, Reroll((-1,)), "unknown_die")


def test_powers_only_between_roll_and_the_end_of_the_turn() -> None:
    s = GameState.new(P, 1)
    expect_illegal(s, Adjust(0, 1), "not_your_turn_phase")
    expect_illegal(s, Reroll((0,)), "not_your_turn_phase")
    done = _place(P, (3, 3, 4, 4)).apply(Stage(0, 0)).apply(Stage(1, 1)).apply(Confirm())
    expect_illegal(done, Adjust(0, 1), "not_your_turn_phase")


def test_legal_actions_list_every_power() -> None:
    s = _place(P, (1, 3, 6, 4))
    legal = list(s.legal_actions())
    adjusts = [a for a in legal if isinstance(a, Adjust)]
    assert set(adjusts) == {
        Adjust(0, 1),
        Adjust(1, -1),
        Adjust(1, 1),
        Adjust(2, -1),
        Adjust(3, -1),
        Adjust(3, 1),
    }
    rerolls = [a for a in legal if isinstance(a, Reroll)]
    assert len(rerolls) == 15  # every non-empty subset of the four tray dice
