"""Jobs for the compute pool's tests: module-level, so that they pickle to its processes."""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

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
