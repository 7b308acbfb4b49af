"""Playing games in tests: the engine plans, the API (or the store) is told."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from magdagdon.bots.base import play_turns
from magdagdon.engine import (
    Action,
    Adjust,
    Confirm,
    GameState,
    Phase,
    Reroll,
    Roll,
    Ruin,
    Stage,
    Unstage,
)
from plans import plain_turn

if TYPE_CHECKING:
    import random

    from fastapi.testclient import TestClient


def random_action(state: GameState, rng: random.Random) -> Action:
    """A random legal action that keeps the game moving (Powers, unstage and reroll included)."""
    legal = list(state.legal_actions())
    assert legal, f"no legal action in {state!r}"
    if state.phase is Phase.PLACE:
        if state.can_confirm and rng.random() < 0.6:
            return Confirm()
        if state.stuck:
            return rng.choice([a for a in legal if isinstance(a, Unstage)])
        stages = [a for a in legal if isinstance(a, Stage)]
        if stages and rng.random() < 0.85:
            return rng.choice(stages)
    if state.phase is Phase.MAGDAGDON and rng.random() < 0.7:
        return rng.choice([a for a in legal if isinstance(a, Ruin)])
    if rng.random() < 0.2:
        powers = [a for a in legal if isinstance(a, Adjust | Reroll)]
        if powers:
            return rng.choice(powers)
    moving = [a for a in legal if not isinstance(a, Adjust | Reroll | Unstage)]
    return rng.choice(moving or legal)


def whole_game(state: GameState) -> list[Action]:
    """Every action of a plain game from ``state`` to its end."""
    return play_turns(state, plain_turn)


def post_action(client: TestClient, game_id: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST one action that must be accepted; answer the new game state."""
    response = client.post(f"/api/games/{game_id}/actions", json=body)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def find_seed(test: Any, difficulty: Any, start: int = 1) -> int:
    """The first seed from ``start`` whose first roll passes ``test(state_after_roll)``."""
    for seed in range(start, start + 100_000):
        if test(GameState.new(difficulty, seed).apply(Roll())):
            return seed
    raise AssertionError("no such seed")
