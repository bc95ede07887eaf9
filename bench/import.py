"""Two large imports, a BG Stats upload and three large pads at once while eight tablets save
Kniffel cells; then a worker killed half-way through an import.

Run: python bench/import.py [--plays 20000] [--tablets 8] [--quick]

Serves the app as `make run` does (`manage.py serve`: gunicorn by tracker/gunicorn_conf.py and
one worker of background work, production settings, a fresh SQLite file) with a 6-player
Kniffel game. The backup is the demo family's export (seed_demo) grown to ``--plays`` plays on
earlier evenings: Mensch ärgere dich nicht, Entenspiel and the family's own Skyjo every night,
their results entered at once (no history of changes, which keeps 20,000 plays within the
upload's 20 MB), a Kniffel game entered cell by cell every fiftieth. The BG Stats file is as
large: a family's years of Skyjo, Catan and Codenames (teams), four to six players a play.

- Alone: the tablets save for 30 seconds with nothing else going on, the baseline of the run
  (`tablet_p99_ms_alone`).
- The mix: every tablet corrects its player's upper fields over and over, each save with an
  ``Idempotency-Key`` as the app's tablets send it (eight tablets for six players: two pairs
  share a player, and their conflicts, 409, are designed), while the member uploads the
  backup, then the BG Stats file, asks for three pads of 200 sheets, and follows both
  imports' progress until they land. `tablet_p99_ms` and `tablet_5xx` are the tablets' saves
  meanwhile (`tablet_errors` counts every answer other than a save or a conflict: a dropped
  connection too); `entries_lost` the cells whose last confirmed value the server does not
  have, `entries_doubled` the saves applied more often than they were answered;
  `keyed_entry_bytes` the most a key keeps. `upload_seconds_p99` is the uploads' requests;
  `tablet_p99_ms_while_pads` and `_after_pads` split the tablets' saves at the last pad.
- The interruption: the backup uploaded once more, nobody on its progress page; half-way the
  worker's process is killed (SIGKILL) and another started, as `manage.py serve` does.
  `import_resume_seconds` runs from the kill to the next step written; `plays_written_twice`
  compares the plays in the database with the backup's.

Every figure is printed as a `name: value` line. `--quick` imports 1,000 plays, with four
tablets and small pads, and moves the killed runner's last sign of life back by a minute,
past the half minute of silence that hands its job over, in under a minute (CI runs it so
that the bench cannot break unnoticed); its figures are not the ones to quote.
"""

from __future__ import annotations

import argparse
import copy
import http.client
import json
import os
import random
import secrets
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlencode

from concurrency import CSRF, PLAYERS, UPPER, Tablet, Tally
from serving import gunicorn_process, kniffel_game, percentile, production_environment

ROOT = Path(__file__).resolve().parent.parent
#: Each run stops after this, whatever happens: the server is local, the work bounded.
LONGEST_IMPORT_SECONDS = 600
PAD_NAMES = "Ada"  # one name: a pad of `sheets` pages


def demo_export(env: dict[str, str]) -> dict[str, Any]:
    """The demo family's export, loaded into the bench's database beside the tablets' game."""
    python = sys.executable
    subprocess.run([python, "manage.py", "seed_demo"], cwd=ROOT, env=env, check=True,
                   capture_output=True)
    output = subprocess.run([python, "manage.py", "export_household", "Familie Sommer"],
                            cwd=ROOT, env=env, check=True, capture_output=True).stdout
    return json.loads(output)


def grown(document: dict[str, Any], plays: int) -> dict[str, Any]:
    """``document`` with its evening plays repeated on earlier evenings, ``plays`` in all."""
    grown = copy.deepcopy(document)
    for play in grown["plays"]:
        # The import scores every result again and reads only who sat where.
        play["participants"] = [{"player": seat["player"], "seat": seat["seat"]}
                                for seat in play["participants"]]
        if play["game"] != "kniffel":
            play["changes"] = []
    evening = [play for play in grown["plays"] if play["status"] == "finished"
               and play["series"] is None and play["tournament"] is None]
    skyjo = next(game["id"] for game in grown["own_games"] if game["name"] == "Skyjo")
    small = [play for play in evening if play["game"] in (
        "mensch_aergere_dich_nicht", "entenspiel") or play.get("own_game") == skyjo]
    kniffel = next(play for play in evening if play["game"] == "kniffel")
    first = min(date.fromisoformat(night["date"]) for night in grown["nights"])
    everyone = [player["id"] for player in grown["players"]]
    while len(grown["plays"]) < plays:
        day = first - timedelta(days=len(grown["nights"]))
        night = {"id": f"n{len(grown['nights']) + 1}", "date": day.isoformat(), "notes": "",
                 "players": everyone, "created_at": f"{day.isoformat()}T19:00:00+00:00"}
        grown["nights"].append(night)
        tonight = [*small, kniffel] if len(grown["nights"]) % 50 == 0 else small
        for template in tonight[:plays - len(grown["plays"])]:
            grown["plays"].append({**template, "id": f"g{len(grown['plays']) + 1}",
                                   "night": night["id"], "played_on": day.isoformat()})
    return grown


class Member:
    """The member's browser: uploads, follows the progress page, asks for pads."""

    def __init__(self, port: int, session: str):
        self.port = port
        self.headers = {"Cookie": f"sessionid={session}; csrftoken={CSRF}",
                        "X-CSRFToken": CSRF, "Referer": f"http://127.0.0.1:{port}/"}

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        connection.request(method, path, body=body, headers={**self.headers, **(headers or {})})
        response = connection.getresponse()
        response.body = response.read()
        connection.close()
        return response

    def upload(self, data: bytes) -> str:
        """The progress page's address."""
        boundary = secrets.token_hex(12)
        body = b"".join([
            f'--{boundary}\r\nContent-Disposition: form-data; name="document"; '
            f'filename="backup.json"\r\nContent-Type: application/json\r\n\r\n'.encode(),
            data, f"\r\n--{boundary}--\r\n".encode()])
        response = self.request("POST", "/household/import/", body, {
            "Content-Type": f"multipart/form-data; boundary={boundary}"})
        if response.status != 302:
            raise SystemExit(f"The upload was answered {response.status}: "
                             f"{response.body[:300]!r}")
        return response.getheader("Location")

    def follow(self, progress: str, deadline: float) -> None:
        """Ask the progress page, as the page does, until it sends the member on, or shows
        the report of a file from another app."""
        while time.monotonic() < deadline:
            response = self.request("GET", progress, headers={"HX-Request": "true"})
            if response.getheader("HX-Redirect") or b'class="import-done"' in response.body:
                return
            if b'role="alert"' in response.body or response.status != 200:
                raise SystemExit(f"The import failed: {response.body[:500]!r}")
            time.sleep(0.5)
        raise SystemExit("The import did not land in time.")

    def pad(self, sheets: int, statuses: list[int]) -> None:
        query = urlencode({"format": "pdf", "sheets": sheets, "players": PAD_NAMES})
        statuses.append(self.request("GET", f"/print/pad/?{query}").status)


def saving(tablet: Tablet, player: str, stop: threading.Event) -> None:
    """Correct one player's upper fields round and round until ``stop``."""
    turn = 0
    while not stop.is_set():
        face = turn % len(UPPER) + 1
        tablet.save(player, UPPER[face - 1], face * (turn // len(UPPER) % 5 + 1))
        turn += 1


def tablets_at_the_table(port: int, ids: dict[str, Any], count: int) -> list[Tablet]:
    """Tablets that have each saved once already: a worker's first requests load what
    every later one finds loaded, and are not what this bench measures."""
    tablets = [Tablet(port, ids, Tally(), keyed=True) for _ in range(count)]
    for number, tablet in enumerate(tablets):
        player = ids["players"][number % len(ids["players"])]
        tablet.refresh_version(player, UPPER[0])
        tablet.save(player, UPPER[0], 1)
    return tablets


def while_tablets_save(tablets: list[Tablet], players: list[str], work) -> Tally:
    """Run ``work`` while the tablets save cells; what they saw meanwhile."""
    tally, stop = Tally(), threading.Event()
    threads = []
    for number, tablet in enumerate(tablets):
        tablet.tally = tally
        threads.append(threading.Thread(target=saving, args=(
            tablet, players[number % len(players)], stop)))
    for thread in threads:
        thread.start()
    try:
        work()
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=120)
    return tally


def bgstats_file(plays: int) -> dict[str, Any]:
    """A BG Stats export of ``plays`` plays over the years, with points, fewest points and
    teams, as the app's users bring them."""
    rng = random.Random(7)
    players = [{"id": number, "uuid": f"P{number}", "name": name, "isAnonymous": False}
               for number, name in enumerate(["Ada", "Bruno", "Clara", "Dieter", "Emma",
                                              "Fritz"], start=1)]
    games = [{"id": 10, "name": "Skyjo", "highestWins": False, "cooperative": False},
             {"id": 11, "name": "Catan", "highestWins": True, "cooperative": False},
             {"id": 12, "name": "Codenames", "highestWins": True, "noPoints": True,
              "usesTeams": True}]
    first = date(2016, 1, 1)
    items = []
    for number in range(plays):
        day = first + timedelta(days=number // 4)
        game = games[number % 3]
        seated = rng.sample(players, 4 if game["id"] == 12 else rng.randint(4, 6))
        scores = [{"playerRefId": player["id"], "seatOrder": seat, "startPlayer": seat == 1,
                   "score": "" if game["id"] == 12 else str(rng.randint(5, 120)),
                   "winner": False, "team": ("Red", "Blue")[seat % 2] if game["id"] == 12
                   else "", "rank": 0, "newPlayer": False}
                  for seat, player in enumerate(seated, start=1)]
        if game["id"] == 12:
            for row in scores:
                row["winner"] = row["team"] == "Red"
        else:
            best = (min if game["id"] == 10 else max)(scores, key=lambda row: int(row["score"]))
            best["winner"] = True
        items.append({"uuid": f"G{number}", "gameRefId": game["id"],
                      "playDate": f"{day.isoformat()} 19:{number % 4 * 10:02d}:00",
                      "playerScores": scores})
    return {"about": "BG Stats export", "userInfo": {"meRefId": 1}, "players": players,
            "games": games, "plays": items}


class Worker:
    """The worker of background work that `manage.py serve` starts beside gunicorn, reachable
    for a kill; started again after one, as `serve` does."""

    def __init__(self, env: dict[str, str], log: IO[bytes]):
        self.env, self.log = env, log
        self.process = self.start()

    def start(self) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "manage.py", "run_worker", "--verbosity", "0"],
                                cwd=ROOT, env=self.env, start_new_session=True,
                                stderr=self.log)

    def kill_and_replace(self) -> None:
        """The worker's machine dies (SIGKILL: nothing of it runs after); another starts."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.process = self.start()

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def percentile_ms(values: list[float], share: float) -> float:
    return percentile(values, share) * 1000


def errors(tally: Tally) -> int:
    """Answers other than a save (200) or the designed conflict of two tablets that correct
    one cell (409): a locked database, a server error, a dropped connection."""
    return sum(count for status, count in tally.statuses.items() if status not in (200, 409))


#: What a key keeps, counted as tracker.households.middleware counts it.
KEYED_BYTES = """
import json
from tracker.households.models import AppliedEntry
rows = AppliedEntry.objects.values_list("key", "path", "content_type", "headers", "body")
sizes = [len(key) + len(path.encode()) + len(kind) + len(json.dumps(headers).encode())
         + len(bytes(body)) for key, path, kind, headers, body in rows]
print(len(sizes), max(sizes, default=0))
"""


def keyed_entries(env: dict[str, str]) -> tuple[int, int]:
    """How many keys the tablets' saves left, and the most bytes one of them keeps."""
    output = subprocess.run([sys.executable, "manage.py", "shell", "-c", KEYED_BYTES],
                            cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    count, largest = output.stdout.split()[-2:]  # after whatever the shell printed first
    return int(count), int(largest)


def lost_and_doubled(database: Path, play: str, tallies: list[Tally], saves: int
                     ) -> tuple[int, int]:
    """Cells whose last confirmed value the server lacks; saves applied beyond the ``saves``
    answered (every applied save writes one entry into the play's history)."""
    confirmed: dict[tuple[str, str], tuple[int, int]] = {}
    for tally in tallies:
        for cell, latest in tally.confirmed.items():
            confirmed[cell] = max(confirmed.get(cell, latest), latest)
    with sqlite3.connect(database) as db:
        stored = {(str(player), field): points for player, field, points in db.execute(
            "SELECT player_id, field, points FROM tracker_kniffelcell WHERE play_id = ?",
            (play,))}
        applied = db.execute("SELECT count(*) FROM tracker_playchange WHERE play_id = ? AND "
                             "action IN ('cell', 'cell_corrected')", (play,)).fetchone()[0]
    lost = sum(stored.get(cell) != points for cell, (_version, points) in confirmed.items())
    return lost, max(0, applied - saves)


def job_progress(database: Path, job: int) -> tuple[str, int]:
    with sqlite3.connect(database) as db:
        return db.execute("SELECT state, plays_done FROM tracker_importjob WHERE id = ?",
                          (job,)).fetchone()


def interrupted_import(worker: Worker, member: Member, data: bytes, database: Path, *,
                       silence_passed: bool = False) -> tuple[float, int, int]:
    """Upload ``data``, kill the worker half-way, start another; seconds from the kill to
    the next step, the plays written before the kill, and the plays in the end.
    ``silence_passed``: the dead runner's last sign of life is moved back by a minute, past
    the silence after which another takes the job over (``STALE_AFTER``, half a minute), so
    that only the sweep's wait is left to measure; the quick run's way of not waiting."""
    progress = member.upload(data)
    job = int(progress.rstrip("/").rsplit("/", 1)[1])
    half = len(json.loads(data)["plays"]) // 2
    deadline = time.monotonic() + LONGEST_IMPORT_SECONDS
    while job_progress(database, job)[1] < half:
        if time.monotonic() > deadline:
            raise SystemExit("The import did not get half-way in time.")
        time.sleep(0.2)
    killed_at, before = time.monotonic(), job_progress(database, job)[1]
    worker.kill_and_replace()
    if silence_passed:
        with sqlite3.connect(database) as db:
            (beat,) = db.execute("SELECT beat_at FROM tracker_importjob WHERE id = ?",
                                 (job,)).fetchone()
            # Written as Django writes it (str of a datetime): the take-over compares it.
            earlier = datetime.fromisoformat(beat) - timedelta(minutes=1)
            db.execute("UPDATE tracker_importjob SET beat_at = ? WHERE id = ?",
                       (str(earlier), job))
    while job_progress(database, job)[1] == before and time.monotonic() < deadline:
        time.sleep(0.2)
    resumed = time.monotonic() - killed_at
    while job_progress(database, job)[0] not in ("done", "failed"):
        if time.monotonic() > deadline:
            raise SystemExit("The interrupted import did not land in time.")
        time.sleep(0.5)
    with sqlite3.connect(database) as db:
        household = db.execute("SELECT household_id FROM tracker_importjob WHERE id = ?",
                               (job,)).fetchone()[0]
        plays = db.execute("SELECT count(*) FROM tracker_play WHERE household_id = ?",
                           (household,)).fetchone()[0]
    return resumed, before, plays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plays", type=int, default=20_000)
    parser.add_argument("--tablets", type=int, default=8)
    parser.add_argument("--quick", action="store_true",
                        help="a small backup and pads: checks that the bench works")
    options = parser.parse_args()
    plays = min(options.plays, 30_000)
    tablets = min(options.tablets, 16)
    sheets = 200
    if options.quick:
        plays, tablets, sheets = 1_000, 4, 5
    workdir = Path(tempfile.mkdtemp(prefix="bench-import-"))
    database = workdir / "bench.sqlite3"
    env = production_environment(f"sqlite:///{database}")
    ids = kniffel_game(env, PLAYERS)
    backup = json.dumps(grown(demo_export(env), plays), ensure_ascii=False,
                        separators=(",", ":")).encode()
    bgstats = json.dumps(bgstats_file(plays), ensure_ascii=False, indent=1).encode()
    log = (workdir / "served.log").open("ab")  # a 409 for each designed conflict, and more
    with gunicorn_process(env, log=log) as (port, _server):
        worker = Worker(env, log)
        try:
            member = Member(port, ids["session"])
            tablets_ready = tablets_at_the_table(port, ids, tablets)
            warm_up_saves = tablets
            took: list[float] = []
            uploads: list[float] = []
            statuses: list[int] = []
            #: When the pads were asked for, then when each was answered.
            pads_printing: list[float] = []

            def timed_upload(data: bytes) -> str:
                started = time.monotonic()
                progress = member.upload(data)
                uploads.append(time.monotonic() - started)
                return progress

            def print_pad() -> None:
                member.pad(sheets, statuses)
                pads_printing.append(time.monotonic())

            def the_mix() -> None:
                started = time.monotonic()
                first = timed_upload(backup)
                pads_printing.append(time.monotonic())
                pads = [threading.Thread(target=print_pad) for _ in range(3)]
                for pad in pads:
                    pad.start()
                second = timed_upload(bgstats)
                member.follow(first, started + LONGEST_IMPORT_SECONDS)
                member.follow(second, started + LONGEST_IMPORT_SECONDS)
                for pad in pads:
                    pad.join(timeout=300)
                took.append(time.monotonic() - started)

            alone = while_tablets_save(tablets_ready, ids["players"],
                                       lambda: time.sleep(5 if options.quick else 30))
            mix = while_tablets_save(tablets_ready, ids["players"], the_mix)
            resumed, killed_at, landed = interrupted_import(worker, member, backup, database,
                                                            silence_passed=options.quick)
        finally:
            worker.stop()
    log.close()
    lost, doubled = lost_and_doubled(database, ids["play"], [alone, mix], warm_up_saves + sum(
        tally.statuses.get(200, 0) for tally in (alone, mix)))
    entries, largest = keyed_entries(env)
    print(f"plays: {plays}")
    print(f"backup_mb: {len(backup) / 1024 / 1024:.1f}")
    print(f"bgstats_mb: {len(bgstats) / 1024 / 1024:.1f}")
    print(f"tablets: {tablets}")
    print(f"mix_seconds: {took[0]:.1f}")
    print(f"upload_seconds_p99: {percentile_ms(uploads, 0.99) / 1000:.1f}")
    print(f"pads_printed: {statuses.count(200)}")
    print(f"pads_refused_429: {statuses.count(429)}")
    print(f"tablet_p99_ms_alone: {percentile_ms(alone.latencies, 0.99):.0f}")
    print(f"tablet_saves: {len(mix.latencies)}")
    print(f"tablet_p50_ms: {percentile_ms(mix.latencies, 0.50):.0f}")
    print(f"tablet_p99_ms: {percentile_ms(mix.latencies, 0.99):.0f}")
    print(f"tablet_max_ms: {percentile_ms(mix.latencies, 1.0):.0f}")
    pads_from, pads_until = pads_printing[0], max(pads_printing)
    while_pads = [latency for latency, ended in zip(mix.latencies, mix.ended, strict=True)
                  if pads_from <= ended <= pads_until]
    after_pads = [latency for latency, ended in zip(mix.latencies, mix.ended, strict=True)
                  if ended > pads_until]
    print(f"pads_seconds: {pads_until - pads_from:.1f}")
    print(f"tablet_p99_ms_while_pads: {percentile_ms(while_pads, 0.99):.0f}")
    print(f"tablet_p99_ms_after_pads: {percentile_ms(after_pads, 0.99):.0f}")
    print(f"tablet_5xx: {sum(n for status, n in mix.statuses.items() if status >= 500)}")
    print(f"tablet_errors: {errors(mix)}")
    print(f"entries_lost: {lost}")
    print(f"entries_doubled: {doubled}")
    print(f"keyed_entries: {entries}")
    print(f"keyed_entry_bytes: {largest}")
    print(f"import_resume_seconds: {resumed:.1f}")
    print(f"plays_before_the_kill: {killed_at}")
    print(f"plays_written_twice: {landed - plays}")


if __name__ == "__main__":
    main()
