"""Every bot answers only legal actions and finishes its games; the search pieces are exact."""

from __future__ import annotations

import random

import pytest

from magdagdon.bots.advice import codes_of, next_step
from magdagdon.bots.base import bot_names, make_bot
from magdagdon.bots.evaluate import Evaluator, Weights
from magdagdon.bots.planner import turn_plans
from magdagdon.engine import Confirm, Difficulty, GameState, Phase, Stage, Unstage, cell_of
from magdagdon.engine.board import to_codes
from magdagdon.engine.scoring import board_points

DIFFICULTIES = list(Difficulty)


def test_the_three_bots_are_registered() -> None:
    assert {"random", "greedy", "expectimax"} <= set(bot_names())
    with pytest.raises(KeyError, match="unknown bot"):
        make_bot("nobody")


@pytest.mark.parametrize("difficulty", DIFFICULTIES, ids=lambda d: d.value)
@pytest.mark.parametrize("name", ["random", "greedy", "expectimax"])
def test_bot_plays_legal_actions_to_the_end(name: str, difficulty: Difficulty) -> None:
    bot = make_bot(name)
    for seed in (1, 2):
        rng = random.Random(seed)
        state = GameState.new(difficulty, seed)
        for _ in range(2000):
            if state.is_over:
                break
            action = bot.choose(state, rng)
            assert action in set(state.legal_actions()), (state, action)
            state = state.apply(action)
        assert state.is_over
        total = state.score().total
        assert total == board_points(state.codes()) - state.power_penalty


def test_evaluation_of_a_full_board_is_its_score() -> None:
    evaluate = Evaluator()
    rows = [(3, 3, 3, 3), (4, 4, 4, 4), (5, 5, 5, 5), (6, 6, 6, 6)]
    assert evaluate(tuple(v for row in rows for v in row)) == 544
    ruined = (1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6, 4, 5, 6, 7)  # one RUIN in the corner
    assert evaluate(ruined) == board_points(ruined) == 2 * 57 + 6 * 60 - 15


def test_a_cell_that_can_never_be_filled_counts_as_a_ruin() -> None:
    evaluate = Evaluator()
    base = [0] * 16
    base[cell_of(0, 0)], base[cell_of(1, 1)] = 2, 3
    open_corner = tuple(base)
    base[cell_of(1, 1)] = 5  # cell (0, 1) and (1, 0) now sit between a 2 and a 5
    dead = tuple(base)
    assert evaluate(dead) < evaluate(open_corner) - 15


def _engine_boards(state: GameState) -> set[tuple[int, ...]]:
    """Every board a turn can leave, by trying every staging order through the engine."""
    boards: set[tuple[int, ...]] = set()
    seen: set[tuple[int, ...]] = set()

    def walk(s: GameState) -> None:
        if s.can_confirm:
            boards.add(codes_of(s.apply(Confirm())))
        for action in s.legal_actions():
            if isinstance(action, Stage):
                after = s.apply(action)
                key = tuple(to_codes(after.live))
                if key in seen:
                    continue
                seen.add(key)
                walk(after)

    walk(state)
    return boards


def test_turn_plans_match_the_engine_exactly() -> None:
    state = GameState.new(Difficulty.PEACEFUL, 1).roll_with((3, 4, 4, 6))
    state = state.apply(Stage(0, cell_of(1, 1))).apply(Stage(1, cell_of(1, 2))).apply(Confirm())
    state = state.roll_with((2, 4, 5, 6))
    plans = turn_plans(codes_of(state), state.dice, state.min_required)
    assert set(plans) == _engine_boards(state)
    for board, placement in plans.items():
        s = state
        for die, cell in placement:
            s = s.apply(Stage(die, cell))
        assert codes_of(s.apply(Confirm())) == board


def test_next_step_returns_a_die_staged_outside_the_plan_first() -> None:
    state = GameState.new(Difficulty.PEACEFUL, 1).roll_with((3, 4, 4, 6))
    plan = ((0, cell_of(1, 1)), (1, cell_of(1, 2)))
    assert next_step(state, plan) == Stage(0, cell_of(1, 1))
    wrong = state.apply(Stage(3, cell_of(3, 3)))
    assert next_step(wrong, plan) == Unstage(3)
    # die 2 shows the same 4 as die 1: staging it where the plan puts a 4 follows the plan
    other = state.apply(Stage(0, cell_of(1, 1))).apply(Stage(2, cell_of(1, 2)))
    assert next_step(other, plan) == Confirm()
    assert other.apply(Confirm()).phase is Phase.ROLL


def test_cell_share_counts_a_bonus_by_how_narrow_the_open_cells_are() -> None:
    shares = (0.0, 1.0, 0.9, 0.85, 0.8, 0.75, 0.7)
    evaluate = Evaluator(Weights(cell_share=shares))
    only_four = 8 + 0b001000  # an open cell that accepts only a 4
    three_to_five = 8 + 0b011100  # an open cell that accepts 3, 4 or 5
    cost = evaluate.weights.open_cell
    # 4-4-4 and a cell that can only take a 4: the FOUR OF A KIND is as good as made.
    assert evaluate._line_value((4, 4, 4, only_four)) == pytest.approx(16 + 40 - cost)
    # A cell that takes 3, 4 or 5: 85 % of the bonus of 4-4-4-4.
    assert evaluate._line_value((4, 4, 4, three_to_five)) == pytest.approx(16 + 0.85 * 40 - cost)
    # Without cell_share the share is by the number of open cells only.
    plain = Evaluator()
    share = plain.weights.bonus_share[1]
    assert plain._line_value((4, 4, 4, only_four)) == pytest.approx(16 + share * 40 - cost)
