"""Standings of a series: several races or games of one game added up.

Die Maus im Nacken recommends agreeing a number of races in advance and adding
up the points; the same works for any game. Each race counts with its own
points, or, for games whose rules give only a finishing order, with points per
place from a table (``DEFAULT_PLACE_POINTS`` unless the series chooses one).
A player who missed a race scores 0 for it.

Players are ranked on an ordered tuple of metrics, most important first: by
default the game's ``series_tiebreaks`` (for Die Maus im Nacken: points, race
wins, elephants home). Players equal on every metric share a rank (1, 1, 3).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from games.base import Outcome
from games.i18n import Text

#: Series points for 1st, 2nd, ... place in games without points; later places score 0.
DEFAULT_PLACE_POINTS: tuple[int, ...] = (10, 7, 5, 3, 2, 1)
DEFAULT_TIEBREAKS = ("points", "wins")


@dataclass
class StandingRow:
    """One player's line in the standings."""

    player: str
    total: int = 0
    race_points: list[int] = field(default_factory=list)
    rank: int = 0
    behind: int = 0
    races_played: int = 0
    wins: int = 0
    seconds: int = 0
    elephants_home: int = 0
    best_place: int | None = None


@dataclass(frozen=True)
class Metric:
    """A number standings can be sorted on; ``better`` says which way is better."""

    key: str
    label: Text
    value: Callable[[StandingRow], int]
    higher_is_better: bool = True


METRICS: dict[str, Metric] = {
    metric.key: metric
    for metric in (
        Metric("points", Text("Total points"), lambda row: row.total),
        Metric("wins", Text("Wins"), lambda row: row.wins),
        Metric("seconds", Text("Second places"), lambda row: row.seconds),
        Metric("elephants_home", Text("Elephants home"), lambda row: row.elephants_home),
        Metric("best_place", Text("Best place"),
               lambda row: row.best_place if row.best_place is not None else 10**6,
               higher_is_better=False),
    )
}


def series_standings(
    outcomes: Sequence[Outcome],
    tiebreaks: Sequence[str] | None = None,
    *,
    place_points: Sequence[int] = DEFAULT_PLACE_POINTS,
    players: Iterable[str] | None = None,
) -> list[StandingRow]:
    """Standings after ``outcomes`` (in race order), best first.

    ``players`` lists the series' players, so that one who has not played yet
    still has a row; by default, everyone in the outcomes. ``tiebreaks`` are
    metric keys from :data:`METRICS`; by default the game's own. In a series
    of a game where fewer points win, the "points" metric is read that way.
    """
    tiebreaks = tuple(tiebreaks) if tiebreaks is not None else _default_tiebreaks(outcomes)
    for key in tiebreaks:
        if key not in METRICS:
            raise ValueError(f"unknown series metric {key!r}; choose from {sorted(METRICS)}")
    lower_wins = {outcome.lower_is_better for outcome in outcomes}
    if len(lower_wins) > 1:
        raise ValueError("a series cannot mix games where fewer points win with others")
    lower_is_better = lower_wins == {True}

    rows: dict[str, StandingRow] = {}
    for player in players or ():
        rows[player] = StandingRow(player)
    for outcome in outcomes:
        for player in outcome.places:
            if player not in rows:
                rows[player] = StandingRow(player)
    race_count = len(outcomes)
    for row in rows.values():
        row.race_points = [0] * race_count

    for race, outcome in enumerate(outcomes):
        for player, place in outcome.places.items():
            row = rows[player]
            if outcome.scored_by_points:
                points = outcome.points[player]
            else:
                points = place_points[place - 1] if place <= len(place_points) else 0
            row.race_points[race] = points
            row.total += points
            row.races_played += 1
            if place == 1:
                row.wins += 1
            elif place == 2:
                row.seconds += 1
            row.elephants_home += outcome.details.get(player, {}).get("home", 0) or 0
            if row.best_place is None or place < row.best_place:
                row.best_place = place

    def sort_key(row: StandingRow) -> tuple[int, ...]:
        key = []
        for name in tiebreaks:
            metric = METRICS[name]
            better_high = metric.higher_is_better != (name == "points" and lower_is_better)
            value = metric.value(row)
            key.append(-value if better_high else value)
        return tuple(key)

    ordered = sorted(rows.values(), key=sort_key)
    previous: tuple[int, ...] | None = None
    for position, row in enumerate(ordered, start=1):
        key = sort_key(row)
        if key != previous:
            rank, previous = position, key
        row.rank = rank
    if ordered:
        leader = ordered[0].total
        for row in ordered:
            row.behind = abs(leader - row.total)
    return ordered


def _default_tiebreaks(outcomes: Sequence[Outcome]) -> tuple[str, ...]:
    from games import get  # the registry imports this module

    keys = {outcome.game for outcome in outcomes}
    if len(keys) == 1:
        return get(keys.pop()).series_tiebreaks
    return DEFAULT_TIEBREAKS
