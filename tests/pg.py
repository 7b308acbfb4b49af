"""A real PostgreSQL server for tests and benchmarks, started from Debian's binaries in a
temporary directory and reached on a Unix socket there (no port, no password, nothing shared
with another server on the machine). ``initdb`` refuses to run as root, so as root the server
runs as the ``postgres`` user that Debian's package creates.

Each test gets a fresh database: ``CREATE DATABASE … TEMPLATE`` of one migrated once per
server, a file copy (``STRATEGY FILE_COPY``: ~60 ms, against ~100 ms for WAL_LOG).
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg

from waits import EVENTUALLY

INSTALL_HINT = "run `make test` (it installs Debian's postgresql) or `apt-get install postgresql`"
TEMPLATE = "magdagdon_template"
PORT = 5432  # only names the socket file: the server listens on no TCP port
# For tests only: fsync=off trades a crash of the *machine* for speed. The tests kill the
# MAGDAGDON server, never PostgreSQL, so each commit still reaches PostgreSQL before the answer.
TEST_SETTINGS = {"fsync": "off", "full_page_writes": "off", "shared_buffers": "32MB"}


def binaries() -> Path:
    """The newest of Debian's ``/usr/lib/postgresql/<version>/bin``."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parent.parent.name),
    )
    if not found:
        raise RuntimeError(f"PostgreSQL is not installed: {INSTALL_HINT}")
    return Path(found[-1]).parent


class PostgresServer:
    """``postgres`` running on a socket in its own temporary directory; :meth:`stop` removes
    it all."""

    def __init__(self, settings: dict[str, str] | None = None, kept: Path | None = None) -> None:
        """``kept``: a directory whose server outlives this object (a benchmark's big
        database): made there the first time, started again on its files after."""
        self.bin = binaries()
        self.user = "postgres" if os.geteuid() == 0 else None
        self.kept = kept
        if kept is not None:
            kept.mkdir(parents=True, exist_ok=True)
        self.base = kept if kept is not None else Path(tempfile.mkdtemp(prefix="magdagdon-pg-"))
        self.data = self.base / "data"
        self._names = itertools.count(1)
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.base, entry.pw_uid, entry.pw_gid)
        if not self.data.exists():
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8")
        options = {"listen_addresses": "", "unix_socket_directories": str(self.base)}
        options |= settings if settings is not None else TEST_SETTINGS
        command = [str(self.bin / "postgres"), "-D", str(self.data), "-p", str(PORT)]
        for key, value in options.items():
            command += ["-c", f"{key}={value}"]
        self._command = command
        self._log = (self.base / "server.log").open("w")
        self._start()
        self._template_ready = False

    def _start(self) -> None:
        self.process = subprocess.Popen(
            self._command, user=self.user, stdout=self._log, stderr=subprocess.STDOUT
        )
        self._wait_until_ready()

    def halt(self) -> None:
        """Stop the server as an operator would (a "fast" shutdown: the clients are
        disconnected), keeping its files for :meth:`resume`."""
        self.process.send_signal(signal.SIGINT)
        self.process.wait(EVENTUALLY)

    def resume(self) -> None:
        """Start the server again after :meth:`halt`, on the same files."""
        self._start()

    def _run(self, program: str, *args: str) -> None:
        result = subprocess.run(
            [str(self.bin / program), *args],
            user=self.user,
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            raise RuntimeError(f"{program} failed: {result.stdout}{result.stderr}")

    def _wait_until_ready(self, timeout: float = EVENTUALLY) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"postgres exited: {(self.base / 'server.log').read_text()}")
            try:
                with psycopg.connect(self.conninfo("postgres"), connect_timeout=2):
                    return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def conninfo(self, database: str) -> str:
        return f"host={self.base} port={PORT} user=postgres dbname={database}"

    def url(self, database: str) -> str:
        """The database's ``postgresql://`` URL, as ``--db`` takes it."""
        return f"postgresql://postgres@/{database}?host={self.base}&port={PORT}"

    def _admin(self, sql: str) -> None:
        with psycopg.connect(self.conninfo("postgres"), autocommit=True) as conn:
            conn.execute(sql)

    def create_database(self, *, migrated: bool = True) -> str:
        """A new database (migrated to the newest schema, or empty); answer its URL."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        if migrated:
            self._ensure_template()
            self._admin(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}" STRATEGY FILE_COPY')
        else:
            self._admin(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        name = url.split("/")[-1].split("?")[0]
        self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def _ensure_template(self) -> None:
        if self._template_ready:
            return
        from magdagdon.store import Store

        self._admin(f'DROP DATABASE IF EXISTS "{TEMPLATE}"')  # a kept server's, of an older schema
        self._admin(f'CREATE DATABASE "{TEMPLATE}" TEMPLATE template0')
        Store(self.url(TEMPLATE)).close()  # migrates it, then closes every connection
        self._template_ready = True

    def stop(self) -> None:
        if self.kept is not None:
            self.halt()  # its files stay for the next run
            self._log.close()
            return
        if self.process.poll() is None:
            self.process.terminate()  # SIGTERM: a "smart" shutdown, then the files go
            try:
                self.process.wait(EVENTUALLY)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()
        shutil.rmtree(self.base, ignore_errors=True)
