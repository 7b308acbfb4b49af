"""The first turn's kept look-ahead values (``bots/opening.py``) are the search's own: a sample
recomputed without the book, and every first-turn hint served from it alone; the kept means of the
computer's first choices are the review's own, whatever the order of the dice, and so are those of
the boards a first turn leaves with at most two cells filled."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

import magdagdon.bots.review as review
from action_logs import bot_game
from magdagdon.bots.base import make_bot
from magdagdon.bots.expectimax import ExpectimaxBot, Settings
from magdagdon.bots.opening import board_means, book, first_boards, first_means, first_turns
from magdagdon.bots.review import mean_after_choice
from magdagdon.bots.value import Values
from magdagdon.engine import Confirm, Difficulty, GameState, Phase, Ruin, Stage

if TYPE_CHECKING:
    from magdagdon.engine.board_codes import Codes


@pytest.mark.parametrize("difficulty", list(Difficulty), ids=lambda d: d.value)
def test_kept_values_are_the_search_s(difficulty: Difficulty) -> None:
    kept = book(difficulty)
    assert len(kept) > 300
    bot = ExpectimaxBot(opening=False)
    bot.expected_before_roll(first_turns(difficulty)[0])  # tuned for the difficulty
    for key in sorted(kept)[:: len(kept) // 6]:
        codes, base, penalty = key
        assert bot.after_turn(codes, base, None if penalty < 0 else penalty) == kept[key]


@pytest.mark.parametrize("difficulty", list(Difficulty), ids=lambda d: d.value)
def test_every_first_turn_is_answered_from_the_book(difficulty: Difficulty) -> None:
    """Each first-turn position (a sample of the 126 rolls here) is hinted without a search of
    the next roll, and as a bot without the book hints it."""
    states = first_turns(difficulty)
    bot = ExpectimaxBot()
    with_book = Values(bot, exact_rerolls=False)  # as the hint values (bots/hints.py)
    without = Values(ExpectimaxBot(opening=False), exact_rerolls=False)
    for state in states[:: len(states) // 12]:
        assert with_book.judge(state) == without.judge(state)
    assert bot.after_values() == {}  # nothing searched: every value came from the book


def test_a_bot_with_other_settings_never_reads_the_book() -> None:
    state = first_turns(Difficulty.NIGHTMARE)[0]
    bot = ExpectimaxBot(Settings(width=3))
    bot.expected_before_roll(state)
    assert bot.after_values() != {}


@pytest.mark.parametrize("difficulty", list(Difficulty), ids=lambda d: d.value)
def test_kept_first_means_are_the_review_s(difficulty: Difficulty) -> None:
    kept = first_means(difficulty)
    assert len(kept) == 126  # every first roll
    values = Values()
    for state in first_turns(difficulty)[1::41]:
        for dice in (state.dice, state.dice[::-1]):  # the order decides nothing
            position = GameState.new(difficulty, 0).roll_with(dice)
            found = mean_after_choice(values, position, values.advice(position))
            assert found == kept[tuple(sorted(dice))], (difficulty, dice)


def test_kept_means_of_a_first_ruin_are_the_review_s() -> None:
    """On NIGHTMARE a first roll of 1-3-5-5 places no three dice together: a MAGDAGDON, and a
    RUIN on any of the 16 cells. Each board it leaves has its mean kept, the exact mean of V over
    the roll after it."""
    kept = board_means(Difficulty.NIGHTMARE)
    state = GameState.new(Difficulty.NIGHTMARE, 0).roll_with((1, 3, 5, 5))
    assert state.phase is Phase.MAGDAGDON
    boards = {tuple(state.apply(Ruin(cell)).codes()) for cell in range(16)}
    assert set(kept) == boards
    values = Values()
    for cell in (0, 5):  # a corner and a middle cell
        after = state.apply(Ruin(cell))
        assert values.expected(after) == kept[tuple(after.codes())]


@pytest.mark.parametrize("difficulty", [Difficulty.PEACEFUL, Difficulty.SURVIVAL], ids=str)
def test_kept_means_of_two_dice_placed_are_the_review_s(difficulty: Difficulty) -> None:
    """PEACEFUL and SURVIVAL place every first roll: the boards kept are those of two dice
    placed, a 3 and a 4 side by side among them, each with its exact mean."""
    kept = board_means(difficulty)
    assert len(kept) == 384 == len(first_boards(difficulty))
    assert all(16 - codes.count(0) == 2 for codes in kept)
    state = GameState.new(difficulty, 0).roll_with((3, 4, 6, 6))
    after = state.apply(Stage(0, 5)).apply(Stage(1, 6)).apply(Confirm())
    assert after.codes()[5:7] == [3, 4]
    assert Values().expected(after) == kept[tuple(after.codes())]


def test_a_review_reads_a_first_ruin_s_mean_and_shows_what_it_would_compute(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A greedy NIGHTMARE game whose first roll is a MAGDAGDON, its RUIN on cell 5 (the
    computer's elsewhere): the review reads that board's kept mean, and every figure is the one
    it shows with nothing kept."""
    seed = 1158446715
    actions = bot_game(make_bot("greedy"), Difficulty.NIGHTMARE, seed)
    first = GameState.new(Difficulty.NIGHTMARE, seed).apply(actions[0])
    assert first.phase is Phase.MAGDAGDON
    assert actions[1] == Ruin(5)
    kept = board_means(Difficulty.NIGHTMARE)
    read: list[Codes] = []

    class Counted:
        """The kept means, each one found noted."""

        def get(self, codes: Codes) -> float | None:
            if codes in kept:
                read.append(codes)
            return kept.get(codes)

    monkeypatch.setattr(review, "board_means", lambda difficulty: Counted())
    with_kept = review.review_game(Difficulty.NIGHTMARE, seed, actions, values=Values())
    assert read == [tuple(first.apply(Ruin(5)).codes())]
    monkeypatch.setattr(review, "board_means", lambda difficulty: {})
    assert review.review_game(Difficulty.NIGHTMARE, seed, actions, values=Values()) == with_kept
