"""The ``random`` bot: uniform over the legal actions."""

from __future__ import annotations

from math import floor
from typing import TYPE_CHECKING

from magdagdon.bots.base import register

if TYPE_CHECKING:
    import random

    from magdagdon.engine import Action, GameState


class RandomBot:
    """Picks any legal action, each with the same chance."""

    name = "random"

    def choose(self, state: GameState, rng: random.Random) -> Action:
        actions = state.legal_actions()
        # As ``rng.choice`` but without its rejection loop (a Python-level call per draw): the
        # bias of scaling a 53-bit float is below 1e-13 for a few hundred actions. ``floor``
        # gives what ``int`` would (the product is never negative) and is cheaper to call.
        return actions[floor(rng.random() * len(actions))]


register("random", RandomBot)
