"""The daily challenge's seed and number (docs/rules.md "Modes and records"), on literal days."""

from __future__ import annotations

from datetime import date

from magdagdon.engine import Difficulty, GameState, Roll
from magdagdon.engine.daily import daily_number, daily_seed


def test_the_seed_is_specs_sha256_formula() -> None:
    # sha256("MAGDAGDON daily 2026-12-01 nightmare")[:8] big-endian, modulo 2**53
    assert daily_seed(date(2026, 12, 1), Difficulty.NIGHTMARE) == 5045791191867541


def test_each_day_and_difficulty_has_its_own_seed() -> None:
    days = [date(2026, 12, d) for d in range(1, 29)]
    seeds = {daily_seed(day, difficulty) for day in days for difficulty in Difficulty}
    assert len(seeds) == len(days) * 3
    assert all(0 <= seed < 2**53 for seed in seeds)


def test_the_number_counts_days_from_the_first_challenge() -> None:
    assert daily_number(date(2026, 12, 1)) == 1
    assert daily_number(date(2026, 12, 31)) == 31
    assert daily_number(date(2027, 1, 1)) == 32
    assert daily_number(date(2028, 12, 1)) == 1 + 366 + 365  # 2028 is a leap year


def test_the_same_day_gives_the_same_dice() -> None:
    seed = daily_seed(date(2027, 3, 14), Difficulty.PEACEFUL)
    first = GameState.new(Difficulty.PEACEFUL, seed).apply(Roll())
    again = GameState.new(Difficulty.PEACEFUL, seed).apply(Roll())
    assert first.dice == again.dice
