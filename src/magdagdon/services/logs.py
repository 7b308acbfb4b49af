"""A game's log sent by a client — a game played offline (``sync.py``), a game of an export file
(``transfer.py``) — checked as the modes say and replayed by the engine's one replay
(``engine/replays.py``).

The modes' rules of a log (docs/rules.md "Modes and records"): a ``daily`` game names its day;
a ``practice`` game is a past day's challenge (its day named) or a game kept apart from the one
it branched from (``sync.py``: no day); the other modes name no day. A named day has begun (it
is not after ``today``); where the caller knows the day's seed (a sync: this server's seed of a
day that is over, ``services/daily.py``), the game plays it. An import does not check it: each
server draws its own seeds, and an imported game never ranks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from magdagdon.engine.replays import ReplayError, challenge_day, replay_log
from magdagdon.store import GameMode

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from datetime import date

    from magdagdon.engine import Difficulty, GameState
    from magdagdon.engine.replays import Replayed


def replayed(
    difficulty: Difficulty,
    seed: int,
    mode: GameMode,
    daily_date: str | None,
    actions: Sequence[object],
    *,
    today: date,
    day_seed: Callable[[date], int | None] | None = None,
    before: Callable[[GameState], None] | None = None,
) -> Replayed:
    """The log replayed; :class:`ReplayError` at the first thing that is not so (action 0 and
    its ``field`` for the game itself). ``day_seed``: the seed a named day's game must play, None
    while it is a secret."""
    if mode is GameMode.DAILY and daily_date is None:
        raise ReplayError(0, "malformed", "a daily game needs daily_date", "daily_date")
    if mode not in (GameMode.DAILY, GameMode.PRACTICE) and daily_date is not None:
        raise ReplayError(0, "malformed", f"a {mode.value} game has no daily_date", "daily_date")
    wanted = None
    if daily_date is not None:
        day = challenge_day(daily_date)
        if day > today:
            reason = f"there is no challenge of {daily_date} yet"
            raise ReplayError(0, "malformed", reason, "daily_date")
        if day_seed is not None:
            wanted = day_seed(day)
            if wanted is None:
                reason = f"the seed of the {daily_date} challenge is not published yet"
                raise ReplayError(0, "malformed", reason, "daily_date")
    return replay_log(difficulty, seed, actions, wanted_seed=wanted, before=before)
