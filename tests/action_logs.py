"""Action logs written short, as the bots' tests pin whole games: ``R`` roll, ``C`` confirm,
``S`` die cell (a stage), ``U`` die (an unstage), ``A`` die ± (BAWAS −1 / DAGDAG +1), ``X`` dice
(I-ROLL ULIT), ``M`` cell (a RUIN); cells in hex. And the whole log of a bot's seeded game."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from magdagdon.engine import Action, Adjust, Confirm, GameState, Reroll, Roll, Ruin, Stage, Unstage

if TYPE_CHECKING:
    from magdagdon.bots.base import Bot
    from magdagdon.engine import Difficulty


def bot_game(bot: Bot, difficulty: Difficulty, seed: int) -> list[Action]:
    """The action log of ``bot``'s game of ``seed``, its choices drawn from
    ``random.Random(seed)`` (as ``magdagdon simulate`` plays a game)."""
    rng = random.Random(seed)
    state = GameState.new(difficulty, seed)
    log: list[Action] = []
    while not state.is_over:
        log.append(bot.choose(state, rng))
        state = state.apply(log[-1])
    return log


def actions_of(log: str) -> list[Action]:
    """The actions of a short log."""
    actions: list[Action] = []
    for word in log.split():
        kind, rest = word[0], word[1:]
        if kind == "R":
            actions.append(Roll())
        elif kind == "C":
            actions.append(Confirm())
        elif kind == "S":
            actions.append(Stage(int(rest[0]), int(rest[1:], 16)))
        elif kind == "U":
            actions.append(Unstage(int(rest)))
        elif kind == "A":
            actions.append(Adjust(int(rest[0]), 1 if rest[1] == "+" else -1))
        elif kind == "X":
            actions.append(Reroll(tuple(int(d) for d in rest)))
        else:
            assert kind == "M"
            actions.append(Ruin(int(rest, 16)))
    return actions
