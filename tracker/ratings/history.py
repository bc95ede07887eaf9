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
    and their places. Co-operative plays rate nobody. One query."""
    seats = (Participant.objects.filter(play__in=rated_plays(household), place__isnull=False)
             .order_by("play__played_on", "play__created_at", "play_id")
             .values_list("play_id", "play__game_key", "play__played_on",
                          "play__house_rules__scoring", "details__team", "player_id", "place"))
    current: list[Any] = []
    for seat in seats.iterator(chunk_size=5000):
        if current and seat[0] != current[0][0]:
            yield from as_rated(current)
            current = []
        current.append(seat)
    if current:
        yield from as_rated(current)


def as_rated(seats: list[Any]) -> Iterator[RatedPlay]:
    """One play's seats as a :class:`RatedPlay`: a team's members as one side."""
    _play, game, day, scoring, *_rest = seats[0]
    if scoring == "cooperative":
        return
    sides: dict[Any, list[int]] = defaultdict(list)
    places: dict[Any, int] = {}
    for *_play_columns, team, player, place in seats:
        side = ("team", team) if team else ("player", player)
        sides[side].append(player)
        places[side] = place
    if len(sides) >= 2:
        yield RatedPlay(game, day, tuple(tuple(members) for members in sides.values()),
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
