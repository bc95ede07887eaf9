"""A tablet's Wi-Fi for the browser tests: a TCP link on 127.0.0.1 in front of the live
server that a test can cut, dropping every connection open through it (the page's stream
of changes too, which the browser's own offline switch leaves open) and refusing new ones
until it is restored."""

from __future__ import annotations

import socket
import threading
from types import SimpleNamespace


class Wifi:
    """Forwards 127.0.0.1:``port`` to the server at ``target_port``, byte for byte."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.up = True
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def server(self) -> SimpleNamespace:
        """The server as the tablet reaches it: through this link (``.url`` as the live
        server has it)."""
        return SimpleNamespace(url=f"http://127.0.0.1:{self.port}")

    def cut(self) -> None:
        with self.lock:
            self.up = False
            for connection in self.open:
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def restore(self) -> None:
        with self.lock:
            self.up = True

    def close(self) -> None:
        self.cut()
        self.listener.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _address = self.listener.accept()
            except OSError:
                return  # closed
            with self.lock:
                up = self.up
            if not up:
                client.close()
                continue
            server = socket.create_connection(("127.0.0.1", self.target_port))
            with self.lock:
                self.open.update((client, server))
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with self.lock:
                    self.open.discard(end)
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                end.close()
