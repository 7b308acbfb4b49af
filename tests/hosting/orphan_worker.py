"""A compute process whose parent goes away: run as a script by test_compute, so that its
stderr (which the spawned process shares) can be read whole.

``orphan_worker.py GATE warm|job``: the parent spawns one compute process, hands it a job that
waits for GATE (``job``) or lets it wait for GATE while it warms (``warm``), closes its end of
the pipe, creates GATE and prints the process's exit code."""

from __future__ import annotations

import functools
import multiprocessing
import sys
from pathlib import Path

import compute_jobs as jobs
from magdagdon.compute import worker


def main(gate: str, when: str) -> None:
    spawn = multiprocessing.get_context("spawn")
    parent, child = spawn.Pipe()
    warm = functools.partial(jobs.wait_for_file, gate) if when == "warm" else None
    process = spawn.Process(target=worker.main, args=(child, warm), daemon=True)
    process.start()
    child.close()
    if when == "job":
        assert parent.recv() == ("ready", None)
        parent.send((jobs.wait_for_file, (gate,), False))
    parent.close()
    Path(gate).touch()
    process.join()
    print(process.exitcode)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
