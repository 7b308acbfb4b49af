"""The hint made faster says what it said: on literal positions, the action, the whole placement
and V to the last bit, as the search before its memo by what a MAGDAGDON chance depends on
(``planner.chance_key``), the first turn's kept values (``bots/opening.py``) and the evaluation's
written-out sums; and the parts each change rests on, checked against the plain way. V is pinned
with its correction by the board as committed (``bots/value_board.py``): refitting those tables
moves it, and the literals are then written again from the code as it stands."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluation_reference import spelled_out
from magdagdon.bots.evaluate import Evaluator
from magdagdon.bots.expectimax import LOOKAHEAD_RESIDUALS, RESIDUAL_SHARE
from magdagdon.bots.hints import best
from magdagdon.bots.planner import chance_key, magdagdon_chance
from magdagdon.bots.residual import load
from magdagdon.bots.tuning import weights_for
from magdagdon.bots.value import Values
from magdagdon.engine import Difficulty, GameState, action_from_json
from magdagdon.engine.board import NEIGHBOURS, from_codes

PEACEFUL, SURVIVAL, NIGHTMARE = Difficulty.PEACEFUL, Difficulty.SURVIVAL, Difficulty.NIGHTMARE

#: (difficulty, board rows (``.`` empty, ``x`` a RUIN), Power uses made, dice, the hint's action,
#: its placement, V): the hint of the code before these changes (bench/bot_bench.py's states);
#: of boards of equal value, the one the boards' own order puts last (``test_dice_order.py``).
CASES = [
    (
        PEACEFUL,
        ("..5.", ".54.", "543.", "...."),
        0,
        (3, 4, 2, 6),
        '{"type": "stage", "die": 0, "cell": [1, 3]}',
        [(0, (1, 3)), (1, (0, 3)), (2, (2, 3)), (3, (1, 0))],
        470.44414689589746,
    ),
    (
        PEACEFUL,
        ("..5.", "..4.", "1234", "..2."),
        0,
        (6, 6, 1, 5),
        '{"type": "stage", "die": 0, "cell": [0, 3]}',
        [(0, (0, 3)), (3, (1, 3))],
        401.52370665826015,
    ),
    (
        PEACEFUL,
        ("....", "....", "....", "...."),
        0,
        (1, 5, 5, 4),
        '{"type": "stage", "die": 1, "cell": [1, 1]}',
        [(1, (1, 1)), (3, (2, 1)), (2, (2, 0))],
        428.7998961292119,
    ),
    (
        PEACEFUL,
        ("4321", "543.", ".54.", ".65."),
        0,
        (6, 1, 5, 2),
        '{"type": "stage", "die": 0, "cell": [2, 0]}',
        [(0, (2, 0)), (3, (1, 3))],
        476.58761370264136,
    ),
    (
        PEACEFUL,
        ("..5.", "6543", "543.", "..2."),
        0,
        (5, 2, 2, 3),
        '{"type": "stage", "die": 1, "cell": [2, 3]}',
        [(1, (2, 3)), (3, (3, 1))],
        460.37842058916675,
    ),
    (
        SURVIVAL,
        ("....", "23..", "....", "...."),
        0,
        (5, 5, 2, 6),
        '{"type": "adjust", "die": 0, "delta": -1}',
        [],
        321.47892698691925,
    ),
    (
        SURVIVAL,
        ("....", "....", "....", "...."),
        0,
        (1, 5, 5, 4),
        '{"type": "stage", "die": 1, "cell": [2, 2]}',
        [(1, (2, 2)), (3, (2, 1))],
        380.39915662428024,
    ),
    (
        SURVIVAL,
        (".565", ".45.", "2345", "1234"),
        0,
        (6, 1, 5, 2),
        '{"type": "adjust", "die": 3, "delta": 1}',
        [],
        373.97299382716034,
    ),
    (
        SURVIVAL,
        (".1.3", "1234", "234.", "34.."),
        0,
        (1, 4, 4, 1),
        '{"type": "adjust", "die": 1, "delta": 1}',
        [],
        284.190965224738,
    ),
    (
        SURVIVAL,
        (".6..", ".5..", "x44.", "...."),
        0,
        (6, 2, 6, 6),
        '{"type": "stage", "die": 0, "cell": [0, 2]}',
        [(0, (0, 2)), (2, (0, 3))],
        301.0350322918821,
    ),
    (
        NIGHTMARE,
        ("....", "....", "654.", "...."),
        0,
        (4, 1, 2, 2),
        '{"type": "ruin", "cell": [0, 2]}',
        [],
        234.76287785996269,
    ),
    (
        NIGHTMARE,
        (".5.5", "3456", "2345", "123."),
        0,
        (2, 5, 5, 1),
        '{"type": "ruin", "cell": [3, 3]}',
        [],
        325.19232907998037,
    ),
    (
        NIGHTMARE,
        ("....", "....", "....", "...."),
        0,
        (1, 5, 5, 4),
        '{"type": "stage", "die": 1, "cell": [1, 3]}',
        [(1, (1, 3)), (3, (1, 2)), (2, (2, 2))],
        272.650701331381,
    ),
    (
        NIGHTMARE,
        ("....", ".x4x", ".43.", ".x.x"),
        0,
        (1, 4, 4, 1),
        '{"type": "ruin", "cell": [1, 0]}',
        [],
        82.34473301118955,
    ),
    (
        NIGHTMARE,
        ("....", ".x3x", ".34.", ".x.x"),
        0,
        (4, 1, 4, 4),
        '{"type": "stage", "die": 0, "cell": [2, 0]}',
        [(0, (2, 0)), (2, (1, 0)), (3, (0, 0))],
        96.71312821516955,
    ),
    (
        NIGHTMARE,
        ("..34", ".x4.", "345.", "...."),
        0,
        (6, 5, 3, 5),
        '{"type": "stage", "die": 0, "cell": [2, 3]}',
        [(0, (2, 3)), (1, (1, 3)), (3, (3, 3))],
        228.18251843159385,
    ),
    (
        NIGHTMARE,
        (".11.", "2222", "x3x.", "...."),
        0,
        (5, 1, 4, 4),
        '{"type": "stage", "die": 1, "cell": [0, 3]}',
        [(1, (0, 3)), (2, (3, 1)), (0, (3, 2))],
        187.50750778486724,
    ),
    (
        NIGHTMARE,
        ("1212", "xx23", "..32", "...3"),
        0,
        (1, 1, 1, 4),
        '{"type": "ruin", "cell": [3, 1]}',
        [],
        102.11228099424326,
    ),
]


def _codes(rows: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(int(c) for c in "".join(rows).replace(".", "0").replace("x", "7"))


@pytest.mark.parametrize(("difficulty", "rows", "used", "dice", "action", "placement", "v"), CASES)
def test_the_hint_is_the_one_before(
    difficulty: Difficulty,
    rows: tuple[str, ...],
    used: int,
    dice: tuple[int, ...],
    action: str,
    placement: list[tuple[int, tuple[int, int]]],
    v: float,
) -> None:
    board = from_codes(list(_codes(rows)))
    state = GameState(difficulty, 1, board=board, powers_used=used).roll_with(dice)
    said, staged, value = best(state)
    assert said == json.loads(action)
    assert [(die, tuple(cell)) for die, cell in staged] == placement
    assert value == round(v, 2)
    assert Values().of(state) == v  # to the last bit, by a bot of its own
    action_from_json(said)  # an action the engine reads


boards = st.lists(st.integers(0, 7), min_size=16, max_size=16).map(tuple)


@given(boards)
def test_the_written_out_correction_is_the_sum_tuple_by_tuple(codes: tuple[int, ...]) -> None:
    for name in ("peaceful", "survival", "nightmare-lookahead"):
        tables = load(name)
        assert tables(codes) == tables.value(codes)


@settings(max_examples=60)
@given(boards)
def test_the_evaluation_is_the_one_before(codes: tuple[int, ...]) -> None:
    """Against the evaluation as it was written before (kept here): the same float, bit for
    bit, on every difficulty's weights."""
    for difficulty in Difficulty:
        weights = weights_for(difficulty, residual=RESIDUAL_SHARE, tables=LOOKAHEAD_RESIDUALS)
        assert Evaluator(weights)(codes) == spelled_out(Evaluator(weights), codes)


@settings(max_examples=150)
@given(boards, st.integers(0, 15), st.integers(1, 6), st.integers(1, 3))
def test_boards_alike_where_dice_can_go_share_their_magdagdon_chance(
    codes: tuple[int, ...], cell: int, value: int, need: int
) -> None:
    """A number on a cell beside no empty cell never changes the chance, nor the memo's key,
    while the board keeps a number; an empty cell's masks do change the key."""
    if codes[cell] in (0, 7) or any(codes[n] == 0 for n in NEIGHBOURS[cell]):
        return
    other = (*codes[:cell], value, *codes[cell + 1 :])
    assert chance_key(other, need) == chance_key(codes, need)
    assert magdagdon_chance(other, need) == magdagdon_chance(codes, need)


def test_a_board_without_a_number_is_told_from_one_with_numbers_far_away() -> None:
    """Three empty cells in a corner, RUINs around them: with no number on the board the first
    die may go on any empty cell (the next ones beside it); with a number far off, none may."""
    ruins = _codes(("..77", ".777", "7777", "7777"))
    far = _codes(("..77", ".777", "7777", "7775"))
    assert chance_key(ruins, 3) != chance_key(far, 3)
    assert 0.0 < magdagdon_chance(ruins, 3) < 1.0
    assert magdagdon_chance(far, 3) == 1.0
