"""Throughput of the tablet pages as `make run` serves them, against a trivial view in the
same run.

Run: python bench/pages.py [--quick]

Starts gunicorn with uvicorn (tracker/gunicorn_conf.py) on 127.0.0.1 with production
settings on a fresh SQLite file,
loads a 6-player Kniffel game and a 4-player own game written down by categories
(Wingspan's six, half of them entered, birds as short sums), then asks in turns for
the trivial /health/ view, the 6-player sheet page, a Kniffel cell save (an htmx
request answered with the changed parts of the sheet) and the category sheet's page,
a few seconds of each in all. Prints requests per second, each page's ratio to the
trivial view, the size of the cell-save fragment, and the SQL queries of the sheet
pages and of a cell save, each on its own line as `name: value`.
"""

from __future__ import annotations

import http.client
import itertools
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode

from serving import fresh_sqlite_environment, gunicorn, kniffel_game

ROOT = Path(__file__).resolve().parent.parent
#: `--quick`: a short run that checks the bench still works (CI); not figures to quote.
QUICK = "--quick" in sys.argv[1:]
SECONDS = 0.6 if QUICK else 3.0  # per kind of request, over all rounds
ROUNDS = 2 if QUICK else 6
PLAYERS = ["Anna", "Ben", "Carla", "David", "Emil", "Frieda"]

#: Makes the next request of a kind: method, path, body and headers.
Request = Callable[[], tuple[str, str, str | None, dict[str, str]]]


def query_counts(env: dict[str, str], ids: dict[str, str]) -> dict[str, int]:
    """SQL queries of the sheet page (first view of a version, then any later view) and of a
    cell save, counted in a Django shell against the same database; the transaction's BEGIN
    and COMMIT are not counted."""
    script = f"""
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
client = Client()
client.force_login(get_user_model().objects.get(username="bench"))
sheet = "/plays/{ids['play']}/"
cell = "/plays/{ids['play']}/cells/{ids['player']}/threes/"
counts = []
for method, path, data in (("get", sheet, None), ("get", sheet, None),
                           ("post", cell, {{"points": "9", "save": "1", "version": ""}})):
    with CaptureQueriesContext(connection) as queries:
        response = getattr(client, method)(path, data, HTTP_HX_REQUEST="true"
                                           if method == "post" else None)
    assert response.status_code == 200, response.status_code
    counts.append(sum(1 for query in queries if not query["sql"].startswith(
        ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"))))
print(*counts)
"""
    output = subprocess.run([sys.executable, "manage.py", "shell", "-c", script], cwd=ROOT,
                            env={**env, "DJANGO_ALLOWED_HOSTS": "testserver"}, check=True,
                            capture_output=True, text=True).stdout.split()
    first, later, save = map(int, output[-3:])
    return {"sheet_queries_first_view": first, "sheet_queries": later,
            "cell_save_queries": save}


def category_game(env: dict[str, str], player_ids: list[str]) -> str:
    """A Wingspan-like play of the first four players, written down by categories with the
    first three categories entered (the birds as short sums); the play's id."""
    script = f"""
from tracker.households.models import Player
from tracker.table.models import OwnGame, Play
from tracker.table.recording import start_play
from tracker.table.rounds import set_round_points
players = [Player.objects.get(pk=pk) for pk in {player_ids[:4]!r}]
night = Play.objects.get(game="kniffel").game_night
categories = ["Birds", "Bonus cards", "End-of-round goals", "Eggs", "Food on cards", "Tucked"]
game = OwnGame.objects.create(household=night.household, name="Wingspan", sheet="categories",
                              categories=[{{"name": name, "minus": False}} for name in categories],
                              tiebreak="Food on cards")
play = start_play(household=night.household, game="generic", own_game=game, players=players,
                  game_night=night)
for number in (1, 2, 3):
    for seat, player in enumerate(players):
        typed = "9+7+5+4+6" if number == 1 else ""
        play.refresh_from_db()
        set_round_points(play, number, player.key, 31 if typed else seat + number,
                         expected_version=play.version, typed_sum=typed)
print(play.pk)
"""
    return subprocess.run([sys.executable, "manage.py", "shell", "-c", script], cwd=ROOT,
                          env=env, check=True, capture_output=True, text=True).stdout.split()[-1]


def category_sheet_queries(env: dict[str, str], play: str) -> int:
    """SQL queries of a later view of the category sheet's page."""
    script = f"""
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
client = Client()
client.force_login(get_user_model().objects.get(username="bench"))
client.get("/plays/{play}/")
with CaptureQueriesContext(connection) as queries:
    assert client.get("/plays/{play}/").status_code == 200
print(len(queries))
"""
    return int(subprocess.run([sys.executable, "manage.py", "shell", "-c", script], cwd=ROOT,
                              env={**env, "DJANGO_ALLOWED_HOSTS": "testserver"}, check=True,
                              capture_output=True, text=True).stdout.split()[-1])


def run(port: int, make_request: Request, seconds: float) -> tuple[int, float, int]:
    """Requests made one after another for ``seconds``: their number, the time they took,
    and the last body's size."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    count, size, started = 0, 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        method, path, body, headers = make_request()
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        payload = response.read()
        if response.status != 200:
            raise RuntimeError(f"{method} {path}: {response.status} {payload[:300]!r}")
        count, size = count + 1, len(payload)
    connection.close()
    return count, time.perf_counter() - started, size


def rates(port: int, kinds: dict[str, Request]) -> dict[str, tuple[float, int]]:
    """Requests per second of each kind, and its last body's size.

    Each kind first runs half a second unmeasured, so that every worker has compiled its
    templates and opened its database connection. The kinds then take turns, half a
    second each, for ROUNDS rounds: a machine that slows down or speeds up meanwhile (a
    shared virtual machine does) weighs on every kind alike, not on the one measured then.
    """
    for make_request in kinds.values():
        run(port, make_request, 0.5)
    totals = {name: [0, 0.0, 0] for name in kinds}
    for _ in range(ROUNDS):
        for name, make_request in kinds.items():
            count, seconds, size = run(port, make_request, SECONDS / ROUNDS)
            totals[name][0] += count
            totals[name][1] += seconds
            totals[name][2] = size
    return {name: (count / seconds, size) for name, (count, seconds, size) in totals.items()}


def main() -> None:
    env = fresh_sqlite_environment("pages")
    game = kniffel_game(env, PLAYERS, {"twos": 6, "sixes": 24, "full_house": 25, "chance": 21})
    ids = {"session": game["session"], "play": game["play"], "player": game["players"][0],
           "categories": category_game(env, game["players"])}
    with gunicorn(env) as port:
        csrf = "benchcsrfsecretbenchcsrfsecretbe"  # 32 letters, as Django expects
        cookies = f"sessionid={ids['session']}; csrftoken={csrf}"
        sheet = f"/plays/{ids['play']}/"
        cell = f"/plays/{ids['play']}/cells/{ids['player']}/ones/"

        def trivial():
            return "GET", "/health/", None, {}

        def sheet_page():
            return "GET", sheet, None, {"Cookie": cookies}

        def category_sheet_page():
            return "GET", f"/plays/{ids['categories']}/", None, {"Cookie": cookies}

        saves = itertools.count()

        def cell_save():
            count = next(saves)  # the cell's version before this save: none, then 1, 2, …
            version = "" if count == 0 else str(count)
            body = urlencode({"points": str(count % 5 + 1), "save": "1", "version": version})
            return "POST", cell, body, {
                "Cookie": cookies, "X-CSRFToken": csrf, "HX-Request": "true",
                "Content-Type": "application/x-www-form-urlencoded",
                "Referer": f"http://127.0.0.1:{port}{sheet}"}

        measured = rates(port, {"trivial": trivial, "sheet": sheet_page, "save": cell_save,
                                "categories": category_sheet_page})
        ((trivial_rate, _), (sheet_rate, sheet_size), (save_rate, save_size),
         (category_rate, category_size)) = measured.values()
    print(f"trivial_view_per_s: {trivial_rate:.0f}")
    print(f"kniffel_6_player_sheet_per_s: {sheet_rate:.0f}")
    print(f"kniffel_cell_save_per_s: {save_rate:.0f}")
    print(f"sheet_page_kb: {sheet_size / 1024:.1f}")
    print(f"sheet_vs_trivial: {sheet_rate / trivial_rate:.2f}")
    print(f"cell_save_vs_trivial: {save_rate / trivial_rate:.2f}")
    print(f"cell_save_fragment_kb: {save_size / 1024:.1f}")
    print(f"category_sheet_per_s: {category_rate:.0f}")
    print(f"category_sheet_kb: {category_size / 1024:.1f}")
    print(f"category_sheet_vs_trivial: {category_rate / trivial_rate:.2f}")
    print(f"category_sheet_queries: {category_sheet_queries(env, ids['categories'])}")
    for name, count in query_counts(env, ids).items():
        print(f"{name}: {count}")


if __name__ == "__main__":
    main()
