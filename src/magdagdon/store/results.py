"""Finished games' summaries (``game_results``) and the reads Statistics make.

A summary is read off the engine's final score. It is written when a game ends
(``services.games.play``, in the action's transaction), when a game is imported, and by the
migration that made the table (for the games finished before it), so that Statistics of 10,000
games read 10,000 small rows instead of replaying 10,000 games.

Statements are built once at import, as in ``statements.py``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, false, func, insert, literal_column, select

from magdagdon.store.daily import count_attempts
from magdagdon.store.tables import game_results, games

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from sqlalchemy import BindParameter, Connection

    from magdagdon.engine import Difficulty, GameState
    from magdagdon.store.records import GameRecord


@dataclass(frozen=True, slots=True)
class GameResult:
    score: int
    ruins: int
    powers_used: int
    turns: int
    straights: int  # lines (rows and columns) of each combination
    fours: int
    two_pairs: int


def result_of(state: GameState) -> GameResult:
    """The summary of a finished game's final state."""
    if not state.is_over:
        raise ValueError("only a finished game has a result")
    score = state.score()
    combos = [line.combo for line in (*score.rows, *score.columns)]
    return GameResult(
        score=score.total,
        ruins=score.ruins,
        powers_used=state.powers_used,
        turns=state.turn,
        straights=combos.count("straight"),
        fours=combos.count("four_of_a_kind"),
        two_pairs=combos.count("two_pairs"),
    )


_r = game_results.c
_g = games.c
# the day's table's key (``store/daily.py``): the day only of a ranked daily attempt played here,
# read off the game's row in the same statement (whether it was imported is the row's to say);
# the mode is written in the text, so the statement's only parameters are the row's
_RANKED_DAY = (
    select(_g.daily_date)
    .where(
        _g.id == bindparam("ranked_of"),
        _g.mode == literal_column("'daily'"),
        _g.imported == false(),
        # finished on its own day: once the day is over its seed is published, and an attempt
        # finished after that could have known its dice
        _g.daily_date == bindparam("finished_on"),
    )
    .scalar_subquery()
)
INSERT_RESULT = insert(game_results).values(daily_date=_RANKED_DAY)
_MODES: BindParameter[str] = bindparam("modes", expanding=True)
SCORES = (
    select(_r.score)
    .where(_r.player == bindparam("player"), _r.difficulty == bindparam("difficulty"))
    .where(_r.mode.in_(_MODES))
    .order_by(_r.score)
)
BEST_GAME = (
    select(_r.game_id)
    .select_from(game_results.join(games, games.c.id == _r.game_id))
    .where(_r.player == bindparam("player"), _r.difficulty == bindparam("difficulty"))
    .where(_r.mode.in_(_MODES), _r.score == bindparam("score"))
    .order_by(games.c.finished_at.asc(), _r.game_id.asc())
    .limit(1)
)
TOTALS = (
    select(
        func.coalesce(func.sum(_r.ruins), 0),
        func.coalesce(func.sum(_r.powers_used), 0),
        func.coalesce(func.sum(_r.straights), 0),
        func.coalesce(func.sum(_r.fours), 0),
        func.coalesce(func.sum(_r.two_pairs), 0),
    )
    .where(_r.player == bindparam("player"), _r.difficulty == bindparam("difficulty"))
    .where(_r.mode.in_(_MODES))
)
STARTED = (
    select(func.count())
    .select_from(games)
    .where(games.c.player == bindparam("player"), games.c.difficulty == bindparam("difficulty"))
    .where(games.c.mode.in_(_MODES))
)


def result_row(game: GameRecord, result: GameResult) -> dict[str, object]:
    """The ``game_results`` row (its columns are the result's fields, and the game's keys);
    ``ranked_of`` names the game whose day :data:`INSERT_RESULT` reads, ``finished_on`` the
    day it ended (UTC)."""
    return {
        "game_id": game.id,
        "ranked_of": game.id,
        "finished_on": (game.finished_at or "")[:10],
        "finished_at": game.finished_at,
        "hints_used": game.hints_used,
        "player": game.player,
        "difficulty": game.difficulty.value,
        "mode": game.mode.value,
        **dataclasses.asdict(result),
    }


class ResultReads:
    """The reads of Statistics (part of :class:`~magdagdon.store.queries.Reads`)."""

    conn: Connection

    def scores(self, player: str, difficulty: Difficulty, modes: Iterable[str]) -> list[int]:
        """The final scores of the player's finished games of these modes, lowest first."""
        query = {"player": player, "difficulty": difficulty.value, "modes": list(modes)}
        return list(self.conn.execute(SCORES, query).scalars())

    def totals(
        self, player: str, difficulty: Difficulty, modes: Iterable[str]
    ) -> tuple[int, int, int, int, int]:
        """Over the same games: RUINs, Powers used, and the lines of each combination."""
        query = {"player": player, "difficulty": difficulty.value, "modes": list(modes)}
        row = self.conn.execute(TOTALS, query).one()
        return int(row[0]), int(row[1]), int(row[2]), int(row[3]), int(row[4])

    def best_game(
        self, player: str, difficulty: Difficulty, modes: Iterable[str], best: int
    ) -> str | None:
        """The id of the game of those that scored ``best`` and ended first."""
        query = {
            "player": player,
            "difficulty": difficulty.value,
            "modes": list(modes),
            "score": best,
        }
        found = self.conn.execute(BEST_GAME, query).scalar()
        return None if found is None else str(found)

    def started(self, player: str, difficulty: Difficulty, modes: Iterable[str]) -> int:
        """How many games of these modes the player has started (finished or not)."""
        query = {"player": player, "difficulty": difficulty.value, "modes": list(modes)}
        return int(self.conn.execute(STARTED, query).scalar_one())


class ResultWrites:
    """The writes of summaries (part of :class:`~magdagdon.store.queries.Rows`)."""

    conn: Connection

    def insert_results(self, over: Sequence[tuple[GameRecord, GameResult]]) -> None:
        """The summaries of several finished games at once (an import)."""
        if over:
            self.conn.execute(INSERT_RESULT, [result_row(game, result) for game, result in over])
            count_attempts(self.conn, [game.id for game, _ in over])
