"""What the pages of the evening show: tonight's night and its standings, the open games,
the recent series and tournaments, a series' races and a tournament's rounds.

The views and the room's boards render these."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Case, Count, Max, Prefetch, Q, QuerySet, When
from django.utils import timezone

import games
from games.base import shared_places
from tracker.evenings.models import GameNight, Series, Tournament
from tracker.evenings.standings import cut_for_page, tiebreak_lines, tournament_place_points
from tracker.households.access import M
from tracker.households.models import Household
from tracker.table.models import Participant, Play, PlayStatus
from tracker.table.queries import participants_in_seat_order

RECENT_COMPETITIONS = 5


def open_plays(household: Household) -> QuerySet[Play]:
    """The household's games under way, the latest changed first."""
    return (Play.objects.filter(household=household, status=PlayStatus.IN_PROGRESS)
            .select_related("game_night", "series", "tournament", "own_game")
            .prefetch_related(participants_in_seat_order())
            .order_by("-updated_at", "-id"))


def running_first(queryset: QuerySet[M], running: str) -> QuerySet[M]:
    """Running ones first, then the newest."""
    return queryset.annotate(done=Case(When(status=running, then=0), default=1)).order_by(
        "done", "-created_at", "-id")


def recent_series(household: Household) -> list[Series]:
    """The running series, then the latest finished or ended ones."""
    return list(running_first(Series.objects.filter(household=household), Series.Status.RUNNING)
                .select_related("own_game")
                .annotate(races_played=Count("plays", distinct=True,
                                             filter=Q(plays__status=PlayStatus.FINISHED)))
                # The token of its board's link, unless revoked: a link to the TV board.
                .annotate(board_token=Max("share_links__token",
                                          filter=Q(share_links__revoked_at__isnull=True)))[:RECENT_COMPETITIONS])


def recent_tournaments(household: Household) -> list[Tournament]:
    """The running tournaments, then the latest finished or ended ones."""
    return list(running_first(Tournament.objects.filter(household=household),
                              Tournament.Status.RUNNING)
                .select_related("own_game")[:RECENT_COMPETITIONS])




@dataclass
class NightRow:
    """A player's evening: games played, and how often they came first, second and third."""

    name: str
    colour: str
    pk: int
    played: int = 0
    wins: int = 0
    seconds: int = 0
    thirds: int = 0
    rank: int = 0


def night_standings(plays: list[Play]) -> list[NightRow]:
    """Most wins first, then most second places, then third places; ties share a rank.

    A co-operative game the table won is a win for everyone at it; one the table lost is
    nobody's win nor second place (the engine gives the game place 1). In a team game every
    member counts the team's place. A play kept out of the statistics counts for nobody.
    """
    rows: dict[str, NightRow] = {}
    for play in plays:
        if play.status != PlayStatus.FINISHED or not play.in_statistics:
            continue
        for participant in play.participants.all():
            player = participant.player
            row = rows.setdefault(player.key, NightRow(player.name, player.colour, player.pk))
            row.played += 1
            place = participant.place
            if play.cooperative and place != 1:
                continue
            if place in (1, 2, 3):
                attribute = ("wins", "seconds", "thirds")[place - 1]
                setattr(row, attribute, getattr(row, attribute) + 1)
    places = shared_places(rows, lambda key: (-rows[key].wins, -rows[key].seconds,
                                              -rows[key].thirds))
    for key, row in rows.items():
        row.rank = places[key]
    return sorted(rows.values(), key=lambda row: (row.rank, row.name))


def night_context(night: GameNight) -> dict[str, Any]:
    """The night's plays, series races and tournament tables included, and its standings."""
    plays = list(night.plays.select_related("series", "tournament", "own_game")
                 .prefetch_related(participants_in_seat_order())
                 .order_by("created_at", "id"))
    return {"night": night, "plays": plays, "standings": night_standings(plays),
            "is_tonight": night.date == timezone.localdate(),
            "in_progress": [play for play in plays if play.status == PlayStatus.IN_PROGRESS]}


def series_context(series: Series) -> dict[str, Any]:
    """Standings after every race, race by race, the lead and the races left."""
    races = list(series.plays.select_related("own_game").exclude(status=PlayStatus.ABANDONED)
                 .order_by("race_number")
                 .prefetch_related(Prefetch("participants",
                                            queryset=Participant.objects.order_by("seat"))))
    finished = [race for race in races if race.status == PlayStatus.FINISHED]
    players = {player.key: player for player in series.players.all()}
    rows = series.standings(finished)
    leader, runner_up = (rows + [None, None])[:2]
    open_race = next((race for race in races if race.status == PlayStatus.IN_PROGRESS), None)
    running = series.status == Series.Status.RUNNING
    return {
        "series": series,
        "rules": series.rules,
        "races": races,
        "finished_races": finished,
        "rows": [{"row": row, "player": players.get(row.player)} for row in rows],
        "lead": abs(leader.total - runner_up.total) if leader and runner_up else 0,
        "leader": players.get(leader.player) if leader and finished else None,
        "winners": [players[row.player] for row in rows if row.rank == 1 and row.player in players]
        if finished and not running else [],
        "races_left": max(0, series.races_planned - len(races)),
        "open_race": open_race,
        "next_race": series.next_race_number(),
        "changes": series.changes.select_related("changed_by"),
        "tiebreak_lines": tiebreak_lines(rows, series.tiebreak_order,
                                         {key: player.name for key, player in players.items()}),
    }


def tournament_context(tournament: Tournament) -> dict[str, Any]:
    """The current round's tables with their players, and the standings (constant queries)."""
    plays = list(tournament.plays.select_related("own_game")
                 .order_by("round_number", "table_number")
                 .prefetch_related(participants_in_seat_order()))
    entries = {str(entry.player_id): entry for entry in
               tournament.entries.select_related("player")}
    current = max((play.round_number for play in plays), default=0)
    tables = [play for play in plays if play.round_number == current]
    complete = all(play.status != PlayStatus.IN_PROGRESS for play in tables)
    standings = [item | {"entry": entries[item["player"]]}
                 for item in tournament.standings(plays)]
    names = {key: entry.player.name for key, entry in entries.items()}
    last_round = tournament.final_round or tournament.rounds_planned
    can_start = (complete and current < last_round
                 and tournament.status == Tournament.Status.RUNNING)
    return {
        "tournament": tournament,
        "rules": tournament.rules,
        "round": current,
        "tables": tables,
        "is_final": current == tournament.final_round,
        "round_complete": complete and bool(tables),
        "can_start": can_start,
        "next_round": current + 1,
        "next_is_final": current + 1 == tournament.final_round,
        "finished": tournament.status == Tournament.Status.FINISHED,
        "running": tournament.status == Tournament.Status.RUNNING,
        "rounds": range(1, max(current, 1) + 1),
        "standings": standings,
        "active": [entry for entry in entries.values() if entry.dropped_after_round is None],
        "scored_by_points": tournament.scored_by_points,
        "place_points": tournament_place_points(tournament),
        "tiebreak_labels": [games.METRICS[key].label for key in tournament.tiebreaks[1:]],
        "cut": final_cut(tournament, plays, names, current, can_start),
    }


def final_cut(tournament: Tournament, plays: list[Play], names: dict[str, str], current: int,
              can_start: bool) -> dict[str, Any] | None:
    """Who sits at the final table, once the rounds before it are played; None before."""
    final_round = tournament.final_round
    if final_round is None or not (current == final_round
                                   or can_start and current + 1 == final_round):
        return None
    seated = [p.player_key for play in plays if play.round_number == final_round
              for p in play.participants.all()]
    return cut_for_page(tournament.final_cut(plays), tournament.tiebreaks, names, seated)
