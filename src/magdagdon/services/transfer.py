"""A player's data as one JSON file ("Your data is yours"): export every game
(seed, mode, action log) and setting; import such a file into this player.

Import trusts nothing the file claims that the engine can tell: every game is replayed from its
seed, action by action, and the status and score the file claims must be the replay's. The
first game or action that fails refuses the whole file (:class:`ImportInvalidError`, naming the
game — its position and id — and the action — its position and JSON) and nothing of it is
stored. What is stored comes from the replay: the state, the summary for Statistics, the High
Score. A game whose id the player already has is skipped (so importing a file twice adds
nothing); an id another player has gets a new one. A ranked daily attempt for a day and
difficulty where the player already has one becomes practice; an unfinished game becomes
abandoned, except a ranked daily attempt, which is never abandoned. All of it is one
transaction.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import secrets
import time
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from magdagdon import clock
from magdagdon.engine import (
    SEED_LIMIT,
    Action,
    Difficulty,
    action_to_json,
)
from magdagdon.engine.replays import ReplayError
from magdagdon.services import daily, games, logs
from magdagdon.services import import_checks as checks
from magdagdon.services.errors import (
    ImportFieldError,
    ImportInvalidError,
    MalformedImportError,
    RefusedInputError,
)
from magdagdon.services.players import clean_name
from magdagdon.store import GameMode, GameRecord, GameStatus
from magdagdon.store.failures import RETRY_BUSY, StorageUnavailableError
from magdagdon.store.results import result_of

if TYPE_CHECKING:
    import enum

    from magdagdon.store import Player, Store
    from magdagdon.store.queries import Rows

FORMAT = "magdagdon-export"
VERSION = 1
_TOP_KEYS = {"format", "version", "exported_at", "player", "games"}
_GAME_KEYS = {
    "id",
    "difficulty",
    "seed",
    "mode",
    "daily_date",
    "status",
    "created_at",
    "finished_at",
    "hints_used",
    "actions",
    "score",
}
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True, slots=True)
class Imported:
    imported: int
    skipped: int


@dataclass(frozen=True, slots=True)
class _Replayed:
    """A game of the file, replayed: the record to store (before ids and modes are settled)
    and its canonical action log."""

    record: GameRecord
    log: list[str]  # each action's JSON text, as the store keeps it


# ----- export -------------------------------------------------------------------------------


def export(store: Store, player: Player | None, token: str) -> dict[str, Any]:
    """The export document of ``token``'s player (``player`` None: nobody yet, no games). The
    games of a day's challenge that is not over are left out until it is: their seed is the
    server's secret till then (``services.daily``)."""
    with store.snapshot() as reads:
        found = reads.exported_games(token) if player is not None else []
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": clock.stamp(),
        "player": {
            "language": player.language if player is not None else "fil",
            "name": player.name if player is not None else None,
        },
        "games": [
            {
                "id": game.id,
                "difficulty": game.difficulty,
                "seed": game.seed,
                "mode": game.mode,
                "daily_date": game.daily_date,
                "status": game.status,
                "created_at": game.created_at,
                "finished_at": game.finished_at,
                "hints_used": game.hints_used,
                "actions": game.actions,
                "score": game.score,
            }
            for game in found
            if game.daily_date is None or daily.is_published(date.fromisoformat(game.daily_date))
        ],
    }


# ----- import -------------------------------------------------------------------------------


def import_document(store: Store, player: Player, document: Any) -> Imported:
    """Replay every game of ``document`` here and store those the player does not have yet
    (the server runs :func:`prepare` in a compute process instead: see the route)."""
    prepared = check_and_replay(document, player.token, clock.now())
    return store_prepared(store, player, prepared)


@dataclass(frozen=True, slots=True)
class Prepared:
    """A file, checked and replayed: its name setting and its games, ready to store."""

    name: str | None
    games: list[_Replayed]


def prepare(body: bytes, player: str, now: datetime) -> Prepared:
    """Parse, check and replay the file ``body`` for ``player`` as of ``now``: the CPU-heavy
    part, which reads no database (run in a compute process, apart from the players'
    actions). Refusals are :class:`RefusedInputError`."""
    try:
        document = json.loads(body)
    except (ValueError, RecursionError) as exc:  # not UTF-8, not JSON, a 5,000-digit number
        raise MalformedImportError(f"the body is not JSON: {exc}") from None
    return check_and_replay(document, player, now)


def check_and_replay(document: Any, player: str, now: datetime) -> Prepared:
    name, entries = _parse(document)
    return Prepared(name, [_replay(position, entry, player, now) for position, entry in entries])


def store_prepared(
    store: Store, player: Player, prepared: Prepared, *, new_player: bool = False
) -> Imported:
    """Store the prepared games the player does not have yet, up to :data:`CHUNK` games to a
    transaction, so that the players' writes go between them (``new_player``: the player is
    saved with the first). A chunk is kept to about :data:`HOLD` of the database's time (fewer
    games when the machine is slow), and the players' writes get at least as long again before
    the next: an import takes at most half of the database's write time. A storage failure
    between two chunks leaves the earlier ones stored; importing the file again adds the rest
    (the games kept are skipped)."""
    kept_count = skipped = 0
    # High Scores in the order the games ended: an entry's id orders ties
    games_left = sorted(prepared.games, key=lambda g: (g.record.finished_at or "", g.record.id))
    first = True
    size, refusals = CHUNK, 0
    while first or games_left:
        chunk = games_left[:size]
        began = time.monotonic()
        try:
            with store.write() as rows:
                if first and new_player:
                    rows.insert_player(player, clock.stamp())
                kept, skipped_here = _store_chunk(rows, player.token, chunk)
                if first and prepared.name is not None and player.name is None:
                    rows.set_name(player.token, prepared.name)
        except StorageUnavailableError as exc:
            # a chunk longer than the server's statement wait on a busy machine: smaller
            # chunks (nothing of this one was kept), unless the database is down or refuses
            # again and again
            refusals += 1
            if exc.retry_after != RETRY_BUSY or size == 1 or refusals > MAX_REFUSALS:
                raise
            size = max(1, size // 2)
            time.sleep(PAUSE * 50)
            continue
        games_left = games_left[len(chunk) :]
        first = False
        took = time.monotonic() - began
        if took > HOLD:
            size = max(1, size // 2)
        elif took < HOLD / 2:
            size = min(CHUNK, size * 2)
        time.sleep(max(PAUSE, took))  # the writes that wait take the lock now
        kept_count += kept
        skipped += skipped_here
    return Imported(imported=kept_count, skipped=skipped)


#: Games stored in one transaction at most: some 40 ms of SQLite's write lock.
CHUNK = 250
HOLD = 0.04  # seconds of the database's write time a chunk aims at
PAUSE = 0.002  # seconds between two chunks at least
MAX_REFUSALS = 8  # busy refusals of one import's chunks before its answer is the 503


def _store_chunk(rows: Rows, player: str, chunk: list[_Replayed]) -> tuple[int, int]:
    """Store the games of ``chunk`` the player does not have yet: (kept, skipped)."""
    ids = [game.record.id for game in chunk]
    # another player's id: the game gets one of its own, the same at every import
    own_ids = {game_id: _own_id(player, game_id) for game_id in ids}
    owners = rows.owners([*ids, *own_ids.values()])
    ranked = rows.ranked_days(player)
    kept: list[_Replayed] = []
    skipped = 0
    for game in chunk:
        record = game.record
        owner = owners.get(record.id)
        if owner is not None and owner != player:
            record = replace(record, id=own_ids[record.id])
            owner = owners.get(record.id)
            if owner is not None and owner != player:  # 64 bits met again: never
                record = replace(record, id=secrets.token_hex(8))
                owner = None
        if owner == player:
            skipped += 1
            continue
        record = _settle_mode(record, ranked)
        kept.append(_Replayed(record, game.log))
    records = [game.record for game in kept]
    rows.insert_games(records)
    rows.insert_actions([(game.record.id, game.log, game.record.updated_at) for game in kept])
    over = sorted(
        (r for r in records if r.status is GameStatus.FINISHED),
        key=lambda r: (r.finished_at or "", r.id),
    )
    rows.insert_results([(r, result_of(r.state)) for r in over])
    ranked_scores = [games.high_score(r) for r in over if r.mode.ranked]
    rows.insert_high_scores(player, ranked_scores)
    return len(kept), skipped


def _own_id(player: str, game_id: str) -> str:
    """The id of another player's game ``game_id`` when ``player`` imports it."""
    return hashlib.sha256(f"MAGDAGDON import {player} {game_id}".encode()).hexdigest()[:16]


def _settle_mode(record: GameRecord, ranked: set[tuple[str, str]]) -> GameRecord:
    """A ranked daily attempt where the player has one already becomes practice; an
    unfinished game other than a ranked daily attempt becomes abandoned."""
    if record.mode is GameMode.DAILY:
        key = (record.daily_date or "", record.difficulty.value)
        if key in ranked:
            record = replace(record, mode=GameMode.PRACTICE)
        else:
            ranked.add(key)
    if record.status is not GameStatus.FINISHED and record.mode is not GameMode.DAILY:
        record = replace(record, status=GameStatus.ABANDONED)
    return record


def _parse(document: Any) -> tuple[str | None, list[tuple[int, dict[str, Any]]]]:
    """The file's name setting and its games, each checked for shape (not yet replayed)."""
    if not isinstance(document, dict) or set(document) != _TOP_KEYS:
        raise MalformedImportError(
            f"an export is a JSON object with exactly the keys {sorted(_TOP_KEYS)}"
        )
    if document["format"] != FORMAT or type(document["version"]) is not int:
        raise MalformedImportError(f"not a {FORMAT} document")
    if document["version"] != VERSION:
        raise MalformedImportError(
            f"this MAGDAGDON reads {FORMAT} version {VERSION}, not {document['version']}"
        )
    player = document["player"]
    if not isinstance(player, dict) or set(player) != {"language", "name"}:
        raise MalformedImportError('"player" is an object with "language" and "name"')
    if player["language"] not in ("fil", "en"):
        raise MalformedImportError('"player.language" is "fil" or "en"')
    name = player["name"]
    if name is not None:
        if not isinstance(name, str):
            raise MalformedImportError('"player.name" is a string or null')
        try:
            name = clean_name(name)
        except RefusedInputError as exc:
            raise MalformedImportError(f'"player.name": {exc.message}') from None
    found = document["games"]
    if not isinstance(found, list):
        raise MalformedImportError('"games" is a list')
    checks.check_count(found)
    entries = []
    seen: set[str] = set()
    for position, entry in enumerate(found, 1):
        _check_shape(position, entry)
        if entry["id"] in seen:
            raise MalformedImportError(f"game {position}: the id {entry['id']!r} comes twice")
        seen.add(entry["id"])
        entries.append((position, entry))
    return name, entries


def _check_shape(position: int, entry: Any) -> None:
    where = f"game {position}"
    if not isinstance(entry, dict) or set(entry) != _GAME_KEYS:
        raise MalformedImportError(
            f"{where}: a game is an object with exactly the keys {sorted(_GAME_KEYS)}"
        )
    checks = {
        "id": isinstance(entry["id"], str) and _ID.fullmatch(entry["id"]) is not None,
        "difficulty": _one_of(entry["difficulty"], Difficulty),
        "seed": type(entry["seed"]) is int and 0 <= entry["seed"] < SEED_LIMIT,
        "mode": _one_of(entry["mode"], GameMode),
        "daily_date": entry["daily_date"] is None
        or (isinstance(entry["daily_date"], str) and _DAY.fullmatch(entry["daily_date"])),
        "status": _one_of(entry["status"], GameStatus),
        "created_at": isinstance(entry["created_at"], str),
        "finished_at": entry["finished_at"] is None or isinstance(entry["finished_at"], str),
        "hints_used": type(entry["hints_used"]) is int and 0 <= entry["hints_used"] < 2**31,
        "actions": isinstance(entry["actions"], list),
        "score": entry["score"] is None or type(entry["score"]) is int,
    }
    wrong = [key for key, ok in checks.items() if not ok]
    if wrong:
        raise MalformedImportError(f"{where}: {', '.join(repr(k) for k in wrong)} not valid")


def _one_of(value: object, kind: type[enum.Enum]) -> bool:
    """Whether ``value`` is the value of one of ``kind``'s members (any JSON value may come)."""
    return isinstance(value, str) and any(value == member.value for member in kind)


def _replay(position: int, entry: dict[str, Any], player: str, now: datetime) -> _Replayed:
    """Replay one game of the file; :class:`ImportInvalidError` at the first thing that is not
    as the file says."""
    where = f"game {position} (id {entry['id']})"

    def refuse(reason: str, action: int | None = None) -> ImportInvalidError:
        message = f"{where}: {reason}; nothing was imported"
        return ImportInvalidError(message, game=position, action=action)

    checks.check_actions(position, where, entry["actions"])
    difficulty = Difficulty(entry["difficulty"])
    mode = GameMode(entry["mode"])
    day = entry["daily_date"]
    hints = checks.HintBound()
    try:
        replayed = logs.replayed(
            difficulty,
            entry["seed"],
            mode,
            day,
            entry["actions"],
            today=now.date(),
            before=hints.before,
        )
    except ReplayError as exc:
        if exc.action:
            shown = _shown(entry["actions"][exc.action - 1])
            reason = f"action {exc.action} {shown} does not replay: {exc.reason}"
            raise refuse(reason, exc.action) from None
        message = f"{where}: {exc.reason}; nothing was imported"
        raise ImportFieldError(message, game=position, field=exc.field or "seed") from None
    state = replayed.state
    log = [_action_text(action) for action in replayed.actions]
    status = GameStatus(entry["status"])
    if state.is_over != (status is GameStatus.FINISHED):
        actual = "over" if state.is_over else "not over"
        raise refuse(f"it says {status.value}, but after its {len(log)} actions it is {actual}")
    claimed = entry["score"]
    final = state.score().total if state.is_over else None
    if claimed != final:
        raise refuse(f"it claims the score {claimed}, but its replay scores {final}")
    hints.check(position, where, entry["hints_used"], state)
    finished = entry["finished_at"]
    if (finished is not None) != state.is_over:
        raise refuse("finished_at is given exactly for a finished game")
    created_moment = checks.moment(position, where, "created_at", entry["created_at"], now)
    finished_moment = (
        None if finished is None else checks.moment(position, where, "finished_at", finished, now)
    )
    challenge = None if day is None else date.fromisoformat(day)
    checks.check_times(position, where, created_moment, finished_moment, challenge)
    created = clock.stamp(created_moment)
    finished_at = None if finished_moment is None else clock.stamp(finished_moment)
    record = GameRecord(
        id=entry["id"],
        player=player,
        difficulty=difficulty,
        seed=entry["seed"],
        state=state,
        version=len(log),
        hints_used=entry["hints_used"],
        status=status,
        created_at=created,
        # an unfinished game is touched now, by its import: the clean-up counts from here, so a
        # game begun long ago elsewhere is not stale the moment it arrives
        updated_at=finished_at or clock.stamp(now),
        finished_at=finished_at,
        mode=mode,
        daily_date=day,
    )
    return _Replayed(record, log)


@functools.lru_cache(maxsize=1024)
def _action_text(action: Action) -> str:
    """The action's JSON text as the store keeps it (a game's actions are few kinds: cached)."""
    return json.dumps(action_to_json(action), separators=(",", ":"))


def _shown(data: Any) -> str:
    try:
        text = json.dumps(data, ensure_ascii=False, separators=(", ", ": "))
    except (TypeError, ValueError):
        text = repr(data)
    return text if len(text) <= 120 else text[:117] + "..."
