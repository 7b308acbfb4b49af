"""V's correction at the edge of the exact end (``bots/value_edge.py``): one value for every image
of a board, none but at the edge, and there, on boards the computer's choice leaves in games it
was not fitted on, V before a roll stands nearer the exact mean of V over its outcomes than
without it."""

from __future__ import annotations

import math
import random
from array import array

import pytest
from hypothesis import given
from hypothesis import strategies as st

from magdagdon.bots.endgame import EXACT_UPTO
from magdagdon.bots.value import Values, next_roll
from magdagdon.bots.value_edge import (
    SIZE,
    STEP,
    EdgeCorrection,
    edge,
    edge_correction,
    edge_tables,
)
from magdagdon.engine import Difficulty, GameState, Phase, Roll
from magdagdon.engine.board import RUIN_CODE
from magdagdon.engine.board_codes import EMPTY, dead, images
from magdagdon.engine.dice import roll_chances
from magdagdon.sim.summary import game_seed

NIGHTMARE, PEACEFUL = Difficulty.NIGHTMARE, Difficulty.PEACEFUL
CORRECTED = [NIGHTMARE, PEACEFUL]
#: A run seed apart from those the tables were fitted on (3100, 3300, 3400) and checked on (3200).
SEED = 4343

cells = st.sampled_from([EMPTY, 1, 2, 3, 4, 5, 6, RUIN_CODE])


@st.composite
def edge_boards(draw: st.DrawFn) -> tuple[Difficulty, tuple[int, ...], int]:
    """A difficulty with tables, a board with its edge's count of empty cells (the other cells
    numbers or RUINs) and the Power uses left."""
    difficulty = draw(st.sampled_from(CORRECTED))
    empty = set(draw(st.permutations(range(16)))[: edge(difficulty)])
    filled = st.sampled_from([1, 2, 3, 4, 5, 6, RUIN_CODE])
    codes = tuple(EMPTY if cell in empty else draw(filled) for cell in range(16))
    return difficulty, codes, draw(st.integers(0, difficulty.power_uses))


def test_nightmare_and_peaceful_have_tables() -> None:
    assert all(edge_tables(difficulty) is not None for difficulty in CORRECTED)
    assert edge_tables(Difficulty.SURVIVAL) is None
    assert [edge(d) for d in CORRECTED] == [EXACT_UPTO[d] + 1 for d in CORRECTED] == [6, 5]


@given(edge_boards())
def test_every_image_of_a_board_is_corrected_alike(
    board: tuple[Difficulty, tuple[int, ...], int],
) -> None:
    difficulty, codes, left = board
    empties = codes.count(EMPTY)
    found = {round(edge_correction(difficulty, image, empties, left), 9) for image in images(codes)}
    assert len(found) == 1, found


@given(st.lists(cells, min_size=16, max_size=16).map(tuple), st.sampled_from(list(Difficulty)))
def test_no_correction_but_at_the_edge(codes: tuple[int, ...], difficulty: Difficulty) -> None:
    empties = codes.count(EMPTY)
    if empties != edge(difficulty) or difficulty not in CORRECTED:
        assert edge_correction(difficulty, codes, empties, 0) == 0.0


def test_the_tables_read_back_as_written() -> None:
    weights = array("d", [(i % 8191 - 4095) * STEP for i in range(SIZE)])  # whole steps
    table = EdgeCorrection(weights)
    again = EdgeCorrection.from_bytes(table.to_bytes())
    assert again.tuples.weights == table.tuples.weights
    assert (again.by_chance, again.by_powers) == (table.by_chance, table.by_powers)
    with pytest.raises(ValueError, match="weights"):
        EdgeCorrection(weights[:-1])
    weights[7] += STEP / 3
    with pytest.raises(ValueError, match="steps"):
        EdgeCorrection(weights).to_bytes()


def _edge_nodes(values: Values, difficulty: Difficulty, games: int) -> list[GameState]:
    """Phase rolls at the edge that the computer's choice leaves: in the computer's own games,
    from each of its phase rolls up to 4 empty cells before the edge, three of the rolls drawn by
    the seed."""
    outcomes = [dice for dice, _ in roll_chances(4)]
    at = edge(difficulty)
    found: list[GameState] = []
    for i in range(games):
        seed = game_seed(SEED, i)
        rng = random.Random(seed)
        state = GameState.new(difficulty, seed)
        while not state.is_over:
            if state.phase is Phase.ROLL:
                if at < state.codes().count(EMPTY) <= at + 4:
                    for dice in rng.sample(outcomes, 3):
                        node = next_roll(values, state.roll_with(dice))
                        codes = tuple(node.codes()) if node is not None else ()
                        if node is not None and codes.count(EMPTY) == at and not dead(codes):
                            found.append(node)
                state = state.apply(Roll())
            else:
                state = state.apply(values.bot.choose(state, rng))
    return found


def _rms(gaps: list[float]) -> float:
    return math.sqrt(sum(g * g for g in gaps) / len(gaps))


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", CORRECTED)
def test_v_at_the_edge_stands_nearer_the_mean_over_its_outcomes(difficulty: Difficulty) -> None:
    values = Values()
    nodes = _edge_nodes(values, difficulty, 30)
    assert len(nodes) >= 25
    corrected, plain = [], []
    for node in nodes:
        found = values.explain(node)[0]
        mean = values.expected(node)
        codes = tuple(node.codes())
        part = edge_correction(difficulty, codes, edge(difficulty), node.powers_left)
        corrected.append(found.value - mean)
        plain.append(found.value - part - mean)
    # Held out, the gap's RMS was 14.2 -> 9.2 (NIGHTMARE) and 15.6 -> 11.8 (PEACEFUL); on these
    # 39 and 27 boards of the computer's own games, 10.1 -> 5.6 and 8.5 -> 6.3.
    assert _rms(corrected) < 0.85 * _rms(plain), (_rms(corrected), _rms(plain), len(nodes))
