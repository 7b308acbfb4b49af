"""The review's labels where a player keeps a Majda Power the computer would use
(docs/rules.md "Modes and records" (Review)), checked against the exact search of the end of the
game (``bots/endgame.py``): literal games (seed and actions) in which the player, at one
decision, places the best placement without a Power where the computer used one.

With 5 empty cells the placement leads into the exact region, and the computer's Power too: the
review's figure is the exact one, and keeping the Power there is truly a blunder. With 6 empty
cells V is the look-ahead's, calibrated, and the exact search says keeping gave up nothing: the
review labels nothing either.
"""

from __future__ import annotations

from typing import Any

import pytest

from magdagdon.bots.endgame import Endgame
from magdagdon.bots.review import label, review_game
from magdagdon.bots.value import Values
from magdagdon.engine import Difficulty, GameState, Stage, action_from_json
from magdagdon.engine.board_codes import EMPTY


def _log(text: str) -> list[Any]:
    """A log written compactly: ``r`` I-ROLL, ``sD@R,C`` stage die D on (R, C), ``c``
    KUMPIRMAHIN, ``aD+`` / ``aD-`` DAGDAG +1 / BAWAS −1 on die D, ``x@R,C`` RUIN, ``uD...``
    I-ROLL ULIT of the dice D..."""
    out: list[dict[str, Any]] = []
    for word in text.split():
        if word == "r":
            out.append({"type": "roll"})
        elif word == "c":
            out.append({"type": "confirm"})
        elif word[0] == "s":
            die, cell = word[1:].split("@")
            out.append(
                {"type": "stage", "die": int(die), "cell": [int(x) for x in cell.split(",")]}
            )
        elif word[0] == "a":
            out.append(
                {"type": "adjust", "die": int(word[1]), "delta": 1 if word[2] == "+" else -1}
            )
        elif word[0] == "x":
            out.append({"type": "ruin", "cell": [int(x) for x in word[2:].split(",")]})
        else:
            out.append({"type": "reroll", "dice": [int(x) for x in word[1:]]})
    return out


#: (seed, empty cells at the kept decision, its turn, the log): PEACEFUL games of the computer,
#: but at that turn the player placed (the exact search's best placement without a Power) where
#: the computer used DAGDAG +1 / BAWAS −1.
KEPT = {
    "5 empty cells": (
        15,
        5,
        5,
        "r s0@0,1 s2@1,1 s3@2,1 c r a1+ s1@1,2 s2@0,2 s3@2,0 c r s0@2,2 s2@3,2 s3@1,0 c "
        "r a1+ s1@0,3 s3@2,3 c r s0@3,0 s1@0,0 c r a1- s1@1,3 s2@3,3 c r x@3,1",
    ),
    "6 empty cells": (
        9,
        6,
        5,
        "r s0@1,1 s2@1,0 c r a1+ s0@0,1 s3@1,2 s1@2,2 c r s3@3,2 s0@3,1 c "
        "r s1@1,3 s2@0,0 s3@2,1 c r s2@2,3 s3@0,3 c r a1- s0@3,3 s1@0,2 s2@3,0 c r u0123 x@2,0",
    ),
}


@pytest.mark.parametrize("name", list(KEPT))
def test_keeping_a_power_is_labelled_as_the_exact_search_says(name: str) -> None:
    seed, empties, turn, text = KEPT[name]
    difficulty = Difficulty.PEACEFUL
    log = [action_from_json(a) for a in _log(text)]
    values = Values()
    review = review_game(difficulty, seed, log, values=values)
    state = GameState.new(difficulty, seed)
    kept: GameState | None = None
    for action in log:
        if state.turn == turn and kept is None and isinstance(action, Stage):
            kept = state
        state = state.apply(action)
    assert kept is not None
    codes = tuple(kept.codes())
    assert codes.count(EMPTY) == empties
    assert kept.powers_left > 0
    # the computer would use a Power here; the player placed instead
    advice = values.advice(kept)
    assert not advice.placement
    step = next(s for s in review["steps"] if s["kind"] == "decision" and s["turn"] == turn)
    assert step["type"] == "place"
    assert step["suggested"][0]["type"] == "adjust"
    # the exact figures: the best of everything, and the player's placement
    exact = Endgame(difficulty)
    best = exact.best(codes, kept.dice, kept.powers_used, kept.min_required)[0]
    after = kept
    for action in step["played"]:
        after = after.apply(action_from_json(action))
    placed = exact.roll_value(tuple(after.codes()), kept.powers_used)
    exact_given_up = best - placed
    assert step["label"] == label(exact_given_up), (step, exact_given_up)
    if empties <= 5:
        # both lead into the exact region: the review's best is the exact value of the
        # look-ahead's own Power choice, at most the exact best
        assert exact_given_up - 3.5 <= step["given_up"] <= exact_given_up + 0.01
        assert step["label"] == "blunder"
    else:
        assert exact_given_up < 5
        assert step["given_up"] < 5
