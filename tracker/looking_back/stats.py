"""A household's numbers: history, players, games, fairness and the year in review.

Everything is aggregated in the database from the points and places stored when
each result was accepted; nothing is scored again. Only finished plays count:
abandoned and unfinished ones are left out, and so are plays kept out of the statistics
(BG Stats' ``ignored`` plays), while series races and tournament
tables count like any other play. A win is a first place, so players who share
first place each have a win; head-to-head, equal places are a draw.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db.models import (
    Avg,
    CharField,
    Count,
    Exists,
    F,
    IntegerField,
    Max,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Sum,
    Value,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Substr, TruncDate
from django.utils.translation import gettext as _

import games
from games.base import shared_places
from games.maus_im_nacken import ELEPHANTS_PER_PLAYER
from tracker.common.engine_text import say
from tracker.evenings.models import GameNight, Series, Tournament
from tracker.households.models import Household, Player
from tracker.table.models import (
    HeadToHeadTally,
    KniffelFieldTally,
    OwnGame,
    Participant,
    Play,
    PlayStatus,
    own_game_id_of,
)
from tracker.table.queries import participants_in_seat_order

#: A leaderboard lists only players with at least this many plays of the game.
LEADERBOARD_MIN_PLAYS = 3
#: More bars than this make a distribution chart unreadable on a tablet.
DISTRIBUTION_BINS = 12


def counted_plays(household: Household) -> QuerySet[Play]:
    return Play.objects.filter(household=household, status=PlayStatus.FINISHED,
                               in_statistics=True).order_by()


# The default orderings name related fields, which would add joins to every GROUP BY.
def counted_participations(household: Household) -> QuerySet[Participant]:
    """Seats in the household's finished plays: the rows every statistic adds up."""
    return Participant.objects.filter(play__household=household,
                                      play__status=PlayStatus.FINISHED,
                                      play__in_statistics=True).order_by()


def one_seat_per_side(rows: QuerySet[Participant]) -> QuerySet[Participant]:
    """``rows`` with one seat for each side: a team's score, or the score a co-operative
    table shares, counts once, not once per player (the seat taken is the team's first)."""
    same_side = Participant.objects.filter(play=OuterRef("play"), seat__lt=OuterRef("seat"))
    # Seats without a team (no key, or JSON null, which SQLite reads as the text 'null')
    # have no teammates.
    teammates = (same_side.exclude(details__team=None).annotate(side=KT("details__team"))
                 .filter(side=OuterRef("side")))
    return (rows.annotate(side=KT("details__team"))
            .exclude(Exists(same_side.filter(play__house_rules__scoring="cooperative")))
            .exclude(Exists(teammates)))


def counted_seats(player: Player) -> QuerySet[Participant]:
    """The player's seats in finished plays.

    Without the household filter, which the player implies: SQLite then reads the
    player's seats from their index instead of every play of the household.
    """
    return Participant.objects.filter(player=player, play__status=PlayStatus.FINISHED,
                                      play__in_statistics=True).order_by()


def in_year(year: int, prefix: str = "") -> Q:
    """The plays of ``year``, by the day they were played (a range on an indexed column)."""
    return Q(**{f"{prefix}played_on__range": (date(year, 1, 1), date(year, 12, 31))})


def game_names(keys: Iterable[str]) -> dict[str, str]:
    """Names of games by the keys the statistics count them under: the rules' names, and
    the household's own games' as the family named them (one query, none without any)."""
    keys = set(keys)
    own = {own_game_id_of(key): key for key in keys if own_game_id_of(key) is not None}
    names = {key: say(games.get(key).name) for key in keys
             if own_game_id_of(key) is None and key in games.GAMES}
    if own:
        names |= {own[pk]: name for pk, name in
                  OwnGame.objects.filter(pk__in=own).values_list("pk", "name")}
    return names


def game_name(key: str) -> str:
    return game_names([key]).get(key, key)


@dataclass(frozen=True)
class CountedGame:
    """A game as the statistics count it: its key, its name, whether it gives points and
    whether the table plays it together against the game."""

    key: str
    name: str
    scored_by_points: bool
    cooperative: bool = False


def counted_game(household: Household, key: str) -> CountedGame | None:
    """The game counted under ``key``: a rules game, or one of the household's own games
    (read in one query); None for a key that names neither."""
    own_game_id = own_game_id_of(key)
    if own_game_id is None:
        if key not in games.GAMES:
            return None
        rules = games.get(key)
        return CountedGame(key, say(rules.name), rules.scored_by_points)
    own_game = household.own_games.filter(pk=own_game_id).first()
    if own_game is None:
        return None
    return CountedGame(key, own_game.name,
                       games.get("generic").scores_points(own_game.house_rules),
                       cooperative=own_game.scoring == "cooperative")


def rate(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def percent(value: float) -> str:
    """A share (0 to 1) as a whole percentage, written as the active language writes it."""
    # Translators: a whole percentage, e.g. "42%"; French puts a narrow space before the sign.
    return _("%(number)s%%") % {"number": round(value * 100)}


# Players --------------------------------------------------------------------------


@dataclass
class GameLine:
    """One game in a player's record."""

    key: str
    name: str
    plays: int
    wins: int

    @property
    def win_rate(self) -> float | None:
        return rate(self.wins, self.plays)


@dataclass
class HeadToHead:
    """A player against one opponent: plays together, and who placed higher, per game."""

    opponent: Player
    together: int = 0
    ahead: int = 0
    behind: int = 0
    level: int = 0
    by_game: list[dict[str, Any]] = field(default_factory=list)


def winning_streaks(places: list[int | None]) -> tuple[int, int]:
    """(current, longest) run of first places in ``places``, oldest first."""
    longest = current = 0
    for place in places:
        current = current + 1 if place == 1 else 0
        longest = max(longest, current)
    return current, longest


def games_and_places(player: Player) -> tuple[list[GameLine], list[dict[str, int]]]:
    """Plays and wins per game, most played first, and how often the player came
    1st, 2nd, ... (shared places count as that place): one count per game and place."""
    per_game: dict[str, GameLine] = {}
    per_place: dict[int | None, int] = {}
    for row in (counted_seats(player).values("play__game_key", "place")
                .annotate(count=Count("id"))):
        line = per_game.setdefault(row["play__game_key"],
                                   GameLine(row["play__game_key"], "", 0, 0))
        line.plays += row["count"]
        line.wins += row["count"] if row["place"] == 1 else 0
        per_place[row["place"]] = per_place.get(row["place"], 0) + row["count"]
    names = game_names(per_game)
    for line in per_game.values():
        line.name = names.get(line.key, line.key)
    lines = sorted(per_game.values(), key=lambda line: (-line.plays, line.key))
    places = [{"place": place, "count": count} for place, count
              in sorted(per_place.items(), key=lambda item: (item[0] is None, item[0] or 0))]
    return lines, places


def player_places(player: Player) -> list[int | None]:
    """The player's place in each counted play, oldest first: for the winning streaks."""
    return list(counted_seats(player)
                .order_by("play__played_on", "play__created_at", "play_id")
                .values_list("place", flat=True))


def results_over_time(player: Player) -> list[dict[str, Any]]:
    """Plays, wins and the last day played per month, or per year once the months would
    not fit a chart; oldest first.

    Grouped in the database on the ISO date's first seven characters, which it reads
    straight from the index; a date function would run in Python on SQLite.
    """
    months = list(counted_seats(player)
                  .annotate(month=Substr(Cast("play__played_on", CharField()), 1, 7))
                  .values("month")
                  .annotate(plays=Count("id"), wins=Count("id", filter=Q(place=1)),
                            last=Max("play__played_on"))
                  .order_by("month"))
    for month in months:
        year, number = month["month"].split("-")
        month["label"] = f"{number}/{year}"
    if len(months) <= 18:
        return months
    years: dict[str, dict[str, Any]] = {}
    for month in months:
        year = years.setdefault(month["month"][:4], {"label": month["month"][:4], "plays": 0,
                                                     "wins": 0, "last": None})
        year["plays"] += month["plays"]
        year["wins"] += month["wins"]
        year["last"] = month["last"]
    return list(years.values())


def average(row: dict[str, Any], total: str, count: str) -> float | None:
    """``row[total] / row[count]``, or None where there is nothing to divide."""
    return row[total] / row[count] if row.get(count) else None


def kniffel_profile(player: Player) -> dict[str, Any] | None:
    """Classic Kniffel: average, best, Kniffels, upper bonus, per-field averages.

    The field averages come from the running totals of :mod:`tracker.table.tallies`.
    """
    mine = counted_participations(player.household).filter(player=player, play__game_key="kniffel")
    totals = mine.aggregate(
        plays=Count("id"), average=Avg("points"), best=Max("points"),
        bonus=Count("id", filter=Q(details__bonus__gt=0)),
        extra=Sum(Cast(KT("details__extra_kniffels"), IntegerField())))
    if not totals["plays"]:
        return None
    per_field = {row["field"]: row for row in KniffelFieldTally.objects.filter(
        player__household=player.household_id, game="kniffel").order_by().values("field")
        .annotate(all_cells=Sum("cells"), all_points=Sum("points"),
                  my_cells=Sum("cells", filter=Q(player=player)),
                  my_points=Sum("points", filter=Q(player=player)),
                  my_scored=Sum("scored", filter=Q(player=player)))}
    rules = games.get("kniffel")
    fields = [{"key": f.key, "label": say(f.label),
               "mine": average(per_field.get(f.key, {}), "my_points", "my_cells"),
               "household": average(per_field.get(f.key, {}), "all_points", "all_cells")}
              for f in rules.fields]
    kniffels = (per_field.get("kniffel", {}).get("my_scored") or 0) + (totals["extra"] or 0)
    return {"plays": totals["plays"], "average": totals["average"], "best": totals["best"],
            "kniffels": kniffels, "bonus": totals["bonus"],
            "bonus_rate": rate(totals["bonus"], totals["plays"]), "fields": fields}


def maus_profile(player: Player) -> dict[str, Any] | None:
    """Die Maus im Nacken: points per race, and the share of elephants home and caught."""
    totals = (counted_participations(player.household)
              .filter(player=player, play__game_key="maus_im_nacken")
              .aggregate(races=Count("id"), points=Avg("points"),
                         home=Sum(Cast(KT("details__home"), IntegerField())),
                         caught=Sum(Cast(KT("details__caught"), IntegerField()))))
    if not totals["races"]:
        return None
    elephants = totals["races"] * ELEPHANTS_PER_PLAYER
    return {"races": totals["races"], "points": totals["points"],
            "home": rate(totals["home"] or 0, elephants),
            "caught": rate(totals["caught"] or 0, elephants)}


def head_to_head(player: Player, players: dict[int, Player]) -> list[HeadToHead]:
    """Every opponent the player met, most plays together first (from the running totals
    of :mod:`tracker.table.tallies`)."""
    rows = list(HeadToHeadTally.objects.filter(player=player, together__gt=0).order_by("game")
                .values_list("opponent", "game", "together", "ahead", "behind"))
    names = game_names(row[1] for row in rows)
    found: dict[int, HeadToHead] = {}
    for opponent, game, together, ahead, behind in rows:
        line = found.setdefault(opponent, HeadToHead(players[opponent]))
        level = together - ahead - behind
        line.together += together
        line.ahead += ahead
        line.behind += behind
        line.level += level
        line.by_game.append({"key": game, "name": names.get(game, game), "together": together,
                             "ahead": ahead, "behind": behind, "level": level})
    return sorted(found.values(), key=lambda line: (-line.together, line.opponent.name.lower()))


def player_stats(player: Player, players: dict[int, Player]) -> dict[str, Any]:
    """Everything the player's page shows; ``players`` are the household's, by pk."""
    per_game, places = games_and_places(player)
    over_time = results_over_time(player)
    plays = sum(line.plays for line in per_game)
    wins = sum(line.wins for line in per_game)
    current, longest = winning_streaks(player_places(player))
    return {
        "plays": plays, "wins": wins, "win_rate": rate(wins, plays),
        "games": per_game, "places": places,
        "current_streak": current, "longest_streak": longest,
        "favourite": per_game[0] if per_game else None,
        "last_played": over_time[-1]["last"] if over_time else None,
        "kniffel": kniffel_profile(player), "maus": maus_profile(player),
        "head_to_head": head_to_head(player, players),
        "over_time": over_time,
    }


# Games ----------------------------------------------------------------------------


@dataclass
class Record:
    """A stand-out result: what it is, the points, who set it and in which play; a team's
    record is held by every one of its players."""

    label: str
    points: int
    participant: Participant
    holders: list[Player] = field(default_factory=list)


def side_of(seat: Participant) -> list[Player]:
    """The players who share ``seat``'s result: its team, or the seat's player alone.

    Reads the play's seats once (one query) through the ``play`` already selected."""
    team = (seat.details or {}).get("team")
    if team is None:
        return [seat.player]
    return [other.player for other in seat.play.participants.select_related("player")
            if (other.details or {}).get("team") == team]


def best_result(rows: QuerySet[Participant], lowest: bool) -> Participant | None:
    """The participant with the most (or fewest) points, earliest first when tied."""
    order = "points" if lowest else "-points"
    return (rows.filter(points__isnull=False).select_related("player", "play__game_night")
            .order_by(order, "play__created_at", "id").first())


def game_records(household: Household, key: str) -> list[Record]:
    """The game's natural records: the best score (and, for Kniffel, the worst)."""
    rows = counted_participations(household).filter(play__game_key=key, play__scored_by_points=True)
    records = []
    lower = (counted_plays(household).filter(game_key=key, scored_by_points=True)
             .values_list("lower_is_better", flat=True).distinct())
    for lowest in sorted(set(lower)):
        best = best_result(rows.filter(play__lower_is_better=lowest), lowest)
        if best is not None:
            label = _("Fewest points") if lowest else _("Most points")
            records.append(Record(label, best.points, best, side_of(best)))
    if key in ("kniffel", "weltraum_kniffel"):
        worst = best_result(rows, lowest=True)
        if worst is not None:
            records.append(Record(_("Fewest points"), worst.points, worst, [worst.player]))
    return records


def leaderboard(household: Household, key: str, players: dict[int, Player],
                min_plays: int = LEADERBOARD_MIN_PLAYS) -> list[dict[str, Any]]:
    """Players with at least ``min_plays`` plays of the game, best win rate first."""
    rows = list(counted_participations(household).filter(play__game_key=key).values("player")
                .annotate(plays=Count("id"), wins=Count("id", filter=Q(place=1)))
                .filter(plays__gte=min_plays))
    for row in rows:
        row["player"] = players[row["player"]]
        row["win_rate"] = row["wins"] / row["plays"]
    ranks = shared_places(range(len(rows)), lambda i: (-rows[i]["win_rate"], -rows[i]["wins"]))
    for index, row in enumerate(rows):
        row["rank"] = ranks[index]
    return sorted(rows, key=lambda row: (row["rank"], row["player"].name.lower()))


def score_distribution(household: Household, key: str) -> list[dict[str, Any]]:
    """How often each range of points was scored, once for each side (a team's score counts
    once, as the family counts it); places for games without points."""
    game = counted_game(household, key)
    return distribution_of(household, key, game is not None and game.scored_by_points)


def distribution_of(household: Household, key: str, scored_by_points: bool
                    ) -> list[dict[str, Any]]:
    rows = one_seat_per_side(counted_participations(household).filter(play__game_key=key))
    if not scored_by_points:
        return [{"label": f"{row['place']}.", "count": row["count"]}
                for row in rows.filter(place__isnull=False).values("place")
                .annotate(count=Count("id")).order_by("place")]
    scored = rows.filter(play__scored_by_points=True, points__isnull=False)
    span = scored.aggregate(low=Min("points"), high=Max("points"))
    if span["low"] is None:
        return []
    width = max(1, math.ceil((span["high"] - span["low"] + 1) / DISTRIBUTION_BINS))
    counts = dict(scored.annotate(bin=(F("points") - span["low"]) / width)
                  .values("bin").annotate(count=Count("id")).values_list("bin", "count"))
    bins = []
    for index in range(max(counts) + 1):
        start = span["low"] + index * width
        label = str(start) if width == 1 else f"{start}–{start + width - 1}"
        bins.append({"label": label, "count": counts.get(index, 0)})
    return bins


def played_games(household: Household) -> list[dict[str, Any]]:
    """The games the household finished at least once, most played first."""
    rows = list(counted_plays(household).values("game_key").annotate(plays=Count("id"))
                .order_by("-plays", "game_key"))
    names = game_names(row["game_key"] for row in rows)
    return [{"key": row["game_key"], "name": names.get(row["game_key"], row["game_key"]),
             "plays": row["plays"]} for row in rows]


# History --------------------------------------------------------------------------

HISTORY_KINDS = ("night", "play", "series", "tournament")


def history_entries(household: Household, *, game: str | None = None,
                    player: Player | None = None, series: Series | None = None,
                    place: str | None = None, since: date | None = None,
                    until: date | None = None) -> QuerySet:
    """Nights, plays, series and tournaments as one list of (kind, pk, day), newest first.

    One UNION query, so the page can count and slice all four kinds together and then
    load only the entries it shows. A ``place`` ("" for at home) keeps the nights there,
    their plays, and the series and tournaments with a play there.
    """
    nights = GameNight.objects.filter(household=household).annotate(day=F("date"))
    plays = Play.objects.filter(household=household).annotate(day=F("played_on"))
    # Few rows, so a per-row conversion to the household's local day costs nothing here.
    competitions = [model.objects.filter(household=household)
                    .annotate(day=TruncDate("created_at"))
                    for model in (Series, Tournament)]
    if game:
        nights = nights.filter(pk__in=Play.objects.filter(game_key=game).values("game_night"))
        plays = plays.filter(game_key=game)
        own_game_id = own_game_id_of(game)
        competitions = [qs.filter(own_game=own_game_id) if own_game_id is not None
                        else qs.filter(game=game, own_game__isnull=True)
                        for qs in competitions]
    if player:
        nights = nights.filter(pk__in=Participant.objects.filter(player=player)
                               .values("play__game_night"))
        plays = plays.filter(pk__in=Participant.objects.filter(player=player).values("play"))
        competitions = [qs.filter(players=player) for qs in competitions]
    if series:
        nights = nights.filter(pk__in=series.plays.values("game_night"))
        plays = plays.filter(series=series)
        competitions = [competitions[0].filter(pk=series.pk), competitions[1].none()]
    if place is not None:
        there = Play.objects.filter(household=household, game_night__place=place)
        nights = nights.filter(place=place)
        plays = plays.filter(game_night__place=place)
        competitions = [qs.filter(pk__in=there.values(field))
                        for qs, field in zip(competitions, ("series", "tournament"), strict=True)]
    parts = [nights, plays, *competitions]
    if since:
        parts = [qs.filter(day__gte=since) for qs in parts]
    if until:
        parts = [qs.filter(day__lte=until) for qs in parts]
    # A night heads the plays of its day, although it was created before them.
    selected = [qs.annotate(kind=Value(kind), after_night=Value(int(kind != "night")))
                .order_by().values("kind", "pk", "day", "after_night", "created_at")
                for kind, qs in zip(HISTORY_KINDS, parts, strict=True)]
    return selected[0].union(*selected[1:], all=True).order_by(
        "-day", "after_night", "-created_at", "-pk")


# The year in review ---------------------------------------------------------------


def year_review(household: Household, year: int, players: dict[int, Player]) -> dict[str, Any]:
    """Nights, plays, the most played game, each game's champion, records set, the best
    night, and the plays the family wrote a note about."""
    plays = counted_plays(household).filter(in_year(year))
    per_game = list(plays.values("game_key").annotate(plays=Count("id"))
                    .order_by("-plays", "game_key"))
    names = game_names(row["game_key"] for row in per_game)
    seats = counted_participations(household).filter(in_year(year, "play__"))
    best_night = (GameNight.objects.filter(household=household, date__year=year)
                  .annotate(plays_count=Count("plays", distinct=True,
                                              filter=Q(plays__status=PlayStatus.FINISHED,
                                                       plays__in_statistics=True)),
                            players_count=Count("players", distinct=True))
                  .filter(plays_count__gt=0)
                  .order_by("-plays_count", "-players_count", "date").first())
    return {
        "year": year,
        "nights": GameNight.objects.filter(household=household, date__year=year).count(),
        "plays": sum(row["plays"] for row in per_game),
        "games": [{"key": row["game_key"], "name": names.get(row["game_key"], row["game_key"]),
                   "plays": row["plays"]} for row in per_game],
        "most_played": ({"key": per_game[0]["game_key"],
                         "name": names.get(per_game[0]["game_key"], per_game[0]["game_key"]),
                         "plays": per_game[0]["plays"]} if per_game else None),
        "champions": champions(seats, players),
        "records": records_set(household, year),
        "best_night": best_night,
        "moments": moments(household, year),
    }


def moments(household: Household, year: int) -> list[Play]:
    """The year's finished plays with a note, the way the family remembers them: oldest
    first, with their players (two queries)."""
    return list(counted_plays(household).filter(in_year(year)).exclude(note="")
                .select_related("own_game", "series", "tournament")
                .prefetch_related(participants_in_seat_order())
                .order_by("played_on", "created_at", "id"))


def champions(seats: QuerySet[Participant], players: dict[int, Player]
              ) -> list[dict[str, Any]]:
    """Per game, the players with the most wins (ties share the title)."""
    rows = (seats.values("play__game_key", "player")
            .annotate(wins=Count("id", filter=Q(place=1)), plays=Count("id"))
            .filter(wins__gt=0))
    best: dict[str, dict[str, Any]] = {}
    for row in rows:
        entry = best.setdefault(row["play__game_key"], {"key": row["play__game_key"], "wins": 0,
                                                    "players": []})
        if row["wins"] > entry["wins"]:
            entry.update(wins=row["wins"], players=[])
        if row["wins"] == entry["wins"]:
            entry["players"].append(players[row["player"]])
    result = []
    names = game_names(best)
    for key, entry in best.items():
        entry["name"] = names.get(key, key)
        entry["players"].sort(key=lambda player: player.name.lower())
        result.append(entry)
    return sorted(result, key=lambda entry: entry["name"].lower())


def records_set(household: Household, year: int) -> list[dict[str, Any]]:
    """Each game whose best score (most points, or fewest where fewer win) fell in ``year``.

    A score equal to the earlier best ties the record and is not a new one.
    """
    scored = counted_participations(household).filter(play__scored_by_points=True,
                                                       points__isnull=False)
    keys = ("play__game_key", "play__lower_is_better")
    this_year = {(row["play__game_key"], row["play__lower_is_better"]): row for row in
                 scored.filter(in_year(year, "play__")).values(*keys)
                 .annotate(high=Max("points"), low=Min("points"))}
    before = {(row["play__game_key"], row["play__lower_is_better"]): row for row in
              scored.filter(play__played_on__lt=date(year, 1, 1))
              .values(*keys).annotate(high=Max("points"), low=Min("points"))}
    wanted: dict[tuple[str, bool], int] = {}
    for group, row in this_year.items():
        lowest = group[1]
        value = row["low"] if lowest else row["high"]
        earlier = before.get(group)
        if earlier is None or (value < earlier["low"] if lowest else value > earlier["high"]):
            wanted[group] = value
    # From a condition no row meets rather than returning early: the page then runs the
    # same queries in a year without a record as in one with records.
    holders = Q(pk__isnull=True)
    for (key, lowest), value in wanted.items():
        holders |= Q(play__game_key=key, play__lower_is_better=lowest, points=value)
    found = (scored.filter(in_year(year, "play__")).filter(holders)
             .select_related("player", "play__game_night").order_by("play__created_at", "id"))
    result: dict[tuple[str, bool], dict[str, Any]] = {}
    names = game_names(key for key, _lowest in wanted)
    for participant in found:
        group = (participant.play.game_key, participant.play.lower_is_better)
        entry = result.setdefault(group, {
            "name": names.get(group[0], group[0]), "key": group[0], "points": wanted[group],
            "label": _("Fewest points") if group[1] else _("Most points"), "by": []})
        # A holder who reached the record in two plays holds it once.
        if all(other.player_id != participant.player_id for other in entry["by"]):
            entry["by"].append(participant)
    return sorted(result.values(), key=lambda entry: entry["name"].lower())


def year_in_range(year: int) -> bool:
    return 1900 <= year <= 2999


def years_played(household: Household) -> list[int]:
    """Years with a finished play, newest first (for series and tournaments without nights)."""
    # The year as the first four characters of the ISO date, which both databases can
    # read straight from the index; a date function would run in Python on SQLite.
    years = (counted_plays(household).annotate(year=Substr(Cast("played_on", CharField()), 1, 4))
             .values_list("year", flat=True).distinct())
    return sorted((int(year) for year in years), reverse=True)
