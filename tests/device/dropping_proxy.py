"""A tiny TCP proxy on 127.0.0.1 that can lose answers, as a phone's connection does: it passes
each request on to the server and, for the next ``lose(n)`` answers, waits until the server
starts its answer (so the server has done the work) and then closes the client's connection
without passing on a byte of it."""

from __future__ import annotations

import contextlib
import socket
import threading

from waits import EVENTUALLY


class DroppingProxy:
    def __init__(self, server_port: int) -> None:
        self.server_port = server_port
        self.to_lose = 0
        self.dropped = 0
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.server_port), timeout=EVENTUALLY)
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._answers, args=(upstream, client), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, target: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                target.sendall(data)
        with contextlib.suppress(OSError):
            target.shutdown(socket.SHUT_WR)

    def _answers(self, upstream: socket.socket, client: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := upstream.recv(65536):
                if self._losing():  # the server answered: the client never hears of it
                    break
                client.sendall(data)
        for end in (client, upstream):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()

    def lose(self, answers: int) -> None:
        """Lose the next ``answers`` answers."""
        with self._lock:
            self.to_lose = answers

    def _losing(self) -> bool:
        with self._lock:
            if self.to_lose <= 0:
                return False
            self.to_lose -= 1
            self.dropped += 1
            return True

    def close(self) -> None:
        self._closed = True
        self._listener.close()
