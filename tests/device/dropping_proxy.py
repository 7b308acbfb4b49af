"""A tiny TCP proxy on 127.0.0.1 that can lose answers, as a phone's connection does: it passes
each request on to the server and, for the next ``lose(n)`` answers, waits until the server
starts its answer (so the server has done the work) and then closes the client's connection
without passing on a byte of it."""

from __future__ import annotations

import contextlib
import socket
import threading

from device.local_proxy import LocalProxy


class DroppingProxy(LocalProxy):
    def __init__(self, server_port: int) -> None:
        self.to_lose = 0
        self.dropped = 0
        super().__init__(server_port)

    def _relay(self, client: socket.socket, upstream: socket.socket) -> None:
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
