"""The compute pool (``magdagdon.compute``): real processes, bounded per player, in all and in
time; background jobs with progress; and the hint route's answers when it refuses."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from fastapi.testclient import TestClient

import compute_jobs as jobs
from loop import run_apart
from magdagdon.api.app import create_app
from magdagdon.compute import (
    AlreadyRunningError,
    Compute,
    ComputeBusyError,
    ComputeFailedError,
    ComputeTimeoutError,
    Limits,
)
from magdagdon.settings import Settings
from waits import EVENTUALLY

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture
def compute() -> Iterator[Compute]:
    pool = Compute(Limits(processes=1, queue=1, timeout=30, background_timeout=30))
    yield pool
    pool.close()


def run(compute: Compute, fn: Any, *args: Any, player: str = "p") -> Any:
    return run_apart(compute.run("job", fn, *args, player=player))


def wait_until(test: Any, timeout: float = EVENTUALLY) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_job_runs_in_another_process_at_a_lower_priority(compute: Compute) -> None:
    assert run(compute, jobs.add, 2, 3) == 5
    assert run(compute, jobs.pid) != os.getpid()
    # ten steps nicer, as far as the system's nicest (19) allows
    assert run(compute, jobs.priority) == min(os.getpriority(os.PRIO_PROCESS, 0) + 10, 19)
    with pytest.raises(ValueError, match="as it was"):
        run(compute, jobs.fail, "as it was")


def test_one_job_of_a_kind_per_player_at_a_time(compute: Compute) -> None:
    async def scenario() -> None:
        first = asyncio.ensure_future(compute.run("hint", jobs.sleep, 1.0, player="a"))
        await asyncio.sleep(0)
        with pytest.raises(AlreadyRunningError):
            await compute.run("hint", jobs.add, 1, 1, player="a")
        assert await compute.run("other", jobs.add, 1, 1, player="a") == 2  # another kind
        assert await first == 1.0
        assert await compute.run("hint", jobs.add, 1, 2, player="a") == 3  # free again

    run_apart(scenario())


def test_the_pool_holds_its_processes_and_queue_and_refuses_more(compute: Compute) -> None:
    async def scenario() -> None:
        running = asyncio.ensure_future(compute.run("hint", jobs.sleep, 1.0, player="a"))
        waiting = asyncio.ensure_future(compute.run("hint", jobs.sleep, 0.1, player="b"))
        await asyncio.sleep(0)
        with pytest.raises(ComputeBusyError):  # 1 process + a queue of 1
            await compute.run("hint", jobs.add, 1, 1, player="c")
        assert await running == 1.0
        assert await waiting == 0.1
        assert await compute.run("hint", jobs.add, 1, 1, player="c") == 2

    run_apart(scenario())


def test_a_job_over_its_time_limit_is_stopped_and_the_next_one_runs() -> None:
    compute = Compute(Limits(processes=1, queue=4, timeout=0.5))
    try:
        run(compute, jobs.add, 0, 0)  # the process is up
        before = run(compute, jobs.pid)
        start = time.monotonic()
        with pytest.raises(ComputeTimeoutError):
            run(compute, jobs.sleep, 30.0)
        assert time.monotonic() - start < 5
        assert run(compute, jobs.pid) != before  # a new process
        assert run(compute, jobs.add, 4, 4) == 8
    finally:
        compute.close()


def test_a_process_that_dies_fails_its_job_only(compute: Compute) -> None:
    with pytest.raises(ComputeFailedError):
        run(compute, jobs.die)
    assert run(compute, jobs.add, 1, 2) == 3
    with pytest.raises(RuntimeError, match="cannot be sent"):  # an answer that cannot come back
        run(compute, jobs.unpicklable)
    assert run(compute, jobs.add, 2, 2) == 4


def test_background_jobs_report_progress_then_their_result(compute: Compute) -> None:
    seen: list[float] = []
    done: list[str] = []
    finished = threading.Event()

    def on_done(result: str) -> None:
        done.append(result)
        finished.set()

    assert compute.background("review-1", jobs.steps, 4, on_progress=seen.append, on_done=on_done)
    assert not compute.background(
        "review-1", jobs.steps, 4, on_progress=seen.append, on_done=on_done
    )  # one job per key at a time
    assert compute.running("review-1")
    assert finished.wait(EVENTUALLY)
    assert seen == [0.25, 0.5, 0.75, 1.0]
    assert done == ["4 steps"]
    wait_until(lambda: not compute.running("review-1"))
    errors: list[BaseException] = []
    assert compute.background(
        "review-2",
        jobs.fail_steps,
        "no such game",
        on_progress=seen.append,
        on_done=lambda _: None,
        on_error=errors.append,
    )
    wait_until(lambda: bool(errors))
    assert isinstance(errors[0], ValueError)
    assert seen[-1] == 0.5


def test_background_jobs_do_not_hold_up_waited_for_jobs(compute: Compute) -> None:
    run(compute, jobs.add, 0, 0)  # the waited-for jobs' process is up
    finished = threading.Event()
    compute.background(
        "long", jobs.sleep, 20.0, on_progress=lambda _: None, on_done=lambda _: finished.set()
    )
    wait_until(lambda: compute.running("long"))
    start = time.monotonic()
    assert run(compute, jobs.add, 1, 1) == 2
    assert time.monotonic() - start < 10  # it did not wait for the 20 s job
    assert not finished.is_set()


# ---- the hint route --------------------------------------------------------------------------


def test_a_second_hint_while_the_first_is_computed_is_429_and_a_full_pool_503(
    db_path: Path,
) -> None:
    settings = Settings(rate_limits=False, compute_processes=1, compute_queue=0)
    app = create_app(db_path, settings=settings)
    with TestClient(app) as first, TestClient(app) as second:
        games = []
        for client in (first, second):
            game = client.post("/api/games", json={"difficulty": "nightmare", "seed": 3}).json()
            client.post(f"/api/games/{game['id']}/actions", json={"type": "roll"})
            games.append(game["id"])
        answers: list[Any] = []
        asking = threading.Thread(
            target=lambda: answers.append(first.get(f"/api/games/{games[0]}/hint"))
        )
        asking.start()  # the first hint also starts the compute process: it takes a while
        wait_until(lambda: app.state.compute._waited.pending == 1)
        again = first.get(f"/api/games/{games[0]}/hint")
        assert again.status_code == 429
        assert again.json()["error"]["code"] == "rate_limited"
        assert again.headers["retry-after"] == "1"
        other = second.get(f"/api/games/{games[1]}/hint")
        assert other.status_code == 503
        assert other.json()["error"]["code"] == "busy"
        assert other.headers["retry-after"] == "1"
        asking.join(EVENTUALLY)
        assert answers[0].status_code == 200
        assert answers[0].json()["version"] == 1
        assert second.get(f"/api/games/{games[1]}/hint").status_code == 200  # its turn now


@pytest.mark.parametrize("when", ["warm", "job"])
def test_a_compute_process_whose_parent_went_away_ends_quietly(tmp_path: Path, when: str) -> None:
    # A server worker killed (or replaced) while its compute process warms up or runs a job:
    # the process finds the pipe broken when it answers, and ends with no traceback on stderr.
    tests = Path(__file__).resolve().parents[1]
    script = Path(__file__).with_name("orphan_worker.py")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tests), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "gate"), when],
        capture_output=True,
        text=True,
        env=env,
        timeout=EVENTUALLY,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"
    assert "Traceback" not in done.stderr, done.stderr
