"""docs/rules.md "Scoring": line sums, the combination bonuses, RUINs and Power penalties."""

from __future__ import annotations

import json
from dataclasses import asdict, fields

import pytest
from engine_helpers import board_of, codes_of, ref_combo_bonus, ref_lines, ref_score, state_on

from magdagdon.engine import Difficulty, GameState, LineScore, Stage
from magdagdon.engine.scoring import Score, board_points, combo_of, line_bonus, score_codes
from magdagdon.engine.view import score_view

P = Difficulty.PEACEFUL


def _row_score(row: str) -> LineScore:
    """The score of ``row`` as the top row of an otherwise empty board."""
    return score_codes(codes_of(row, "....", "....", "...."), 0).rows[0]


@pytest.mark.parametrize("row", ["1234", "2345", "3456", "4321", "5432", "6543"])
def test_straight_in_both_directions(row: str) -> None:
    line = _row_score(row)
    assert (line.bonus, line.combo) == (60, "straight")
    assert line.sum == sum(int(x) for x in row)


def test_straight_in_a_column_reads_top_to_bottom() -> None:
    for col in ("1234", "6543"):
        codes = codes_of(*(f"{x}..." for x in col))
        column = score_codes(codes, 0).columns[0]
        assert (column.bonus, column.combo) == (60, "straight")


@pytest.mark.parametrize("row", ["2134", "1243", "1235", "1324", "3454", "1223", "4312"])
def test_not_a_straight(row: str) -> None:
    line = _row_score(row)
    assert line.combo is None
    assert line.bonus == 0


@pytest.mark.parametrize("value", range(1, 7))
def test_four_of_a_kind(value: int) -> None:
    line = _row_score(str(value) * 4)
    assert (line.sum, line.bonus, line.combo) == (4 * value, 40, "four_of_a_kind")


@pytest.mark.parametrize("row", ["3344", "3443", "3434", "4433", "4343", "1166", "6161"])
def test_two_pairs_in_any_order(row: str) -> None:
    line = _row_score(row)
    assert (line.bonus, line.combo) == (20, "two_pairs")


@pytest.mark.parametrize("row", ["3334", "4333", "1123", "3435", "1236"])
def test_not_two_pairs(row: str) -> None:
    assert _row_score(row).bonus == 0


def test_at_most_one_bonus_the_highest() -> None:
    # four equal values are never also "two pairs": 40, not 40 + 20
    assert _row_score("5555").bonus == 40
    assert combo_of((5, 5, 5, 5)) == "four_of_a_kind"
    bonuses = {
        row: _row_score(row).bonus for row in ("1234", "5555", "5566", "5656", "5665", "5556")
    }
    assert bonuses == {"1234": 60, "5555": 40, "5566": 20, "5656": 20, "5665": 20, "5556": 0}


@pytest.mark.parametrize(("row", "total"), [("12R4", 7), ("R333", 9), ("3R33", 9), ("RRRR", 0)])
def test_a_line_with_a_ruin_scores_its_sum_without_a_bonus(row: str, total: int) -> None:
    line = _row_score(row)
    assert (line.sum, line.bonus, line.combo) == (total, 0, None)


@pytest.mark.parametrize("row", ["123.", ".333", "55.5", "...."])
def test_incomplete_lines_earn_no_bonus(row: str) -> None:
    line = _row_score(row)
    assert line.bonus == 0
    assert line.sum == sum(int(x) for x in row if x.isdigit())


def test_every_number_counts_twice_in_the_base() -> None:
    score = score_codes(codes_of("6...", "....", "....", "...."), 0)
    assert score.base == 12
    score = score_codes(codes_of("12..", "3...", "....", "...."), 0)
    assert score.base == 12
    assert score.total == 12


def test_ruin_penalty_and_a_negative_total() -> None:
    codes = codes_of("RR..", "1...", "....", "....")
    score = score_codes(codes, 70)
    assert (score.ruins, score.ruin_penalty, score.power_penalty) == (2, 30, 70)
    assert score.total == 2 - 30 - 70
    all_ruins = score_codes([7] * 16, 0)
    assert all_ruins.total == -240


def test_full_board_breakdown() -> None:
    codes = codes_of("1234", "2345", "3456", "4567".replace("7", "R"))
    score = score_codes(codes, 10)
    # rows: 1234 (10+60), 2345 (14+60), 3456 (18+60), 456R (15)
    # columns: 1234 (10+60), 2345 (14+60), 3456 (18+60), 456R (15)
    assert score.base == 2 * (10 + 14 + 18 + 15)
    assert score.bonus == 6 * 60
    assert score.total == 114 + 360 - 15 - 10
    assert [r.combo for r in score.rows] == ["straight", "straight", "straight", None]
    assert score.total == ref_score(codes, 10)


def test_the_best_board_scores_544() -> None:
    codes = codes_of("3333", "4444", "5555", "6666")
    score = score_codes(codes, 0)
    assert [r.bonus for r in score.rows] == [40, 40, 40, 40]
    assert [c.combo for c in score.columns] == ["straight"] * 4
    assert score.base == 2 * (12 + 16 + 20 + 24)
    assert score.total == 544
    assert board_points(codes) == 544
    assert ref_score(codes, 0) == 544


def test_live_score_is_the_permanent_board_only() -> None:
    s = GameState(P, 1, board=board_of("3333", "....", "....", "....")).roll_with((3, 3, 3, 3))
    before = s.score()
    assert (before.base, before.bonus, before.total) == (24, 40, 64)
    s = s.apply(Stage(0, 4)).apply(Stage(1, 5))
    assert s.score() == before


@pytest.mark.parametrize(
    "rows",
    [
        ("1234", "2345", "3456", "4566"),
        ("3R33", "4..4", "5R55", "6666"),
        ("RRRR", "RRRR", "RRRR", "RRR1"),
        ("2121", "1212", "2121", "1212"),
        ("....", "....", "....", "...."),
    ],
)
def test_score_matches_the_reference(rows: tuple[str, str, str, str]) -> None:
    codes = codes_of(*rows)
    for penalty in (0, 10, 70):
        assert score_codes(codes, penalty).total == ref_score(codes, penalty)
    assert board_points(codes) == ref_score(codes, 0)
    for line in ref_lines(codes):
        if all(1 <= v <= 6 for v in line):
            assert line_bonus(tuple(line)) == ref_combo_bonus(line)


def test_state_score_uses_the_power_penalty() -> None:
    s = state_on(P, ("3333", "....", "....", "...."), (3, 2, 3, 4)).apply(Stage(0, 4))
    s = s.reroll_with((1,), (3,))
    assert s.score().power_penalty == 10
    assert s.score().total == 64 - 10


def test_the_views_json_form_of_a_score_is_its_fields_in_order() -> None:
    """engine/view.py's score is Score's own declaration as JSON, nothing of its own."""
    score = score_codes(codes_of("1234", "5555", "3434", "R..6"), 7)
    view = score_view(score)
    assert list(view) == [f.name for f in fields(Score)]
    assert view == json.loads(json.dumps(asdict(score)))
    assert view["rows"][0] == {"sum": 10, "bonus": 60, "combo": "straight"}
    assert type(view["rows"]) is list
