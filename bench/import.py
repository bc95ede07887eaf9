"""A large backup imported, and six large pads printed, while eight tablets save Kniffel cells.

Run: python bench/import.py [--plays 20000] [--tablets 8] [--quick]

Starts gunicorn on 127.0.0.1 as `make run` does (tracker/gunicorn_conf.py, production settings, a
fresh SQLite file) with a 6-player Kniffel game. The backup is the demo family's export
(seed_demo) grown to ``--plays`` plays on earlier evenings: Mensch ärgere dich nicht,
Entenspiel and the family's own Skyjo every night, a Kniffel game entered cell by cell
every fiftieth. Written without indentation and without the points and places that the
import computes again anyway, 20,000 plays take 17.6 MB, under the upload limit.

- Import: the backup is uploaded as a member does, and its progress page asked every half
  second until it lands; meanwhile every tablet corrects its player's upper fields over and
  over (eight tablets for six players: two pairs share a player, and their conflicts, 409,
  are designed). `import_seconds` runs from the upload to the landing;
  `tablet_p99_ms_during_import` and `tablet_errors_during_import` (answers other than a
  save or a conflict: a locked database shows here) are the tablets' saves meanwhile.
- Pads: the same member asks for six pads of 480 pages at once (each its own connection)
  while the tablets save; `tablet_p99_ms_during_pads` is their saves until the last pad is
  answered, `pads_printed` and `pads_refused_429` what the six got.

Every figure is printed as a `name: value` line. `--quick` imports 1,000 plays, with four
tablets and six small pads, in well under a minute (CI runs it so that the bench cannot
break unnoticed); its figures are not the ones to quote.
"""

from __future__ import annotations

import argparse
import copy
import http.client
import json
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from concurrency import CSRF, PLAYERS, UPPER, Tablet, Tally, bench_environment
from serving import gunicorn, kniffel_game

ROOT = Path(__file__).resolve().parent.parent
#: Each run stops after this, whatever happens: the server is local, the work bounded.
LONGEST_IMPORT_SECONDS = 600
PAD_NAMES = ",".join(f"Name {number}" for number in range(1, 13))


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
    evening = [play for play in grown["plays"] if play["status"] == "finished"
               and play["series"] is None and play["tournament"] is None]
    small = [play for play in evening if play["game"] in (
        "mensch_aergere_dich_nicht", "entenspiel", "generic")]
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
        """Ask the progress page, as the page does, until it sends the member on."""
        while time.monotonic() < deadline:
            response = self.request("GET", progress, headers={"HX-Request": "true"})
            if response.getheader("HX-Redirect"):
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


def p99_ms(tally: Tally) -> float:
    latencies = sorted(tally.latencies) or [0.0]
    return latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plays", type=int, default=20_000)
    parser.add_argument("--tablets", type=int, default=8)
    parser.add_argument("--quick", action="store_true",
                        help="a small backup and pads: checks that the bench works")
    options = parser.parse_args()
    plays = min(options.plays, 30_000)
    tablets = min(options.tablets, 16)
    sheets = 40  # 12 names x 40 sheets: 480 pages, about the most the pad form allows
    if options.quick:
        plays, tablets, sheets = 1_000, 4, 2
    workdir = tempfile.mkdtemp(prefix="bench-import-")
    env = bench_environment(f"sqlite:///{workdir}/bench.sqlite3")
    ids = kniffel_game(env, PLAYERS)
    data = json.dumps(grown(demo_export(env), plays), ensure_ascii=False,
                      separators=(",", ":")).encode()
    with gunicorn(env, workers=3) as port:
        member = Member(port, ids["session"])
        tablets_ready = tablets_at_the_table(port, ids, tablets)
        took: list[float] = []

        def import_backup() -> None:
            started = time.monotonic()
            member.follow(member.upload(data), started + LONGEST_IMPORT_SECONDS)
            took.append(time.monotonic() - started)

        during_import = while_tablets_save(tablets_ready, ids["players"], import_backup)
        statuses: list[int] = []

        def six_pads() -> None:
            askers = [threading.Thread(target=member.pad, args=(sheets, statuses))
                      for _ in range(6)]
            for asker in askers:
                asker.start()
            for asker in askers:
                asker.join(timeout=300)

        during_pads = while_tablets_save(tablets_ready, ids["players"], six_pads)
    print(f"plays: {plays}")
    print(f"backup_mb: {len(data) / 1024 / 1024:.1f}")
    print(f"tablets: {tablets}")
    print(f"import_seconds: {took[0]:.1f}")
    print(f"tablet_saves_during_import: {len(during_import.latencies)}")
    print(f"tablet_p99_ms_during_import: {p99_ms(during_import):.0f}")
    print(f"tablet_errors_during_import: {errors(during_import)}")
    print(f"pads_printed: {statuses.count(200)}")
    print(f"pads_refused_429: {statuses.count(429)}")
    print(f"tablet_p99_ms_during_pads: {p99_ms(during_pads):.0f}")
    print(f"tablet_errors_during_pads: {errors(during_pads)}")
    entries, largest = keyed_entries(env)
    print(f"keyed_entries: {entries}")
    print(f"keyed_entry_bytes: {largest}")


if __name__ == "__main__":
    main()
