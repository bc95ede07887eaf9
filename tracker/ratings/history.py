"""The household's ratings from its history, kept in the shared cache with how far they go.

A page asks for the ratings with one query, the fingerprint of the household's rated
plays (:class:`Fingerprint`: their count, the sums of their ids and versions, their latest
change); while it is the one kept, the kept ratings are shown. A result that comes after
every play rated (a game finished at the one table) is added on, a few milliseconds.
Anything else (a correction, an undo, an import, a play abandoned, deleted or left out of
the statistics, a game started before the last one rated and finished after it) rates the
whole history again: patched from the history this process read last, 0.6 s for 20,000
plays, or read whole at a process's first look, 0.9 s (``bench/ratings.py``).
"""

from __future__ import annotations

import gc
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from itertools import groupby
from operator import itemgetter
from typing import Any, NamedTuple

from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet, Sum
from django.db.models.fields.json import KT

from tracker.households.models import Household
from tracker.ratings.skill import RatedPlay, Rater, Ratings
from tracker.table.models import Participant, Play, PlayStatus

#: How long computed ratings stay in the cache when nothing changes.
KEPT_SECONDS = 24 * 60 * 60
#: Part of the cache key: counted up when :class:`KeptRatings` changes shape, so that a new
#: version of the app never reads what an older one kept.
KEPT_FORMAT = 2
#: The order ratings take a household's plays in: by day, then as they were started.
ORDER = ("played_on", "created_at", "id")
#: More plays than this to read one by one (new, or changed), and reading the whole history
#: is as quick.
READ_APART_AT_MOST = 500


def rated_plays(household: Household) -> QuerySet[Play]:
    """The plays ratings count: finished, in the statistics."""
    return Play.objects.filter(household=household, status=PlayStatus.FINISHED,
                               in_statistics=True)


class ReadPlay(NamedTuple):
    """A rated play as read: what tells that it changed (its version, counted up by every
    result written; its day; its latest change, for a change made in the admin) and what
    the ratings count of it, None where it rates nobody (co-operative, or fewer than two
    sides with a place)."""

    version: int
    day: date
    changed: datetime
    rated: RatedPlay | None

    @property
    def marks(self) -> tuple[int, date, datetime]:
        return self.version, self.day, self.changed


def read_history(household: Household, up_to: int | None = None,
                 only: Collection[int] | None = None) -> dict[int, ReadPlay]:
    """The household's rated plays up to the id ``up_to`` (``only`` those of these ids), by
    id, oldest first: each with its sides (teams, or players) and their places, best first.

    Two queries, three where a play has teams: the plays in order, their seats, and the
    team of each seat of a play with teams. For a history of 20,000 plays
    (``bench/ratings.py``) reading took 0.9 s in one query over the seats in order. JSON
    values read as text (``KT``) instead of decoded one by one, the teams read only where
    there are teams, and the seats in the order of their covering index, grouped by play in
    C (``groupby``, ``zip``), make it about 0.4 s.
    """
    plays = rated_plays(household)
    counted = Participant.objects.filter(play__household=household, place__isnull=False)
    if up_to is not None:
        plays, counted = plays.filter(id__lte=up_to), counted.filter(play_id__lte=up_to)
    if only is not None:
        plays, counted = plays.filter(id__in=only), counted.filter(play_id__in=only)
    # The plays before their seats: a play finished meanwhile is missing from both, or
    # from the plays alone, and never rated with seats from before its result.
    rows = list(plays.order_by(*ORDER).values_list(
        "id", "version", "played_on", "updated_at", "game_key", KT("house_rules__scoring"),
        KT("house_rules__teams")))
    seated: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
    for play, seats in groupby(counted.order_by("play_id", "place").values_list(
            "play_id", "place", "player_id"), key=itemgetter(0)):
        _play, places, players = zip(*seats, strict=True)
        seated[play] = places, players
    teams: dict[int, list[tuple[int, str, int]]] = defaultdict(list)
    # JSON's true read as text, as SQLite and PostgreSQL both write it.
    if any(row[6] == "true" for row in rows):
        for play, place, team, player in counted.filter(
                play__house_rules__teams=True).values_list(
                "play_id", "place", KT("details__team"), "player_id"):
            teams[play].append((place, team, player))
    found: dict[int, ReadPlay] = {}
    for play, version, day, changed, game, scoring, _teams in rows:
        rated = None
        if scoring == "cooperative":
            pass
        elif play in teams:
            rated = as_teams(game, day, teams[play])
        elif play in seated:
            places, players = seated[play]
            rated = RatedPlay(game, day, tuple(zip(players)), places)
        found[play] = ReadPlay(version, day, changed,
                               rated if rated is not None and len(rated.sides) >= 2 else None)
    return found


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


#: The histories this process read last, by household, the most recent last: each rated
#: play by id. Kept in the process's memory, not the shared cache: 20,000 plays take longer
#: to pickle and unpickle (about 0.1 s) than to patch.
READ: OrderedDict[int, dict[int, ReadPlay]] = OrderedDict()
#: How many households' histories a process keeps.
READ_KEPT = 8
#: A server process's threads share READ.
READ_LOCK = threading.Lock()


def history_now(household: Household, up_to: int | None) -> dict[int, ReadPlay]:
    """The household's history up to the id ``up_to`` (None: no play yet), as
    :func:`read_history` reads it: patched from the one this process read last where it
    has one (the plays' order and :attr:`ReadPlay.marks` read again, and the plays whose
    marks changed, or that are new, read whole), read whole where it has not.

    Reading 20,000 plays whole takes about 0.4 s (``bench/ratings.py``); patching them
    after a correction, about 0.05 s.
    """
    if up_to is None:
        return {}
    with READ_LOCK:
        last = READ.pop(household.pk, None)
    found = None
    if last is not None:
        plays = rated_plays(household).filter(id__lte=up_to)
        rows = list(plays.order_by(*ORDER).values_list("id", "version", "played_on",
                                                      "updated_at"))
        stale = {play for play, *marks in rows
                 if (kept := last.get(play)) is None or kept.marks != tuple(marks)}
        if len(stale) <= READ_APART_AT_MOST:
            fresh = read_history(household, up_to, only=stale) if stale else {}
            # A stale play that is no longer read has gone since (deleted, say).
            found = {play: fresh[play] if play in stale else last[play]
                     for play, *_marks in rows if play not in stale or play in fresh}
    if found is None:
        found = read_history(household, up_to)
    with READ_LOCK:
        READ[household.pk] = found
        while len(READ) > READ_KEPT:
            READ.popitem(last=False)
    return found


#: The threads reading a history now, and whether the first of them paused the collector.
PAUSED = {"readers": 0, "by_us": False}
PAUSED_LOCK = threading.Lock()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused: reading and rating a history makes a
    hundred thousand tuples and lists without a cycle among them, and the collector,
    started again and again by so many new objects, walks them each time. Reading 20,000
    plays took 0.57 s with it and 0.38 s without (``bench/ratings.py``). Threads reading
    at once share the pause: the last one to finish starts the collector again."""
    with PAUSED_LOCK:
        if PAUSED["readers"] == 0:
            PAUSED["by_us"] = gc.isenabled()
            gc.disable()
        PAUSED["readers"] += 1
    try:
        yield
    finally:
        with PAUSED_LOCK:
            PAUSED["readers"] -= 1
            if PAUSED["readers"] == 0 and PAUSED["by_us"]:
                gc.enable()


class Fingerprint(NamedTuple):
    """What a change to a household's rated plays changes: their count (a play finished,
    abandoned, deleted, left out of the statistics), the sums of their ids (one play for
    another) and of their versions (a result written again counts its play's version up,
    whatever the clock says), and their latest change (an edit in the admin, a night moved
    to another day)."""

    count: int
    ids: int
    versions: int
    changed: datetime | None


#: The fingerprint of no plays.
NO_PLAYS = Fingerprint(0, 0, 0, None)


def fingerprints(household: Household, up_to: int | None
                 ) -> tuple[Fingerprint, int | None, Fingerprint]:
    """In one query: the fingerprint of the household's rated plays, their highest id, and
    the fingerprint of those up to the id ``up_to`` (None: of no plays)."""
    def parts(prefix: str, only: Q | None = None) -> dict[str, Any]:
        return {f"{prefix}count": Count("id", filter=only), f"{prefix}ids": Sum("id", filter=only),
                f"{prefix}versions": Sum("version", filter=only),
                f"{prefix}changed": Max("updated_at", filter=only)}

    wanted = {"top": Max("id"), **parts("now_")}
    if up_to is not None:
        wanted |= parts("before_", Q(id__lte=up_to))
    found = rated_plays(household).aggregate(**wanted)

    def fingerprint(prefix: str) -> Fingerprint:
        return Fingerprint(found[f"{prefix}count"], found[f"{prefix}ids"] or 0,
                           found[f"{prefix}versions"] or 0, found[f"{prefix}changed"])

    return (fingerprint("now_"), found["top"],
            fingerprint("before_") if up_to is not None else NO_PLAYS)


@dataclass
class KeptRatings:
    """What the cache keeps of a household's ratings: the ratings of its rated plays up to
    the id ``top``, the fingerprint those plays had when read, and the id of the newest of
    them as :data:`ORDER` sorts them."""

    rater: Rater
    fingerprint: Fingerprint
    top: int | None
    newest: int | None

    @classmethod
    def rated(cls, household: Household, fingerprint: Fingerprint, top: int | None
              ) -> KeptRatings:
        """The whole history up to the id ``top`` rated, its fingerprint read before."""
        with collector_paused():
            history = history_now(household, top)
            rater = Rater()
            rater.add_all(play.rated for play in history.values() if play.rated is not None)
        return cls(rater, fingerprint, top, next(reversed(history), None))

    def carry_on(self, household: Household, fingerprint: Fingerprint, top: int | None
                 ) -> bool:
        """Add on the plays after ``top`` up to the new ``top``, if every one of them comes
        after the newest play rated; False, and nothing added, where one does not. (That
        the plays rated are unchanged, the caller knows from their fingerprint.)"""
        rows = rated_plays(household).filter(id__lte=top or 0).order_by(*ORDER)
        if self.top is not None:
            rows = rows.filter(Q(id__gt=self.top) | Q(id=self.newest))
        found = list(rows.values_list(*ORDER)[:READ_APART_AT_MOST + 2])
        newest = next((row for row in found if row[2] == self.newest), None)
        added = [row for row in found if row is not newest]
        if len(added) > READ_APART_AT_MOST or self.newest is not None and (
                newest is None or any(row <= newest for row in added)):
            return False
        if added:
            history = read_history(household, top, only=[row[2] for row in added])
            self.rater.add_all(play.rated for play in history.values()
                               if play.rated is not None)
            self.newest = added[-1][2]
        self.fingerprint, self.top = fingerprint, top
        return True


def kept_ratings(key: str) -> KeptRatings | None:
    """The ratings kept under ``key``; None where there are none, or none this version of
    the app can read (kept by another, say, while :data:`KEPT_FORMAT` was not counted up)."""
    try:
        kept = cache.get(key)
    except Exception:  # whatever unpickling raises, the ratings are made again
        return None
    return kept if isinstance(kept, KeptRatings) else None


def household_ratings(household: Household) -> Ratings:
    """The household's ratings: kept in the cache while no rated play changed, carried on
    with the plays finished since, rated again from the start after anything else."""
    key = f"ratings:{KEPT_FORMAT}.{Rater.FORMAT}:{household.pk}"
    kept = kept_ratings(key)
    now, top, before = fingerprints(household, kept.top if kept else None)
    if kept is not None and (now, top) == (kept.fingerprint, kept.top):
        return kept.rater.ratings()
    if (kept is None or before != kept.fingerprint
            or not kept.carry_on(household, now, top)):
        kept = KeptRatings.rated(household, now, top)
    cache.set(key, kept, KEPT_SECONDS)
    return kept.rater.ratings()
