"""The ``random`` bot: uniform over the legal actions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from magdagdon.bots.base import register

if TYPE_CHECKING:
    import random

    from magdagdon.engine import Action, GameState


class RandomBot:
    """Picks any legal action, each with the same chance."""

    name = "random"

    def choose(self, state: GameState, rng: random.Random) -> Action:
        return rng.choice(state.legal_actions())


register("random", RandomBot)
