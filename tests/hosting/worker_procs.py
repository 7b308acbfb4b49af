"""Which processes serve a ``magdagdon serve --workers N``, read from /proc: the workers (forks
of the supervisor) and the one that holds a given connection."""

from __future__ import annotations

import http.client
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from server_process import ServerProcess


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


def running(pid: int) -> bool:
    """Alive and not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _command(pid: int) -> bytes | None:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return None


def workers_of(server: ServerProcess) -> set[int]:
    """The running worker processes of the server: its children with its own command line
    (not multiprocessing's resource tracker)."""
    command = _command(server.process.pid)
    return {
        child
        for child in _children(server.process.pid)
        if _command(child) == command and running(child)
    }


def socket_inode(server_port: int, client_port: int) -> int | None:
    """The inode of the server's end of the TCP connection between the two ports (client port 0:
    the listening socket)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = (int(a.split(":")[1], 16) for a in fields[1:3])
        if (local, remote) == (server_port, client_port):
            return int(fields[9])
    return None


def holder(pids: set[int], inode: int) -> int | None:
    target = f"socket:[{inode}]"
    for pid in pids:
        try:
            fds = list(Path(f"/proc/{pid}/fd").iterdir())
        except FileNotFoundError:
            continue
        for fd in fds:
            try:
                if fd.readlink().as_posix() == target:
                    return pid
            except OSError:
                continue
    return None


def ask(server: ServerProcess) -> tuple[int, int | None]:
    """A request on a new connection: its status (0: the connection failed) and the worker
    that answered it (it keeps the connection open after the answer; None if it went since)."""
    conn = http.client.HTTPConnection(server.host, server.port, timeout=30)
    try:
        conn.request("GET", "/api/health")
        response = conn.getresponse()
        response.read()
        if conn.sock is None:
            return response.status, None
        inode = socket_inode(server.port, conn.sock.getsockname()[1])
        pid = None if inode is None else holder(workers_of(server), inode)
        return response.status, pid
    except (OSError, http.client.HTTPException):
        return 0, None
    finally:
        conn.close()


def answered_by(server: ServerProcess) -> int | None:
    """The worker that answered a request on a new connection (None: it failed, or the worker
    went since)."""
    status, pid = ask(server)
    return pid if status == 200 else None
