"""The app served for a benchmark: gunicorn on a free port of 127.0.0.1, stopped afterwards."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def gunicorn(env: dict[str, str], workers: int | None = None) -> Iterator[int]:
    """gunicorn as `make run` starts it (tracker/gunicorn_conf.py: uvicorn's workers, one
    process at home), with the settings in ``env`` (and ``workers`` processes, where given);
    yields its port once it accepts connections."""
    with gunicorn_process(env, workers) as (port, _server):
        yield port


@contextmanager
def gunicorn_process(env: dict[str, str], workers: int | None = None,
                     log: IO[bytes] | None = None
                     ) -> Iterator[tuple[int, subprocess.Popen]]:
    """As :func:`gunicorn`, and the master process too, for measuring what the server uses;
    the server's messages go to ``log`` where one is given."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "tracker.asgi",
         "--config", "python:tracker.gunicorn_conf", "--bind", f"127.0.0.1:{port}",
         *(["--workers", str(workers)] if workers else []), "--log-level", "warning"],
        cwd=ROOT, env=env, stderr=log)
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


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank); 0 for none."""
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def production_environment(database_url: str) -> dict[str, str]:
    """This process's environment with the app's production settings on ``database_url``."""
    return {**os.environ, "DJANGO_DEBUG": "false", "DJANGO_HTTPS": "false",
            "DJANGO_SECRET_KEY": "bench-secret-key-bench-secret-key-bench-secret-key",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DATABASE_URL": database_url}


def fresh_sqlite_environment(name: str) -> dict[str, str]:
    """Production settings on a new SQLite file in a temporary folder named after ``name``."""
    workdir = tempfile.mkdtemp(prefix=f"bench-{name}-")
    return production_environment(f"sqlite:///{workdir}/bench.sqlite3")


def server_processes(master: int) -> Iterator[Path]:
    """The /proc folders of a gunicorn master and its workers."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue  # a process that ended meanwhile
        if int(entry.name) == master or parent == master:
            yield entry


def cpu_seconds(master: int) -> float:
    """User and system CPU time of a gunicorn master and its workers so far."""
    ticks = 0
    for process in server_processes(master):
        try:
            fields = (process / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def rss_mb(master: int) -> float:
    """The resident memory of a gunicorn master and its workers, in MB."""
    kilobytes = 0
    for process in server_processes(master):
        try:
            status = (process / "status").read_text()
        except OSError:
            continue
        kilobytes += int(re.search(r"VmRSS:\s+(\d+)", status).group(1))
    return kilobytes / 1024


def kniffel_game(env: dict[str, str], players: list[str], cells: dict[str, int] | None = None
                 ) -> dict[str, str | list[str]]:
    """Migrate the database that ``env`` names, collect the static files, and start a
    Kniffel game of ``players`` with ``cells`` already entered for each of them, in the
    household of a signed-in user.

    Returns the user's session key and the ids of the play and of the players.
    """
    python = sys.executable
    for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True)
    script = f"""
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from tracker.households.auth import PASSWORD_BACKEND
from tracker.evenings.models import GameNight
from tracker.households.models import Household, Player
from tracker.table.recording import start_play, write_cell
user = get_user_model().objects.create_user("bench", password="bench")
household = Household.objects.create(name="Bench")
household.members.add(user)
players = [Player.objects.create(household=household, name=n) for n in {players!r}]
night = GameNight.objects.create(household=household)
play = start_play(household=household, game="kniffel", players=players, game_night=night)
for player in players:
    for field, points in {cells or {}!r}.items():
        write_cell(play, player, field, points, expected_version=None)
session = SessionStore()
session["_auth_user_id"] = str(user.pk)
session["_auth_user_backend"] = PASSWORD_BACKEND
session["_auth_user_hash"] = user.get_session_auth_hash()
session.create()
print(session.session_key, play.pk, *[player.pk for player in players])
"""
    output = subprocess.run([python, "manage.py", "shell", "-c", script], cwd=ROOT,
                            env={**os.environ, **env}, check=True, capture_output=True,
                            text=True).stdout.split()
    session_key, play_id, *player_ids = output[-2 - len(players):]
    return {"session": session_key, "play": play_id, "players": player_ids}
