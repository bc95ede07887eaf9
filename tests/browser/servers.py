"""Two app servers for the browser tests, as a site runs them on several machines: gunicorn
with production settings, both on the tests' database and on one shared cache.

They run only when ``TRACKER_TWO_SERVERS=1``; ``DJANGO_CACHE_URL`` then names the Redis
they share (its database is emptied when they start), ``DJANGO_TASKS_URL`` the Redis
database of the queue their workers of background work share (``manage.py run_worker``,
RQ workers here; emptied too), ``DJANGO_SECRET_KEY`` the key they share, and
``TRACKER_TWO_SERVERS_PORT`` the first server's port (8201; the second takes the next).
``.ci/run`` starts Redis and runs them on PostgreSQL; on SQLite they share the tests'
database file.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]

#: Asked for by ``.ci/run``; without it the tests of two servers are skipped.
WANTED = os.environ.get("TRACKER_TWO_SERVERS", "") == "1"
SKIP_REASON = ("two app servers run only with TRACKER_TWO_SERVERS=1 and DJANGO_CACHE_URL="
               "redis://… (.ci/run's two_servers part, on PostgreSQL and Redis)")

#: The first server listens on this port, the second on the next one; each pytest-xdist
#: worker takes the two after the previous worker's.
FIRST_PORT = int(os.environ.get("TRACKER_TWO_SERVERS_PORT", "8201"))

#: Long enough for gunicorn to import the app on a busy two-core machine.
START_SECONDS = 30
STOP_SECONDS = 10


@dataclass
class AppServer:
    """One gunicorn server; ``url`` as the tests' ``live_server`` has it."""

    url: str
    process: subprocess.Popen
    command: list[str]
    environment: dict[str, str]

    def restart(self) -> None:
        """Stop the server and start it again on the same port, as a new version of the
        app is put in place: its open connections, the pages' streams too, are dropped."""
        self.stop()
        self.process = subprocess.Popen(self.command, cwd=ROOT, env=self.environment)
        wait_until_up(self)

    def stop(self) -> None:
        """Stop the server and its workers: gunicorn's master ends them on SIGTERM."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@dataclass
class TaskWorker:
    """One worker of background work (``manage.py run_worker``), in a session of its own."""

    process: subprocess.Popen

    def kill(self) -> None:
        """Kill the worker and the process running its task at once, as a machine dying
        would: nothing of theirs runs after it."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


def shared_redis_url(name: str, what: str) -> str:
    """The Redis named by the environment variable ``name``; anything else is refused, as
    it would not be shared."""
    url = os.environ.get(name, "")
    if not url.startswith(("redis://", "rediss://")):
        raise RuntimeError(f"TRACKER_TWO_SERVERS needs {name}=redis://… for {what} the two "
                           f"servers share, not {url!r}")
    return url


def empty_redis(url: str) -> None:
    """Empty a shared Redis database: a previous run's test database had the same name and
    the same ids, so its cached users and sessions, or its queued tasks, would be taken
    for this run's."""
    from django.core.cache.backends.redis import RedisCache

    RedisCache(url, {}).clear()


def shared_environment(database: dict) -> dict[str, str]:
    """The environment of the servers and workers: production settings on the tests'
    database and the shared Redis, nothing else of this process's Django settings."""
    return {
        **{name: value for name, value in os.environ.items()
           if not name.startswith(("DJANGO_", "DATABASE_"))},
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_CACHE_URL": shared_redis_url("DJANGO_CACHE_URL", "the cache"),
        "DJANGO_TASKS_URL": shared_redis_url("DJANGO_TASKS_URL", "the queue of tasks"),
        "DATABASE_URL": database_url(database),
    }


def start_worker(database: dict) -> TaskWorker:
    """A worker of background work on the shared queue, as on a machine of its own."""
    return TaskWorker(subprocess.Popen(
        [sys.executable, "manage.py", "run_worker", "--verbosity", "0"], cwd=ROOT,
        env=shared_environment(database), start_new_session=True))


def database_url(database: dict) -> str:
    """The address of the tests' database (``database`` as Django's connection has it)."""
    if "sqlite" in database["ENGINE"]:
        return f"sqlite:///{database['NAME']}"
    configured = urlsplit(os.environ["DATABASE_URL"])
    return configured._replace(path=f"/{database['NAME']}").geturl()


def check_static_files() -> None:
    """The servers serve the collected static files, as in production: they must be there
    and no older than the sources, or a page would run yesterday's scripts."""
    manifest = ROOT / "staticfiles" / "staticfiles.json"
    newest = max(path.stat().st_mtime for path in (ROOT / "static").rglob("*") if path.is_file())
    if not manifest.exists() or manifest.stat().st_mtime < newest:
        raise RuntimeError("the static files are not collected or out of date: run "
                           ".venv/bin/python manage.py collectstatic --noinput -v0")


def start_servers(database: dict, count: int = 2) -> list[AppServer]:
    """Start ``count`` servers on the tests' database and the shared cache, and wait until
    each answers; those started are stopped again if one does not come up."""
    check_static_files()
    environment = shared_environment(database)
    empty_redis(environment["DJANGO_CACHE_URL"])
    empty_redis(environment["DJANGO_TASKS_URL"])
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
    servers: list[AppServer] = []
    try:
        for index in range(count):
            port = FIRST_PORT + count * worker + index
            command = [sys.executable, "-m", "gunicorn", "tracker.asgi",
                       "--config", "python:tracker.gunicorn_conf", "--bind",
                       f"127.0.0.1:{port}", "--workers", "2", "--preload", "--log-level",
                       "warning"]
            process = subprocess.Popen(command, cwd=ROOT, env=environment)
            servers.append(AppServer(f"http://127.0.0.1:{port}", process, command, environment))
        for server in servers:
            wait_until_up(server)
    except BaseException:
        for server in servers:
            server.stop()
        raise
    return servers


def wait_until_up(server: AppServer) -> None:
    deadline = time.monotonic() + START_SECONDS
    while True:
        if server.process.poll() is not None:
            raise RuntimeError(f"the server for {server.url} ended at its start")
        try:
            with urllib.request.urlopen(f"{server.url}/accounts/login/", timeout=5):
                return
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"the server for {server.url} answers {error.code}") from error
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass  # not listening yet
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server for {server.url} did not answer within "
                               f"{START_SECONDS} s")
        time.sleep(0.2)
