"""Scoring (docs/rules.md "Scoring"): line sums, the combination bonus of a full line, penalties.

Every possible line (four cells, each empty, 1–6 or a RUIN) is scored once at import; scoring a
board is then eight table look-ups.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise, product
from typing import TYPE_CHECKING, Final, Literal

from magdagdon.engine.board import RUIN_CODE, SIZE
from magdagdon.engine.rules import RUIN_PENALTY, VALUES

if TYPE_CHECKING:
    from collections.abc import Sequence

Combo = Literal["straight", "four_of_a_kind", "two_pairs"]
STRAIGHT: Final = "straight"
FOUR_OF_A_KIND: Final = "four_of_a_kind"
TWO_PAIRS: Final = "two_pairs"
BONUS = {STRAIGHT: 60, FOUR_OF_A_KIND: 40, TWO_PAIRS: 20}

ROWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE)
)
COLUMNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE)
)
LINES = ROWS + COLUMNS


def combo_of(values: tuple[int, ...]) -> Combo | None:
    """The combination of a line of four numbers, the highest that applies, or None.

    >>> [combo_of(line) for line in ((4, 3, 2, 1), (5, 5, 5, 5), (3, 4, 3, 4), (2, 1, 3, 4))]
    ['straight', 'four_of_a_kind', 'two_pairs', None]
    """
    if len(values) != SIZE or not all(v in VALUES for v in values):
        return None
    steps = {b - a for a, b in pairwise(values)}
    if steps in ({1}, {-1}):
        return STRAIGHT
    counts = sorted(values.count(v) for v in set(values))
    if counts == [4]:
        return FOUR_OF_A_KIND
    if counts == [2, 2]:
        return TWO_PAIRS
    return None


# The score's shape, declared once: the state view's JSON form of a score is these fields in
# this order (``engine/view.py``), and the API's response models are read off them.


@dataclass(frozen=True, slots=True)
class LineScore:
    """The score of one line: the API's ``LineScore`` object."""

    sum: int
    bonus: int
    combo: Combo | None


def _build_table() -> tuple[LineScore, ...]:
    table = []
    for codes in product(range(8), repeat=SIZE):
        numbers = tuple(c for c in codes if c in VALUES)
        combo = combo_of(codes) if len(numbers) == SIZE else None
        table.append(LineScore(sum(numbers), BONUS[combo] if combo else 0, combo))
    return tuple(table)


#: The score of every line by its code: the line's four cell codes as the digits of a base-8
#: number (see :func:`line_scores`). A RUIN (code 7) is neither summed nor part of a combination.
LINE_TABLE = _build_table()
#: The points of a line (sum plus bonus) by line code, for fast search.
LINE_POINTS = tuple(line.sum + line.bonus for line in LINE_TABLE)


def line_bonus(values: tuple[int, ...]) -> int:
    """The combination bonus of a line of four numbers, in the line's order (0 when none applies).

    >>> line_bonus((3, 4, 5, 6)), line_bonus((3, 4, 4, 3)), line_bonus((3, 4, 6, 5))
    (60, 20, 0)
    """
    a, b, c, d = values
    return LINE_TABLE[((a * 8 + b) * 8 + c) * 8 + d].bonus


@dataclass(frozen=True, slots=True)
class Score:
    """The score of a board: the API's ``score`` object."""

    base: int
    bonus: int
    ruins: int
    ruin_penalty: int
    power_penalty: int
    total: int
    rows: tuple[LineScore, ...]
    columns: tuple[LineScore, ...]


def line_scores(codes: Sequence[int]) -> tuple[LineScore, ...]:
    """The eight lines of a board given as 16 cell codes: the four rows, then the four columns."""
    return tuple(
        [
            LINE_TABLE[((codes[a] * 8 + codes[b]) * 8 + codes[c]) * 8 + codes[d]]
            for a, b, c, d in LINES
        ]
    )


def score_codes(codes: Sequence[int], power_penalty: int) -> Score:
    """The full score of a board given as 16 cell codes (see :func:`board.to_codes`)."""
    lines = line_scores(codes)
    base = sum([line.sum for line in lines])
    bonus = sum([line.bonus for line in lines])
    ruins = codes.count(RUIN_CODE)
    ruin_penalty = RUIN_PENALTY * ruins
    # By position: a call by keyword costs more.
    return Score(
        base,
        bonus,
        ruins,
        ruin_penalty,
        power_penalty,
        base + bonus - ruin_penalty - power_penalty,
        lines[:SIZE],
        lines[SIZE:],
    )


def board_points(codes: Sequence[int]) -> int:
    """The score of a board given as 16 cell codes, before Power penalties: base plus bonus, less
    the RUIN penalties (``score_codes(codes, 0).total``, fast: the bots ask it of every board).

    >>> board_points((3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6))
    544
    >>> board_points((1, 2, 3, 4) + (0,) * 11 + (7,))  # row 0: 10 + STRAIGHT 60; columns 10; RUIN
    65
    """
    # The rows, then the columns (``LINES``), written out: the bots ask it of millions of boards.
    c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15 = codes
    p = LINE_POINTS
    return (
        p[((c0 * 8 + c1) * 8 + c2) * 8 + c3]
        + p[((c4 * 8 + c5) * 8 + c6) * 8 + c7]
        + p[((c8 * 8 + c9) * 8 + c10) * 8 + c11]
        + p[((c12 * 8 + c13) * 8 + c14) * 8 + c15]
        + p[((c0 * 8 + c4) * 8 + c8) * 8 + c12]
        + p[((c1 * 8 + c5) * 8 + c9) * 8 + c13]
        + p[((c2 * 8 + c6) * 8 + c10) * 8 + c14]
        + p[((c3 * 8 + c7) * 8 + c11) * 8 + c15]
        - RUIN_PENALTY * codes.count(RUIN_CODE)
    )
