"""The database of a busy server grows only with what players finish.

An unfinished game (abandoned when its player started another, or simply left) is removed with
its action log once it has been untouched for ``Settings.unfinished_days`` days (30); finished
games are kept. A player made that long ago with nothing left is removed too. Each server
process runs this when it starts and then once a day, one batch at a time in a thread of its
own: between two batches the thread is given back, so a request never waits behind more than
one (``store/cleanup.py`` does the removing, in small batches that several processes can run at
once, and costs next to nothing when there is nothing to remove).

Time comes from the server's clock (``magdagdon.clock``), so a test moves it without sleeping.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import anyio.to_thread

from magdagdon import clock
from magdagdon.store.cleanup import NOTHING, Removed, batches
from magdagdon.store.failures import StorageUnavailableError

if TYPE_CHECKING:
    from collections.abc import Iterator

    from magdagdon.store import Store

log = logging.getLogger("magdagdon.services.cleanup")
EVERY = 24 * 3600.0  # seconds between two runs of one process
RETRY = 3600.0  # seconds, after a run that found the database unusable


def run(store: Store, days: int, now: datetime | None = None) -> Removed:
    """Remove the unfinished games untouched for ``days`` days before ``now`` (the clock's
    when None), then the players left with nothing."""
    return store.remove_unfinished(cutoff(days, now))


def cutoff(days: int, now: datetime | None = None) -> str:
    """The stamp before which an untouched unfinished game is stale."""
    moment = clock.now() if now is None else now
    return clock.stamp(moment - timedelta(days=days))


async def run_in_batches(store: Store, days: int) -> Removed:
    """:func:`run`, each batch in a thread on its own (the event loop goes on between two)."""
    steps: Iterator[Removed] = batches(store, cutoff(days))
    total = NOTHING
    while (removed := await anyio.to_thread.run_sync(next, steps, None)) is not None:
        total += removed
    return total


async def every_day(store: Store, days: int) -> None:
    """:func:`run` at once, then every :data:`EVERY` seconds, until cancelled; ``days`` 0
    keeps everything."""
    if days <= 0:
        return
    while True:
        delay = EVERY
        try:
            removed = await run_in_batches(store, days)
            if removed.games or removed.players:
                log.warning(
                    "clean-up: removed %d unfinished games and %d empty players",
                    removed.games,
                    removed.players,
                )
        except StorageUnavailableError as exc:
            log.warning("clean-up: the database cannot be used now (%s)", exc.reason)
            delay = RETRY
        except Exception:  # a bug: logged, and the server goes on
            log.exception("clean-up failed")
        await asyncio.sleep(delay)
