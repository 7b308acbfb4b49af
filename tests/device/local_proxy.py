"""The tests' TCP proxies on 127.0.0.1 (dropping_proxy.py, slow_proxy.py): each connection the
browser opens is joined to one of its own to the server, and the two are relayed as the proxy
says; a server that is down leaves the browser a refused connection."""

from __future__ import annotations

import socket
import threading

from waits import EVENTUALLY


class LocalProxy:
    def __init__(self, server_port: int) -> None:
        self.server_port = server_port
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
            try:
                upstream = socket.create_connection(
                    ("127.0.0.1", self.server_port), timeout=EVENTUALLY
                )
            except OSError:  # the server is down: the browser sees a refused connection
                client.close()
                continue
            self._relay(client, upstream)

    def _relay(self, client: socket.socket, upstream: socket.socket) -> None:
        """Starts the threads that carry the two ways."""
        raise NotImplementedError

    def close(self) -> None:
        self._closed = True
        self._listener.close()
