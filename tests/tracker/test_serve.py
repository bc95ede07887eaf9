"""``manage.py serve``, as ``make run`` starts it: nothing it starts outlives it."""

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Long enough for gunicorn to import the app on a busy two-core machine.
START_SECONDS = 40


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def processes_marked(mark: str) -> list[int]:
    """The processes whose environment holds ``mark``: everything one serve started."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if mark.encode() in (entry / "environ").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_crash_of_serve_leaves_nothing_running_and_it_starts_again(tmp_path):
    """A power cut's stand-in: the whole process group of ``serve`` killed at once. Its
    server and worker, each in a session of its own, end with it; the port is free, and the
    next start serves."""
    port, mark = free_port(), f"TRACKER_SERVE_TEST_{secrets.token_hex(6)}"
    environment = {**os.environ, mark: "1",
                   "DATABASE_URL": f"sqlite:///{tmp_path / 'serve.sqlite3'}",
                   "DJANGO_SECRET_KEY": secrets.token_urlsafe(40)}
    environment.pop("DJANGO_CACHE_URL", None)
    environment.pop("DJANGO_TASKS_URL", None)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=environment, check=True,
                   cwd=ROOT)

    def serve() -> subprocess.Popen:
        return subprocess.Popen([*manage, "serve", "--bind", f"127.0.0.1:{port}"],
                                env=environment, cwd=ROOT, start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    first = serve()
    try:
        assert wait_for(lambda: answers(port), START_SECONDS)
        assert len(processes_marked(mark)) >= 3  # serve, gunicorn and its worker, run_worker
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()

        assert wait_for(lambda: not processes_marked(mark), 20), processes_marked(mark)
        assert not answers(port)

        second = serve()
        try:
            assert wait_for(lambda: answers(port), START_SECONDS)
        finally:
            second.send_signal(signal.SIGINT)
            second.wait(30)
        assert wait_for(lambda: not processes_marked(mark), 20)
    finally:
        for pid in processes_marked(mark):
            os.kill(pid, signal.SIGKILL)
