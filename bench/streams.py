"""Many families at the table at once: the open streams one server holds, and what an entry
then takes to reach a family's devices.

Run: python bench/streams.py [--quick]

Starts gunicorn on 127.0.0.1 as `make run` does (one uvicorn process, production settings,
a fresh SQLite file) with 500 households, each a member signed in and a Kniffel game under
way, then opens 4 streams of changes per game (the sheet on four devices) from one asyncio
client on this machine: 2,000 in all.

- `streams_open`: the streams that said they were ready; `streams_rss_mb` the memory of the
  server's processes with them open, beside `server_rss_mb_before` (none open).
- `streams_idle_cpu_percent`: the server's CPU (percent of one core) while they are open and
  nothing happens.
- Entries: a cell is saved in a family's game, one family after the other, through the
  sheet's own endpoint; `entry_to_devices_ms_p50/p95` is the time from sending the cell to
  each of the family's four streams having told the change, with the sheet that shows it
  (the whole event received). `streams_told_wrongly` counts
  streams of other families told of it (0: each family hears only its own).

`--quick` checks the same with 50 families, briefly (CI runs it so that the bench cannot
break unnoticed); its figures are not the ones to quote.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from serving import cpu_seconds, fresh_sqlite_environment, gunicorn_process, percentile, rss_mb

ROOT = Path(__file__).resolve().parent.parent
DEVICES_PER_FAMILY = 4
FIELDS = ["ones", "twos", "threes", "fours", "fives", "sixes", "chance"]


@dataclass(frozen=True)
class Size:
    families: int
    entries: int
    idle_seconds: float


FULL = Size(families=500, entries=100, idle_seconds=10.0)
QUICK = Size(families=50, entries=20, idle_seconds=2.0)

#: Makes the households, their members' sessions and their games; prints one line per
#: family: session key, play id, the play's players.
FAMILIES = """
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from tracker.evenings.models import GameNight
from tracker.households.auth import PASSWORD_BACKEND
from tracker.households.models import Household, Player
from tracker.table.recording import start_play
User = get_user_model()
for number in range({count}):
    user = User.objects.create_user(f"family{{number}}", password=None)
    household = Household.objects.create(name=f"Family {{number}}")
    household.members.add(user)
    players = [Player.objects.create(household=household, name=name)
               for name in ("Mama", "Papa")]
    play = start_play(household=household, game="kniffel", players=players,
                      game_night=GameNight.objects.create(household=household))
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = PASSWORD_BACKEND
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    print("family", session.session_key, play.pk, *[player.pk for player in players])
"""


@dataclass
class Family:
    session: str
    play: int
    players: list[int]
    csrf: str = ""
    csrf_cookie: str = ""
    state: str = ""
    streams: list[Stream] = field(default_factory=list)


@dataclass
class Stream:
    """One device's open stream: when each change was told."""

    family: Family
    told: list[float] = field(default_factory=list)
    ready: asyncio.Event = field(default_factory=asyncio.Event)


def make_families(env: dict[str, str], count: int) -> list[Family]:
    python = sys.executable
    for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True)
    output = subprocess.run([python, "manage.py", "shell", "-c", FAMILIES.format(count=count)],
                            cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout
    families = []
    for line in output.splitlines():
        parts = line.split()
        if parts and parts[0] == "family":
            families.append(Family(parts[1], int(parts[2]), [int(p) for p in parts[3:]]))
    return families


async def request(port: int, method: str, path: str, headers: dict[str, str],
                  body: str = "") -> tuple[int, dict[str, str], str]:
    """One plain HTTP/1.1 request: status, headers (the last of each name), body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close",
             *(f"{name}: {value}" for name, value in headers.items())]
    if body:
        lines += ["Content-Type: application/x-www-form-urlencoded",
                  f"Content-Length: {len(body.encode())}"]
    writer.write(("\r\n".join(lines) + "\r\n\r\n" + body).encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, content = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    found = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        found.setdefault(name.strip().lower(), []).append(value.strip())
    return int(status_line.split()[1]), found, content.decode(errors="replace")


async def sign_in(port: int, family: Family) -> None:
    """The family's CSRF token, as its sheet's page gives it, and the page's state."""
    status, headers, page = await request(port, "GET", f"/plays/{family.play}/",
                                          {"Cookie": f"sessionid={family.session}"})
    assert status == 200, status
    family.csrf = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    cookie = next(value for value in headers.get("set-cookie", [])
                  if value.startswith("csrftoken="))
    family.csrf_cookie = cookie.split(";", 1)[0]
    family.state = re.search(r'data-state="([^"]*)"', page).group(1)


async def follow(port: int, stream: Stream) -> None:
    """Open the stream and note when each change is told, for as long as it is open."""
    family = stream.family
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**16)
    writer.write((f"GET /live/play/{family.play}/?state={family.state} HTTP/1.1\r\n"
                  f"Host: 127.0.0.1\r\nCookie: sessionid={family.session}\r\n"
                  "Accept: text/event-stream\r\n\r\n").encode())
    await writer.drain()
    telling = False  # within an event that tells a change, which ends with an empty line
    try:
        while line := await reader.readline():
            if line.startswith(b"event: ready"):
                stream.ready.set()
            elif line.startswith((b"event: changed", b"event: content")):
                telling = True
            elif telling and line.strip() == b"":
                telling = False
                stream.told.append(time.perf_counter())
    finally:
        writer.close()


async def enter(port: int, family: Family, field_key: str) -> float:
    """Save a cell of the family's game as its sheet does; the time it was sent."""
    points = 20 if field_key == "chance" else FIELDS.index(field_key) + 1  # one die of the face
    body = f"points={points}&save=1&version="
    sent = time.perf_counter()
    status, _headers, _page = await request(
        port, "POST", f"/plays/{family.play}/cells/{family.players[0]}/{field_key}/",
        {"Cookie": f"sessionid={family.session}; {family.csrf_cookie}",
         "X-CSRFToken": family.csrf, "HX-Request": "true",
         "Referer": f"http://127.0.0.1/plays/{family.play}/"}, body)
    assert status == 200, f"entry refused: {status}"
    return sent


async def run(port: int, server_pid: int, families: list[Family], size: Size) -> None:
    for start in range(0, len(families), 50):
        await asyncio.gather(*(sign_in(port, family) for family in families[start:start + 50]))
    rss_before = rss_mb(server_pid)
    streams = []
    opened = time.perf_counter()
    for family in families:
        family.streams = [Stream(family) for _ in range(DEVICES_PER_FAMILY)]
        streams += family.streams
    tasks = []
    for start in range(0, len(streams), 100):
        batch = streams[start:start + 100]
        tasks += [asyncio.create_task(follow(port, stream)) for stream in batch]
        await asyncio.wait_for(asyncio.gather(*(stream.ready.wait() for stream in batch)), 60)
    opening_seconds = time.perf_counter() - opened
    await asyncio.sleep(1.0)
    rss_after = rss_mb(server_pid)
    cpu_before, started = cpu_seconds(server_pid), time.perf_counter()
    await asyncio.sleep(size.idle_seconds)
    idle = (cpu_seconds(server_pid) - cpu_before) / (time.perf_counter() - started)

    latencies: list[float] = []
    wrongly = 0
    chosen = random.Random(48).sample(families, min(size.entries, len(families)))
    for number, family in enumerate(chosen):
        others = [stream for stream in streams if stream.family is not family]
        told_before = sum(len(stream.told) for stream in others)
        sent = await enter(port, family, FIELDS[number % len(FIELDS)])
        deadline = time.perf_counter() + 5
        while (time.perf_counter() < deadline
               and not all(stream.told for stream in family.streams)):
            await asyncio.sleep(0.002)
        latencies += [(stream.told[-1] - sent) * 1000 for stream in family.streams
                      if stream.told]
        missing = sum(1 for stream in family.streams if not stream.told)
        if missing:
            raise RuntimeError(f"{missing} devices of family {family.play} were never told")
        await asyncio.sleep(0.05)
        wrongly += sum(len(stream.told) for stream in others) - told_before
        for stream in family.streams:
            stream.told.clear()
    for task in tasks:
        task.cancel()
    print(f"families: {len(families)}")
    print(f"streams_open: {sum(stream.ready.is_set() for stream in streams)}")
    print(f"streams_opening_seconds: {opening_seconds:.1f}")
    print(f"server_rss_mb_before: {rss_before:.0f}")
    print(f"streams_rss_mb: {rss_after:.0f}")
    print(f"streams_idle_cpu_percent: {idle * 100:.1f}")
    print(f"entries: {len(chosen)}")
    print(f"entry_to_devices_ms_p50: {statistics.median(latencies):.0f}")
    print(f"entry_to_devices_ms_p95: {percentile(latencies, 0.95):.0f}")
    print(f"streams_told_wrongly: {wrongly}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="50 families, briefly")
    size = QUICK if parser.parse_args().quick else FULL
    env = fresh_sqlite_environment("streams")
    families = make_families(env, size.families)
    with gunicorn_process(env) as (port, server):
        asyncio.run(run(port, server.pid, families, size))


if __name__ == "__main__":
    main()
