"""The app served for a benchmark: gunicorn on a free port of 127.0.0.1, stopped afterwards."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def gunicorn(env: dict[str, str], workers: int) -> Iterator[int]:
    """gunicorn with ``workers`` processes and the settings in ``env``; yields its port once
    it accepts connections."""
    with gunicorn_process(env, workers) as (port, _server):
        yield port


@contextmanager
def gunicorn_process(env: dict[str, str], workers: int
                     ) -> Iterator[tuple[int, subprocess.Popen]]:
    """As :func:`gunicorn`, and the master process too, for measuring what the server uses."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "tracker.wsgi", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "--log-level", "warning"], cwd=ROOT, env=env)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield port, server
    finally:
        server.terminate()
        server.wait(timeout=20)
