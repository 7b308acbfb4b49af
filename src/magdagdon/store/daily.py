"""The daily challenge's rows: a player's games of a day, the day's table of the server's
players, the days of a streak, and each day's secret seed (drawn once: the first process to
store it wins, every other one reads it). Statements are built once at import, as in
``statements.py``; the rules that use them are ``magdagdon.services.daily``'s.

The day's table is read off the partial index ``game_results_by_day`` (day, difficulty, score
DESC, end, id; rev 0010), which holds the ranked daily attempts played here and nothing else, in
the table's order: a page is an index range read up to its LIMIT, the next page starts after
the last row's key (keyset). A rank adds up, from ``day_scores`` (rev 0011), how many attempts
scored better (a row a score), and counts in the index the attempts of the same score that
ended before. ``day_scores`` is kept in the transaction that writes a ranked attempt's summary
(:func:`count_attempts`) or removes it (:func:`uncount_player`). None of them reads more than
a page, a few hundred counts and one score's attempts, however many attempts the day has
(docs/store.md "The day's table" gives the plans).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, case, delete, false, func, select, union_all, update
from sqlalchemy.dialects import postgresql, sqlite

from magdagdon.store.tables import daily_seeds, day_scores, game_results, games, players

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sqlalchemy import BindParameter, ColumnElement, Connection, Insert, ScalarSelect

    from magdagdon.engine import Difficulty

_g = games.c
_r = game_results.c

GAMES_OF_DAY = (
    select(_g.id, _g.difficulty, _g.mode, _g.status, _r.score)
    .select_from(games.outerjoin(game_results, _r.game_id == _g.id))
    .where(_g.player == bindparam("player"), _g.daily_date == bindparam("day"))
    .where(_g.mode.in_(("daily", "practice")))
    .order_by(_g.created_at, _g.id)
)
# a name an operator hid is read as none: everyone sees the neutral name (``magdagdon admin``)
_SHOWN_NAME = case((players.c.name_hidden, None), else_=players.c.name).label("name")
_of_day = (_r.daily_date == bindparam("day"), _r.difficulty == bindparam("difficulty"))
_score: BindParameter[int] = bindparam("score")
_end: BindParameter[str] = bindparam("finished_at")
_id: BindParameter[str] = bindparam("game_id")
_ROW = (
    select(_r.score, _r.turns, _r.game_id, _r.player, _SHOWN_NAME, _r.hints_used, _r.finished_at)
    .select_from(game_results.join(players, players.c.token == _r.player))
    .order_by(_r.score.desc(), _r.finished_at.asc(), _r.game_id.asc())
)
_limit: BindParameter[int] = bindparam("limit")
TABLE = _ROW.where(*_of_day).limit(_limit)
# From the attempts that scored ``score`` and ended at ``finished_at`` on, in the table's order:
# those of the same score from that end, then the lower scores. Each part is one range of the
# index (its order mixes DESC and ASC, so no single condition on the index would be), and a
# day's many attempts of one score are never read through to reach a place among them.
_same_score = TABLE.where(_r.score == _score, _r.finished_at >= _end).subquery()
_lower = TABLE.where(_r.score < _score).subquery()
_from = union_all(select(_same_score), select(_lower)).subquery()
TABLE_FROM = (
    select(_from)
    .order_by(_from.c.score.desc(), _from.c.finished_at.asc(), _from.c.game_id.asc())
    .limit(_limit)
)
MY_ATTEMPT = _ROW.where(*_of_day, _r.player == bindparam("player"), _r.mode == "daily")


def _count(*where: ColumnElement[bool]) -> ScalarSelect[int]:
    return select(func.count()).select_from(game_results).where(*_of_day, *where).scalar_subquery()


_d = day_scores.c
_of_scores = (_d.daily_date == bindparam("day"), _d.difficulty == bindparam("difficulty"))


def _scored(*where: ColumnElement[bool]) -> ScalarSelect[int]:
    """The sum of the day's counts of the scores that meet ``where`` (a range of its key)."""
    total = func.coalesce(func.sum(_d.attempts), 0)
    return select(total).where(*_of_scores, *where).scalar_subquery()


# how many ranked attempts the day has: its counts, one row a score
ATTEMPTS = select(_scored())
# before the attempt (score, end, id): the better scores' counts, and those of its own score
# that ended before it or in the same millisecond with a smaller id (two ranges of the index);
# and, in one round trip, those last ones alone (its place among the same score and end)
_TIED_AHEAD = _count(_r.score == _score, _r.finished_at == _end, _r.game_id < _id)
AHEAD = select(
    _scored(_d.score > _score) + _count(_r.score == _score, _r.finished_at < _end) + _TIED_AHEAD,
    _TIED_AHEAD,
)
_KEY = (_r.daily_date, _r.difficulty, _r.score)
_ids: BindParameter[list[str]] = bindparam("ids", expanding=True)
# in the key's order: two transactions that update several counts lock them in the same order
# (on PostgreSQL), so neither waits for the other in a cycle
_scores_of = (
    select(*_KEY, func.count()).where(_r.daily_date.isnot(None)).group_by(*_KEY).order_by(*_KEY)
)


def _count_up(dialect: Any, counted: Any) -> Insert:
    """Add ``counted`` (day, difficulty, score, attempts) rows to the day's counts."""
    statement = dialect.insert(day_scores).from_select(
        ["daily_date", "difficulty", "score", "attempts"], counted
    )
    added = statement.excluded.attempts
    return statement.on_conflict_do_update(  # type: ignore[no-any-return]
        index_elements=[_d.daily_date, _d.difficulty, _d.score],
        set_={"attempts": _d.attempts + added},
    )


# the ranked attempts among the games ``ids`` (whose summaries were just written), counted
COUNT_ATTEMPTS = {
    name: _count_up(dialect, _scores_of.where(_r.game_id.in_(_ids)))
    for name, dialect in (("postgresql", postgresql), ("sqlite", sqlite))
}
# every ranked attempt kept, counted again (after summaries written in bulk)
RECOUNT = {
    name: _count_up(dialect, _scores_of)
    for name, dialect in (("postgresql", postgresql), ("sqlite", sqlite))
}
# a player's ranked attempts (a summary's player is its game's: ``store/results.py``)
PLAYERS_SCORES = _scores_of.where(_r.player == bindparam("token"))
_of_key = (
    _d.daily_date == bindparam("b_day"),
    _d.difficulty == bindparam("b_difficulty"),
    _d.score == bindparam("b_score"),
)
COUNT_DOWN = update(day_scores).where(*_of_key).values(attempts=_d.attempts - bindparam("b_by"))
DROP_NONE = delete(day_scores).where(*_of_key, _d.attempts <= 0)


def count_attempts(conn: Connection, ids: Sequence[str]) -> None:
    """Count the ranked attempts among the games ``ids`` into the day's scores (in the
    transaction that wrote their summaries)."""
    if ids:
        conn.execute(COUNT_ATTEMPTS[conn.dialect.name], {"ids": list(ids)})


def uncount_player(conn: Connection, token: str) -> None:
    """Take the player's ranked attempts off the day's scores (in the transaction that removes
    their summaries); a score none is left with goes."""
    found = conn.execute(PLAYERS_SCORES, {"token": token}).all()
    keys = [
        {"b_day": row[0], "b_difficulty": row[1], "b_score": row[2], "b_by": row[3]}
        for row in found
    ]
    if keys:
        conn.execute(COUNT_DOWN, keys)
        conn.execute(DROP_NONE, keys)


STREAK_DAYS = (
    select(_g.daily_date)
    .where(_g.player == bindparam("player"), _g.mode == "daily", _g.status == "finished")
    .where(_g.imported == false())
    # finished on its own day, as the day's table counts it (store/results.py)
    .where(func.substr(_g.finished_at, 1, 10) == _g.daily_date)
    .distinct()
)
# every attempt of a day's challenge played on this server, for its replay once the day is over
DAY_GAMES = (
    select(_g.id)
    .where(_g.daily_date == bindparam("day"), _g.difficulty == bindparam("difficulty"))
    .where(_g.mode.in_(("daily", "practice")), _g.imported == false())
    .order_by(_g.created_at, _g.id)
)
_s = daily_seeds.c
DAY_SEED = select(_s.seed).where(
    _s.day == bindparam("day"), _s.difficulty == bindparam("difficulty")
)
# two processes drawing the day's seed at once: the second insert does nothing (it waits for
# the first to commit on PostgreSQL; SQLite's write lock orders them), and both read the first's
INSERT_DAY_SEED = {
    "sqlite": sqlite.insert(daily_seeds).on_conflict_do_nothing(),
    "postgresql": postgresql.insert(daily_seeds).on_conflict_do_nothing(),
}


@dataclass(frozen=True, slots=True)
class DayGame:
    """One of a player's games of a day's challenge."""

    id: str
    difficulty: str
    mode: str
    status: str
    score: int | None


@dataclass(frozen=True, slots=True)
class TableRow:
    """A finished ranked attempt of the day, with its player's name (None when unset)."""

    score: int
    turns: int
    game_id: str
    player: str
    name: str | None
    hints: int
    finished_at: str


@dataclass(frozen=True, slots=True)
class Position:
    """An attempt's place in the day's table, told without its game (which only its player
    may see): its score and end, and that it is the ``tied``-th of the attempts with both the
    same (1 unless two ended in the same millisecond)."""

    score: int
    finished_at: str
    tied: int = 1


def _row(row: Sequence[Any]) -> TableRow:
    return TableRow(row[0], row[1], row[2], row[3], row[4], row[5], row[6])


class DailyReads:
    """The daily challenge's reads (part of :class:`~magdagdon.store.queries.Reads`)."""

    conn: Connection

    def games_of_day(self, player: str, day: str) -> list[DayGame]:
        """The player's daily and practice games of ``day`` (YYYY-MM-DD), oldest first."""
        rows = self.conn.execute(GAMES_OF_DAY, {"player": player, "day": day}).all()
        return [DayGame(row[0], row[1], row[2], row[3], row[4]) for row in rows]

    def day_table(
        self, day: str, difficulty: Difficulty, limit: int, after: Position | None = None
    ) -> list[TableRow]:
        """Up to ``limit`` of the day's finished ranked attempts on ``difficulty`` played on
        this server (not imported), best first, on a tie the one that ended first; from the
        top, or those after ``after``."""
        query: dict[str, object] = {"day": day, "difficulty": difficulty.value, "limit": limit}
        if after is None:
            return [_row(row) for row in self.conn.execute(TABLE, query)]
        query |= {"score": after.score, "finished_at": after.finished_at}
        query["limit"] = limit + after.tied  # the tied ones up to ``after`` come first
        return [_row(row) for row in self.conn.execute(TABLE_FROM, query)][after.tied :]

    def my_attempt(self, player: str, day: str, difficulty: Difficulty) -> TableRow | None:
        """The player's row of the day's table, if any."""
        query = {"day": day, "difficulty": difficulty.value, "player": player}
        row = self.conn.execute(MY_ATTEMPT, query).first()
        return None if row is None else _row(row)

    def place(self, day: str, difficulty: Difficulty, row: TableRow) -> tuple[int, Position]:
        """The rank of ``row`` in the day's table, and its position."""
        query = {
            "day": day,
            "difficulty": difficulty.value,
            "score": row.score,
            "finished_at": row.finished_at,
            "game_id": row.game_id,
        }
        ahead, tied = self.conn.execute(AHEAD, query).one()
        return int(ahead) + 1, Position(row.score, row.finished_at, int(tied) + 1)

    def day_attempts(self, day: str, difficulty: Difficulty) -> int:
        """How many finished ranked attempts the day's table of ``difficulty`` has."""
        query = {"day": day, "difficulty": difficulty.value}
        return int(self.conn.execute(ATTEMPTS, query).scalar_one())

    def streak_days(self, player: str) -> list[str]:
        """Every day (YYYY-MM-DD) on which the player finished a ranked daily attempt on this
        server (not imported)."""
        return [str(day) for day in self.conn.execute(STREAK_DAYS, {"player": player}).scalars()]

    def day_games(self, day: str, difficulty: str) -> list[str]:
        """The ids of every attempt (ranked or practice) at ``day``'s challenge on
        ``difficulty`` played on this server, oldest first."""
        query = {"day": day, "difficulty": difficulty}
        return [str(found) for found in self.conn.execute(DAY_GAMES, query).scalars()]

    def day_seed(self, day: str, difficulty: str) -> int | None:
        """The seed of ``day``'s challenge on ``difficulty``; None when none is drawn yet."""
        found = self.conn.execute(DAY_SEED, {"day": day, "difficulty": difficulty}).scalar()
        return None if found is None else int(found)


class DailyWrites:
    """The daily challenge's writes (part of :class:`~magdagdon.store.rows.Rows`)."""

    conn: Connection

    def recount_days(self) -> None:
        """Count the ranked attempts of every day again, after summaries written in bulk
        (``bulk_insert``), which are not counted as they are written."""
        self.conn.execute(delete(day_scores))
        self.conn.execute(RECOUNT[self.conn.dialect.name])

    def keep_day_seed(self, day: str, difficulty: str, drawn: int, created_at: str) -> int:
        """The seed of ``day``'s challenge on ``difficulty``: ``drawn`` when no process stored
        one before, else the stored one (which every process then uses)."""
        row = {"day": day, "difficulty": difficulty, "seed": drawn, "created_at": created_at}
        self.conn.execute(INSERT_DAY_SEED[self.conn.dialect.name], row)
        found = self.conn.execute(DAY_SEED, {"day": day, "difficulty": difficulty}).scalar_one()
        return int(found)
