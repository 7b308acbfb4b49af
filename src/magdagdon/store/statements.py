"""Every statement the store runs, built once at import: building a SQLAlchemy statement costs
more than SQLite takes to run it (~50 µs against ~15 µs for a read by key), and SQLAlchemy
compiles each of these once per database and caches it. Values are bound by name at execution.
"""

from __future__ import annotations

from sqlalchemy import Integer, Text, bindparam, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from magdagdon.store.tables import actions, games, highscores, players

GAME_COLUMNS = (
    games.c.id,
    games.c.player,
    games.c.difficulty,
    games.c.seed,
    games.c.state,
    games.c.version,
    games.c.hints_used,
    games.c.status,
    games.c.created_at,
    games.c.updated_at,
    games.c.finished_at,
    games.c.mode,
    games.c.daily_date,
)

# ----- players ---------------------------------------------------------------------------------
PLAYER = select(players.c.token, players.c.language, players.c.name, players.c.name_hidden).where(
    players.c.token == bindparam("token")
)
INSERT_PLAYER = insert(players)
# (an UPDATE's bound names must differ from its columns': hence the b_ prefix)
SET_LANGUAGE = (
    update(players)
    .where(players.c.token == bindparam("b_token"))
    .values(language=bindparam("b_language"))
    .returning(players.c.name, players.c.name_hidden)
)
SET_NAME = (
    update(players)
    .where(players.c.token == bindparam("b_token"))
    .values(name=bindparam("b_name"))
    .returning(players.c.language)
)
LOCK_PLAYER = (
    select(players.c.token).where(players.c.token == bindparam("player")).with_for_update()
)

# ----- games -----------------------------------------------------------------------------------
GAME = select(*GAME_COLUMNS).where(games.c.id == bindparam("game_id"))
GAME_FOR_UPDATE = GAME.with_for_update()
CURRENT_GAME = (
    select(*GAME_COLUMNS)
    .where(games.c.player == bindparam("player"), games.c.status == "playing")
    .where(games.c.mode != "tutorial")
    .order_by(games.c.created_at.desc(), games.c.id.desc())
    .limit(1)
)
INSERT_GAME = insert(games)
#: A game inserted unless its id is there already (two syncs of one new game at once: the
#: second finds the first's), on each database
INSERT_GAME_ONCE = {
    name: dialect.insert(games)
    .on_conflict_do_nothing(index_elements=[games.c.id])
    .execution_options(preserve_rowcount=True)  # an INSERT's rowcount is kept only when asked
    for name, dialect in (("sqlite", sqlite), ("postgresql", postgresql))
}
ABANDON = (
    update(games)
    .where(games.c.player == bindparam("b_player"), games.c.status == "playing")
    .where(games.c.mode.in_(bindparam("b_modes", expanding=True)))
    .values(status="abandoned", updated_at=bindparam("b_stamp"))
)
# only over the version before: see Rows.save_move
SAVE_MOVE = (
    update(games)
    .where(games.c.id == bindparam("b_id"), games.c.version == bindparam("b_before"))
    .values(
        state=bindparam("b_state"),
        version=bindparam("b_version"),
        status=bindparam("b_status"),
        updated_at=bindparam("b_stamp"),
        finished_at=bindparam("b_finished_at"),
    )
)
COUNT_HINT = (
    update(games)
    .where(games.c.id == bindparam("b_id"))
    .values(hints_used=games.c.hints_used + 1)
    .returning(games.c.hints_used)
)

# ----- the action log --------------------------------------------------------------------------
INSERT_ACTION = insert(actions)
# PostgreSQL: SAVE_MOVE and INSERT_ACTION in one statement (one round trip fewer for each
# action); the action is inserted only when the update found the version before
_MOVED = SAVE_MOVE.returning(games.c.id).cte("moved")
SAVE_MOVE_AND_ACTION = (
    insert(actions)
    .from_select(
        ["game_id", "seq", "action", "created_at"],
        select(
            _MOVED.c.id,
            bindparam("b_version", type_=Integer),
            bindparam("b_action", type_=Text),
            bindparam("b_stamp", type_=Text),
        ),
    )
    .execution_options(preserve_rowcount=True)
)  # an INSERT's rowcount is kept only when asked
ACTIONS = (
    select(actions.c.action)
    .where(actions.c.game_id == bindparam("game_id"))
    .order_by(actions.c.seq)
)
ACTION = select(actions.c.action).where(
    actions.c.game_id == bindparam("game_id"), actions.c.seq == bindparam("seq")
)

# ----- High Scores -----------------------------------------------------------------------------
INSERT_HIGH_SCORE = insert(highscores)
_h = highscores.c
HIGH_SCORES = (
    select(_h.score, _h.date, _h.turns, _h.powers_used, _h.ruins, _h.hints_used, _h.game_id)
    .where(_h.player == bindparam("player"), _h.difficulty == bindparam("difficulty"))
    .order_by(_h.score.desc(), _h.id.asc())  # best first; on a tie the game that ended first
    .limit(bindparam("limit"))
)
_mine = highscores.alias("mine")
_other = highscores.alias("other")
_better = (
    select(func.count())
    .select_from(_other)
    .where(_other.c.player == _mine.c.player, _other.c.difficulty == _mine.c.difficulty)
    .where(
        (_other.c.score > _mine.c.score)
        | ((_other.c.score == _mine.c.score) & (_other.c.id < _mine.c.id))
    )
    .scalar_subquery()
)
RANK = select(1 + _better).where(_mine.c.game_id == bindparam("game_id"))
RANKED_GAMES = (
    select(func.count())
    .select_from(highscores)
    .where(_h.player == bindparam("player"), _h.difficulty == bindparam("difficulty"))
)
