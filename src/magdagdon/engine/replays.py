"""A game's log replayed: the one replay of a game sent as data (its seed, its day, its actions
as JSON), for every caller that takes one — a sync of a game played offline, an import, and
the page's engine worker opening a game (``host.py``).

The answer is the state the log reaches, with the actions it holds, or :class:`ReplayError`
naming the first thing that does not replay (nothing else is done by a caller then). The
engine has no clock: whether a day has begun is the caller's to say.

>>> from magdagdon.engine import Difficulty
>>> replayed = replay_log(Difficulty.PEACEFUL, 1, [{"type": "roll"}])
>>> replayed.state.phase.value, len(replayed.actions)
('place', 1)
>>> try:
...     replay_log(Difficulty.PEACEFUL, 1, [{"type": "roll"}, {"type": "roll"}])
... except ReplayError as refused:
...     print(refused.action, refused.code)
2 not_your_turn_phase
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from magdagdon.engine.codec import action_from_json
from magdagdon.engine.daily import FIRST_DAY
from magdagdon.engine.errors import IllegalActionError, MalformedError
from magdagdon.engine.state import GameState

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from magdagdon.engine.actions import Action
    from magdagdon.engine.rules import Difficulty

__all__ = ["ReplayError", "Replayed", "challenge_day", "game_seed", "replay_log"]


@dataclass(frozen=True, slots=True)
class Replayed:
    """A log that replays: the state it reaches and its actions, in order."""

    state: GameState
    actions: tuple[Action, ...]


class ReplayError(ValueError):
    """The log does not replay. ``action``: the 1-based number of the first action refused,
    or 0 for the game's start, whose ``field`` (``seed`` or ``daily_date``) is wrong; ``code``:
    the engine's code of the refusal (``malformed`` for what is not an action at all);
    ``reason``: the engine's words."""

    def __init__(self, action: int, code: str, reason: str, field: str | None = None) -> None:
        where = "the game's start" if action == 0 else f"action {action}"
        super().__init__(f"{where} does not replay: {reason}")
        self.action, self.code, self.reason, self.field = action, code, reason, field


def challenge_day(text: str) -> date:
    """The day of a daily challenge named ``YYYY-MM-DD``; :class:`ReplayError` when it is no
    date or a day before the first challenge."""
    try:
        day = date.fromisoformat(text)
    except (TypeError, ValueError):
        raise ReplayError(0, "malformed", f"{text!r} is not a date", "daily_date") from None
    if day < FIRST_DAY:
        raise ReplayError(0, "malformed", f"there is no challenge of {text}", "daily_date")
    return day


def game_seed(seed: object, wanted: int | None = None) -> int:
    """The seed a game plays: ``seed``, a whole number ≥ 0; and ``wanted`` when the caller
    knows the seed it must be (a day's challenge: its server's published seed)."""
    if type(seed) is not int or seed < 0:
        reason = f"the seed must be a whole number ≥ 0, not {seed!r}"
        raise ReplayError(0, "malformed", reason, "seed")
    if wanted is not None and seed != wanted:
        raise ReplayError(0, "malformed", "its seed is not its challenge's seed", "seed")
    return seed


def replay_log(
    difficulty: Difficulty,
    seed: object,
    actions: Sequence[object],
    *,
    wanted_seed: int | None = None,
    before: Callable[[GameState], None] | None = None,
) -> Replayed:
    """Replay ``actions`` (the JSON of each, as the API and the codec write them) from a new
    game of ``seed`` (see :func:`game_seed`); ``before`` is shown each state an action is
    applied to. :class:`ReplayError` at the first that does not replay."""
    state = GameState.new(difficulty, game_seed(seed, wanted_seed))
    done: list[Action] = []
    for index, data in enumerate(actions, 1):
        try:
            action = action_from_json(data)
            if before is not None:
                before(state)
            state = state.apply(action)
        except IllegalActionError as exc:
            raise ReplayError(index, exc.code, exc.message) from None
        except MalformedError as exc:
            raise ReplayError(index, "malformed", str(exc)) from None
        done.append(action)
    return Replayed(state, tuple(done))
