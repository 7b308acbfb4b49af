"""The health probe (``store/health.py``): a success is reused for ``FRESH`` seconds, a failure
never, so a database that breaks or recovers shows on the next check after those seconds."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from magdagdon.store import Store, health
from magdagdon.store.connect import Waits

if TYPE_CHECKING:
    from pathlib import Path

QUICK = Waits(lock=0.2, statement=None, connect=2, queue=1.0)


def test_a_success_is_reused_a_failure_never(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    with Store(db, waits=QUICK) as store:
        assert health.probe(store, fresh=3600.0) is None
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        try:
            assert health.probe(store, fresh=3600.0) is None  # the success just seen
            found = health.probe(store, fresh=0.0)  # a probe of its own
            assert found is not None
            assert found.retry_after >= 1
            assert health.probe(store, fresh=3600.0) is not None  # the failure is not reused
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert health.probe(store, fresh=3600.0) is None  # recovered at once
