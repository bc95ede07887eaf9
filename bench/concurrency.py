"""Several tablets saving Kniffel cells at once, through the server as `make run` runs it.

Run: python bench/concurrency.py [--seconds 20] [--clients 8] [--quick]

Starts gunicorn with uvicorn (tracker/gunicorn_conf.py) on 127.0.0.1 with production
settings on a fresh SQLite file
and, when ``DATABASE_URL`` names a PostgreSQL database, on a fresh database
beside it too. Each run loads a 6-player Kniffel game; six clients each correct
the upper fields of one player's column over and over, and the remaining
clients fight over one shared cell with the version they last saw, so that
same-cell conflicts happen all the time. Afterwards the stored cells are
checked against what the server confirmed. Prints, per database, as
`name: value` lines: successful saves per second, answers 5xx, designed
conflicts 409, other answers, latency percentiles, and cells lost or doubled.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlparse

from serving import gunicorn, kniffel_game, production_environment

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["Anna", "Ben", "Carla", "David", "Emil", "Frieda"]
UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"]
SHARED_FIELD = "chance"
CSRF = "benchcsrfsecretbenchcsrfsecretbe"  # 32 letters, as Django expects
VERSION = re.compile(rb'name="version" value="(\d*)"')



@dataclass
class Tally:
    """What the clients saw, shared between their threads."""

    statuses: Counter = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    #: When each of ``latencies`` ended (time.monotonic()), in the same order.
    ended: list[float] = field(default_factory=list)
    #: (player, field) -> (version, points) of the latest save the server confirmed.
    confirmed: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, status: int, seconds: float) -> None:
        with self.lock:
            self.statuses[status] += 1
            self.latencies.append(seconds)
            self.ended.append(time.monotonic())


class Tablet:
    """One client: a keep-alive connection that saves cells with the version it last saw."""

    def __init__(self, port: int, ids: dict[str, str], tally: Tally, *, keyed: bool = False):
        """``keyed``: each save carries an ``Idempotency-Key`` of its own, as the app's
        tablets send them."""
        self.port, self.ids, self.tally, self.keyed = port, ids, tally, keyed
        self.cookies = f"sessionid={ids['session']}; csrftoken={CSRF}"
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.versions: dict[tuple[str, str], str] = {}

    def request(self, method: str, path: str, body: str | None = None) -> tuple[int, bytes]:
        headers = {"Cookie": self.cookies, "X-CSRFToken": CSRF, "HX-Request": "true",
                   "Referer": f"http://127.0.0.1:{self.port}/"}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            if self.keyed:
                headers["Idempotency-Key"] = secrets.token_hex(16)
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            return response.status, response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            return 0, b""

    def cell_path(self, player: str, field_key: str) -> str:
        return f"/plays/{self.ids['play']}/cells/{player}/{field_key}/"

    def refresh_version(self, player: str, field_key: str) -> None:
        """Read the cell's current version from its editor, as a tablet does on a conflict."""
        status, body = self.request("GET", self.cell_path(player, field_key))
        versions = VERSION.findall(body) if status == 200 else []
        self.versions[player, field_key] = versions[0].decode() if versions else ""

    def save(self, player: str, field_key: str, points: int) -> int:
        body = urlencode({"points": str(points), "save": "1",
                          "version": self.versions.get((player, field_key), "")})
        started = time.perf_counter()
        status, _ = self.request("POST", self.cell_path(player, field_key), body)
        self.tally.note(status, time.perf_counter() - started)
        if status == 200:
            version = int(self.versions.get((player, field_key)) or 0) + 1
            self.versions[player, field_key] = str(version)
            with self.tally.lock:
                latest = self.tally.confirmed.get((player, field_key), (0, 0))
                self.tally.confirmed[player, field_key] = max(latest, (version, points))
        elif status == 409:
            self.refresh_version(player, field_key)
        return status


def own_column(tablet: Tablet, player: str, deadline: float) -> None:
    """Correct one player's upper fields round and round (ones: 1..5, twos: 2..10, …)."""
    turn = 0
    while time.monotonic() < deadline:
        face = turn % len(UPPER) + 1
        tablet.save(player, UPPER[face - 1], face * (turn // len(UPPER) % 5 + 1))
        turn += 1


def shared_cell(tablet: Tablet, player: str, deadline: float) -> None:
    """Fight with the other clients over one Chance cell."""
    turn = 0
    while time.monotonic() < deadline:
        tablet.save(player, SHARED_FIELD, 5 + turn % 26)
        turn += 1


def stored_cells(env: dict[str, str], play_id: str) -> list[tuple[str, str, int]]:
    script = f"""
from tracker.table.models import KniffelCell
for cell in KniffelCell.objects.filter(play_id={play_id}):
    print(cell.player_id, cell.field, cell.points)
"""
    output = subprocess.run([sys.executable, "manage.py", "shell", "-c", script], cwd=ROOT,
                            env=env, check=True, capture_output=True, text=True).stdout
    rows = [line.split() for line in output.splitlines() if len(line.split()) == 3]
    return [(player, field_key, int(points)) for player, field_key, points in rows
            if points.lstrip("-").isdecimal()]


def run(env: dict[str, str], seconds: float, clients: int) -> dict[str, float]:
    ids = kniffel_game(env, PLAYERS)
    tally = Tally()
    with gunicorn(env) as port:
        deadline = time.monotonic() + seconds
        threads = []
        for number in range(clients):
            tablet = Tablet(port, ids, tally)
            players = ids["players"]
            if number < min(len(players), clients - 2):
                target, args = own_column, (tablet, players[number], deadline)
            else:
                target, args = shared_cell, (tablet, players[0], deadline)
            threads.append(threading.Thread(target=target, args=args))
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=seconds + 120)
        elapsed = time.perf_counter() - started
    stored = stored_cells(env, ids["play"])
    by_cell = Counter((player, field_key) for player, field_key, _ in stored)
    values = {(player, field_key): points for player, field_key, points in stored}
    latencies = sorted(tally.latencies) or [0.0]
    statuses = tally.statuses
    return {
        "saves_per_s": statuses[200] / elapsed,
        "errors_5xx": sum(count for status, count in statuses.items() if status >= 500),
        "conflicts_409": statuses[409],
        "other_answers": sum(count for status, count in statuses.items()
                             if status not in (200, 409) and status < 500),
        "p50_ms": latencies[len(latencies) // 2] * 1000,
        "p99_ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
        "cells_lost": sum(1 for cell, points in tally.confirmed.items()
                          if cell not in values),
        "cells_doubled": sum(count - 1 for count in by_cell.values() if count > 1),
        "cells_not_as_confirmed": sum(1 for cell, (_, points) in tally.confirmed.items()
                                      if cell in values and values[cell] != points),
    }


def postgres_copy(url: str) -> tuple[str, str] | None:
    """A fresh database beside the one ``url`` names, and the URL of the server's maintenance db.

    None when ``url`` is not PostgreSQL.
    """
    parsed = urlparse(url)
    if parsed.scheme not in ("postgres", "postgresql", "pgsql"):
        return None
    name = f"{parsed.path.lstrip('/') or 'tracker'}_concurrency_bench"
    return parsed._replace(path=f"/{name}").geturl(), parsed._replace(path="/postgres").geturl()


def recreate_postgres_database(maintenance_url: str, name: str, *, drop_only: bool = False
                               ) -> None:
    import psycopg

    with psycopg.connect(maintenance_url, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        if not drop_only:
            connection.execute(f'CREATE DATABASE "{name}"')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--quick", action="store_true",
                        help="two seconds: checks that the bench works, figures not to quote")
    options = parser.parse_args()
    if options.quick:
        options.seconds = 2.0
    workdir = tempfile.mkdtemp(prefix="bench-concurrency-")
    databases = {"sqlite": f"sqlite:///{workdir}/bench.sqlite3"}
    copy = postgres_copy(os.environ.get("DATABASE_URL", ""))
    if copy:
        databases["postgres"] = copy[0]
    for label, url in databases.items():
        name = urlparse(url).path.lstrip("/")
        if label == "postgres":
            recreate_postgres_database(copy[1], name)
        try:
            figures = run(production_environment(url), options.seconds, options.clients)
        finally:
            if label == "postgres":
                recreate_postgres_database(copy[1], name, drop_only=True)
        print(f"database: {label}")
        print(f"clients: {options.clients}")
        for key, value in figures.items():
            print(f"{key}: {value:.1f}" if isinstance(value, float) else f"{key}: {value}")


if __name__ == "__main__":
    main()
