"""Jobs for the compute pool's tests: module-level, so that they pickle to its processes."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable


def add(a: int, b: int) -> int:
    return a + b


def sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def fail(message: str) -> None:
    raise ValueError(message)


def die() -> None:
    os._exit(3)


def priority() -> int:
    """The process's nice value."""
    return os.getpriority(os.PRIO_PROCESS, 0)


def pid() -> int:
    return os.getpid()


def steps(count: int, *, progress: Callable[[float], None]) -> str:
    for index in range(1, count + 1):
        progress(index / count)
    return f"{count} steps"


def unpicklable() -> object:
    return lambda: None


def fail_steps(message: str, *, progress: Callable[[float], None]) -> None:
    progress(0.5)
    raise ValueError(message)


def gated_review(
    difficulty: str, seed: int, actions: list[dict[str, Any]], *, progress: Callable[[float], None]
) -> dict[str, Any]:
    """A game's review that reports half its way, then waits for the file named in
    ``MAGDAGDON_TEST_GATE`` (the test's go-ahead) before it computes the review."""
    from magdagdon.services import reviews

    progress(0.5)
    gate = Path(os.environ["MAGDAGDON_TEST_GATE"])
    deadline = time.monotonic() + 60
    while not gate.exists():
        if time.monotonic() > deadline:
            raise TimeoutError("the test never opened the gate")
        time.sleep(0.01)
    return reviews.compute(difficulty, seed, actions, progress=progress)


def broken_review(
    difficulty: str, seed: int, actions: list[dict[str, Any]], *, progress: Callable[[float], None]
) -> dict[str, Any]:
    """A review that always fails, each attempt counted as a line of the file named in
    ``MAGDAGDON_TEST_CALLS``."""
    with Path(os.environ["MAGDAGDON_TEST_CALLS"]).open("a") as calls:
        calls.write(f"{difficulty} {seed}\n")
    raise RuntimeError("deliberately broken")


def wait_for_file(path: str) -> None:
    """Return once ``path`` exists (the test's go-ahead)."""
    while not Path(path).exists():
        time.sleep(0.01)
