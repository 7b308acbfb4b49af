"""The game state JSON, built in one place from the engine's own methods (no rule here)."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

from fastapi import Response

from magdagdon.api.cookies import set_new_player_cookie
from magdagdon.api.schemas import responses
from magdagdon.api.schemas.daily import StreakOut
from magdagdon.engine import OFF, Adjust, Reroll, Ruin
from magdagdon.engine.board import RUIN_CODE, SIZE, to_codes
from magdagdon.engine.codec import cell_to_json
from magdagdon.engine.daily import daily_number
from magdagdon.engine.scoring import score_codes
from magdagdon.services import players
from magdagdon.store import GameStatus

if TYPE_CHECKING:
    from starlette.requests import Request

    from magdagdon.engine import GameState, LineScore, Score
    from magdagdon.services.daily import Streak
    from magdagdon.store import GameRecord, Player, Store


def _board(state: GameState) -> list[list[responses.BoardCell]]:
    codes = state.codes()
    cells: list[responses.BoardCell] = [
        None if code == 0 else "ruin" if code == RUIN_CODE else code for code in codes
    ]
    return [cells[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]


def _line(line: LineScore) -> responses.LineScore:
    return responses.LineScore.model_validate(
        {"sum": line.sum, "bonus": line.bonus, "combo": line.combo}
    )


def _score(score: Score) -> dict[str, Any]:
    return {
        "base": score.base,
        "bonus": score.bonus,
        "ruins": score.ruins,
        "ruin_penalty": score.ruin_penalty,
        "power_penalty": score.power_penalty,
        "total": score.total,
        "rows": [_line(line) for line in score.rows],
        "columns": [_line(line) for line in score.columns],
    }


def _daily(game: GameRecord) -> dict[str, Any] | None:
    if game.daily_date is None:
        return None
    return {"date": game.daily_date, "number": daily_number(date.fromisoformat(game.daily_date))}


def game_view(game: GameRecord, store: Store) -> responses.GameView:
    """The API's game state of a stored game; its rank is read from ``store`` once it is over."""
    state = game.state
    rank = rank_among = None
    if state.is_over and game.mode.ranked:
        rank = store.rank(game.id)
        rank_among = store.ranked_games(game.player, game.difficulty) if rank else None
    adjust: dict[str, list[int]] = {}
    can_reroll = False
    ruinable: list[list[int]] = []
    for action in state.legal_actions():
        if isinstance(action, Adjust):
            adjust.setdefault(str(action.die), []).append(action.delta)
        elif isinstance(action, Reroll):
            can_reroll = True
        elif isinstance(action, Ruin):
            ruinable.append(cell_to_json(action.cell))
    score = state.score()
    # the score of the board with the staged dice, as if KUMPIRMAHIN were pressed now
    preview = score_codes(to_codes(state.live), state.power_penalty) if state.order else score
    difficulty = state.difficulty
    return responses.GameView.model_validate(
        {
            "id": game.id,
            "difficulty": difficulty.value,
            "phase": state.phase.value,
            "turn": state.turn,
            "version": game.version,
            "board": _board(state),
            "dice": [
                {"id": die, "value": value, "cell": None if cell == OFF else cell_to_json(cell)}
                for die, (value, cell) in enumerate(zip(state.dice, state.staged, strict=True))
            ],
            "valid_cells": {
                str(die): [cell_to_json(c) for c in cells]
                for die, cells in state.valid_cells().items()
            },
            "min_required": state.min_required,
            "can_confirm": state.can_confirm,
            "stuck": state.stuck,
            "powers": {
                "total": difficulty.power_uses,
                "used": state.powers_used,
                "left": state.powers_left,
                "penalty": state.power_penalty,
                "next_penalty": state.next_penalty,
            },
            "score": _score(score),
            "preview": _score(preview),
            "adjust": adjust,
            "can_reroll": can_reroll,
            "ruinable": ruinable,
            "hints_used": game.hints_used,
            "rank": rank,
            "rank_among": rank_among,
            "finished_at": game.finished_at,
            "abandoned": game.status is GameStatus.ABANDONED,
            "mode": game.mode.value,
            "daily": _daily(game),
        }
    )


def game_response(request: Request, store: Store, game: GameRecord, status: int = 200) -> Response:
    """The state view as JSON, serialised once (FastAPI would dump and re-validate a model);
    a returned Response does not get the dependency's cookie, so it is set here."""
    view = game_view(game, store)
    response = Response(view.model_dump_json(), status_code=status, media_type="application/json")
    set_new_player_cookie(request, response)
    return response


def settings_of(player: Player) -> responses.PlayerSettings:
    """What ``/api/player`` answers of ``player`` (a device link's answer too)."""
    return responses.PlayerSettings.model_validate(
        {"language": player.language, "name": player.name, "tag": players.player_tag(player.token)}
    )


def streak_out(streak: Streak) -> StreakOut:
    return StreakOut(current=streak.current, best=streak.best)
