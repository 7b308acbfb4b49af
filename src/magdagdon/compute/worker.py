"""The loop of one compute process: receive a job, run it, send back its progress and result.

A job is ``(fn, args, reports_progress)``: ``fn(*args)``, or ``fn(*args, progress=report)``
where ``report(fraction)`` sends a fraction done (0..1) to the parent. The process runs at a
lower CPU priority than the server (``nice``), so that on a busy machine the players' actions
come first; it ends when its parent closes the pipe (or dies: the pipe closes with it).
"""

from __future__ import annotations

import contextlib
import os
import pickle
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable
    from multiprocessing.connection import Connection

NICE = 10  # the scheduler's weight falls about tenfold: the server's threads come first


def main(conn: Connection, warm: Callable[[], object] | None) -> None:
    """Serve jobs on ``conn`` until it closes; ``warm`` runs first (the bot's caches)."""
    with contextlib.suppress(OSError):  # not allowed: the jobs run at the server's priority
        os.nice(NICE)
    if warm is not None:
        warm()
    try:
        conn.send(("ready", None))
    except OSError:  # the parent died while this process started: nobody is left to serve
        return
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        fn, args, reports_progress = job
        try:
            if reports_progress:
                result = fn(*args, progress=lambda fraction: _send(conn, ("progress", fraction)))
            else:
                result = fn(*args)
        except _ParentGoneError:
            return
        except Exception as exc:
            answer: tuple[str, Any] = ("error", _portable(exc))
        else:
            answer = ("done", result)
        try:
            _send(conn, answer)
        except _ParentGoneError:
            return


class _ParentGoneError(Exception):
    """The pipe to the parent broke: it was killed or stopped (a worker replaced)."""


def _send(conn: Connection, message: tuple[str, Any]) -> None:
    try:
        try:
            conn.send(message)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            conn.send(("error", RuntimeError(f"the job's answer cannot be sent: {exc}")))
    except OSError as exc:  # BrokenPipeError, ConnectionResetError: end quietly, not a traceback
        raise _ParentGoneError from exc


def _portable(exc: Exception) -> Exception:
    """``exc`` if it pickles (the parent re-raises it), else a RuntimeError naming it."""
    try:
        pickle.dumps(exc)
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc
