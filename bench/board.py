"""Scoreboards on the TVs: how fast an entry shows, and what idle boards cost the server.

Run: python bench/board.py

Starts gunicorn on 127.0.0.1 as `make run` does (three synchronous workers, production
settings, a fresh SQLite file) and loads a 6-player Kniffel game with a share link. Ten
boards then ask for news as the browser does: one request after another, each naming the
state the board shows in If-None-Match, with the board's own pause in between.

First the game rests for a few seconds: requests per second of the ten idle boards, and the
CPU the server's processes used meanwhile (percent of one core, from /proc). Then a tablet
saves an entry every second or so; for each entry and each board, the time from sending
the entry to the board receiving its new content. Prints `name: value` lines.
"""

from __future__ import annotations

import http.client
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

from pages import setup
from serving import gunicorn_process

ROOT = Path(__file__).resolve().parent.parent
BOARDS = 10
IDLE_SECONDS = 10.0
ENTRIES = 20
WORKERS = 3


def share_link(env: dict[str, str], play_id: str) -> str:
    script = f"""
from tracker.models import Play, ShareLink
play = Play.objects.get(pk={play_id})
print(ShareLink.objects.create(household=play.household, play=play).token)
"""
    return subprocess.run([sys.executable, "manage.py", "shell", "-c", script], cwd=ROOT,
                          env=env, check=True, capture_output=True, text=True
                          ).stdout.split()[-1]


def cpu_seconds(master: int) -> float:
    """User and system CPU time of the gunicorn master and its workers so far."""
    ticks = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # a process that ended meanwhile
        pid, parent = int(entry.name), int(fields[1])
        if pid == master or parent == master:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


class Board(threading.Thread):
    """One open scoreboard: asks, waits the board's pause, asks again, until told to stop."""

    def __init__(self, port: int, path: str, etag: str, pause: float, sent: list[float],
                 stop: threading.Event):
        super().__init__(daemon=True)
        self.port, self.path, self.etag, self.pause = port, path, etag, pause
        self.sent, self.stop = sent, stop
        self.requests, self.seen, self.latencies = 0, 0, []

    def run(self) -> None:
        while not self.stop.is_set():
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            connection.request("GET", self.path, headers={
                "HX-Request": "true", "If-None-Match": self.etag})
            response = connection.getresponse()
            response.read()
            connection.close()
            received = time.perf_counter()
            self.requests += 1
            if response.status == 200:
                self.etag = response.headers["ETag"]
                # Entries come more than a second apart: one new content, one entry.
                while self.seen < len(self.sent):
                    self.latencies.append(received - self.sent[self.seen])
                    self.seen += 1
            elif response.status != 304:
                raise RuntimeError(f"board answered {response.status}")
            self.stop.wait(self.pause)


def main() -> None:
    workdir = tempfile.mkdtemp(prefix="bench-board-")
    env = {**os.environ, "DJANGO_DEBUG": "false", "DJANGO_HTTPS": "false",
           "DJANGO_SECRET_KEY": "bench-secret-key-bench-secret-key-bench-secret-key",
           "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
           "DATABASE_URL": f"sqlite:///{workdir}/bench.sqlite3"}
    ids = setup(env)
    token = share_link(env, ids["play"])
    board_path = f"/board/{token}/"
    with gunicorn_process(env, workers=WORKERS) as (port, server):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", board_path)
        response = connection.getresponse()
        page = response.read().decode()
        etag = response.headers["ETag"]
        pause = int(re.search(r'data-every="(\d+)"', page).group(1)) / 1000

        sent: list[float] = []
        stop = threading.Event()
        boards = [Board(port, board_path, etag, pause, sent, stop) for _ in range(BOARDS)]
        for board in boards:
            board.start()
            time.sleep(pause / BOARDS)  # TVs switched on one after another
        time.sleep(1.0)
        requests_before = sum(board.requests for board in boards)
        cpu_before, started = cpu_seconds(server.pid), time.perf_counter()
        time.sleep(IDLE_SECONDS)
        idle_time = time.perf_counter() - started
        idle_cpu = cpu_seconds(server.pid) - cpu_before
        idle_requests = sum(board.requests for board in boards) - requests_before

        csrf = "benchcsrfsecretbenchcsrfsecretbe"  # 32 letters, as Django expects
        sheet = f"/plays/{ids['play']}/"
        cell = f"/plays/{ids['play']}/cells/{ids['player']}/ones/"
        tablet = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for count in range(ENTRIES):
            time.sleep(random.uniform(1.0, 1.6))
            body = urlencode({"points": str(count % 5 + 1), "save": "1",
                              "version": "" if count == 0 else str(count)})
            sent.append(time.perf_counter())
            tablet.request("POST", cell, body=body, headers={
                "Cookie": f"sessionid={ids['session']}; csrftoken={csrf}",
                "X-CSRFToken": csrf, "HX-Request": "true",
                "Content-Type": "application/x-www-form-urlencoded",
                "Referer": f"http://127.0.0.1:{port}{sheet}"})
            saved = tablet.getresponse()
            saved.read()
            if saved.status != 200:
                raise RuntimeError(f"the entry was not saved: {saved.status}")
        time.sleep(2.0)
        stop.set()
        for board in boards:
            board.join()
    latencies = sorted(ms * 1000 for board in boards for ms in board.latencies)
    if len(latencies) != BOARDS * ENTRIES:
        raise RuntimeError(f"{len(latencies)} of {BOARDS * ENTRIES} entries reached the boards")
    print(f"boards: {BOARDS}")
    print(f"board_pause_ms: {pause * 1000:.0f}")
    print(f"entries: {ENTRIES}")
    print(f"board_latency_p50_ms: {statistics.median(latencies):.0f}")
    print(f"board_latency_p95_ms: {statistics.quantiles(latencies, n=20)[-1]:.0f}")
    print(f"board_latency_max_ms: {latencies[-1]:.0f}")
    print(f"idle_requests_per_s: {idle_requests / idle_time:.1f}")
    print(f"idle_server_cpu_percent: {idle_cpu / idle_time * 100:.1f}")


if __name__ == "__main__":
    main()
