"""How long a game takes, by the number of players at the table: what a family wants to
know when it chooses the next game ("Skyjo takes 25–40 minutes with 4 players").

A typical length is the middle half of the lengths of the finished plays of the game with
that many players: from the first to the third quartile, so one evening that ran long or
a game left open over dinner moves it little. A number of players is shown once at least
:data:`LENGTH_MIN_PLAYS` plays with a length were played with it. Plays without a length,
abandoned plays and plays out of the statistics do not count."""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count

from tracker.households.models import Household
from tracker.looking_back.stats import counted_plays

#: The fewest plays with a length that say how long a game takes with a number of players.
LENGTH_MIN_PLAYS = 3


@dataclass(frozen=True)
class TypicalLength:
    """The middle half of a game's lengths with ``players`` players, in whole minutes."""

    players: int
    plays: int
    shortest: int
    longest: int


def typical_lengths(household: Household, key: str) -> list[TypicalLength]:
    """The game's typical lengths, fewest players first (one query)."""
    by_players: defaultdict[int, list[int]] = defaultdict(list)
    for players, minutes in (counted_plays(household)
                             .filter(game_key=key, length_minutes__isnull=False)
                             .annotate(players=Count("participants"))
                             .values_list("players", "length_minutes")):
        by_players[players].append(minutes)
    typical = []
    for players, lengths in sorted(by_players.items()):
        if len(lengths) >= LENGTH_MIN_PLAYS:
            first, _middle, third = statistics.quantiles(lengths, n=4, method="inclusive")
            typical.append(TypicalLength(players, len(lengths), round(first), round(third)))
    return typical
