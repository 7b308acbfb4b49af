"""V's correction by the board (``bots/value_board.py``): one value for every image of a board,
none where V is exact, and on a bad player's board before its first RUIN, with every Power use in
hand, V before a roll is what V after the computer's turn comes to on average (without the
correction it stood about 12 points high at each such roll)."""

from __future__ import annotations

import random
import statistics
from array import array
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from magdagdon.bots.base import make_bot
from magdagdon.bots.endgame import EXACT_UPTO
from magdagdon.bots.risky import risky_turn
from magdagdon.bots.value import Values, stage_of
from magdagdon.bots.value_board import SIZE, BoardCorrection, correction
from magdagdon.engine import Action, Difficulty, GameState, Phase, Roll
from magdagdon.engine.board import RUIN_CODE, from_codes
from magdagdon.engine.board_codes import EMPTY, images
from magdagdon.sim.summary import game_seed

CORRECTED = [d for d in Difficulty if correction(d) is not None]
#: A run seed apart from those the tables were fitted on (1000, 1300, 2300, 3300, 3500; 100,
#: 300) and checked on.
SEED = 4343
GAMES = 240

boards = st.lists(st.integers(0, 7), min_size=16, max_size=16).map(tuple)


def test_every_difficulty_has_tables() -> None:
    assert set(CORRECTED) == set(Difficulty)


@given(boards, st.sampled_from(CORRECTED), st.integers(0, 3))
def test_every_image_of_a_board_is_corrected_alike(
    codes: tuple[int, ...], difficulty: Difficulty, powers_left: int
) -> None:
    table = correction(difficulty)
    assert table is not None
    empties, ruins = codes.count(EMPTY), codes.count(RUIN_CODE)
    found = {
        round(table(image, empties, stage_of(empties), powers_left, ruins), 9)
        for image in images(codes)
    }
    assert len(found) == 1, found


def test_the_tables_read_back_as_written() -> None:
    weights = array("d", [float(i % 97) / 8 - 6 for i in range(SIZE)])  # singles, exactly
    table = BoardCorrection(weights)
    again = BoardCorrection.from_bytes(table.to_bytes())
    assert again.tuples.weights == table.tuples.weights
    assert (again.by_powers, again.by_ruins, again.by_live) == (
        table.by_powers,
        table.by_ruins,
        table.by_live,
    )
    with pytest.raises(ValueError, match="weights"):
        BoardCorrection(weights[:-1])


def test_no_correction_where_v_is_exact() -> None:
    values = Values()
    rows = ("1234", "2345", "3456", "....")
    board = tuple(int(c) for c in "".join(rows).replace(".", "0"))
    assert board.count(EMPTY) <= EXACT_UPTO[Difficulty.PEACEFUL]
    state = GameState(Difficulty.PEACEFUL, 1, board=from_codes(list(board)))
    found = values.explain(state)[0]
    assert found.key is None
    assert found.by_board == 0.0


#: A player's turn: the actions it takes at a state (with the game's random draws).
Turn = Callable[[GameState, random.Random], list[Action]]


def _taken_over(difficulty: Difficulty, seed: int, turn: Turn) -> tuple[GameState, random.Random]:
    """The game of ``seed`` as ``turn`` plays its first 1–6 turns (by the seed), at the computer's
    first roll, and the game's random draws from there."""
    state = GameState.new(difficulty, seed)
    rng = random.Random(seed)
    hand_over = rng.randint(1, 6)
    while not state.is_over and not (state.phase is Phase.ROLL and state.turn >= hand_over):
        for action in turn(state, rng):
            state = state.apply(action)
    return state, rng


def _computer_s_turn(values: Values, state: GameState, rng: random.Random) -> GameState:
    """The roll at ``state`` and the computer's turn after it: the next phase roll, or the end."""
    state = state.apply(Roll())
    while not state.is_over and state.phase is not Phase.ROLL:
        state = state.apply(values.bot.choose(state, rng))
    return state


def _steps(values: Values, seed: int) -> list[tuple[float, float, float]]:
    """A bad player's game of ``seed`` (``bots/risky.py``, its first 1–6 turns) taken over by the
    computer: at each phase roll of the middle game (12–5 empty cells) before any RUIN with every
    Power use in hand, V before the roll, V at the next phase roll after the computer's turn, and
    the part of the first that is the correction by the board."""
    state, rng = _taken_over(Difficulty.PEACEFUL, seed, lambda state, _: risky_turn(state))
    found: list[tuple[float, float, float]] = []
    uses = Difficulty.PEACEFUL.power_uses
    while not state.is_over:
        codes = state.codes()
        empties = codes.count(EMPTY)
        if not (5 <= empties <= 12 and RUIN_CODE not in codes and state.powers_left == uses):
            return found
        before = values.explain(state)[0]
        state = _computer_s_turn(values, state, rng)
        after = values.explain(state)[0]
        found.append((before.value, after.value, before.by_board - after.by_board))
    return found


@pytest.mark.slow
def test_a_bad_player_s_board_before_its_first_ruin_is_valued_as_the_computer_plays_on() -> None:
    values = Values()
    steps = [step for i in range(GAMES) for step in _steps(values, game_seed(SEED, i))]
    assert len(steps) >= 80
    drift = [after - before for before, after, _ in steps]
    # a step's sd is about 25 points: the mean of 80 or more within about 3
    assert abs(statistics.fmean(drift)) <= 6.0, (statistics.fmean(drift), len(drift))
    # without the correction (its part taken off both ends) V stood high at each such roll
    plain = [d + part for d, (_, _, part) in zip(drift, steps, strict=True)]
    assert statistics.fmean(plain) < -6.0, statistics.fmean(plain)


def _random_steps(values: Values, difficulty: Difficulty, seed: int) -> list[float]:
    """A random player's game of ``seed`` (any legal action, its Powers spent at random; its
    first 1–6 turns) taken over by the computer: at each phase roll with 8–5 empty cells, V at
    the next phase roll after the computer's turn less V before the roll."""
    player = make_bot("random")
    state, rng = _taken_over(difficulty, seed, lambda state, rng: [player.choose(state, rng)])
    found: list[float] = []
    while not state.is_over:
        empties = state.codes().count(EMPTY)
        if empties < 5:
            return found
        before = values.explain(state)[0]
        state = _computer_s_turn(values, state, rng)
        if empties <= 8 and before.key is not None:  # a dead board's V is exact
            found.append(values.explain(state)[0].value - before.value)
    return found


@pytest.mark.slow
@pytest.mark.parametrize("difficulty", [Difficulty.PEACEFUL, Difficulty.SURVIVAL])
def test_a_random_player_s_board_is_valued_as_the_computer_plays_on(
    difficulty: Difficulty,
) -> None:
    # Fitted without such boards, V stood low on them at 8–5 empty cells: the next roll's V came
    # to +12.7 (se 0.9) on PEACEFUL and +7.2 (0.9) on SURVIVAL above it on 1,000 held-out games.
    values = Values()
    seeds = [game_seed(SEED, i) for i in range(2 * GAMES)]
    drift = [d for seed in seeds for d in _random_steps(values, difficulty, seed)]
    assert len(drift) >= 500
    # a step's sd is about 30 points: the mean of 500 or more within about 1.3. Refitted with
    # such boards it is +5 to +6 (what the tuples cannot see: docs/bots.md, "A random player's
    # boards"); 8 is out of reach of the fit before, by about 2 se on SURVIVAL.
    assert abs(statistics.fmean(drift)) <= 8.0, (statistics.fmean(drift), len(drift))
