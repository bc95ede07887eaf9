"""Standings of a series: several races or games of one game added up.

Die Maus im Nacken recommends agreeing a number of races in advance and adding
up the points; the same works for any game. Each race counts with its own
points, or, for games whose rules give only a finishing order, with points per
place from a table (``DEFAULT_PLACE_POINTS`` unless the series chooses one).
A player who missed a race scores 0 for it.

Players are ranked on an ordered tuple of metrics, most important first: by
default the game's ``series_tiebreaks`` (for Die Maus im Nacken: points, race
wins, elephants home). Players equal on every metric share a rank (1, 1, 3).
``tiebreaks_used`` says which metric put players level on the first one in
order, so the standings can say so ("Tim ahead of Mama on wins").

Tournaments rank the same way over their rounds. A final table seats the best
few: ``final_table_cut`` applies the tie-breaks at the cut and leaves
players level on every metric to the organiser to choose from. Once the final
table is played, ``ranks_with_final`` puts its places first; everyone else
follows in their order of the rounds, sharing places where they are level.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby, pairwise

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


@dataclass(frozen=True)
class TieBreak:
    """Players level on the first metric whom the later metric ``metric`` put in order."""

    ahead: tuple[str, ...]
    behind: tuple[str, ...]
    metric: str


def metric_values(row: StandingRow, tiebreaks: Sequence[str]) -> tuple[int, ...]:
    """The row's value of each metric in ``tiebreaks``, as shown (not as sorted)."""
    return tuple(METRICS[key].value(row) for key in tiebreaks)


def _deciding_metric(a: StandingRow, b: StandingRow, tiebreaks: Sequence[str]) -> int | None:
    """The index of the first metric on which ``a`` and ``b`` differ; None when level."""
    pairs = zip(metric_values(a, tiebreaks), metric_values(b, tiebreaks), strict=True)
    return next((index for index, (x, y) in enumerate(pairs) if x != y), None)


def tiebreaks_used(rows: Sequence[StandingRow], tiebreaks: Sequence[str]) -> list[TieBreak]:
    """Where a later metric ordered players level on the first, best first.

    ``rows`` are standings as :func:`series_standings` returns them with the same
    ``tiebreaks``. Each entry compares one rank with the next: players who share a
    rank are named together.
    """
    groups = [list(group) for _rank, group in groupby(rows, key=lambda row: row.rank)]
    used = []
    for above, below in pairwise(groups):
        index = _deciding_metric(above[0], below[0], tiebreaks)
        if index:
            used.append(TieBreak(tuple(row.player for row in above),
                                 tuple(row.player for row in below), tiebreaks[index]))
    return used


@dataclass(frozen=True)
class Cut:
    """Who sits at a final table of ``seats``.

    ``seated`` are sure of their seat, best first. ``tied`` are level on every
    metric across the cut: ``open_seats`` of them sit, chosen by the organiser.
    ``decided`` is the tie-break that made the cut between players level on the
    first metric, when one did.
    """

    seated: tuple[str, ...]
    tied: tuple[str, ...] = ()
    open_seats: int = 0
    decided: TieBreak | None = None


def final_table_cut(rows: Sequence[StandingRow], seats: int,
                    tiebreaks: Sequence[str]) -> Cut:
    """The cut for a final table of ``seats`` from standings ``rows`` (best first).

    ``rows`` hold only the players who may sit (not those who dropped out).
    """
    if len(rows) <= seats:
        return Cut(tuple(row.player for row in rows))
    last, first_out = rows[seats - 1], rows[seats]
    if last.rank == first_out.rank:
        seated = tuple(row.player for row in rows if row.rank < last.rank)
        tied = tuple(row.player for row in rows if row.rank == last.rank)
        return Cut(seated, tied, seats - len(seated))
    seated = tuple(row.player for row in rows[:seats])
    index = _deciding_metric(last, first_out, tiebreaks)
    if not index:
        return Cut(seated)
    level = metric_values(first_out, tiebreaks)[:index]

    def level_with_cut(row: StandingRow) -> bool:
        return metric_values(row, tiebreaks)[:index] == level

    return Cut(seated, decided=TieBreak(
        tuple(row.player for row in rows[:seats] if level_with_cut(row)),
        tuple(row.player for row in rows[seats:] if level_with_cut(row)),
        tiebreaks[index]))


def ranks_with_final(rows: Sequence[StandingRow], final_places: Mapping[str, int]
                     ) -> list[tuple[StandingRow, int]]:
    """Standings once a final table is played: each row with its place, best first.

    The final table's places come first; the others follow in their order of the
    rounds, players level there sharing a place (4 finalists, then 5, 5, 7).
    """
    finalists = sorted((row for row in rows if row.player in final_places),
                       key=lambda row: (final_places[row.player], row.rank))
    others = [row for row in rows if row.player not in final_places]
    ranked = [(row, final_places[row.player]) for row in finalists]
    place = len(finalists) + 1
    for _rank, group in groupby(others, key=lambda row: row.rank):
        level = list(group)
        ranked += [(row, place) for row in level]
        place += len(level)
    return ranked


def _default_tiebreaks(outcomes: Sequence[Outcome]) -> tuple[str, ...]:
    from games import get  # the registry imports this module

    keys = {outcome.game for outcome in outcomes}
    if len(keys) == 1:
        return get(keys.pop()).series_tiebreaks
    return DEFAULT_TIEBREAKS
