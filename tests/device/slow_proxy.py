"""A tiny TCP proxy on 127.0.0.1 that delays every byte by half a round trip each way, as a slow
phone link does (the kernel here has no netem), and counts the bytes of the answers' bodies the
server sends through it, as the wire carries them (compressed or not; HTTP/1.1's headers, which
HTTP/2 would compress, counted apart), and the requests the browser sends through it."""

from __future__ import annotations

import contextlib
import heapq
import itertools
import socket
import threading
import time

from device.local_proxy import LocalProxy
from waits import EVENTUALLY


class SlowProxy(LocalProxy):
    def __init__(self, server_port: int, round_trip_s: float = 0.3) -> None:
        self.one_way = round_trip_s / 2
        self.down_bytes = 0  # server → browser: the answers' bodies
        self.header_bytes = 0
        self.requests: list[str] = []  # browser → server: each request's method and path
        super().__init__(server_port)

    def reset(self) -> int:
        """The bytes counted so far, and the count started again."""
        with self._lock:
            counted, self.down_bytes, self.header_bytes = self.down_bytes, 0, 0
        return counted

    def sent(self, prefix: str) -> list[str]:
        """The requests sent so far to paths that start with ``prefix``, as "METHOD /path"."""
        with self._lock:
            return [line for line in self.requests if line.split(" ")[1].startswith(prefix)]

    def _count(self, framing: dict[str, int | bytes], data: bytes, down: bool) -> None:
        """Splits the bytes each way into heads and bodies (Content-Length framing): an answer's
        are counted, a request's head is kept by its method and path."""
        buffer = bytes(framing["buffer"]) + data
        while buffer:
            body = int(framing["body"])
            if body > 0:
                taken = min(body, len(buffer))
                framing["body"] = body - taken
                with self._lock:
                    self.down_bytes += taken
                buffer = buffer[taken:]
                continue
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                break
            head = buffer[: end + 4]
            with self._lock:
                if down:
                    self.header_bytes += len(head)
                else:
                    method, path, _ = head.split(b"\r\n")[0].decode("latin-1").split(" ", 2)
                    self.requests.append(f"{method} {path}")
            length = 0
            for line in head.split(b"\r\n"):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            framing["body"] = length
            buffer = buffer[end + 4 :]
        framing["buffer"] = buffer

    def _relay(self, client: socket.socket, upstream: socket.socket) -> None:
        for source, target, down in ((client, upstream, False), (upstream, client, True)):
            threading.Thread(target=self._pipe, args=(source, target, down), daemon=True).start()

    def _pipe(self, source: socket.socket, target: socket.socket, down: bool) -> None:
        """Each chunk read is sent ``one_way`` seconds later, in order."""
        due: list[tuple[float, int, bytes]] = []
        framing: dict[str, int | bytes] = {"buffer": b"", "body": 0}
        order = itertools.count()
        ready = threading.Condition()
        ended = threading.Event()

        def send() -> None:
            with contextlib.suppress(OSError):
                while True:
                    with ready:
                        while not due and not ended.is_set():
                            ready.wait()
                        if not due:
                            break
                        at, _, data = due[0]
                        wait = at - time.monotonic()
                        if wait > 0:
                            ready.wait(wait)
                            continue
                        heapq.heappop(due)
                    target.sendall(data)
                    self._count(framing, data, down)
            with contextlib.suppress(OSError):
                target.shutdown(socket.SHUT_WR)

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                with ready:
                    heapq.heappush(due, (time.monotonic() + self.one_way, next(order), data))
                    ready.notify()
        with ready:
            ended.set()
            ready.notify()
        sender.join(EVENTUALLY)
