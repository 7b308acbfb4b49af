"""The daily challenge's number and commitment (docs/rules.md "Modes and records"), on literal
days. The seed itself is the server's (tests/api/test_api_daily_fair.py)."""

from __future__ import annotations

import hashlib
from datetime import date

from magdagdon.engine import Difficulty
from magdagdon.engine.daily import commitment, daily_number, seed_text


def test_the_commitment_is_specs_sha256_of_the_seed_text() -> None:
    text = "MAGDAGDON daily 2026-12-01 nightmare 5045791191867541"
    assert seed_text(date(2026, 12, 1), Difficulty.NIGHTMARE, 5045791191867541) == text
    expected = hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert commitment(date(2026, 12, 1), Difficulty.NIGHTMARE, 5045791191867541) == expected
    assert expected == expected.lower()
    assert len(expected) == 64


def test_the_commitment_binds_the_day_the_difficulty_and_the_seed() -> None:
    day, seed = date(2026, 12, 9), 2**53 - 1
    made = {
        commitment(day, Difficulty.PEACEFUL, seed),
        commitment(day, Difficulty.SURVIVAL, seed),
        commitment(date(2026, 12, 10), Difficulty.PEACEFUL, seed),
        commitment(day, Difficulty.PEACEFUL, seed - 1),
    }
    assert len(made) == 4


def test_the_number_counts_days_from_the_first_challenge() -> None:
    assert daily_number(date(2026, 12, 1)) == 1
    assert daily_number(date(2026, 12, 31)) == 31
    assert daily_number(date(2027, 1, 1)) == 32
    assert daily_number(date(2028, 12, 1)) == 1 + 366 + 365  # 2028 is a leap year
