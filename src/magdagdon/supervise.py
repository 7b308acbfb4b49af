"""The supervisor of ``magdagdon serve --workers N``: it starts the worker processes, replaces
one that dies or hangs, and answers the operator's signals (HUP: replace every worker, one by
one; TTIN/TTOU: one worker more or fewer; INT/TERM: stop).

Workers are forked from the supervisor, which imported the server's code before starting them
and runs no thread of its own: a replacement serves in about a second, not in the many seconds
a fresh interpreter takes to import everything, which on a loaded machine is longer than
uvicorn's own supervisor waits for a new worker (it kills it and starts another, for ever).
The supervisor holds no database connection when it forks (it closed the one that migrated),
so a worker opens its own, as a spawned one would. Being forks, the workers run the code (and
the settings) that the supervisor started with, a HUP included: a new version needs a restart.

The supervisor never blocks on one worker: every half second it reads the answers of the
workers to its pings and acts on what it sees. A worker is given ``START_TIMEOUT`` to start
serving and, once serving, ``PING_TIMEOUT`` to answer each ping; past either it is killed and
replaced. A worker whose supervisor is gone (even by SIGKILL) stops by itself. A worker that
ended is marked dead for the metrics (``observe/multiproc.py``): its live gauges leave the sums.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import signal
import time
from dataclasses import dataclass, field
from multiprocessing import Pipe
from typing import TYPE_CHECKING

import uvicorn
from uvicorn._subprocess import subprocess_started
from uvicorn.config import STARTUP_FAILURE
from uvicorn.supervisors.multiprocess import SIGNALS, Multiprocess, Process

from magdagdon.observe import multiproc

if TYPE_CHECKING:
    import socket
    from collections.abc import Callable

log = logging.getLogger("uvicorn.error")
START_TIMEOUT = 60.0  # seconds for a new worker to start serving
PING_TIMEOUT = 15.0  # seconds for a serving worker to answer a ping (it may be very busy)
RETIRE_TIMEOUT = 30.0  # seconds for a retired worker to finish its requests and exit
_FORK = multiprocessing.get_context("fork")
SUPERVISOR_GONE_CHECK = 1.0  # seconds between a worker's looks at whether its supervisor lives
FIRST_REQUEST_GRACE = 2.0  # seconds a stopping worker waits for the request of a new connection


class _StoppingServer(uvicorn.Server):
    """uvicorn's server, but a stopping worker answers the connections it has just accepted.

    The workers share one listening socket: a connection the kernel gave this worker a moment
    before it stopped accepting has not sent its request yet, and uvicorn closes every connection
    without a request in progress at once, so that client would get no answer at all (while the
    other workers serve). The worker stops accepting first, then waits (at most
    ``FIRST_REQUEST_GRACE``) until each connection has sent its first request."""

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()
        waited = 0.0
        while waited < FIRST_REQUEST_GRACE and any(
            getattr(connection, "cycle", None) is None
            for connection in self.server_state.connections
        ):
            await asyncio.sleep(0.05)
            waited += 0.05
        await super().shutdown(sockets)


class Worker(Process):
    """One worker process: uvicorn's, but forked from the supervisor, pinged without waiting,
    and stopping when its supervisor is gone."""

    def __init__(self, config: uvicorn.Config, sockets: list[socket.socket]) -> None:
        self.config = config
        self._server = None
        self.parent_conn, self.child_conn = Pipe()
        self.supervisor = os.getpid()
        self.process = _FORK.Process(  # type: ignore[assignment]
            target=subprocess_started,
            # a fork keeps the supervisor's standard input: nothing to reopen
            kwargs={
                "config": config,
                "target": self.target,
                "sockets": sockets,
                "stdin_fileno": None,
            },
        )
        self.born = 0.0
        self.serving = False  # answered once that its server had started
        self.asked_at: float | None = None  # when the ping not yet answered was sent

    def start(self) -> None:
        self.born = time.monotonic()
        super().start()

    @property
    def server(self) -> uvicorn.Server:
        if self._server is None:
            self._server = _StoppingServer(config=self.config)
        return self._server

    def target(self, sockets: list[socket.socket] | None = None) -> None:  # pragma: no cover
        # the supervisor's handlers (they queue its signals) came along with the fork: a worker
        # answers signals as a process of its own (uvicorn's server sets INT and TERM)
        for sig in SIGNALS:
            signal.signal(sig, signal.SIG_DFL)
        self.parent_conn.close()
        super().target(sockets)

    def always_pong(self) -> None:  # pragma: no cover (runs in the worker)
        try:
            while os.getppid() == self.supervisor:
                if self.child_conn.poll(SUPERVISOR_GONE_CHECK):
                    self.pong()
        except (OSError, EOFError):
            pass
        os.kill(os.getpid(), signal.SIGTERM)  # no supervisor: finish the requests, stop

    def check(self, now: float) -> str:
        """``starting``, ``serving``, ``late`` (not serving after START_TIMEOUT), ``hung``
        (a ping unanswered for PING_TIMEOUT) or ``dead``; sends the next ping."""
        if not self.process.is_alive():
            return "dead"
        try:
            if self.asked_at is not None and self.parent_conn.poll():
                started = self.parent_conn.recv()
                self.serving = self.serving or started is True
                self.asked_at = None
            if self.asked_at is None:
                self.parent_conn.send(b"ping")
                self.asked_at = now
        except (OSError, EOFError, pickle.UnpicklingError):
            return "hung"
        if not self.serving:
            return "late" if now - self.born > START_TIMEOUT else "starting"
        return "hung" if now - self.asked_at > PING_TIMEOUT else "serving"


@dataclass
class _Roll:
    """A rolling replacement (SIGHUP): the slots still to replace, and the successor starting
    for the first of them."""

    slots: list[int]
    successor: Worker | None = None
    retiring: list[tuple[Worker, float]] = field(default_factory=list)


class Supervisor(Multiprocess):
    """Keeps ``config.workers`` workers serving on ``sockets``; ``on_ready`` runs once all the
    first ones serve. ``started`` says whether they did."""

    def __init__(
        self, config: uvicorn.Config, sockets: list[socket.socket], on_ready: Callable[[], None]
    ) -> None:
        super().__init__(config, sockets)
        self.on_ready = on_ready
        self.started = False
        self.workers: list[Worker] = []
        self.roll = _Roll([])

    def run(self) -> None:
        for _ in range(self.processes_num):
            self.workers.append(self._new())
        try:
            while not self.should_exit.wait(0.5):
                self.handle_signals()
                if not self.should_exit.is_set():
                    self.tend(time.monotonic())
        finally:
            everyone = [*self.workers, *(w for w, _ in self.roll.retiring)]
            if self.roll.successor is not None:
                everyone.append(self.roll.successor)
            for worker in everyone:
                worker.terminate()
            for worker in everyone:
                worker.join()

    def _new(self) -> Worker:
        worker = Worker(self.config, self.sockets)
        worker.start()
        return worker

    def tend(self, now: float) -> None:
        """One look at every worker: replace the dead and the stuck, go on with a roll."""
        for index, worker in enumerate(self.workers):
            state = worker.check(now)
            if state in ("starting", "serving"):
                continue
            self._end(worker, state)
            if not self.started or (state == "dead" and worker.exitcode == STARTUP_FAILURE):
                # the app, the database or the socket is broken: every new worker would fail
                log.error("a worker process did not start; stopping")
                self.should_exit.set()
                return
            self.workers[index] = self._new()
            log.warning(
                "worker [%s] %s; started worker [%s]", worker.pid, state, self.workers[index].pid
            )
        if not self.started and all(worker.serving for worker in self.workers):
            self.started = True
            self.on_ready()
        self._roll_on(now)

    def _end(self, worker: Worker, state: str) -> None:
        if state != "dead":
            worker.kill()
        worker.join()
        multiproc.worker_gone(worker.pid)  # its live gauges leave the sums

    def _roll_on(self, now: float) -> None:
        roll = self.roll
        for worker, since in list(roll.retiring):
            if worker.exitcode is not None or now - since > RETIRE_TIMEOUT:
                self._end(worker, "dead" if worker.exitcode is not None else "late")
                roll.retiring.remove((worker, since))
        roll.slots = [slot for slot in roll.slots if slot < len(self.workers)]
        if roll.successor is None:
            if roll.slots:
                roll.successor = self._new()
            return
        state = roll.successor.check(now)
        if state == "starting":
            return
        if state != "serving":
            self._end(roll.successor, state)
            log.error(
                "new worker [%s] %s; keeping the others and stopping the restart",
                roll.successor.pid,
                state,
            )
            roll.successor, roll.slots = None, []
            return
        slot = roll.slots.pop(0) if roll.slots else None
        if slot is None:  # its slot went (SIGTTOU): it serves in a new one
            self.workers.append(roll.successor)
        else:
            old = self.workers[slot]
            self.workers[slot] = roll.successor
            old.terminate()
            roll.retiring.append((old, now))
            log.info("worker [%s] replaced worker [%s]", roll.successor.pid, old.pid)
        roll.successor = None
        if roll.slots:
            roll.successor = self._new()

    def handle_hup(self) -> None:
        log.info("Received SIGHUP: replacing the workers one by one")
        self.roll.slots = list(range(len(self.workers)))

    def handle_ttin(self) -> None:
        log.info("Received SIGTTIN: one worker more")
        self.processes_num += 1
        self.workers.append(self._new())

    def handle_ttou(self) -> None:
        if len(self.workers) <= 1:
            log.info("Received SIGTTOU: already one worker only")
            return
        log.info("Received SIGTTOU: one worker fewer")
        self.processes_num -= 1
        worker = self.workers.pop()
        worker.terminate()
        self.roll.retiring.append((worker, time.monotonic()))
