"""The tables as the queries see them (SQLAlchemy Core), one definition for both databases.

The database itself is made by the migrations (``migrations/versions/``); a test checks that a
migrated database and these definitions agree. Times are ISO-8601 text (UTC, to the millisecond),
as the API shows them; a game's state and an action are the engine's JSON codec, as text.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    false,
)

# PostgreSQL's INTEGER has 32 bits and seeds have 53; SQLite's INTEGER already has 64, and a
# SQLite AUTOINCREMENT key must be declared exactly INTEGER.
Int64 = BigInteger().with_variant(Integer(), "sqlite")

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("token", Text, primary_key=True),
    Column("language", Text, nullable=False, server_default="fil"),
    Column("created_at", Text, nullable=False),
    Column("name", Text),
    # hidden by an operator (rev 0009): everyone else sees the neutral name
    Column("name_hidden", Boolean, nullable=False, server_default=false()),
    CheckConstraint("language IN ('fil', 'en')", name="players_language"),
    Index("players_by_created", "created_at", "token"),  # the clean-up's pages (rev 0010)
)

games = Table(
    "games",
    metadata,
    Column("id", Text, primary_key=True),
    Column("player", Text, ForeignKey("players.token"), nullable=False),
    Column("difficulty", Text, nullable=False),
    Column("seed", Int64, nullable=False),
    Column("state", Text, nullable=False),
    Column("version", Integer, nullable=False, server_default="0"),
    Column("hints_used", Integer, nullable=False, server_default="0"),
    Column("status", Text, nullable=False, server_default="playing"),
    Column("created_at", Text, nullable=False),
    Column("updated_at", Text, nullable=False),
    Column("finished_at", Text),
    Column("mode", Text, nullable=False, server_default="normal"),
    Column("daily_date", Text),
    # brought in by an import (rev 0006): never on a day's table nor in a streak
    Column("imported", Boolean, nullable=False, server_default=false()),
    CheckConstraint("status IN ('playing', 'finished', 'abandoned')", name="games_status"),
    CheckConstraint("mode IN ('normal', 'daily', 'practice', 'tutorial')", name="games_mode"),
    Index("games_by_player_status", "player", "status"),
    Index("games_by_daily", "daily_date", "difficulty", "mode"),
    Index("games_by_status_created", "status", "created_at"),  # the clean-up's (rev 0002)
)

actions = Table(
    "actions",
    metadata,
    Column("game_id", Text, ForeignKey("games.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("created_at", Text, nullable=False),
    PrimaryKeyConstraint("game_id", "seq"),
    sqlite_with_rowid=False,
)

highscores = Table(
    "highscores",
    metadata,
    Column("id", Int64, primary_key=True, autoincrement=True),
    Column("game_id", Text, ForeignKey("games.id"), nullable=False, unique=True),
    Column("player", Text, ForeignKey("players.token"), nullable=False),
    Column("difficulty", Text, nullable=False),
    Column("score", Integer, nullable=False),
    Column("date", Text, nullable=False),
    Column("turns", Integer, nullable=False),
    Column("powers_used", Integer, nullable=False),
    Column("ruins", Integer, nullable=False),
    Column("hints_used", Integer, nullable=False),
    sqlite_autoincrement=True,  # ids never reused: a tie ranks the game that ended first
)
Index(
    "highscores_by_rank",
    highscores.c.player,
    highscores.c.difficulty,
    highscores.c.score.desc(),
    highscores.c.id,
)

# one-time device links (``store/links.py``): only the SHA-256 of each code is kept
device_links = Table(
    "device_links",
    metadata,
    Column("code_hash", Text, primary_key=True),
    Column("player", Text, ForeignKey("players.token"), nullable=False),
    Column("created_at", Text, nullable=False),
    Column("expires_at", Text, nullable=False),
    Column("used_at", Text),
    Index("device_links_by_expiry", "expires_at"),
)

# each finished game's review (services.reviews): pending with its progress, done, or failed
reviews = Table(
    "reviews",
    metadata,
    Column("game_id", Text, ForeignKey("games.id"), primary_key=True),
    Column("status", Text, nullable=False),
    Column("format", Integer, nullable=False),
    Column("progress", Float, nullable=False, server_default="0"),
    Column("attempts", Integer, nullable=False, server_default="1"),
    Column("result", Text),
    Column("started_at", Text, nullable=False),
    Column("updated_at", Text, nullable=False),
    CheckConstraint("status IN ('pending', 'done', 'failed')", name="reviews_status"),
)

# a finished game's summary (``store/results.py``), written when it ends: what Statistics add up
game_results = Table(
    "game_results",
    metadata,
    Column("game_id", Text, ForeignKey("games.id"), primary_key=True),
    Column("player", Text, ForeignKey("players.token"), nullable=False),
    Column("difficulty", Text, nullable=False),
    Column("mode", Text, nullable=False),
    Column("score", Integer, nullable=False),
    Column("ruins", Integer, nullable=False),
    Column("powers_used", Integer, nullable=False),
    Column("turns", Integer, nullable=False),
    Column("straights", Integer, nullable=False),
    Column("fours", Integer, nullable=False),
    Column("two_pairs", Integer, nullable=False),
    # rev 0010: the day of a ranked daily attempt played here (NULL for any other game), when it
    # ended and its hints, so that the day's table is read off game_results_by_day alone
    Column("daily_date", Text),
    Column("finished_at", Text),
    Column("hints_used", Integer, nullable=False, server_default="0"),
    Index("game_results_by_player", "player", "difficulty", "mode"),
)
_ranked = game_results.c.daily_date.isnot(None)
Index(
    "game_results_by_day",
    game_results.c.daily_date,
    game_results.c.difficulty,
    game_results.c.score.desc(),
    game_results.c.finished_at,
    game_results.c.game_id,
    postgresql_where=_ranked,
    sqlite_where=_ranked,
)

# how far the clean-up's pages have gone (store/cleanup.py): one row a pass, its last key
cleanup_marks = Table(
    "cleanup_marks",
    metadata,
    Column("name", Text, primary_key=True),
    Column("position", Text, nullable=False),
)

# the rate limits' counters (store/counters.py), shared by every server process and host: one row
# a counter, its hits in the fixed window that ends at ``window_end`` (seconds since 1970, the
# database's clock); a row whose window has ended counts nothing and is swept away
rate_counters = Table(
    "rate_counters",
    metadata,
    Column("key", Text, primary_key=True),
    Column("window_end", Int64, nullable=False),
    Column("hits", Integer, nullable=False),
    Index("rate_counters_by_window_end", "window_end"),
)

# what operators did (``magdagdon admin``, ``store/moderation.py``): who, when, what, and on which
# player by its public id (``services.players.player_id``), never its token
moderation_log = Table(
    "moderation_log",
    metadata,
    Column("id", Int64, primary_key=True, autoincrement=True),
    Column("at", Text, nullable=False),
    Column("operator", Text, nullable=False),
    Column("action", Text, nullable=False),
    Column("player", Text, nullable=False),
    Column("detail", Text, nullable=False, server_default=""),
    sqlite_autoincrement=True,
)

# the daily challenge's seeds (rev 0008): one a day and difficulty, drawn at random by the first
# server process that needs it and kept secret until the day is over (services/daily.py); the
# commitment that the API publishes from the start of the day is computed from it
daily_seeds = Table(
    "daily_seeds",
    metadata,
    Column("day", Text, nullable=False),
    Column("difficulty", Text, nullable=False),
    Column("seed", Int64, nullable=False),
    Column("created_at", Text, nullable=False),
    PrimaryKeyConstraint("day", "difficulty"),
)

# rev 0011: how many ranked attempts of a day's challenge on a difficulty scored each score, kept
# in the transaction that writes or removes one (store/daily.py): a rank adds up the few rows of
# the better scores instead of counting every attempt ahead
day_scores = Table(
    "day_scores",
    metadata,
    Column("daily_date", Text, nullable=False),
    Column("difficulty", Text, nullable=False),
    Column("score", Integer, nullable=False),
    Column("attempts", Integer, nullable=False),
    PrimaryKeyConstraint("daily_date", "difficulty", "score"),
)
