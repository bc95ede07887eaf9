"""The household's ratings from its history: the finished plays read in one query, rated
oldest first, and kept in the shared cache until a result changes.

Whatever changes a rated result (a correction, an undo, an import, a play abandoned,
deleted or left out of the statistics) changes the count or the latest change of the
household's finished plays in the statistics, and with it the key the ratings are kept
under: the next page recomputes the whole history, under a second for 20,000 plays
(``bench/ratings.py``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, QuerySet
from django.db.models.fields.json import KT

from tracker.households.models import Household
from tracker.ratings.skill import RatedPlay, Ratings, rate_history
from tracker.table.models import Participant, Play, PlayStatus

#: How long computed ratings stay in the cache when nothing changes.
KEPT_SECONDS = 24 * 60 * 60


def rated_plays(household: Household) -> QuerySet[Play]:
    """The plays ratings count: finished, in the statistics."""
    return Play.objects.filter(household=household, status=PlayStatus.FINISHED,
                               in_statistics=True)


def read_history(household: Household) -> Iterator[RatedPlay]:
    """The household's rated plays, oldest first: each with its sides (teams, or players)
    and their places, best first. Co-operative plays rate nobody.

    Three queries: the plays in order, their seats, and the team of each seat where a play
    has teams. For a history of 20,000 plays (``bench/ratings.py``) reading took 0.9 s in
    one query over the seats in order; JSON values read as text (``KT``) instead of decoded
    one by one, the teams read only where there are teams, and the seats left unordered,
    make it about 0.4 s.
    """
    plays = list(rated_plays(household).order_by("played_on", "created_at", "id").values_list(
        "id", "game_key", "played_on", KT("house_rules__scoring"), KT("house_rules__teams")))
    counted = Participant.objects.filter(
        play__household=household, play__status=PlayStatus.FINISHED, play__in_statistics=True,
        place__isnull=False).order_by()
    seats: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for play, player, place in counted.values_list("play_id", "player_id", "place"):
        seats[play].append((place, player))
    # JSON's true read as text, as SQLite and PostgreSQL both write it.
    in_teams = [play[0] for play in plays if play[4] == "true"]
    teams: dict[int, list[tuple[int, str, int]]] = defaultdict(list)
    if in_teams:
        for play, player, place, team in counted.filter(play_id__in=in_teams).values_list(
                "play_id", "player_id", "place", KT("details__team")):
            teams[play].append((place, team, player))
    for play, game, day, scoring, _in_teams in plays:
        if scoring == "cooperative":
            continue
        if play in teams:
            rated = as_teams(game, day, teams[play])
        else:
            seated = sorted(seats[play])
            rated = RatedPlay(game, day, tuple((player,) for _place, player in seated),
                              tuple(place for place, _player in seated))
        if len(rated.sides) >= 2:
            yield rated


def as_teams(game: str, day: Any, seats: list[tuple[int, str, int]]) -> RatedPlay:
    """A team play's seats (place, team, player) as a :class:`RatedPlay`: each team's
    members one side, the sides best first."""
    sides: dict[str, list[int]] = {}
    places: dict[str, int] = {}
    for place, team, player in sorted(seats):
        sides.setdefault(team, []).append(player)
        places[team] = place
    return RatedPlay(game, day, tuple(tuple(members) for members in sides.values()),
                     tuple(places.values()))


def household_ratings(household: Household) -> Ratings:
    """The household's ratings, from the cache while no rated result changed."""
    state = rated_plays(household).aggregate(count=Count("id"), changed=Max("updated_at"))
    changed = state["changed"].timestamp() if state["changed"] else 0
    key = f"ratings:{household.pk}:{state['count']}:{changed}"
    ratings = cache.get(key)
    if ratings is None:
        ratings = rate_history(read_history(household))
        cache.set(key, ratings, KEPT_SECONDS)
    return ratings
