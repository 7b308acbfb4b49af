"""The computer players' interface and their registry by name.

A bot plays through the engine's public API only: given a state and an RNG it owns nothing of,
it answers the next action, one of ``state.legal_actions()``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import random
    from collections.abc import Callable

    from magdagdon.engine import Action, GameState


class Bot(Protocol):
    """A player: ``choose`` answers a legal action for ``state``."""

    name: str

    def choose(self, state: GameState, rng: random.Random) -> Action: ...


_REGISTRY: dict[str, Callable[[], Bot]] = {}


def play_turns(state: GameState, turn: Callable[[GameState], list[Action]]) -> list[Action]:
    """The action log from ``state`` to the end of its game, each step's actions answered by
    ``turn`` (a ROLL, a whole placement and KUMPIRMAHIN, a Power, a RUIN)."""
    log: list[Action] = []
    while not state.is_over:
        for action in turn(state):
            state = state.apply(action)
            log.append(action)
    return log


def register(name: str, factory: Callable[[], Bot]) -> None:
    """Make a bot available by ``name``."""
    _REGISTRY[name] = factory


def bot_names() -> list[str]:
    """The names of every registered bot."""
    _load()
    return sorted(_REGISTRY)


def make_bot(name: str) -> Bot:
    """A new bot of the given name; ``KeyError`` for an unknown one."""
    _load()
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise KeyError(
            f"unknown bot {name!r}; choose one of {', '.join(sorted(_REGISTRY))}"
        ) from None
    return factory()


def _load() -> None:
    # The bot modules register themselves on import.
    from magdagdon.bots import expectimax, greedy, random_bot  # noqa: F401
