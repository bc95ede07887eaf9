"""The family ratings: how fast a household's whole history is rated, and how well the
ratings know the players and predict the winners.

Run: python bench/ratings.py [--quick]

Builds a household on a fresh SQLite file with bulk inserts: 16 players whose skill is
known (drawn once; each game adds a small skill of its own), 20,000 plays over years of
evenings of six own games, 2 to 6 players at a table, a sixth of them in two teams and one
in twenty co-operative (which rate nobody). A play's finishing order follows each side's
skill plus the luck of the evening (a normal draw as wide as the skills).

Prints, each on its own line as `name: value`:

- `ratings_recompute_seconds_20k_plays`: a page's ratings after a correction of the oldest
  play: the history this process read last patched with what changed, and rated again
  from the start, as after an undo or a deleted play too (the best of five corrections).
- `ratings_first_look_seconds_20k_plays`: the same where the process has read nothing yet
  (the first look after a start): the whole history read and rated (the best of five);
  `ratings_reading_seconds_20k_plays`, the reading alone.
- `ratings_after_a_result_ms`: a page's ratings after tonight's result, added on to those
  kept in the cache (the median of five results), and `ratings_unchanged_ms`, a page's
  ratings while nothing changed.
- `skill_recovery_spearman`: the rank correlation of the overall ratings shown with the
  players' known skills (goal: 0.9 or more).
- On a chronological split (the first 70% of the plays rated, the rest predicted one by
  one before each is rated in turn), for the plays with one winning side:
  `winner_top1_accuracy` and `winner_log_loss` of the ratings' win chances, against two
  baselines: each side's past win rate (`..._past_win_rate`) and all sides equal
  (`..._all_equal`).
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

QUICK = "--quick" in sys.argv[1:]
PLAYS = 2_000 if QUICK else 20_000
PLAYERS = 16
GAMES = ["Uno", "Skyjo", "Carcassonne", "Wingspan", "Wizard", "Canasta"]
TEAM_SHARE, COOPERATIVE_SHARE = 1 / 6, 1 / 20
TRAINING_SHARE = 0.7
PLAYS_PER_NIGHT = 5


def environment(workdir: str) -> dict[str, str]:
    return {**os.environ, "DJANGO_DEBUG": "false", "DJANGO_HTTPS": "false",
            "DJANGO_SECRET_KEY": "bench-secret-key-bench-secret-key-bench-secret-key",
            "DJANGO_SETTINGS_MODULE": "tracker.settings",
            "DATABASE_URL": f"sqlite:///{workdir}/bench.sqlite3"}


def build(rng: random.Random) -> tuple[Any, dict[int, float]]:
    """The household with its history; each player's known overall skill by id."""
    from django.db.models import F

    from tracker.evenings.models import GameNight
    from tracker.households.models import Household, Player
    from tracker.table.models import OwnGame, Participant, Play, PlayStatus, game_key_of

    household = Household.objects.create(name="Bench")
    players = Player.objects.bulk_create(Player(household=household, name=f"Player {n}")
                                         for n in range(PLAYERS))
    games = OwnGame.objects.bulk_create(OwnGame(household=household, name=name)
                                        for name in GAMES)
    teams_game = OwnGame.objects.create(household=household, name="Doppelkopf", teams=True)
    together = OwnGame.objects.create(household=household, name="Hanabi",
                                      scoring="cooperative")
    skill = {player.pk: rng.gauss(0, 1) for player in players}
    own = {(game.pk, player.pk): skill[player.pk] + rng.gauss(0, 0.3)
           for game in [*games, teams_game] for player in players}
    start = datetime(2016, 1, 1, 18, tzinfo=UTC)
    nights = GameNight.objects.bulk_create(
        GameNight(household=household, date=(start + timedelta(days=day)).date())
        for day in range(PLAYS // PLAYS_PER_NIGHT + 1))
    plays, seats = [], []
    for number in range(PLAYS):
        night = nights[number // PLAYS_PER_NIGHT]
        moment = start + timedelta(days=number // PLAYS_PER_NIGHT, minutes=number % 60)
        kind = rng.random()
        if kind < COOPERATIVE_SHARE:
            game, seated = together, rng.sample(players, rng.randint(2, 5))
            sides = [[player] for player in seated]
            places = [1 if rng.random() < 0.5 else 2] * len(sides)
        elif kind < COOPERATIVE_SHARE + TEAM_SHARE:
            game, seated = teams_game, rng.sample(players, 4)
            sides = [seated[:2], seated[2:]]
            places = finishing_places([sum(own[(game.pk, p.pk)] for p in side) / 2
                                       + rng.gauss(0, 1) for side in sides])
        else:
            game, seated = rng.choice(games), rng.sample(players, rng.randint(2, 6))
            sides = [[player] for player in seated]
            places = finishing_places([own[(game.pk, p.pk)] + rng.gauss(0, 1)
                                       for (p,) in sides])
        play = Play(household=household, game_night=night, game="generic", own_game=game,
                    game_key=game_key_of("generic", game.pk), house_rules=game.house_rules,
                    status=PlayStatus.FINISHED, played_on=moment.date(), created_at=moment)
        plays.append(play)
        seats.append((play, sides, places, game is teams_game))
    Play.objects.bulk_create(plays, batch_size=2000)
    Participant.objects.bulk_create(
        (Participant(play=play, player=player, seat=seat, place=place, points=0,
                     details={"team": f"Team {index + 1}"} if teams else {})
         for play, sides, places, teams in seats
         for index, (side, place) in enumerate(zip(sides, places, strict=True))
         for seat, player in enumerate(side, start=index * 10)),
        batch_size=5000)
    # Each play last changed when it was played, as years of evenings (or an import) leave it.
    Play.objects.filter(household=household).update(updated_at=F("created_at"))
    return household, skill


def correct_the_oldest(household: Any) -> None:
    """The places of the household's oldest play of a game by points turned round by one,
    as a correction of its result writes them (its version counted up)."""
    from django.db.models import F
    from django.utils import timezone

    from tracker.ratings.history import ORDER
    from tracker.table.models import Participant, Play, PlayStatus

    play = Play.objects.filter(household=household, status=PlayStatus.FINISHED,
                               own_game__name__in=GAMES).order_by(*ORDER).first()
    seats = list(play.participants.order_by("place"))
    places = [seat.place for seat in seats]
    for seat, place in zip(seats, places[1:] + places[:1], strict=True):
        seat.place = place
    Participant.objects.bulk_update(seats, ["place"])
    Play.objects.filter(pk=play.pk).update(version=F("version") + 1, updated_at=timezone.now())


def tonight(household: Any, rng: random.Random) -> None:
    """A play of four finished tonight, after every play of the history."""
    from tracker.evenings.models import GameNight
    from tracker.table.models import OwnGame, Participant, Play, PlayStatus, game_key_of

    game = OwnGame.objects.filter(household=household, name=GAMES[0]).get()
    seated = rng.sample(list(household.players.all()), 4)
    last = GameNight.objects.filter(household=household).latest("date")
    night, _new = GameNight.objects.get_or_create(household=household,
                                                  date=last.date + timedelta(days=1))
    play = Play.objects.create(
        household=household, game_night=night, game="generic", own_game=game,
        game_key=game_key_of("generic", game.pk), house_rules=game.house_rules,
        status=PlayStatus.FINISHED, played_on=night.date)
    Participant.objects.bulk_create(
        Participant(play=play, player=player, seat=seat, place=seat + 1, points=0, details={})
        for seat, player in enumerate(seated))


def finishing_places(performances: list[float]) -> list[int]:
    """Places from each side's performance, the best first."""
    order = sorted(range(len(performances)), key=lambda index: -performances[index])
    places = [0] * len(performances)
    for place, index in enumerate(order, start=1):
        places[index] = place
    return places


def spearman(first: list[float], second: list[float]) -> float:
    def ranks(values: list[float]) -> list[int]:
        order = sorted(range(len(values)), key=values.__getitem__)
        found = [0] * len(values)
        for rank, index in enumerate(order):
            found[index] = rank
        return found

    a, b = ranks(first), ranks(second)
    count = len(a)
    return 1 - 6 * sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) / (
        count * (count * count - 1))


def predictions(history: list[Any]) -> dict[str, tuple[float, float]]:
    """Top-1 accuracy and log loss of each way of predicting the winner, on the plays after
    the training share, each predicted before it is rated."""
    from tracker.ratings.skill import Rater, win_chances

    split = int(len(history) * TRAINING_SHARE)
    rater = Rater()
    won: dict[int, int] = {}
    played: dict[int, int] = {}
    scores = {name: [0, 0.0, 0] for name in ("ratings", "past_win_rate", "all_equal")}
    for number, play in enumerate(history):
        winners = [index for index, place in enumerate(play.places) if place == 1]
        if number >= split and len(winners) == 1:
            past = [sum((won.get(p, 0) + 1) / (played.get(p, 0) + 2) for p in side) / len(side)
                    for side in play.sides]
            ways = {"ratings": win_chances(rater, play.game, play.sides),
                    "past_win_rate": [rate / sum(past) for rate in past],
                    "all_equal": [1 / len(play.sides)] * len(play.sides)}
            for name, chances in ways.items():
                # Sides that tie for the best chance share the credit: the sides come best
                # first, and picking the first of a tie would know the result.
                tied = [index for index, chance in enumerate(chances)
                        if chance == max(chances)]
                scores[name][0] += (winners[0] in tied) / len(tied)
                scores[name][1] -= math.log(max(chances[winners[0]], 1e-12))
                scores[name][2] += 1
        rater.add(play)
        for side, place in zip(play.sides, play.places, strict=True):
            for player in side:
                played[player] = played.get(player, 0) + 1
                won[player] = won.get(player, 0) + (place == 1)
    return {name: (right / count, loss / count) for name, (right, loss, count) in
            scores.items()}


def main() -> None:
    workdir = tempfile.mkdtemp(prefix="bench-ratings-")
    os.environ.update(environment(workdir))
    import django

    django.setup()
    from django.core.management import call_command

    from tracker.ratings.history import (
        READ,
        KeptRatings,
        fingerprints,
        household_ratings,
        read_history,
    )
    from tracker.ratings.skill import OVERALL, rate_history

    call_command("migrate", "--noinput", verbosity=0)
    household, skill = build(random.Random(7))
    reading, first_look, recompute = [], [], []
    for _ in range(5):
        started = time.perf_counter()
        history = [play.rated for play in read_history(household).values() if play.rated]
        reading.append(time.perf_counter() - started)
    for _ in range(5):
        READ.clear()
        started = time.perf_counter()
        KeptRatings.rated(household, *fingerprints(household, None)[:2])
        first_look.append(time.perf_counter() - started)
    household_ratings(household)
    for _ in range(5):
        correct_the_oldest(household)
        started = time.perf_counter()
        household_ratings(household)
        recompute.append(time.perf_counter() - started)
    unchanged, after_a_result = [], []
    for _ in range(5):
        started = time.perf_counter()
        household_ratings(household)
        unchanged.append(time.perf_counter() - started)
        tonight(household, random.Random(len(unchanged)))
        started = time.perf_counter()
        household_ratings(household)
        after_a_result.append(time.perf_counter() - started)
    ratings = rate_history(history)
    players = sorted(skill)
    shown = [ratings.skill(OVERALL, player).rating for player in players]
    label = "20k" if not QUICK else f"{PLAYS // 1000}k"
    print(f"ratings_rated_plays: {len(history)}")
    print(f"ratings_recompute_seconds_{label}_plays: {min(recompute):.2f}")
    print(f"ratings_first_look_seconds_{label}_plays: {min(first_look):.2f}")
    print(f"ratings_reading_seconds_{label}_plays: {min(reading):.2f}")
    print(f"ratings_after_a_result_ms: {statistics.median(after_a_result) * 1000:.1f}")
    print(f"ratings_unchanged_ms: {statistics.median(unchanged) * 1000:.1f}")
    print(f"skill_recovery_spearman: {spearman(shown, [skill[p] for p in players]):.3f}")
    for name, (accuracy, loss) in predictions(history).items():
        suffix = "" if name == "ratings" else f"_{name}"
        print(f"winner_top1_accuracy{suffix}: {accuracy:.3f}")
        print(f"winner_log_loss{suffix}: {loss:.3f}")


if __name__ == "__main__":
    main()
