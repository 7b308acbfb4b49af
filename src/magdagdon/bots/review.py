"""A whole game's review (docs/rules.md "Modes and records" (Review)): a pure function of its
difficulty, seed and action log, replayed through the engine and valued with V (``bots/value.py``).

The steps, in the order they happened:

- a **chance** event: each ROLL, and each I-ROLL ULIT's outcome. ``luck`` = V(after) − V(before),
  V(before) being the expectation over the outcomes (phase roll, or the reroll node);
- a **decision**: the dice placed in a turn (one step at KUMPIRMAHIN, however they were staged
  and returned), each BAWAS −1 / DAGDAG +1, each choice of dice to I-ROLL ULIT (its outcome is
  the chance step after it), each RUIN. ``given_up`` = V(before) − V(after), labelled by the
  rules' thresholds.

Where the roll (or reroll) comes after the computer's own choice, V before it is V of that
chance node (the hint's value, so following the hint gives up nothing). Where the player chose
otherwise, ``EXACT_FROM`` points or more from the computer's choice by the hint's values
(either way), V before it is the
exact mean of V over its outcomes (``Values.expected``), so the luck of that roll averages to
zero over its outcomes: before the exact end the look-ahead's value of a board unlike the
computer's own can stand 10–20 points off that mean, and that gap is the choice's doing (charged
to the decision), not the dice's. The computer's choice beside it is then valued alike, as the
exact mean of V over the roll after it (``mean_after_choice``): the decision starts there, and
so do the BAWAS −1 / DAGDAG +1 before it in that turn (each valued alike) and the outcome of the
chance step before them (``_carry_back``). Valued one roll deeper on one side only, a label
carried V's error one roll on at the computer's board; valued alike, the labels agree with paired
rollouts of the computer's play more often (``docs/bots.md``, "Both choices valued alike").

Each step's ``before`` is the previous step's ``after`` (the same position: staging is no step),
and the last ``after`` is the final score, so the summary adds up by telescoping:
``final = start + luck − given_up``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from magdagdon.bots.opening import board_means, first_means
from magdagdon.bots.value import Values, after_advice, unstaged
from magdagdon.engine import (
    Adjust,
    Confirm,
    GameState,
    Reroll,
    Roll,
    Ruin,
    Stage,
    Unstage,
    action_to_json,
)
from magdagdon.engine.board import RUIN_CODE
from magdagdon.engine.board_codes import EMPTY
from magdagdon.engine.codec import cell_to_json

if TYPE_CHECKING:
    from collections.abc import Callable

    from magdagdon.bots.advice import Advice
    from magdagdon.engine import Action, Difficulty

#: The review's JSON form and way of valuing; a stored review of another format is computed
#: again (2: the exact mean before a roll after a choice unlike the computer's; 3: V's offsets
#: by the RUINs on the board in each stage of the game; 4: every reroll node the exact mean of V
#: over its outcomes; 5: V's correction by the board on PEACEFUL and SURVIVAL; 6: V of a dead
#: board exact, and the correction by live cells; 7: the computer's choice valued as the exact
#: mean after it where the player chose otherwise; 8: the correction by the board refitted with a
#: random player's boards, and one on NIGHTMARE; 9: V's correction at the edge of the exact end
#: on NIGHTMARE and PEACEFUL; 10: its MAGDAGDON terms by Power uses left, a table on SURVIVAL,
#: and one count before the edge on NIGHTMARE; 11: tables one count before the edge on PEACEFUL
#: and SURVIVAL, and two on SURVIVAL; 12: NIGHTMARE's table at the edge fitted on three times the
#: boards; 13: and its table one count before the edge on nearly three times; 14: a table two
#: counts before the edge on NIGHTMARE; 15: and three and four counts before it; 16: and five,
#: six and seven; 17: NIGHTMARE's at 6–10 empty cells read the whole board too; 18: a table
#: three counts before the edge on SURVIVAL; 19: and four, and its edge table fitted again; 20:
#: and five; 21: and seven).
REVIEW_FORMAT = 21
#: docs/rules.md "Modes and records" (Review): a decision giving up at least this many points
#: is labelled so (highest first).
LABELS: tuple[tuple[float, str], ...] = ((30.0, "blunder"), (15.0, "mistake"), (5.0, "inaccuracy"))
#: A choice other than the computer's that the hint's values put at least this many points
#: from the computer's, either way, has the roll after it valued as the exact mean of V over its
#: outcomes. (A choice valued above the computer's own is a board V misjudges: the look-ahead
#: chose otherwise.) The mean costs 126 decisions' search (NIGHTMARE: 3–5 s of CPU a roll early
#: in a game), so a choice within a few points of the computer's keeps the hint's value.
EXACT_FROM = LABELS[-1][0]
#: The figures a review shows, to the hundredth (the page rounds them further).
PLACES = 2


def label(given_up: float) -> str | None:
    """The rules' label of a decision that gives up ``given_up`` points (None below 5).

    >>> label(4.99), label(5.0), label(29.9), label(30.0)
    (None, 'inaccuracy', 'mistake', 'blunder')
    """
    for threshold, name in LABELS:
        if given_up >= threshold:
            return name
    return None


def board_json(state: GameState) -> list[list[int | str | None]]:
    """The permanent board in the API's form: rows of a number, ``"ruin"`` or null."""
    codes = state.codes()
    cell = {0: None, RUIN_CODE: "ruin"}
    return [[cell.get(c, c) for c in codes[r * 4 : r * 4 + 4]] for r in range(4)]


def review_game(
    difficulty: Difficulty,
    seed: int,
    actions: list[Action],
    *,
    progress: Callable[[float], None] | None = None,
    values: Values | None = None,
) -> dict[str, Any]:
    """The review of the finished game ``(difficulty, seed, actions)``; ``progress(fraction)``
    is called as it goes (each position valued is most of the work). ValueError when the log
    does not end the game (an illegal action raises the engine's error)."""
    values = values or Values()
    report = progress or (lambda fraction: None)
    work = sum(not isinstance(a, Stage | Unstage) for a in actions) or 1
    done = 0
    state = GameState.new(difficulty, seed)
    steps: list[dict[str, Any]] = []
    carried: float | None = None  # V before the coming ROLL, as the last decision left it
    # the decisions since the last chance step (BAWAS −1 / DAGDAG +1), with their positions
    chain: list[tuple[dict[str, Any], GameState]] = []
    for action in actions:
        after = state.apply(action)
        if not isinstance(action, Stage | Unstage):
            values.position(state)
            found = _steps(values, state, action, after, carried)
            if found[0]["kind"] == "decision" and steps[-1]["_exact"][1] != found[0]["_exact"][0]:
                _carry_back(values, steps[-1 - len(chain)], chain, found[0]["_exact"][0])
            steps.extend(found)
            chain = [] if found[-1]["kind"] == "chance" else [*chain, (found[0], unstaged(state))]
            carried = found[-1]["_exact"][1] if found[-1]["kind"] == "decision" else None
            done += 1
            report(done / work)
        state = after
    if not state.is_over:
        raise ValueError("the game is not over: a review needs the whole game")
    return _summary(values.of(GameState.new(difficulty, seed)), state, steps)


def _steps(
    values: Values, state: GameState, action: Action, after: GameState, carried: float | None
) -> list[dict[str, Any]]:
    """The review's steps of one action (no staging): one, or two for an I-ROLL ULIT.
    ``carried`` is V before a ROLL as the decision before it left it (None at the start). A
    decision unlike the computer's starts at the computer's choice valued deeper (``_deeper``):
    the steps before it are then carried back to it (``_carry_back``)."""
    if isinstance(action, Roll):
        before_roll = values.of(state) if carried is None else carried
        return [_chance(state, before_roll, after, values.of(after), [0, 1, 2, 3], "roll")]
    before, advice = values.judge(state)
    assert advice is not None  # phase place or magdagdon: a decision
    if isinstance(action, Reroll):
        node = values.after_reroll(state, action.dice)
        if not _same_reroll(state, action, advice) and abs(before - node) >= EXACT_FROM:
            node = values.expected(state, action.dice)
            before = _deeper(values, state, advice)
        chance = _chance(state, node, after, values.of(after), list(action.dice), "reroll")
        return [_decision(state, "reroll", [action], advice, before, node), chance]
    if isinstance(action, Adjust):
        return [_decision(state, "adjust", [action], advice, before, values.of(after))]
    value = values.of(after)
    if abs(before - value) >= EXACT_FROM and (
        isinstance(advice.action, Adjust | Reroll) or after != after_advice(unstaged(state), advice)
    ):
        value = _mean_before_roll(values, after)  # a choice unlike the computer's: the mean
        before = _deeper(values, state, advice)  # and the computer's choice valued alike
    if isinstance(action, Confirm):
        placed: list[Action] = [Stage(die, state.staged[die]) for die in state.order]
        return [_decision(state, "place", [*placed, action], advice, before, value)]
    assert isinstance(action, Ruin)
    return [_decision(state, "ruin", [action], advice, before, value)]


def _mean_before_roll(values: Values, state: GameState) -> float:
    """The exact mean of V over the roll of ``state`` (phase roll); kept where a first turn
    left the board with at most two cells filled (``bots/opening.py``)."""
    if state.powers_used == 0:
        kept = board_means(state.difficulty).get(tuple(state.codes()))
        if kept is not None:
            return kept
    return values.expected(state)


def _deeper(values: Values, state: GameState, advice: Advice) -> float:
    """V of the computer's choice at ``state`` valued as the player's other choice is
    (``mean_after_choice``); on the first turn, kept (``bots/opening.py``)."""
    position = unstaged(state)
    if position.powers_used == 0 and all(code == EMPTY for code in position.codes()):
        kept = first_means(position.difficulty).get(tuple(sorted(position.dice)))
        if kept is not None:
            return kept
    return mean_after_choice(values, position, advice)


def mean_after_choice(values: Values, position: GameState, advice: Advice) -> float:
    """V of the computer's choice (``advice``) at ``position`` (nothing staged) as the exact
    mean of V over the outcomes of the chance node it leads to, through its BAWAS −1 / DAGDAG
    +1: as the player's other choice is valued, so that the two differ by the choices alone and
    not by V's error one roll on (the look-ahead's own at one of them and not at the other;
    valued so, the labels of ``bench/label_bench.py`` agree with the rollouts more often)."""
    while isinstance(advice.action, Adjust):
        position = position.apply(advice.action)
        advice = values.advice(position)
    if isinstance(advice.action, Reroll):
        return values.expected(position, advice.action.dice)
    return values.expected(after_advice(position, advice))


def _carry_back(
    values: Values,
    chance: dict[str, Any],
    chain: list[tuple[dict[str, Any], GameState]],
    value: float,
) -> None:
    """A decision starts at ``value``, deeper than the step before it ends: each decision of
    ``chain`` (the BAWAS −1 / DAGDAG +1 since the ``chance`` step, with their positions) is
    valued alike, the computer's choice at its position (``_deeper``), and the chance step's
    outcome ends where the first of them starts (its luck with it)."""
    for step, position in reversed(chain):
        before = _deeper(values, position, values.advice(position))
        step.update(_decision_values(before, value))
        value = before
    before = chance["_exact"][0]
    chance.update(after=round(value, PLACES), luck=round(value - before, PLACES))
    chance["_exact"] = (before, value)


def _same_reroll(state: GameState, action: Reroll, advice: Advice) -> bool:
    """Whether ``action`` rerolls the values the computer would (which dice show them is all
    one to V)."""
    if not isinstance(advice.action, Reroll):
        return False
    dice = state.dice

    def kept(chosen: tuple[int, ...]) -> list[int]:
        return sorted(v for d, v in enumerate(dice) if d not in chosen)

    return kept(action.dice) == kept(advice.action.dice) and len(action.dice) == len(
        advice.action.dice
    )


def _chance(
    state: GameState, before: float, after: GameState, value: float, rolled: list[int], kind: str
) -> dict[str, Any]:
    return {
        "turn": after.turn,
        "kind": "chance",
        "type": kind,
        "before": round(before, PLACES),
        "after": round(value, PLACES),
        "luck": round(value - before, PLACES),
        "dice": list(after.dice),
        "rolled": rolled,
        "board": board_json(state),
        "powers_used": state.powers_used,
        "_exact": (before, value),
    }


def _decision(
    state: GameState,
    kind: str,
    played: list[Action],
    advice: Advice,
    before: float,
    after: float,
) -> dict[str, Any]:
    return {
        "turn": state.turn,
        "kind": "decision",
        "type": kind,
        "played": [action_to_json(a) for a in played],
        "suggested": _suggested(advice),
        **_decision_values(before, after),
        "board": board_json(state),
        "roll": list(state.dice),
        "min_required": state.min_required,
        "powers_used": state.powers_used,
    }


def _decision_values(before: float, after: float) -> dict[str, Any]:
    """A decision's figures from V before and after it."""
    given_up = before - after
    return {
        "before": round(before, PLACES),
        "after": round(after, PLACES),
        "best": round(before, PLACES),
        "given_up": round(given_up, PLACES),
        "label": label(given_up),
        "_exact": (before, after),
    }


def _suggested(advice: Advice) -> list[dict[str, Any]]:
    """The computer's choice as actions: the whole placement and KUMPIRMAHIN, or one Power or
    RUIN."""
    if not advice.placement:
        return [action_to_json(advice.action)]
    stages = [
        {"type": "stage", "die": die, "cell": cell_to_json(cell)} for die, cell in advice.placement
    ]
    return [*stages, {"type": "confirm"}]


def _summary(start: float, end: GameState, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """The whole review: the summary (its sums taken before rounding), the steps and the series
    of V through the game for the chart."""
    luck = given_up = 0.0
    counts = {name: 0 for _, name in LABELS}
    for step in steps:
        before, after = step.pop("_exact")
        if step["kind"] == "chance":
            luck += after - before
        else:
            given_up += before - after
            if step["label"]:
                counts[step["label"]] += 1
    return {
        "format": REVIEW_FORMAT,
        "difficulty": end.difficulty.value,
        "start": round(start, PLACES),
        "final": end.score().total,
        "luck": round(luck, PLACES),
        "given_up": round(given_up, PLACES),
        "labels": counts,
        "turns": end.turn,
        "values": [round(start, PLACES), *(step["after"] for step in steps)],
        "final_board": board_json(end),
        "steps": steps,
    }
