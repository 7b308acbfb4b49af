"""Games played in the page's own engine while the server could not be reached, sent back as
their seed and action log (docs/api.md, ``POST /api/games/sync``), and a game's log for the
page to go on with it offline (``GET /api/games/{id}/log``).

The server trusts nothing but the replay: the whole log is replayed from the seed
(``logs.py``, the engine's one replay) before anything is written, and a log that does not
replay is refused (422 ``sync_invalid``, naming the action or the field) with nothing changed.
Then the game is stored in one write transaction, which holds the game's row until it ends
(PostgreSQL: ``INSERT … ON CONFLICT DO NOTHING`` and ``SELECT … FOR UPDATE``; SQLite: the
write lock of ``BEGIN IMMEDIATE``): two syncs of one game, from two devices at once, run one
after the other, and the second finds what the first stored. Every action goes through the
one door of an action (``games.apply_action``). The outcome (:class:`Synced`):

- ``stored``: the game is new to the server. It is marked imported, as an import's games are
  (its moves were not played here as they happened: it never ranks on a day's table nor makes
  a streak), a daily challenge begun offline is kept as practice (docs/rules.md "Where a rank
  comes from"), and an unfinished one becomes the player's game under way, as a new game would.
- ``same``: the server had this log already (exactly, or as the start of its longer one):
  nothing changes.
- ``extended``: the server's log is the start of the one sent: the rest is played on the
  server's game, which keeps its mode (a ranked daily attempt begun here stays ranked).
- ``branch``: the log went another way than the server's game (played on two devices), or
  goes on from a game that a newer one abandoned meanwhile. The server's game is left as it
  is, and the one sent is kept beside it as the player's own game under a new id: practice,
  imported — in STATISTIKA, never ranked, never lost. The same branch sent again is kept once
  (its id is made of the player, the id sent and the log).

A game id that is another player's, or the player's game of another seed, is refused (409
``sync_conflict``), as is a sync that met another writer of the game (never an engine code).

The game is dated when it was played, by the device's clock when it sends its times
(``played_at``, ``finished_at``; :class:`Dated`): a game new to the server began at
``played_at``, and a game that ends in the log sent ended at ``finished_at`` — in High Scores,
STATISTIKA and the game's record. What the server knows better stays the server's: a game it
had began when it began here (a branch of it too), an end is never before the server's last
change of the game, and a ranked daily attempt ends when the server saw it end (the day's table
and the streak count the server's time alone). The game's last change (``updated_at``) is the
sync's: the clean-up's staleness counts from when the server last touched a game, so a game
synced today that was played last month is not stale.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from magdagdon import clock
from magdagdon.engine import Difficulty, action_to_json
from magdagdon.engine.replays import ReplayError
from magdagdon.engine.rules import SEED_LIMIT
from magdagdon.services import daily, game_times, games, logs
from magdagdon.services.errors import (
    GameAbandonedError,
    MalformedSyncError,
    SyncConflictError,
    SyncInvalidError,
    VersionConflictError,
)
from magdagdon.services.import_checks import MAX_ACTIONS  # an import's bound, the same game
from magdagdon.store import GameMode, GameRecord, now

if TYPE_CHECKING:
    from magdagdon.engine import Action
    from magdagdon.engine.replays import Replayed
    from magdagdon.store import Rows, Store

_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_KEYS = {"id", "difficulty", "seed", "mode", "daily_date", "actions"}
#: The keys a sync may add: when the game began and ended on the device (null: not said)
_TIMES = ("played_at", "finished_at")
#: An ISO-8601 time to the second or finer, with ``Z`` or an offset (JavaScript's
#: ``toISOString()`` writes ``2026-12-03T09:30:00.000Z``)
_MOMENT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})")
#: How far a device's clock may run ahead of the server's: a time up to this far past the
#: server's now is taken as now; one further ahead is refused.
CLOCK_SKEW = timedelta(minutes=10)
_DIFFICULTIES = frozenset(d.value for d in Difficulty)
_MODES = frozenset(m.value for m in GameMode if m is not GameMode.TUTORIAL)

Outcome = Literal["stored", "same", "extended", "branch"]


@dataclass(frozen=True, slots=True)
class Synced:
    """The game the server keeps of the one sent (``game.id`` differs from ``sent_id`` for a
    ``branch``), and how it came to be (see the module)."""

    game: GameRecord
    outcome: Outcome
    sent_id: str


@dataclass(frozen=True, slots=True)
class Dated:
    """The device's times of a game sent, checked, as stamps no later than the server's now:
    ``began`` (``played_at``, else ``finished_at``) and ``finished`` (None: not said)."""

    began: str | None
    finished: str | None


@dataclass(frozen=True, slots=True)
class GameLog:
    """A game as its log: what the page needs to rebuild it in its own engine."""

    id: str
    difficulty: Difficulty
    seed: Annotated[
        int | None, Field(description="None for a day's challenge that is not over: a secret.")
    ]
    mode: GameMode
    daily_date: str | None
    version: Annotated[int, Field(description="The number of accepted actions.")]
    actions: list[dict[str, Any]]


def log(store: Store, player: str, game_id: str) -> GameLog:
    """The player's game ``game_id`` as its log: seed, mode, action log."""
    game = games.load(store, player, game_id)
    actions = [action_to_json(a) for a in store.actions(game_id)]
    return GameLog(
        game.id,
        game.difficulty,
        daily.told_seed(game),
        game.mode,
        game.daily_date,
        game.version,
        actions,
    )


def sync(store: Store, player: str, body: Any) -> Synced:
    """Store one game played offline: replayed, then stored in one transaction (see the
    module)."""
    entry = _checked(body)
    difficulty = Difficulty(entry["difficulty"])
    mode = GameMode(entry["mode"])
    try:
        replayed = logs.replayed(
            difficulty,
            entry["seed"],
            mode,
            entry["daily_date"],
            entry["actions"],
            today=clock.today(),
            day_seed=lambda day: daily.published_seed(store, day, difficulty),
        )
    except ReplayError as exc:
        raise SyncInvalidError(
            f"game {entry['id']}: {exc}; nothing was stored",
            action=exc.action or None,
            field=exc.field,
        ) from None
    try:
        dated = _dated(entry, over=replayed.state.is_over, now=clock.now())
    except game_times.TimeRefusedError as exc:
        message = f"game {entry['id']}: {exc}; nothing was stored"
        raise SyncInvalidError(message, field=exc.field) from None
    try:
        with store.write() as rows:
            return _store(rows, player, entry, difficulty, replayed, dated)
    except VersionConflictError:  # another writer of the game got between (never with the lock)
        raise SyncConflictError("the game changed on the server meanwhile; send it again") from None


def _store(
    rows: Rows,
    player: str,
    entry: dict[str, Any],
    difficulty: Difficulty,
    replayed: Replayed,
    dated: Dated,
) -> Synced:
    """The game sent, in the write transaction ``rows``: stored, found, extended or branched."""
    sent_id = entry["id"]
    sent = list(replayed.actions)
    found = rows.game(sent_id)
    outcome: Outcome = "extended"
    if found is None:
        found = _begin(rows, player, entry, difficulty, sent_id, dated.began)
        outcome = "stored"
    if found.player != player:
        raise SyncConflictError(f"the game id {sent_id!r} is taken; send it with a new one")
    if found.seed != entry["seed"] or found.difficulty is not difficulty:
        raise SyncConflictError("the server's game with this id has another seed or difficulty")
    stored = rows.actions(found.id)
    if sent[: len(stored)] == stored:
        try:
            game = _played(rows, player, found, sent[len(stored) :], dated)
        except GameAbandonedError:  # a newer game abandoned it meanwhile: keep this one apart
            branch = _branch(rows, player, entry, difficulty, sent, found, dated)
            return Synced(branch, "branch", sent_id)
        if len(sent) == len(stored) and outcome != "stored":
            outcome = "same"
        return Synced(game, outcome, sent_id)
    if stored[: len(sent)] == sent:  # the server's game went on from this log
        return Synced(found, "same", sent_id)
    branch = _branch(rows, player, entry, difficulty, sent, found, dated)
    return Synced(branch, "branch", sent_id)


def _played(
    rows: Rows, player: str, game: GameRecord, actions: list[Action], dated: Dated
) -> GameRecord:
    """``actions`` played on ``game``; the one that ends it ends it when the device says."""
    ended_at = _ended(game, dated)
    for action in actions:
        game = games.apply_action(
            rows, player, game.id, action, version=game.version, ended_at=ended_at
        )
    return game


def _ended(game: GameRecord, dated: Dated) -> str | None:
    """When ``game`` ended, if the device says so and the server may keep it: never before the
    server's last change of the game (or its beginning, before any action), and never for a
    ranked daily attempt (the day's table and the streak count the server's time alone)."""
    if dated.finished is None or game.mode is GameMode.DAILY:
        return None
    return max(dated.finished, game.updated_at if game.version else game.created_at)


def _begin(
    rows: Rows,
    player: str,
    entry: dict[str, Any],
    difficulty: Difficulty,
    game_id: str,
    began: str | None,
) -> GameRecord:
    """A game begun offline, new to the server, at its first state, begun when the device
    says (``began``; else now): marked imported, a daily challenge kept as practice; it
    abandons what a new game of its mode abandons. Another sync of the same game that stored
    it meanwhile wins: its game is answered (locked)."""
    mode = GameMode(entry["mode"])
    if mode is GameMode.DAILY:
        mode = GameMode.PRACTICE
    stamp = now()
    record = games.new_record(
        game_id, player, difficulty, entry["seed"], mode, entry["daily_date"], stamp
    )
    record = replace(record, created_at=began or stamp)
    rows.abandon(player, games.ABANDONS[mode], stamp)
    if rows.insert_game_once(record, imported=True):
        return record
    found = rows.game(game_id)
    if found is None:  # inserted and removed between two statements: only a clean-up could
        raise SyncConflictError("the game changed on the server meanwhile; send it again")
    return found


def _branch(
    rows: Rows,
    player: str,
    entry: dict[str, Any],
    difficulty: Difficulty,
    actions: list[Action],
    server: GameRecord,
    dated: Dated,
) -> GameRecord:
    """The log sent, kept beside the server's game as a new practice game of the player
    (imported: never ranked), played through the one door of an action. It abandons nothing:
    the server's game is as the other device left it. Its id is made of the player, the id
    sent and the log, so the same branch sent again (its answer lost) is kept once. It began
    when the server's game did (their first moves are the same game)."""
    record = games.new_record(
        _branch_id(player, entry["id"], actions),
        player,
        difficulty,
        entry["seed"],
        GameMode.PRACTICE,
        entry["daily_date"],
        now(),
    )
    record = replace(record, created_at=server.created_at)
    if not rows.insert_game_once(record, imported=True):
        return games.owned(rows.game(record.id), player, record.id)
    return _played(rows, player, record, actions, dated)


def _branch_id(player: str, sent_id: str, actions: list[Action]) -> str:
    log = json.dumps([action_to_json(a) for a in actions], separators=(",", ":"))
    text = f"{player}\n{sent_id}\n{log}".encode()
    return hashlib.sha256(text).hexdigest()[:16]


def _dated(entry: dict[str, Any], *, over: bool, now: datetime) -> Dated:
    """The device's times of the game sent, checked (``game_times``; a ``finished_at`` only
    for a log that ends the game), each no later than ``now``: a time within
    :data:`CLOCK_SKEW` ahead is the device's clock running fast."""
    latest = now + CLOCK_SKEW
    found = {
        key: None if entry.get(key) is None else game_times.moment(key, entry[key], latest)
        for key in _TIMES
    }
    played, finished = found["played_at"], found["finished_at"]
    if finished is not None and not over:
        raise game_times.TimeRefusedError(
            "finished_at", "finished_at is given for a game that its log does not end"
        )
    began = played if played is not None else finished
    if began is not None:
        day = None if entry["daily_date"] is None else date.fromisoformat(entry["daily_date"])
        began_field = "played_at" if played is not None else "finished_at"
        game_times.check_order((began_field, began), ("finished_at", finished), day)

    def stamp(moment: datetime | None) -> str | None:
        return None if moment is None else clock.stamp(min(moment, now))

    return Dated(began=stamp(began), finished=stamp(finished))


def _is_moment(value: Any) -> bool:
    """Whether a time field's value is null or an ISO-8601 time with its offset."""
    if value is None:
        return True
    if not isinstance(value, str) or _MOMENT.fullmatch(value) is None:
        return False
    try:
        clock.parse_aware(value)
    except ValueError:  # a month 13, a 31st of November
        return False
    return True


def _checked(body: Any) -> dict[str, Any]:
    """The body, when it is a game played offline (each field of its type): else
    ``MalformedSyncError`` naming the fields that are not."""
    if not isinstance(body, dict) or not _KEYS <= set(body) <= _KEYS.union(_TIMES):
        raise MalformedSyncError(
            f"a game to sync is an object with exactly the keys {sorted(_KEYS)}, "
            f"and optionally {', '.join(_TIMES)}"
        )
    day = body["daily_date"]
    checks = {
        "id": isinstance(body["id"], str) and _ID.fullmatch(body["id"]) is not None,
        "difficulty": isinstance(body["difficulty"], str) and body["difficulty"] in _DIFFICULTIES,
        "seed": type(body["seed"]) is int and 0 <= body["seed"] < SEED_LIMIT,
        "mode": isinstance(body["mode"], str) and body["mode"] in _MODES,
        "daily_date": day is None or (isinstance(day, str) and _DAY.fullmatch(day) is not None),
        "actions": isinstance(body["actions"], list) and len(body["actions"]) <= MAX_ACTIONS,
        **{key: _is_moment(body.get(key)) for key in _TIMES},
    }
    wrong = [key for key, ok in checks.items() if not ok]
    if wrong:
        raise MalformedSyncError(f"{', '.join(repr(k) for k in wrong)} not valid")
    return body
