"""A game's life, over the store: start one (abandoning what the modes say), load a player's
game, play an action, count a hint. The rules of play are the engine's; the rules of modes and
records are here (docs/rules.md "Modes and records"); the store only reads and writes rows.

Each change is one store transaction that reads the game locked, checks it, asks the engine,
and writes every row it changes (state, version, the log's entry, the High Score) together.
"""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import TYPE_CHECKING

from magdagdon.engine import SEED_LIMIT, GameState, Phase
from magdagdon.observe import metrics
from magdagdon.services.errors import GameAbandonedError, GameNotFoundError, VersionConflictError
from magdagdon.store import GameMode, GameRecord, GameStatus, HighScore, Player, now
from magdagdon.store.results import result_of

if TYPE_CHECKING:
    from magdagdon.engine import Action, Difficulty
    from magdagdon.store import Rows, Store

#: The modes of the unfinished games that a new game of each mode abandons: a tutorial is a side
#: trip (the game under way waits for the player), and an unfinished ranked daily attempt is
#: never abandoned (it stays open to finish from the daily screen).
ABANDONS: dict[GameMode, tuple[str, ...]] = {
    GameMode.NORMAL: ("normal", "practice", "tutorial"),
    GameMode.DAILY: ("normal", "practice", "tutorial"),
    GameMode.PRACTICE: ("normal", "practice", "tutorial"),
    GameMode.TUTORIAL: ("tutorial",),
}


def owned(game: GameRecord | None, player: str, game_id: str) -> GameRecord:
    """The one owner check: another player's game is as unknown as a missing one (404)."""
    if game is None or game.player != player:
        raise GameNotFoundError(game_id)
    return game


def load(store: Store, player: str, game_id: str) -> GameRecord:
    return owned(store.game(game_id), player, game_id)


def start(
    store: Store,
    player: str,
    difficulty: Difficulty,
    seed: int | None = None,
    *,
    mode: GameMode = GameMode.NORMAL,
    daily_date: str | None = None,
    new_player: Player | None = None,
) -> GameRecord:
    """A new game for ``player``, after abandoning the unfinished games its mode abandons;
    ``new_player``: that player is new, and is saved in the same transaction (so a game that
    cannot be saved leaves no player behind)."""
    with store.write() as rows:
        return start_in(
            rows, player, difficulty, seed, mode=mode, daily_date=daily_date, new_player=new_player
        )


def new_record(
    game_id: str,
    player: str,
    difficulty: Difficulty,
    seed: int,
    mode: GameMode,
    daily_date: str | None,
    stamp: str,
) -> GameRecord:
    """A game at its first state, not yet saved: what beginning a game here and a game begun
    on the page's own engine (``magdagdon.services.sync``) both store first."""
    return GameRecord(
        id=game_id,
        player=player,
        difficulty=difficulty,
        seed=seed,
        state=GameState.new(difficulty, seed),
        version=0,
        hints_used=0,
        status=GameStatus.PLAYING,
        created_at=stamp,
        updated_at=stamp,
        finished_at=None,
        mode=mode,
        daily_date=daily_date,
    )


def start_in(
    rows: Rows,
    player: str,
    difficulty: Difficulty,
    seed: int | None = None,
    *,
    mode: GameMode = GameMode.NORMAL,
    daily_date: str | None = None,
    new_player: Player | None = None,
) -> GameRecord:
    """:func:`start` inside the write transaction ``rows``, which may have read what decides
    the mode (``magdagdon.services.daily``)."""
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)
    stamp = now()
    game = new_record(secrets.token_hex(8), player, difficulty, seed, mode, daily_date, stamp)
    if new_player is not None:
        rows.insert_player(new_player, stamp)
    else:
        rows.abandon(player, ABANDONS[mode], stamp)
    rows.insert_game(game)
    metrics.game_started(mode.value, difficulty.value)
    return game


def play(
    store: Store, player: str, game_id: str, action: Action, *, version: int | None = None
) -> GameRecord:
    """Apply ``action`` to the player's game and save it before answering.

    ``version``, when given, must be the game's: else ``version_conflict`` — except for a retry
    (the very action the game applied at that version, sent again because its answer was lost),
    which answers the game as it is and applies nothing. The engine's ``IllegalActionError``
    (409) leaves everything unchanged. The action that ends a game writes its summary for
    Statistics (``results``), and a ranked game's High Score, in the same transaction.
    """
    with store.write() as rows:
        return apply_action(rows, player, game_id, action, version=version)


def apply_action(
    rows: Rows,
    player: str,
    game_id: str,
    action: Action,
    *,
    version: int | None = None,
    ended_at: str | None = None,
) -> GameRecord:
    """:func:`play` inside a write transaction: the one door of every action, whichever way
    it came (a route, on SQLite in the store's group commit, ``store/groupcommit.py``; a sync
    of a game played offline, ``services/sync.py``). ``ended_at``: when the game ended, if this
    action ends it and that was not now (a game played on a device, dated by it: ``sync.py``);
    the game's last change stays now (the clean-up counts from it)."""
    game = owned(rows.game(game_id), player, game_id)
    if version is not None and version != game.version:
        if 0 <= version < game.version and rows.action(game_id, version + 1) == action:
            return game
        raise VersionConflictError(
            f"the game is at version {game.version}, not {version}; reload it"
        )
    if game.status is GameStatus.ABANDONED:
        raise GameAbandonedError("this game was abandoned when a new one started")
    state = game.state.apply(action)
    stamp = now()
    over = state.is_over
    after = replace(
        game,
        state=state,
        version=game.version + 1,
        status=GameStatus.FINISHED if over else GameStatus.PLAYING,
        updated_at=stamp,
        finished_at=(ended_at or stamp) if over else None,
    )
    rows.save_move(after, action)
    metrics.action_applied(game.mode.value, game.difficulty.value, over)
    if over:
        rows.insert_result(after, result_of(state))
        if game.mode.ranked:
            rows.insert_high_score(player, high_score(after))
    return after


def high_score(game: GameRecord) -> HighScore:
    """The High Score entry of a finished game (its rank is the store's to tell)."""
    score = game.state.score()
    assert game.finished_at is not None
    return HighScore(
        rank=0,
        score=score.total,
        date=game.finished_at,
        turns=game.state.turn,
        powers_used=game.state.powers_used,
        ruins=score.ruins,
        hints_used=game.hints_used,
        game_id=game.id,
        difficulty=game.difficulty,
    )


def hint_given(store: Store, game: GameRecord) -> int:
    """A hint was shown for the game's current state: count it (docs/rules.md "Modes and records"
    (Hints): not in phase
    ``roll``, where I-ROLL is the only move); answer the game's hints so far."""
    if game.state.phase is Phase.ROLL:
        return game.hints_used
    return store.count_hint(game.id)
