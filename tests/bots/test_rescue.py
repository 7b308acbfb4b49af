"""The mean over the rolls of a turn's table, a roll that places nothing rescued by one Power
(``bots/rescue.py``): what it means, counted over the 1,296 ordered rolls; and the pick of a small
table, and the sum in C of a large one, give the same float to the last bit as the roll by roll
loop they replace (kept here)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from magdagdon.bots.planner import ONE_CHANGE, ROLL_CHANCES, SUPERSETS, best_by_roll
from magdagdon.bots.rescue import SMALL, gaps_of, rescued, rescued_mean, rescued_means
from magdagdon.engine.rules import DELTAS, adjusted

PARTS = sorted(SUPERSETS)


def _holds(roll: tuple[int, ...], part: tuple[int, ...]) -> bool:
    return not Counter(part) - Counter(roll)


def _counted(table: dict[tuple[int, ...], float], ruin: float, penalty: int | None) -> float:
    """The mean over every ordered roll of four dice, each one's value found from the rule."""

    def best(roll: tuple[int, ...]) -> float | None:
        found = [value for part, value in table.items() if _holds(roll, part)]
        return max(found) if found else None

    total = 0.0
    rolls = list(itertools.product(range(1, 7), repeat=4))
    for roll in rolls:
        value = best(roll)
        if value is None:
            value = ruin
            if penalty is not None:
                for die, delta in itertools.product(range(4), DELTAS):
                    changed = adjusted(roll[die], delta)
                    if changed is None:
                        continue
                    saved = best((*roll[:die], changed, *roll[die + 1 :]))
                    if saved is not None and saved - penalty > value:
                        value = saved - penalty
        total += value
    return total / len(rolls)


@pytest.mark.parametrize(
    ("table", "ruin", "penalty"),
    [
        ({(6, 6): 100.0}, 50.0, 10),  # a pair of sixes; one 6 and a 5 is one DAGDAG +1 from it
        ({(6, 6): 100.0}, 50.0, None),  # no use left: the RUIN
        ({(6, 6): 100.0}, 95.0, 10),  # the RUIN is worth more than the rescue
        ({(1, 2): 80.0, (3,): 60.0, (2, 2, 5): 90.0}, 10.0, 5),
        ({}, -15.0, 5),  # nothing places: every roll the RUIN
    ],
)
def test_the_mean_is_each_rolls_best_board_or_its_rescue(
    table: dict[tuple[int, ...], float], ruin: float, penalty: int | None
) -> None:
    assert rescued_mean(table, ruin, penalty) == pytest.approx(_counted(table, ruin, penalty))


def test_a_pair_of_sixes_by_hand() -> None:
    """Two sixes or more place the pair: 1,296 − 5⁴ − 4·5³ = 171 rolls at 100. Exactly one 6
    and a 5 beside it, whose DAGDAG +1 makes the pair: 4·(5³ − 4³) = 244 rolls at 100 − 10. The
    others cannot make it with one change: the RUIN's 50."""
    expected = (171 * 100.0 + 244 * 90.0 + (1296 - 171 - 244) * 50.0) / 1296
    assert rescued_mean({(6, 6): 100.0}, 50.0, 10) == pytest.approx(expected)


_VALUE = st.sampled_from([-15.0, 0.0, 12.5, 101.25, 101.25, 333.0]) | st.floats(-50, 500)


@settings(max_examples=300, deadline=None)
@given(
    table=st.dictionaries(st.sampled_from(PARTS), _VALUE, max_size=SMALL + 30),
    ruin=_VALUE,
    penalty=st.none() | st.integers(0, 40),
)
def test_the_pick_and_the_kept_gaps_are_the_loop_to_the_last_bit(
    table: dict[tuple[int, ...], float], ruin: float, penalty: int | None
) -> None:
    """Ties among the table's values and between a rescue and the RUIN included."""
    best = best_by_roll(table)
    before = _loop(best, ruin, penalty)
    assert rescued_mean(table, ruin, penalty) == before
    assert rescued(best, ruin, penalty) == before
    assert rescued(best, ruin, penalty, gaps_of(best)) == before


@settings(max_examples=300, deadline=None)
@given(
    table=st.dictionaries(st.sampled_from(PARTS), _VALUE, max_size=SMALL + 30),
    asked=st.lists(st.tuples(_VALUE, st.none() | st.sampled_from([10, 20, 40])), max_size=5),
)
def test_one_table_for_several_penalties_is_each_to_the_last_bit(
    table: dict[tuple[int, ...], float], asked: list[tuple[float, int | None]]
) -> None:
    """The means of one table for several RUINs and penalties, ranked once (a mean whose rolls
    take the same values as one before it is not summed again), are each the loop's."""
    best = best_by_roll(table)
    assert rescued_means(table, asked) == [_loop(best, ruin, penalty) for ruin, penalty in asked]


def _loop(best: list[float | None], ruin: float, penalty: int | None) -> float:
    """The mean as it was written before: roll by roll, each product added as it comes."""
    total = 0.0
    for chance, value, changed in zip(ROLL_CHANCES, best, ONE_CHANGE, strict=True):
        if value is None:
            value = ruin
            if penalty is not None:
                for j in changed:
                    saved = best[j]
                    if saved is not None and saved - penalty > value:
                        value = saved - penalty
        total += chance * value
    return total
