"""The household's ratings from its history: the finished plays read in three queries,
rated oldest first, and kept in the shared cache with how far they go.

A result entered tonight comes after every play rated so far: it is added on to the kept
ratings, a few milliseconds. Whatever else changes a rated result (a correction, an undo,
an import, a play abandoned, deleted or left out of the statistics) changes the count of
the plays that were there, or brings a changed play from before the newest one rated: the
next page rates the whole history again, under a second for 20,000 plays
(``bench/ratings.py``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from itertools import groupby
from operator import itemgetter
from typing import Any, NamedTuple

from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet
from django.db.models.fields.json import KT

from tracker.households.models import Household
from tracker.ratings.skill import RatedPlay, Rater, Ratings
from tracker.table.models import Participant, Play, PlayStatus

#: How long computed ratings stay in the cache when nothing changes.
KEPT_SECONDS = 24 * 60 * 60
#: The order ratings take a household's plays in: by day, then as they were started.
ORDER = ("played_on", "created_at", "id")
#: More plays changed than this, and rating the whole history again is as quick.
CARRIED_ON_AT_MOST = 500


def rated_plays(household: Household) -> QuerySet[Play]:
    """The plays ratings count: finished, in the statistics."""
    return Play.objects.filter(household=household, status=PlayStatus.FINISHED,
                               in_statistics=True)


class History(NamedTuple):
    """A household's rated plays as the ratings read them, oldest first, and the id of the
    newest play read (co-operative ones too)."""

    plays: list[RatedPlay]
    newest: int | None


def read_history(household: Household, only: Collection[int] | None = None) -> History:
    """The household's rated plays (``only`` those of these ids), oldest first: each with
    its sides (teams, or players) and their places, best first. Co-operative plays rate
    nobody.

    Two queries, three where a play has teams: the plays in order, their seats, and the
    team of each seat of a play with teams. For a history of 20,000 plays
    (``bench/ratings.py``) reading took 0.9 s in one query over the seats in order. JSON
    values read as text (``KT``) instead of decoded one by one, the teams read only where
    there are teams, and the seats in the order of their covering index, grouped by play in
    C (``groupby``, ``zip``), make it about 0.3 s.
    """
    plays = rated_plays(household)
    counted = Participant.objects.filter(play__household=household, place__isnull=False)
    if only is not None:
        plays, counted = plays.filter(id__in=only), counted.filter(play_id__in=only)
    rows = list(plays.order_by(*ORDER).values_list(
        "id", "game_key", "played_on", KT("house_rules__scoring"), KT("house_rules__teams")))
    seated: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
    for play, seats in groupby(counted.order_by("play_id", "place").values_list(
            "play_id", "place", "player_id"), key=itemgetter(0)):
        _play, places, players = zip(*seats, strict=True)
        seated[play] = places, players
    teams: dict[int, list[tuple[int, str, int]]] = defaultdict(list)
    # JSON's true read as text, as SQLite and PostgreSQL both write it.
    if any(row[4] == "true" for row in rows):
        for play, place, team, player in counted.filter(
                play__house_rules__teams=True).values_list(
                "play_id", "place", KT("details__team"), "player_id"):
            teams[play].append((place, team, player))
    found = []
    for play, game, day, scoring, _teams in rows:
        if scoring == "cooperative":
            continue
        if play in teams:
            rated = as_teams(game, day, teams[play])
        elif play in seated:
            places, players = seated[play]
            rated = RatedPlay(game, day, tuple(zip(players)), places)
        else:
            continue
        if len(rated.sides) >= 2:
            found.append(rated)
    return History(found, rows[-1][0] if rows else None)


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


@dataclass
class KeptRatings:
    """What the cache keeps of a household's ratings: the ratings so far, and how far they
    go. ``count`` and ``changed`` are the rated plays (co-operative ones too) and their
    latest change as they were before the history was read; ``newest`` is the id of the
    newest play rated, as :data:`ORDER` sorts them."""

    rater: Rater
    count: int
    changed: datetime | None
    newest: int | None

    @classmethod
    def rated(cls, household: Household, state: dict[str, Any]) -> KeptRatings:
        """The whole history rated, ``state`` (its count and latest change) read before."""
        history = read_history(household)
        rater = Rater()
        rater.add_all(history.plays)
        return cls(rater, state["count"], state["changed"], history.newest)

    def carry_on(self, household: Household) -> bool:
        """Add on the plays changed since, if every one of them comes after the newest play
        rated; False, and nothing added, where one does not. (That they are all new, the
        caller knows: the plays there before are as many as before.)"""
        rows = rated_plays(household).order_by(*ORDER)
        if self.changed is not None:
            rows = rows.filter(Q(updated_at__gt=self.changed) | Q(id=self.newest))
        found = list(rows.values_list(*ORDER, "updated_at")[:CARRIED_ON_AT_MOST + 2])
        newest = next((row for row in found if row[2] == self.newest), None)
        added = [row for row in found if row is not newest]
        if len(added) > CARRIED_ON_AT_MOST or self.newest is not None and (
                newest is None or any(row[:3] <= newest[:3] for row in added)):
            return False
        if added:
            history = read_history(household, only=[row[2] for row in added])
            self.rater.add_all(history.plays)
            self.count += len(added)
            self.changed = max(row[3] for row in added)
            self.newest = added[-1][2]
        return True


def household_ratings(household: Household) -> Ratings:
    """The household's ratings: kept in the cache while no rated result changed, carried
    on with the plays finished since, rated again from the start after anything else."""
    key = f"ratings:{household.pk}"
    kept: KeptRatings | None = cache.get(key)
    counts: dict[str, Any] = {"count": Count("id"), "changed": Max("updated_at")}
    if kept is not None and kept.changed is not None:
        counts["before"] = Count("id", filter=Q(updated_at__lte=kept.changed))
    state = rated_plays(household).aggregate(**counts)
    if kept is not None and (kept.count, kept.changed) == (state["count"], state["changed"]):
        return kept.rater.ratings()
    if kept is None or state.get("before", 0) != kept.count or not kept.carry_on(household):
        kept = KeptRatings.rated(household, state)
    cache.set(key, kept, KEPT_SECONDS)
    return kept.rater.ratings()
