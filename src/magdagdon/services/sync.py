"""Games played in the page's own engine while the server could not be reached, sent back as
their seed and action log (docs/api.md, ``POST /api/games/sync``), and a game's log for the
page to go on with it offline (``GET /api/games/{id}/log``).

The server trusts nothing but the replay: the whole log is replayed from the seed before
anything is written, and a log that does not replay is refused (422 ``sync_invalid``, naming
the action) with nothing changed. The page makes a game's id itself, so sending the same game
again stores it once: a game the player has already is only brought up to the log sent — its
stored log must be the start of the one sent (else 409 ``sync_conflict``, nothing changed) and
the rest is played as the page's own actions are (``games.play``: the end of a game writes its
Statistics summary and High Score the same way). A game under way on the server and continued
offline therefore goes on from where the offline play left it, and keeps its mode (a ranked
daily attempt started on the server stays ranked). A game begun offline is new to the server:
it is marked imported, as an import's games are, and a daily challenge begun offline is kept as
practice (docs/rules.md "Where a rank comes from"); an unfinished one becomes the player's game
under way, as a new game would.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from magdagdon.engine import (
    Difficulty,
    GameState,
    IllegalActionError,
    MalformedError,
    action_from_json,
    action_to_json,
)
from magdagdon.engine.rules import SEED_LIMIT
from magdagdon.services import daily, games
from magdagdon.services.errors import MalformedSyncError, SyncConflictError, SyncInvalidError
from magdagdon.services.import_checks import MAX_ACTIONS  # an import's bound, the same game
from magdagdon.store import GameMode, GameRecord, now

if TYPE_CHECKING:
    from magdagdon.engine import Action
    from magdagdon.store import Store

_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_KEYS = {"id", "difficulty", "seed", "mode", "daily_date", "actions"}


@dataclass(frozen=True, slots=True)
class Synced:
    game: GameRecord
    applied: int  # actions the server had not had


def log(store: Store, player: str, game_id: str) -> dict[str, Any]:
    """What the page needs to rebuild the game in its own engine: seed, mode, action log."""
    game = games.load(store, player, game_id)
    return {
        "id": game.id,
        "difficulty": game.difficulty.value,
        "seed": daily.told_seed(game),
        "mode": game.mode.value,
        "daily_date": game.daily_date,
        "version": game.version,
        "actions": [action_to_json(a) for a in store.actions(game_id)],
    }


def sync(store: Store, player: str, body: Any) -> Synced:
    """Store one game played offline: replayed, then new or brought up to the log sent."""
    entry = _checked(body)
    difficulty = Difficulty(entry["difficulty"])
    actions = _replayed(store, entry, difficulty)
    found = store.game(entry["id"])
    if found is not None and found.player != player:
        raise SyncConflictError(f"the game id {entry['id']!r} is taken; send it with a new one")
    if found is None:
        found = _begin(store, player, entry, difficulty)
    elif found.seed != entry["seed"] or found.difficulty is not difficulty:
        raise SyncConflictError("the server's game with this id has another seed or difficulty")
    stored = store.actions(found.id)
    if stored != actions[: len(stored)]:
        after = _first_difference(stored, actions)
        raise SyncConflictError(
            f"the server's game went on another way after action {after}; "
            "the offline game is kept on the device"
        )
    game = found
    for action in actions[len(stored) :]:
        game = games.play(store, player, game.id, action, version=game.version)
    return Synced(game, len(actions) - len(stored))


def _first_difference(stored: list[Action], sent: list[Action]) -> int:
    for index, (a, b) in enumerate(zip(stored, sent, strict=False)):
        if a != b:
            return index
    return min(len(stored), len(sent))


def _checked(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict) or set(body) != _KEYS:
        raise MalformedSyncError(
            f"a game to sync is an object with exactly the keys {sorted(_KEYS)}"
        )
    checks = {
        "id": isinstance(body["id"], str) and _ID.fullmatch(body["id"]) is not None,
        "difficulty": body["difficulty"] in {d.value for d in Difficulty},
        "seed": type(body["seed"]) is int and 0 <= body["seed"] < SEED_LIMIT,
        "mode": body["mode"] in {m.value for m in GameMode} and body["mode"] != "tutorial",
        "daily_date": body["daily_date"] is None or isinstance(body["daily_date"], str),
        "actions": isinstance(body["actions"], list) and len(body["actions"]) <= MAX_ACTIONS,
    }
    wrong = [key for key, ok in checks.items() if not ok]
    if wrong:
        raise MalformedSyncError(f"{', '.join(repr(k) for k in wrong)} not valid")
    return body


def _replayed(store: Store, entry: dict[str, Any], difficulty: Difficulty) -> list[Action]:
    """The log's actions, replayed from the seed: ``SyncInvalidError`` at the first that does
    not replay (nothing is written before)."""
    day = entry["daily_date"]
    mode = GameMode(entry["mode"])
    if (mode in (GameMode.DAILY, GameMode.PRACTICE)) != (day is not None):
        raise SyncInvalidError(
            f"a {mode.value} game {'needs' if day is None else 'has no'} daily_date"
        )
    if day is not None:
        try:
            challenge = date.fromisoformat(day)
        except ValueError:
            raise SyncInvalidError(f"{day!r} is not a date") from None
        if entry["seed"] != daily.published_seed(store, challenge, difficulty):
            raise SyncInvalidError(f"its seed is not the published seed of the {day} challenge")
    state = GameState.new(difficulty, entry["seed"])
    actions = []
    for index, data in enumerate(entry["actions"], 1):
        try:
            action = action_from_json(data)
            state = state.apply(action)
        except (MalformedError, IllegalActionError) as exc:
            raise SyncInvalidError(
                f"action {index} of game {entry['id']} does not replay: {exc}; nothing was stored",
                action=index,
            ) from None
        actions.append(action)
    return actions


def _begin(store: Store, player: str, entry: dict[str, Any], difficulty: Difficulty) -> GameRecord:
    """A game begun offline, new to the server: marked imported (its moves were not played on
    this server as they happened, so it never ranks on a day's table nor makes a streak), and a
    daily challenge becomes practice."""
    mode = GameMode(entry["mode"])
    if mode is GameMode.DAILY:
        mode = GameMode.PRACTICE
    stamp = now()
    record = games.new_record(
        entry["id"], player, difficulty, entry["seed"], mode, entry["daily_date"], stamp
    )
    with store.write() as rows:
        found = rows.game(record.id)  # the same game sent twice at once: stored once
        if found is not None:
            return games.owned(found, player, record.id)
        rows.abandon(player, games.ABANDONS[mode], stamp)
        rows.insert_game(record, imported=True)  # never ranks, as an import
    return record
