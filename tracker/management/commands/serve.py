"""The app as ``make run`` serves it: ``python manage.py serve``."""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from tracker.table import coaching

#: How long the processes get to stop on Ctrl-C before they are killed.
STOP_SECONDS = 10
#: A worker that ends this soon after its start is not started again at once.
RESTART_PAUSE_SECONDS = 2


class Command(BaseCommand):
    help = ("Serve the app with gunicorn (tracker/gunicorn_conf.py) and run its background work "
            "beside it (manage.py run_worker), until Ctrl-C stops them all; the coach's tables "
            "are queued to be computed where missing. A worker that dies is started again; "
            "the server ending ends everything.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--bind", default="0.0.0.0:8000",
                            help="Where gunicorn listens (default: %(default)s).")
        parser.add_argument("--workers", type=int, default=1,
                            help="Workers of background work (default: %(default)s).")

    def handle(self, *args: Any, bind: str, workers: int, **options: Any) -> None:
        stopping: list[int] = []

        def stop(signum: int, _frame: FrameType | None) -> None:
            stopping.append(signum)

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        server = start([sys.executable, "-m", "gunicorn", "tracker.asgi",
                        "--config", "python:tracker.gunicorn_conf", "--bind", bind])
        worker_command = [sys.executable, str(settings.BASE_DIR / "manage.py"), "run_worker",
                          "--verbosity", "0"]
        running = [start(worker_command) for _ in range(workers)]
        coaching.compute_all_tables.enqueue()
        started = [time.monotonic()] * workers
        try:
            while not stopping and server.poll() is None:
                time.sleep(0.5)
                for index, worker in enumerate(running):
                    if worker.poll() is not None and (
                            time.monotonic() - started[index] > RESTART_PAUSE_SECONDS):
                        self.stderr.write(f"A worker of background work ended ({worker.returncode})"
                                          ": starting another.")
                        running[index], started[index] = start(worker_command), time.monotonic()
        finally:
            end_all([server, *running])
        if server.returncode and not stopping:
            raise SystemExit(server.returncode)


def start(command: list[str]) -> subprocess.Popen:
    """Start ``command`` in a session of its own: Ctrl-C reaches this process only, which
    stops the others in order. Should this process die without stopping them (killed, a
    crash), the kernel tells them to stop (:func:`stop_with_parent`): nothing it started
    outlives it and holds the port the next start needs."""
    return subprocess.Popen(command, start_new_session=True,
                            preexec_fn=stop_with_parent(os.getpid()))


#: prctl's request for the signal a process gets when its parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1


def stop_with_parent(parent: int) -> Callable[[], None] | None:
    """What a child runs before its command, on Linux: SIGTERM for it when ``parent`` dies;
    if the parent died already, the child ends at once."""
    if not sys.platform.startswith("linux"):
        return None

    def ask_the_kernel() -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:
            os._exit(1)

    return ask_the_kernel


def end_all(processes: list[subprocess.Popen]) -> None:
    """Ask every process to stop, then kill what has not within ``STOP_SECONDS``. An import
    cut short goes on from its last step at the next start (tracker/portability/imports.py)."""
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    for process in processes:
        try:
            process.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
