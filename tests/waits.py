"""How long tests wait for what must happen eventually, and the one way they wait for it.

The machine that runs the suite may be loaded far beyond its cores (other builds, browsers,
a database): a test waits on a condition with a generous deadline, never a short fixed time.
A deadline is reached only when the thing will never happen; a test that passes returns as
soon as its condition holds, so a long deadline costs nothing.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable

T = TypeVar("T")

# seconds: a server starting, a page ready, a process replaced, a job done (120 s was too
# short for a server to start at a load of 30 on 2 cores)
EVENTUALLY = 300.0
EVENTUALLY_MS = int(EVENTUALLY * 1000)  # the same for Playwright, which counts milliseconds


def wait_until(
    condition: Callable[[], T | None], what: str, timeout: float = EVENTUALLY, every: float = 0.05
) -> T:
    """Call ``condition`` until it answers something true, and answer that; fail with
    ``what`` past ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:.0f} s: {what}")
        time.sleep(every)
