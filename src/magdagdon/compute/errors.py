"""What the compute pool refuses or fails with (the API's answers: ``api/errors.py``)."""

from __future__ import annotations


class ComputeError(RuntimeError):
    """A job was not computed."""


class ComputeBusyError(ComputeError):
    """Too many jobs wait already (the whole server is busy): try again shortly."""


class ComputeTimeoutError(ComputeError):
    """The job took longer than its time limit; its process was stopped."""


class ComputeFailedError(ComputeError):
    """The job could not be run (its process died, or the server is stopping)."""


class AlreadyRunningError(ComputeError):
    """This player already has a job of this kind under way: one at a time."""
