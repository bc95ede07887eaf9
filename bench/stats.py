"""Server time and query count of the history and statistics pages, at two sizes of history.

Run: python bench/stats.py [--quick]

Builds a household on a fresh SQLite file with bulk inserts: 12 players and, first,
300 nights with 1,500 plays, then ten years of evenings in all (3,000 nights, 15,000
plays), every game mixed in, a third of the plays the family's own games (four of them,
one with the fewest points winning), some plays abandoned, some series races and
tournament tables. At each size it serves the pages through gunicorn on 127.0.0.1 and prints, for
the history page, a player page, a game page and the year in review:

- `<page>_uncached_ms`: the first request to the page in a fresh worker, templates not
  yet compiled and nothing cached. This is the figure that must stay under 150 ms.
- `<page>_ms`: the median of the next requests. The pages keep no cache of their
  numbers, so these too are computed from the database each time.
- `<page>_queries`: the query count (counted in-process through Django's test client).

together with the trivial /health/ view's time from the same run, each on its own line
as `name: value`.
"""

from __future__ import annotations

import http.client
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from serving import gunicorn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PLAYERS = ["Anna", "Ben", "Carla", "David", "Emil", "Frieda", "Greta", "Hans", "Ida",
           "Jonas", "Karla", "Luis"]
#: `--quick`: a short run that checks the bench still works (CI); not figures to quote.
QUICK = "--quick" in sys.argv[1:]
NIGHTS, PLAYS_PER_NIGHT, FIRST_NIGHTS = (60, 5, 20) if QUICK else (3000, 5, 300)
REQUESTS = 3 if QUICK else 15
#: The club whose household page must load in under a second.
CLUB_PLAYERS = 2000
SERIES_EVERY, TOURNAMENT_EVERY = 40, 250


def environment(workdir: str) -> dict[str, str]:
    return {**os.environ, "DJANGO_DEBUG": "false", "DJANGO_HTTPS": "false",
            "DJANGO_SECRET_KEY": "bench-secret-key-bench-secret-key-bench-secret-key",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,testserver",
            "DJANGO_SETTINGS_MODULE": "tracker.settings",
            "DATABASE_URL": f"sqlite:///{workdir}/bench.sqlite3"}


def outcome(game: str, seated: list[Any], rng: random.Random, lower: bool
            ) -> list[dict[str, Any]]:
    """Points, place and details per seat, shaped like what the engine stores for ``game``."""
    from games.base import places_by_points

    if game in ("kniffel", "weltraum_kniffel"):
        points = {i: rng.randint(120, 320) for i in range(len(seated))}
        details = {i: {"total": points[i], "bonus": rng.choice((0, 35)),
                       "extra_kniffels": rng.choice((0, 0, 0, 1))} for i in points}
    elif game == "maus_im_nacken":
        points = {i: rng.randint(5, 45) for i in range(len(seated))}
        details = {i: {"home": (home := rng.randint(0, 3)), "caught": rng.randint(0, 4 - home)}
                   for i in points}
    elif game in ("mau_mau",):
        points = {i: rng.randint(0, 80) for i in range(len(seated))}
        details = {i: {} for i in points}
    else:
        points = {i: rng.randint(0, 100) for i in range(len(seated))}
        details = {i: {"score": points[i]} for i in points}
    places = places_by_points(points, lower_is_better=lower)
    return [{"points": points[i], "place": places[i], "details": details[i]}
            for i in range(len(seated))]


def build(household: Any, players: list[Any], first: int, last: int, rng: random.Random,
          start: date) -> None:
    """Nights ``first`` to ``last - 1`` with their plays, participants and Kniffel cells."""
    import games
    from tracker.evenings.models import GameNight, Series, Tournament
    from tracker.table import tallies
    from tracker.table.models import KniffelCell, Participant, Play, PlayStatus, game_key_of

    keys = [key for key in games.GAMES if key != "generic"]
    own_games = list(household.own_games.all())
    nights = GameNight.objects.bulk_create(
        GameNight(household=household, date=start + timedelta(days=int(index * 1.2)))
        for index in range(first, last))
    present = GameNight.players.through
    present.objects.bulk_create(present(gamenight=night, player=player) for night in nights
                                for player in rng.sample(players, 5))
    plays, seats = [], []
    for number, night in zip(range(first, last), nights, strict=True):
        series = tournament = None
        if number % SERIES_EVERY == 0:
            series = Series.objects.create(household=household, name=f"Serie {number}",
                                           races_planned=3, status="finished")
        if number % TOURNAMENT_EVERY == 0:
            tournament = Tournament.objects.create(household=household, name=f"Turnier {number}",
                                                   game="generic", own_game=own_games[0],
                                                   status="finished")
        evening = datetime(night.date.year, night.date.month, night.date.day, 18, tzinfo=UTC)
        for started in (series, tournament):
            if started is not None:  # created on the evening it was played, not today
                type(started).objects.filter(pk=started.pk).update(created_at=evening)
        for index in range(PLAYS_PER_NIGHT):
            own_game = (own_games[0] if tournament and index >= 3 else None) if (
                series and index < 3 or tournament and index >= 3 or rng.random() >= 1 / 3
            ) else rng.choice(own_games)
            game = "maus_im_nacken" if series and index < 3 else (
                "generic" if own_game else rng.choice(keys))
            seated = rng.sample(players, rng.randint(2, 5))
            status = PlayStatus.ABANDONED if rng.random() < 0.03 else PlayStatus.FINISHED
            play = Play(household=household, game_night=night, game=game, status=status,
                        own_game=own_game, game_key=game_key_of(game, getattr(own_game, "pk",
                                                                               None)),
                        house_rules=own_game.house_rules if own_game else {},
                        start_seat=rng.randrange(len(seated)),
                        series=series if series and index < 3 else None,
                        race_number=index + 1 if series and index < 3 else None,
                        tournament=tournament if tournament and index >= 3 else None,
                        round_number=index - 2 if tournament and index >= 3 else None,
                        table_number=1 if tournament and index >= 3 else None,
                        scored_by_points=games.get(game).scored_by_points, played_on=night.date,
                        lower_is_better=game == "mau_mau" or own_game is not None
                        and own_game.scoring == "fewest_points")
            plays.append(play)
            seats.append((play, seated, outcome(game, seated, rng, play.lower_is_better)))
    Play.objects.bulk_create(plays, batch_size=2000)
    Participant.objects.bulk_create(
        (Participant(play=play, player=player, seat=seat, **result)
         for play, seated, results in seats
         for seat, (player, result) in enumerate(zip(seated, results, strict=True))),
        batch_size=5000)
    kniffel = games.get("kniffel")
    KniffelCell.objects.bulk_create(
        (KniffelCell(play=play, player=player, field=field.key, points=rng.randint(0, 30))
         for play, seated, _ in seats if play.game == "kniffel"
         for player in seated for field in kniffel.fields),
        batch_size=5000)
    # Bulk inserts pass the recording layer by, so the running totals are recomputed as
    # `manage.py rebuild_tallies` would.
    tallies.rebuild()


def session_for(user: Any) -> str:
    from django.contrib.sessions.backends.db import SessionStore

    from tracker.households.auth import PASSWORD_BACKEND

    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = PASSWORD_BACKEND
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def query_counts(user: Any, urls: dict[str, str], cookies: dict[str, str] | None = None
                 ) -> dict[str, int]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    client.force_login(user)
    for name, value in (cookies or {}).items():
        client.cookies[name] = value
    counts = {}
    for name, url in urls.items():
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        if response.status_code != 200:
            raise RuntimeError(f"{url}: {response.status_code}")
        counts[name] = len(captured.captured_queries)
    return counts


def timings_ms(port: int, path: str, cookies: str) -> tuple[float, float]:
    """The first request's time (nothing cached yet) and the median of the rest."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    times = []
    for _ in range(REQUESTS):
        started = time.perf_counter()
        connection.request("GET", path, headers={"Cookie": cookies})
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError(f"{path}: {response.status} {body[:300]!r}")
        times.append((time.perf_counter() - started) * 1000)
    connection.close()
    return times[0], statistics.median(times[1:])


def serve_and_time(env: dict[str, str], urls: dict[str, str], session: str,
                   household: str = "") -> dict[str, float]:
    with gunicorn(env, workers=1) as port:
        cookies = f"sessionid={session}; household={household}"
        timings_ms(port, "/health/", "")  # warm the worker up
        times = {"trivial_view": timings_ms(port, "/health/", "")[1]}
        for name, url in urls.items():
            times[f"{name}_first"], times[name] = timings_ms(port, url, cookies)
        return times


def main() -> None:
    workdir = tempfile.mkdtemp(prefix="bench-stats-")
    env = environment(workdir)
    os.environ.update(env)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tracker.households.models import Household, Player
    from tracker.table.models import OwnGame, Play

    call_command("migrate", "--noinput", verbosity=0)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                   cwd=ROOT, env=env, check=True)
    rng = random.Random(11)
    user = get_user_model().objects.create_user("bench", password="bench")
    household = Household.objects.create(name="Bench")
    household.members.add(user)
    players = Player.objects.bulk_create(Player(household=household, name=name)
                                         for name in PLAYERS)
    uno, *_ = OwnGame.objects.bulk_create([
        OwnGame(household=household, name="Uno"),
        OwnGame(household=household, name="Skyjo", scoring="fewest_points"),
        OwnGame(household=household, name="Carcassonne"),
        OwnGame(household=household, name="Wizard", end="rounds", end_at=15)])
    start = date.today() - timedelta(days=int(NIGHTS * 1.2))
    session = session_for(user)
    last_year = start.year + 1
    urls = {"history": "/history/", "player_page": f"/players/{players[0].pk}/",
            "game_page": "/games/kniffel/", "own_game_page": f"/games/own-{uno.pk}/",
            "year_review": f"/review/{last_year}/"}
    for first, last in ((0, FIRST_NIGHTS), (FIRST_NIGHTS, NIGHTS)):
        build(household, players, first, last, rng, start)
        plays = Play.objects.filter(household=household).count()
        counts = query_counts(user, urls)
        times = serve_and_time(env, urls, session)
        print(f"plays_{plays}_trivial_view_ms: {times['trivial_view']:.1f}")
        for name in urls:
            print(f"plays_{plays}_{name}_ms: {times[name]:.1f}")
            print(f"plays_{plays}_{name}_uncached_ms: {times[name + '_first']:.1f}")
            print(f"plays_{plays}_{name}_queries: {counts[name]}")
    time_club_household_page(env, user, session)


def time_club_household_page(env: dict[str, str], user: Any, session: str) -> None:
    """The household page of a club with :data:`CLUB_PLAYERS` players: it must load in
    under a second."""
    from tracker.households.models import COLOURS, Household, Player

    club = Household.objects.create(name="Club")
    club.members.add(user)
    Player.objects.bulk_create(
        Player(household=club, name=f"Player {number}", colour=COLOURS[number % len(COLOURS)][0])
        for number in range(CLUB_PLAYERS))
    chosen = f"{user.pk}:{club.pk}"
    counts = query_counts(user, {"household": "/household/"}, {"household": chosen})
    times = serve_and_time(env, {"household": "/household/"}, session, chosen)
    name = f"household_page_{CLUB_PLAYERS}_players"
    print(f"{name}_ms: {times['household']:.1f}")
    print(f"{name}_uncached_ms: {times['household_first']:.1f}")
    print(f"{name}_queries: {counts['household']}")


if __name__ == "__main__":
    main()
