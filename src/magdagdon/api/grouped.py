"""An action played through the store's group commit (``store/groupcommit.py``), awaited on
the event loop: the loop only queues it and is woken with the answer's bytes, made in the
writer thread once the action's transaction committed (the state view, and for a ranked game
that ended its rank, read there: nothing blocking on the loop)."""

from __future__ import annotations

import asyncio
import functools
from typing import TYPE_CHECKING

from magdagdon.api.game_state import game_view, view_json
from magdagdon.services import games

if TYPE_CHECKING:
    from magdagdon.engine import Action
    from magdagdon.store import GameRecord, Store
    from magdagdon.store.groupcommit import GroupCommit


async def play(
    group: GroupCommit,
    store: Store,
    player: str,
    game_id: str,
    action: Action,
    version: int | None,
) -> bytes:
    """``services.games.play``, committed with the actions that arrived together: the state
    view's JSON (``view.game_response``'s body), or the error the action raised."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[bytes] = loop.create_future()

    def done(game: GameRecord | None, error: BaseException | None) -> None:
        body = b""
        if error is None:
            assert game is not None
            try:
                body = view_json(game_view(game, store))
            except Exception as exc:
                error = exc
        loop.call_soon_threadsafe(_settle, answer, body, error)

    work = functools.partial(
        games.apply_action, player=player, game_id=game_id, action=action, version=version
    )
    group.submit(work, done)
    return await answer


def _settle(answer: asyncio.Future[bytes], body: bytes, error: BaseException | None) -> None:
    if answer.done():  # the request was cancelled meanwhile: nobody to answer
        return
    if error is None:
        answer.set_result(body)
    else:
        answer.set_exception(error)
