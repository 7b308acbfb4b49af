"""``asyncio.run`` for sync tests, in a thread of its own: a worker that ran a Playwright test
before keeps an event loop running in its main thread, where ``asyncio.run`` is refused."""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from collections.abc import Coroutine

T = TypeVar("T")


def run_apart(coroutine: Coroutine[object, object, T]) -> T:
    """Run ``coroutine`` to its end on a new event loop in a new thread; its result or error."""
    outcome: dict[str, object] = {}

    def main() -> None:
        try:
            outcome["result"] = asyncio.run(coroutine)
        except BaseException as error:  # raised again in the caller's thread
            outcome["error"] = error

    thread = threading.Thread(target=main, name="test-loop")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["result"]  # type: ignore[return-value]
