"""A damaged or unreadable database at start-up gives one clear line on
standard error and exit status 1, no traceback (with one process or several)."""

from __future__ import annotations

import os
import pwd
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from storage_helpers import damaged_file
from waits import EVENTUALLY

pytestmark = pytest.mark.slow


def serve(db: str, *extra: str, user: str | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "magdagdon", "serve", "--no-browser", "--port", "0"]
    return subprocess.run(
        [*command, "--db", db, *extra],
        capture_output=True,
        text=True,
        timeout=EVENTUALLY,
        user=user,
        cwd="/",
    )


def damaged(path: Path) -> str:
    return str(damaged_file(path))


def garbage(path: Path) -> str:
    path.write_bytes(os.urandom(20_000))
    return str(path)


def a_folder(path: Path) -> str:
    path.mkdir()
    return str(path)


def unreadable(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (x)")
    path.chmod(0)
    return str(path)


CASES = {
    "damaged": (damaged, "the database file is damaged"),
    "garbage": (garbage, "file is not a database"),
    "folder": (a_folder, "unable to open database file"),
    "unreadable": (unreadable, "unable to open database file"),
}


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_bad_database_is_one_line_and_exit_status_1(
    tmp_path: Path, case: str, workers: str
) -> None:
    make, reason = CASES[case]
    # root reads any file: the unreadable case runs as a user that cannot, in a folder that
    # user may enter (pytest's own are the owner's only)
    user = "nobody" if case == "unreadable" and os.geteuid() == 0 else None
    folder = Path(tempfile.mkdtemp(prefix="magdagdon-start-")) if user else tmp_path
    try:
        if user is not None:
            pwd.getpwnam(user)
            folder.chmod(0o755)
        db = make(folder / "magdagdon.sqlite3")
        result = serve(db, "--workers", workers, user=user)
    finally:
        if user is not None:
            shutil.rmtree(folder)
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"magdagdon: cannot open the database {db}: ")
    assert reason in lines[0]
    assert "Traceback" not in result.stderr


def test_a_postgresql_that_refuses_is_one_line() -> None:
    result = serve("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2", "--workers", "2")
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "cannot open the database postgresql://nobody@127.0.0.1:1/none" in lines[0]
    assert "Connection refused" in lines[0]
