"""The bounds an export file must keep before and while its games are replayed (docs/api.md
"Export and import"): how many games, how many actions a game, and that its times and counts
are ones a game played on a MAGDAGDON server can have. Each refusal is 422 ``import_invalid``
naming the game and the field (:class:`~magdagdon.services.errors.ImportFieldError`).

The longest game without undoing: a game has at most 16 turns (each confirms at least one die
on an empty cell, or makes an empty cell a RUIN), and a turn is one I-ROLL, at most four dice
staged and one KUMPIRMAHIN (or one RUIN); the Powers add at most three actions in a whole game
(peaceful's three uses): 16 × 6 + 3 = 99 actions. Only un-staging makes a log longer: each
un-stage undoes a stage, so a legal log can be as long as anyone likes. :data:`MAX_ACTIONS`
allows some 900 stage/un-stage moves beyond the 99, more than 50 a turn, far past what a
player does with a finger (the page's own games and the bots un-stage a few times a game);
a log past it is refused rather than stored, since every later replay (a review) pays for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from magdagdon.services import game_times
from magdagdon.services.errors import ImportFieldError

if TYPE_CHECKING:
    from datetime import date, datetime

    from magdagdon.engine import GameState

#: The most games one file may hold: a year of some 55 games a day. (The body cap holds about
#: 11,000 real games in 16 MB.)
MAX_GAMES = 20_000
#: The most actions one game may hold (see the module's docstring).
MAX_ACTIONS = 1_000


def check_count(games: list[Any]) -> None:
    """The file's number of games, before any is read."""
    if len(games) > MAX_GAMES:
        raise ImportFieldError(
            f"a file holds at most {MAX_GAMES} games, not {len(games)}; nothing was imported",
            game=MAX_GAMES + 1,
            field="games",
        )


def check_actions(position: int, where: str, actions: list[Any]) -> None:
    """A game's number of actions, before it is replayed."""
    if len(actions) > MAX_ACTIONS:
        raise ImportFieldError(
            f"{where}: a game has at most {MAX_ACTIONS} actions, not {len(actions)}; "
            "nothing was imported",
            game=position,
            field="actions",
        )


def moment(position: int, where: str, key: str, text: str, now: datetime) -> datetime:
    """The ISO-8601 time ``text`` of field ``key``, not after ``now`` (``game_times.moment``)."""
    try:
        return game_times.moment(key, text, now)
    except game_times.TimeRefusedError as exc:
        raise _refused(position, where, exc) from None


def check_times(
    position: int,
    where: str,
    created: datetime,
    finished: datetime | None,
    day: date | None,
) -> None:
    """A game ends after it starts; a day's challenge is played from that day on (UTC)."""
    try:
        game_times.check_order(("created_at", created), ("finished_at", finished), day)
    except game_times.TimeRefusedError as exc:
        raise _refused(position, where, exc) from None


def _refused(position: int, where: str, exc: game_times.TimeRefusedError) -> ImportFieldError:
    message = f"{where}: {exc}; nothing was imported"
    return ImportFieldError(message, game=position, field=exc.field)


class HintBound:
    """The most hints a game can have counted: one for each state the player acted in outside
    phase ``roll`` (docs/rules.md "Modes and records" (Hints): a hint asked there is not
    counted), and one for the state it waits in when it is not over."""

    def __init__(self) -> None:
        self.decisions = 0

    def before(self, state: GameState) -> None:
        """Call with each state an action of the log is applied to."""
        if state.phase.value != "roll":
            self.decisions += 1

    def check(self, position: int, where: str, hints_used: int, final: GameState) -> None:
        bound = self.decisions + (0 if final.is_over or final.phase.value == "roll" else 1)
        if hints_used > bound:
            raise ImportFieldError(
                f"{where}: hints_used {hints_used} is more than the {bound} decisions of its "
                "game; nothing was imported",
                game=position,
                field="hints_used",
            )
