"""The game review (docs/rules.md "Modes and records" (Review); ``bots/review.py``,
``bots/value.py``): following the
computer gives up nothing, known bad choices are labelled by docs/rules.md's thresholds, and every
review's summary adds up to the final score.

The reviews are computed once (a module fixture, one ``Values`` and its caches for all) and
every test reads them.
"""

from __future__ import annotations

import itertools
import random
from typing import TYPE_CHECKING, Any

import pytest

from magdagdon.bots.base import play_turns
from magdagdon.bots.hints import best as best_hint
from magdagdon.bots.review import EXACT_FROM, label, mean_after_choice, review_game
from magdagdon.bots.value import Values, by_board, offset, unstaged
from magdagdon.engine import (
    Action,
    Adjust,
    Confirm,
    Difficulty,
    GameState,
    Phase,
    Reroll,
    Roll,
    Ruin,
    Stage,
    Unstage,
    action_from_json,
    action_to_json,
)

if TYPE_CHECKING:
    from collections.abc import Callable

Review = dict[str, Any]
#: (difficulty, seed, turn) → the actions played at that turn's first decision instead of the
#: computer's, and the label docs/rules.md's thresholds give them (found with the computer's own
# values:
#: each is the worst of its kind there, or a slip below 5 points).
BAD_CHOICES: dict[str, tuple[Difficulty, int, int, list[Action], str | None]] = {
    "a RUIN on the worst cell": (Difficulty.NIGHTMARE, 4, 4, [Ruin(0)], "blunder"),
    "a RUIN on a poor cell": (Difficulty.NIGHTMARE, 13, 5, [Ruin(3)], "inaccuracy"),
    "a placement far from the computer's": (
        Difficulty.SURVIVAL,
        2,
        3,
        [Stage(0, 12), Stage(2, 10), Confirm()],
        "blunder",
    ),
    # A Power the computer would keep costs its penalty and the worth of a use kept (V's offset
    # by Power uses left, fitted on the computer's games: about 20–40 points on PEACEFUL).
    "a wasteful I-ROLL ULIT of every die": (
        Difficulty.PEACEFUL,
        1,
        2,
        [Reroll((0, 1, 2, 3))],
        "blunder",
    ),
    "a BAWAS −1 the computer would not spend": (
        Difficulty.PEACEFUL,
        6,
        2,
        [Adjust(0, -1)],
        "blunder",
    ),
}
#: Games played by following every hint (``hints.best``), action by action, with
#: Powers and rerolls (PEACEFUL 2: BAWAS/DAGDAG on turns 1 and 5, I-ROLL ULIT on turn 2;
#: SURVIVAL 13: I-ROLL ULIT on turn 1; NIGHTMARE 5: four RUINs).
FOLLOWED = [(Difficulty.PEACEFUL, 2), (Difficulty.SURVIVAL, 13), (Difficulty.NIGHTMARE, 5)]
RANDOM = [(d, seed) for d in Difficulty for seed in (1, 2)]


def _play(
    difficulty: Difficulty, seed: int, choose: Callable[[GameState], list[Action]]
) -> list[Action]:
    return play_turns(GameState.new(difficulty, seed), choose)


def _computer(values: Values, seed: int) -> Callable[[GameState], list[Action]]:
    rng = random.Random(seed)
    return lambda state: [values.bot.choose(state, rng)]


def _hinted(told: dict[GameState, float]) -> Callable[[GameState], list[Action]]:
    """Follow the hint; ``told`` keeps the value each hint told, by state."""

    def choose(state: GameState) -> list[Action]:
        action, _, value = best_hint(state)
        told[state] = value
        return [action_from_json(action)]

    return choose


def _with_bad_choice(
    values: Values, seed: int, turn: int, bad: list[Action]
) -> Callable[[GameState], list[Action]]:
    computer = _computer(values, seed)
    done: list[bool] = []

    def choose(state: GameState) -> list[Action]:
        if state.turn == turn and state.phase is not Phase.ROLL and not done:
            done.append(True)
            return bad
        return computer(state)

    return choose


def _random(seed: int) -> Callable[[GameState], list[Action]]:
    """Any legal action, a die returned only when stuck, KUMPIRMAHIN as soon as it may (games
    stay short), a Power one time in four."""
    rng = random.Random(seed)

    def choose(state: GameState) -> list[Action]:
        legal = state.legal_actions()
        powers = [a for a in legal if isinstance(a, Adjust | Reroll)]
        if powers and rng.random() < 0.25:
            return [rng.choice(powers)]
        if state.can_confirm:
            return [Confirm()]
        moves = [a for a in legal if not isinstance(a, Adjust | Reroll | Unstage)]
        return [rng.choice(moves or list(legal))]

    return choose


@pytest.fixture(scope="module")
def values() -> Values:
    return Values()


@pytest.fixture(scope="module")
def told() -> dict[GameState, float]:
    """The expected value each hint of the hint-following games told, by state."""
    return {}


@pytest.fixture(scope="module")
def reviews(values: Values, told: dict[GameState, float]) -> dict[str, tuple[list[Action], Review]]:
    """Every game of this file with its log and its review."""
    games: dict[str, tuple[Difficulty, int, Callable[[GameState], list[Action]]]] = {}
    for difficulty, seed in FOLLOWED:
        games[f"followed {difficulty.value} {seed}"] = (difficulty, seed, _hinted(told))
    for name, (difficulty, seed, turn, bad, _) in BAD_CHOICES.items():
        games[name] = (difficulty, seed, _with_bad_choice(values, seed, turn, bad))
    for difficulty, seed in RANDOM:
        games[f"random {difficulty.value} {seed}"] = (difficulty, seed, _random(seed))
    out = {}
    for name, (difficulty, seed, choose) in games.items():
        log = _play(difficulty, seed, choose)
        out[name] = (log, review_game(difficulty, seed, log, values=values))
    return out


def _decisions(review: Review) -> list[dict[str, Any]]:
    return [step for step in review["steps"] if step["kind"] == "decision"]


def test_following_every_hint_gives_up_nothing(
    reviews: dict[str, tuple[list[Action], Review]],
) -> None:
    kinds = set()
    for difficulty, seed in FOLLOWED:
        review = reviews[f"followed {difficulty.value} {seed}"][1]
        for step in _decisions(review):
            kinds.add(step["type"])
            assert step["given_up"] == 0, step
            assert step["label"] is None
            assert step["played"] == step["suggested"], step
        assert review["given_up"] == 0
    assert kinds == {"place", "adjust", "reroll", "ruin"}  # every kind of decision was followed


def test_the_review_s_values_are_the_hints(
    reviews: dict[str, tuple[list[Action], Review]], told: dict[GameState, float], values: Values
) -> None:
    """Each step's ``before`` is what the hint told at that state (a reroll's outcome, whose
    ``before`` is the reroll node, has no state of its own to ask at), but where the computer's
    choice is a Power whose chain ends in an I-ROLL ULIT (``_told``)."""
    compared = 0
    for difficulty, seed in FOLLOWED:
        log, review = reviews[f"followed {difficulty.value} {seed}"]
        state = GameState.new(difficulty, seed)
        steps = iter(review["steps"])
        for action in log:
            if not isinstance(action, Stage | Unstage):
                step = next(steps)
                assert _told(values, state, step["before"], told[state]), (state, step)
                compared += 1
                if isinstance(action, Reroll):
                    next(steps)
            state = state.apply(action)
    assert compared > 30


def test_off_the_computer_s_path_the_values_are_still_the_hints(
    reviews: dict[str, tuple[list[Action], Review]], values: Values
) -> None:
    """After a bad choice, and in games of any legal action with dice staged and returned, each
    step starts at the hint's ``expected_value`` for that state, and each decision shows the
    hint's own choice and value (``best``) beside the player's. A ROLL after a choice
    ``EXACT_FROM`` points or more from the computer's by those values (either way) starts at the
    exact mean of V over its outcomes instead (``tests/bots/test_review_luck.py``), and such a
    choice starts at the computer's choice valued alike (``mean_after_choice``), as do the
    BAWAS −1 / DAGDAG +1 before it in its turn: the chance step before them ends there."""
    names = [*BAD_CHOICES, *(f"random {d.value} 1" for d in Difficulty)]
    decided = means = deeper = carried = 0
    for name in names:
        log, review = reviews[name]
        difficulty, seed = _origin(name)
        state = GameState.new(difficulty, seed)
        steps = iter(review["steps"])
        last: dict[str, Any] | None = None
        shallow = 0.0  # V of the last decision's position, as the hint's values go
        for action in log:
            if not isinstance(action, Stage | Unstage):
                step = next(steps)
                # the hint of the position itself: V does not move while dice are staged
                position = unstaged(state)
                hinted, placement, value = best_hint(position)
                if (
                    isinstance(action, Roll)
                    and last
                    and last["kind"] == "decision"
                    and abs(shallow - value) >= EXACT_FROM
                ):
                    assert step["before"] == round(values.expected(state), 2), (name, step)
                    means += 1
                elif step["kind"] == "decision" and not _told(values, state, step["before"], value):
                    computer = values.advice(position)
                    valued = mean_after_choice(values, position, computer)
                    assert step["before"] == round(valued, 2), (name, state, step)
                    carried += isinstance(action, Adjust)  # a BAWAS / DAGDAG: carried back
                    if not isinstance(action, Adjust):
                        assert step["played"] != step["suggested"], (name, step)
                        chosen = (
                            values.after_reroll(position, action.dice)
                            if isinstance(action, Reroll)
                            else values.of(state.apply(action))
                        )
                        assert abs(values.of(position) - chosen) >= EXACT_FROM, (name, step)
                    deeper += 1
                else:
                    assert _told(values, state, step["before"], value), (name, state, step)
                last = step
                if step["kind"] == "decision":
                    shallow = values.of(position)
                    assert step["best"] == step["before"], (name, step)
                    stages = [
                        {"type": "stage", "die": die, "cell": cell} for die, cell in placement
                    ]
                    expected = [*stages, {"type": "confirm"}] if stages else [hinted]
                    assert step["suggested"] == expected, (name, step)
                    decided += 1
                if isinstance(action, Reroll):
                    last = next(steps)
            state = state.apply(action)
    assert decided > 50
    assert means > 3
    assert deeper > 3
    assert carried > 0


def _told(values: Values, state: GameState, shown: float, hinted: float) -> bool:
    """Whether a review's ``shown`` value at ``state`` is the hint's (``hinted``), or, where the
    computer would use a Power, V with every reroll node the exact mean of its outcomes (the
    review's; the hint keeps the look-ahead's estimate there, ``bots/value.py``)."""
    if shown == hinted:
        return True
    position = unstaged(state)
    if position.phase is Phase.ROLL or not isinstance(
        values.advice(position).action, Reroll | Adjust
    ):
        return False
    return shown == round(values.of(position), 2)


def _origin(name: str) -> tuple[Difficulty, int]:
    """The difficulty and seed of a game of ``reviews`` by its name."""
    if name in BAD_CHOICES:
        return BAD_CHOICES[name][0], BAD_CHOICES[name][1]
    _, difficulty, seed = name.split()
    return Difficulty(difficulty), int(seed)


def test_every_review_adds_up_to_the_final_score(
    reviews: dict[str, tuple[list[Action], Review]],
) -> None:
    for name, (log, review) in reviews.items():
        steps = review["steps"]
        total = review["start"] + review["luck"] - review["given_up"]
        assert abs(total - review["final"]) <= 0.5, name
        # each step starts where the last one ended (staging is no step), V ends as the score
        assert steps[0]["before"] == review["start"]
        for a, b in itertools.pairwise(steps):
            assert b["before"] == a["after"], (name, a, b)
        assert steps[-1]["after"] == review["final"]
        assert review["values"] == [review["start"], *(s["after"] for s in steps)]
        lucks = [s["luck"] for s in steps if s["kind"] == "chance"]
        assert review["luck"] == pytest.approx(sum(lucks), abs=0.005 * len(lucks))  # rounded
        # one chance step per ROLL and per I-ROLL ULIT, one decision per choice
        rolls = sum(isinstance(a, Roll | Reroll) for a in log)
        chosen = sum(isinstance(a, Confirm | Adjust | Reroll | Ruin) for a in log)
        assert len(steps) - len(_decisions(review)) == rolls
        assert len(_decisions(review)) == chosen


def test_known_bad_choices_are_labelled(reviews: dict[str, tuple[list[Action], Review]]) -> None:
    for name, (_, _, turn, bad, expected) in BAD_CHOICES.items():
        review = reviews[name][1]
        steps = [s for s in _decisions(review) if s["turn"] == turn]
        step = steps[0]  # the first decision of that turn is the bad one
        assert step["label"] == expected, (name, step)
        assert step["played"] == [action_to_json(a) for a in bad]
        assert step["played"] != step["suggested"]
        counts = review["labels"]
        assert sum(counts.values()) == sum(s["label"] is not None for s in _decisions(review))


def test_every_label_is_spec_s_threshold(reviews: dict[str, tuple[list[Action], Review]]) -> None:
    labelled = set()
    for _, review in reviews.values():
        for step in _decisions(review):
            near = any(abs(step["given_up"] - t) < 0.01 for t in (5, 15, 30))
            if not near:  # the label is of the exact value, the figure rounded to 0.01
                assert step["label"] == label(step["given_up"]), step
            labelled.add(step["label"])
    assert labelled == {None, "inaccuracy", "mistake", "blunder"}


def test_the_chance_steps_show_their_dice(reviews: dict[str, tuple[list[Action], Review]]) -> None:
    log, review = reviews["followed peaceful 2"]
    assert any(isinstance(a, Reroll) for a in log)
    state = GameState.new(Difficulty.PEACEFUL, 2)
    chances = iter(s for s in review["steps"] if s["kind"] == "chance")
    for action in log:
        state = state.apply(action)
        if isinstance(action, Roll | Reroll):
            step = next(chances)
            assert step["dice"] == list(state.dice)
            assert step["rolled"] == (
                [0, 1, 2, 3] if isinstance(action, Roll) else list(action.dice)
            )
            assert step["type"] == ("roll" if isinstance(action, Roll) else "reroll")


def test_progress_rises_to_one(values: Values) -> None:
    log = _play(Difficulty.NIGHTMARE, 5, _computer(values, 5))
    seen: list[float] = []
    review_game(Difficulty.NIGHTMARE, 5, log, progress=seen.append, values=values)
    assert seen == sorted(seen)
    assert 0 < seen[0] < 1
    assert seen[-1] == 1


def test_an_unfinished_game_has_no_review() -> None:
    with pytest.raises(ValueError, match="not over"):
        review_game(Difficulty.NIGHTMARE, 5, [Roll()])


# ----- V itself -------------------------------------------------------------------------------


def test_v_does_not_move_while_dice_are_staged(values: Values) -> None:
    state = GameState.new(Difficulty.PEACEFUL, 3).apply(Roll())
    staged = state
    for action in values.advice(state).placement:
        staged = staged.apply(Stage(*action))
        assert values.of(staged) == values.of(state)
        assert unstaged(staged) == state


def test_v_of_a_power_is_the_value_of_its_chain(values: Values) -> None:
    # PEACEFUL 2: the computer changes a die on turn 1 and rerolls on turn 2
    state = GameState.new(Difficulty.PEACEFUL, 2)
    rng = random.Random(2)
    found: set[str] = set()
    while len(found) < 2:
        if state.phase is not Phase.ROLL:
            action = values.advice(state).action
            if isinstance(action, Adjust):
                assert values.of(state) == values.of(state.apply(action))
                found.add("adjust")
            elif isinstance(action, Reroll):
                assert values.of(state) == values.after_reroll(state, action.dice)
                found.add("reroll")
        state = state.apply(values.bot.choose(state, rng))


def test_v_at_the_ends(values: Values) -> None:
    new = GameState.new(Difficulty.SURVIVAL, 4)
    found = values.explain(new)[0]  # the look-ahead's expectation, made a final score
    assert found.raw == values.bot.expected_before_roll(new)
    assert found.key is not None
    assert found.by_board == by_board(tuple(new.codes()), found.key)
    assert values.of(new) == found.raw + offset(found.key) + found.by_board
    assert values.judge(new)[1] is None
    log = _play(Difficulty.NIGHTMARE, 5, _computer(values, 5))
    state = GameState.new(Difficulty.NIGHTMARE, 5)
    for action in log:
        state = state.apply(action)
    assert values.of(state) == state.score().total
    with pytest.raises(ValueError, match="no decision"):
        values.advice(state)
