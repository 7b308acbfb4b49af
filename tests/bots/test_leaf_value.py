"""The look-ahead's value of a board it stops at (``ExpectimaxBot.leaf_value``): the evaluation,
less NIGHTMARE's weight times the chance that the roll after it is a MAGDAGDON on a board at risk
(three empty cells or fewer); a board met again is read from the bot's memo, the same value."""

from __future__ import annotations

from magdagdon.bots.expectimax import ExpectimaxBot
from magdagdon.bots.planner import magdagdon_chance
from magdagdon.engine import Difficulty
from magdagdon.engine.rules import min_required

R = 7  # a RUIN's code
BOARDS = [
    # one empty cell beside a 1 and a 6: no value fits, every roll a MAGDAGDON
    (1, 0, 6, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2),
    # two empty cells beside threes
    (3, 0, 3, 3, 0, 3, 3, 3, 4, 4, 4, 4, R, 2, 2, 2),
    # three empty cells in a corner
    (0, 0, 5, 5, 0, 5, 5, 5, 6, 6, 6, 6, 5, 5, 5, 5),
    # six empty cells: not at risk, the evaluation alone
    (0, 0, 0, 4, 0, 0, 0, 4, 4, 4, 4, 4, 4, 4, 4, 4),
]


def test_a_board_at_risk_is_its_evaluation_less_the_risk_and_the_same_when_met_again() -> None:
    bot = ExpectimaxBot()
    bot._tune_for(Difficulty.NIGHTMARE)
    settings = bot.settings
    assert settings.risk_weight > 0
    for board in BOARDS:
        empties = board.count(0)
        for base in (3, 2):
            expected = bot.evaluate(board)
            if empties <= settings.risk_upto:
                chance = magdagdon_chance(board, min_required(base, empties))
                expected -= settings.risk_weight * chance
            assert bot.leaf_value(board, base) == expected
            assert bot.leaf_value(board, base) == expected  # from the memo
    # the board with no value that fits: the whole weight taken off
    assert bot.leaf_value(BOARDS[0], 3) == bot.evaluate(BOARDS[0]) - settings.risk_weight
