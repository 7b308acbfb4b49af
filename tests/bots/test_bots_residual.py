"""The learned correction to the evaluation: its tables, its storage, its training, its use."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from magdagdon.bots.evaluate import Evaluator
from magdagdon.bots.expectimax import LOOKAHEAD_RESIDUALS, RESIDUAL_SHARE, TUNED, ExpectimaxBot
from magdagdon.bots.residual import TUPLES, Residual, load
from magdagdon.bots.tuning import WEIGHTS, Evaluators, weights_for
from magdagdon.engine import Difficulty, GameState, Roll
from magdagdon.engine.board import SYMMETRIES
from magdagdon.engine.board_codes import images
from magdagdon.engine.scoring import board_points

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "magdagdon" / "bots" / "data"
boards = st.lists(st.integers(0, 7), min_size=16, max_size=16).map(tuple)


def test_the_correction_reads_one_weight_per_tuple_and_one_by_empty_cells() -> None:
    residual = Residual()
    board = (1, 2, 3, 4, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 6)
    assert residual(board) == 0.0
    residual.update(board, 0.5)
    assert residual(board) == pytest.approx(0.5 * (len(TUPLES) + 1))
    # Another board shares the row 1 2 3 4, the empty rows, and the empty-cell count only.
    other = (1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 6)
    shared = [t for t in TUPLES if all(board[c] == other[c] for c in t)]
    assert residual(other) == pytest.approx(0.5 * (len(shared) + 1))


@given(board=boards, steps=st.lists(st.sampled_from([0.25, -1.5, 3.0]), max_size=5))
def test_the_tables_survive_storage(board: tuple[int, ...], steps: list[float]) -> None:
    residual = Residual()
    for step in steps:
        residual.update(board, step)
    again = Residual.from_bytes(residual.to_bytes())
    assert again(board) == pytest.approx(residual(board))
    assert list(again.weights) == list(residual.weights)  # these steps are exact in 32 bits


def test_the_symmetries_are_the_eight_turns_and_mirrors_of_the_board() -> None:
    assert len(set(SYMMETRIES)) == 8
    assert SYMMETRIES[0] == tuple(range(16))
    # Closed under composition: a group of 8 permutations of the cells.
    composed = {tuple(a[b[cell]] for cell in range(16)) for a in SYMMETRIES for b in SYMMETRIES}
    assert composed == set(SYMMETRIES)
    turned = images((1, 2, 3, 4) + (0,) * 12)
    assert (0,) * 12 + (4, 3, 2, 1) in turned  # turned half a turn
    assert (1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0) in turned  # mirrored on the diagonal


#: The look-ahead's evaluations: each difficulty's tuned weights and its correction.
LOOKAHEAD = Evaluators(residual=RESIDUAL_SHARE, tables=LOOKAHEAD_RESIDUALS)
full_boards = st.lists(st.integers(1, 7), min_size=16, max_size=16).map(tuple)


@given(board=full_boards)
def test_the_score_is_the_same_for_every_image_of_a_board(board: tuple[int, ...]) -> None:
    assert {board_points(image) for image in images(board)} == {board_points(board)}


@pytest.mark.parametrize("difficulty", list(Difficulty), ids=lambda d: d.value)
@given(board=boards)
def test_the_evaluation_is_the_same_for_every_image_of_a_board(
    difficulty: Difficulty, board: tuple[int, ...]
) -> None:
    evaluate = LOOKAHEAD[difficulty]  # the tuned weights, a share of the committed correction
    assert evaluate.weights.residual is not None
    value = evaluate(board)
    assert all(evaluate(image) == pytest.approx(value, abs=1e-3) for image in images(board))


@given(board=boards, other=boards, step=st.sampled_from([0.5, -2.0]))
def test_a_training_step_moves_every_image_of_the_board_alike(
    board: tuple[int, ...], other: tuple[int, ...], step: float
) -> None:
    residual = Residual()
    residual.update_images(other, step / 3)
    residual.update_images(board, step)
    value = residual(board)
    assert value != 0.0  # every step has the same sign
    assert all(residual(image) == pytest.approx(value) for image in images(board))
    assert all(residual(image) == pytest.approx(residual(other)) for image in images(other))


#: Every committed table: greedy's of each difficulty, and the look-ahead's own.
COMMITTED = sorted({*(d.value for d in Difficulty), *LOOKAHEAD_RESIDUALS.values()})


def test_every_difficulty_has_committed_tables() -> None:
    assert COMMITTED == ["nightmare", "nightmare-lookahead", "peaceful", "survival"]
    files = sorted(p.stem.removeprefix("residual-") for p in DATA.glob("residual-*.bin"))
    assert files == COMMITTED
    assert all(any(load(name).weights) for name in COMMITTED)


@pytest.mark.parametrize("name", COMMITTED)
@given(board=boards)
def test_the_committed_tables_value_every_image_of_a_board_alike(
    name: str, board: tuple[int, ...]
) -> None:
    tables = load(name)
    value = tables(board)
    assert all(tables(image) == pytest.approx(value, abs=1e-3) for image in images(board))


def test_a_residual_has_the_size_of_its_tables() -> None:
    with pytest.raises(ValueError, match="weights"):
        Residual(Residual().weights[:-1])


def test_the_evaluation_adds_the_correction_to_boards_with_an_empty_cell_only() -> None:
    residual = Residual()
    open_board = (3, 4, 0, 0) + (0,) * 12
    full = (3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6)
    residual.update(open_board, 2.0)
    residual.update(full, 2.0)
    plain = Evaluator(replace(WEIGHTS[Difficulty.NIGHTMARE], residual=None))
    corrected = Evaluator(replace(WEIGHTS[Difficulty.NIGHTMARE], residual=None), residual)
    assert corrected(open_board) == pytest.approx(plain(open_board) + residual(open_board))
    assert corrected(full) == plain(full) == 544  # a full board is worth its score
    residual.update(open_board, 1.0)
    assert corrected(open_board) != pytest.approx(plain(open_board) + residual(open_board))
    corrected.forget()
    assert corrected(open_board) == pytest.approx(plain(open_board) + residual(open_board))


def test_greedy_adds_the_committed_nightmare_correction_and_expectimax_a_share_of_its_own() -> None:
    tables = load("nightmare")
    assert any(tables.weights)
    own = load(LOOKAHEAD_RESIDUALS[Difficulty.NIGHTMARE])
    assert own.weights != tables.weights
    board = (3, 4, 0, 0) + (0,) * 12
    plain = Evaluator(WEIGHTS[Difficulty.NIGHTMARE])
    assert tables(board) != 0.0
    greedy = Evaluators(residual=1.0)[Difficulty.NIGHTMARE]
    assert greedy(board) == pytest.approx(plain(board) + tables(board))
    assert Evaluators()[Difficulty.NIGHTMARE](board) == plain(board)
    bot = ExpectimaxBot()
    rolled = GameState.new(Difficulty.NIGHTMARE, 1).apply(Roll())
    bot.choose(rolled, random.Random(1))  # a NIGHTMARE turn: the bot takes up its evaluation
    assert 0.0 < RESIDUAL_SHARE < 1.0
    assert own(board) != tables(board)
    assert bot.evaluate(board) == pytest.approx(plain(board) + RESIDUAL_SHARE * own(board))
    assert TUNED[Difficulty.NIGHTMARE][1] == bot.evaluate.weights
    assert weights_for(Difficulty.NIGHTMARE, residual=0.0) == WEIGHTS[Difficulty.NIGHTMARE]


@pytest.mark.parametrize("difficulty", [Difficulty.PEACEFUL, Difficulty.SURVIVAL])
def test_greedy_s_committed_correction_counts_whole_for_greedy_and_half_for_the_look_ahead(
    difficulty: Difficulty,
) -> None:
    tables = load(difficulty.value)
    assert LOOKAHEAD_RESIDUALS[difficulty] == difficulty.value  # no tables of its own
    board = (3, 4, 0, 0) + (0,) * 12
    plain = Evaluator(WEIGHTS[difficulty])
    assert tables(board) != 0.0
    assert tables(board) != load("nightmare")(board)
    greedy = Evaluators(residual=1.0)[difficulty]
    assert greedy(board) == pytest.approx(plain(board) + tables(board))
    bot = ExpectimaxBot()
    rolled = GameState.new(difficulty, 1).apply(Roll())
    bot.choose(rolled, random.Random(1))  # a turn: the bot takes up the difficulty's evaluation
    assert bot.evaluate(board) == pytest.approx(plain(board) + RESIDUAL_SHARE * tables(board))
    assert bot.settings == TUNED[difficulty][0]
    full = (3, 4, 5, 6) * 4
    assert bot.evaluate(full) == plain(full)  # a full board is its score: no correction


def test_training_is_reproducible(tmp_path: Path) -> None:
    outputs = []
    for run in ("a", "b"):
        out = tmp_path / f"{run}.bin"
        script = str(ROOT / "bench" / "train_residual.py")
        subprocess.run(
            [sys.executable, script, "--games", "12", "--save-every", "6", "--out", str(out)],
            check=True,
            capture_output=True,
        )
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    assert any(Residual.from_bytes(outputs[0]).weights)


def test_training_on_the_look_ahead_does_not_depend_on_the_processes(tmp_path: Path) -> None:
    script = str(ROOT / "bench" / "train_residual.py")
    init = str(DATA / "residual-nightmare.bin")
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs-{jobs}.bin"
        command = [sys.executable, script, "--policy", "expectimax", "--jobs", jobs]
        command += ["--games", "4", "--batch", "2", "--save-every", "2", "--seed", "7"]
        command += ["--init", init, "--out", str(out)]
        subprocess.run(command, check=True, capture_output=True)
        outputs.append(Residual.from_bytes(out.read_bytes()).weights)
    assert outputs[0] == outputs[1]
    start = Residual.from_bytes(Path(init).read_bytes()).weights
    changed = sum(a != b for a, b in zip(outputs[0], start, strict=True))
    assert changed > 100  # the 4 games' boards and their images moved


@pytest.mark.parametrize("name", COMMITTED)
@given(boards=st.lists(boards, min_size=1, max_size=40))
def test_the_committed_tables_read_in_bands_give_every_value_to_the_last_bit(
    name: str, boards: list[tuple[int, ...]]
) -> None:
    tables = load(name)
    assert tables.reader() == tables.banded  # their sums are exact in any order
    for board in boards:  # met twice: the bands computed, then remembered
        for _ in range(2):
            assert tables.banded(board, board.count(0)) == tables.value(board)


def test_tables_whose_sums_may_round_are_read_in_order() -> None:
    residual = Residual()
    residual.weights[0], residual.weights[1] = 2.0**20, 2.0**-20  # not exact in any order
    assert not residual.read_in_bands()
    assert residual.reader() == residual.of
    trained = Residual.from_bytes(load("peaceful").to_bytes())
    assert trained.read_in_bands()
    trained.update((0,) * 16, 0.1)  # weights changed: the bands' sums are stale
    assert trained.reader() == trained.of
