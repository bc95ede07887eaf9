"""Recording a game night, a series and a tournament: starting their games, agreeing more
races, ending early, seating rounds, dropping out.

Each game is started and recorded through :mod:`tracker.table.recording`; this module
decides which games, with whom and in which night."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import QuerySet
from django.db.models.functions import Lower
from django.utils import timezone

import games
from tracker.evenings.models import GameNight, Series, SeriesChange, Tournament, TournamentEntry
from tracker.households.models import Household, Player, household_changed
from tracker.table.models import Play, PlayChange
from tracker.table.recording import EditConflict, set_status, start_play


class FinalTableChoice(Exception):
    """Players are level on every tie-break at the final table's cut, and the organiser
    did not choose exactly ``cut.open_seats`` of them to sit."""

    def __init__(self, cut: games.Cut):
        super().__init__(f"choose {cut.open_seats} of {', '.join(cut.tied)}")
        self.cut = cut






def tonights_night(household: Household, players: Sequence[Player] = (),
                   user: AbstractBaseUser | None = None) -> GameNight:
    """Today's game night of the household, started if there is none yet.

    ``players`` are marked present: whoever sits down at a table tonight is here.
    """
    with transaction.atomic():
        # Locking the household keeps two tablets from starting two nights at once.
        Household.objects.select_for_update().filter(pk=household.pk).first()
        today = timezone.localdate()
        night = (GameNight.objects.filter(household=household, date=today).order_by("id")
                 .first())
        if night is None:
            night = GameNight.objects.create(household=household, date=today, host=user)
        if players:
            night.players.add(*players)
            household_changed(household.pk)
    return night


def start_rematch(play: Play, *, user: AbstractBaseUser | None = None) -> Play:
    """The same game with the same players in the same seats, tonight.

    The next player round the table starts, so that starting moves on from game to game.
    """
    seated = sorted(play.participants.all(), key=lambda p: p.seat)
    players = [participant.player for participant in seated]
    night = tonights_night(play.household, players, user)
    return start_play(household=play.household, game=play.game, own_game=play.own_game,
                      players=players, house_rules=play.house_rules, game_night=night,
                      start_seat=(play.start_seat + 1) % len(players), user=user)




def start_series_race(series: Series, *, user: AbstractBaseUser | None = None,
                      night: GameNight | None = None) -> Play:
    """The next race of a running series, with its players and house rules, in tonight's night.

    The players sit in the series' order; the start player moves one seat on every race.
    ``night`` is the game night the race belongs to; by default tonight's.
    """
    with transaction.atomic():
        locked = Series.objects.select_for_update().get(pk=series.pk)
        number = locked.next_race_number()
        if number is None:
            raise EditConflict
        players = list(locked.players.order_by(Lower("name")))
        night = night or tonights_night(locked.household, players, user)
        return start_play(household=locked.household, game=locked.game, players=players,
                          own_game=locked.own_game,
                          house_rules=locked.house_rules, series=locked, race_number=number,
                          game_night=night, start_seat=(number - 1) % len(players), user=user)


def change_series_length(series: Series, action: str, *, user: AbstractBaseUser | None = None,
                         extra_races: int = 1) -> None:
    """End a running series after the races played so far, or agree more races.

    Ending early abandons a race still under way. One more race reopens a finished or
    ended series. Both decisions are recorded.
    """
    with transaction.atomic():
        locked = Series.objects.select_for_update().get(pk=series.pk)
        finished = locked.plays.filter(status=Play.Status.FINISHED).count()
        before = locked.races_planned
        if action == SeriesChange.Action.ENDED_EARLY:
            if locked.status != Series.Status.RUNNING:
                raise EditConflict
            abandon_open_plays(locked.plays.all(), user)
            locked.races_planned = max(1, finished)
            locked.status = Series.Status.ENDED_EARLY
        else:
            if before >= 100:
                raise EditConflict
            locked.races_planned = min(100, max(before, finished) + extra_races)
            locked.status = Series.Status.RUNNING
        locked.save(update_fields=["races_planned", "status"])
        SeriesChange.objects.create(series=locked, action=action, races_before=before,
                                    races_after=locked.races_planned, changed_by=user)
        household_changed(locked.household_id)
    series.refresh_from_db()


def abandon_open_plays(plays: QuerySet[Play], user: AbstractBaseUser | None) -> None:
    """Abandon the plays still under way, each with its history entry."""
    open_plays = list(plays.filter(status=Play.Status.IN_PROGRESS))
    for play in open_plays:
        set_status(play, Play.Status.ABANDONED, None)
    PlayChange.objects.bulk_create(
        PlayChange(play=play, action=PlayChange.Action.ABANDONED, changed_by=user)
        for play in open_plays)


def end_tournament(tournament: Tournament, *, user: AbstractBaseUser | None = None) -> None:
    """End a running tournament after the rounds played; tables under way are abandoned."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status != Tournament.Status.RUNNING:
            raise EditConflict
        abandon_open_plays(locked.plays.all(), user)
        locked.status = Tournament.Status.ENDED_EARLY
        locked.save(update_fields=["status"])
        household_changed(locked.household_id)
    tournament.refresh_from_db()


def tournament_rounds(tournament: Tournament) -> list[list[Play]]:
    """The tournament's tables so far, round by round, in table order."""
    rounds: dict[int, list[Play]] = {}
    plays = (tournament.plays.order_by("round_number", "table_number")
             .prefetch_related("participants"))
    for play in plays:
        rounds.setdefault(play.round_number, []).append(play)
    return [rounds[number] for number in sorted(rounds)]


def start_tournament_round(tournament: Tournament, *, user: AbstractBaseUser | None = None,
                           night: GameNight | None = None, finalists: Sequence[str] = ()
                           ) -> list[Play]:
    """Seat the next round with the engine and open a play for each table, in tonight's night.

    A conflict when the previous round still has tables without a result, or all
    rounds are played. Players who dropped out are left out; who met whom and who
    sat first so far still count for the seating. ``night`` is the game night the
    round belongs to; by default tonight's. ``finalists`` are the players (keys) the
    organiser chose among those level at the final table's cut.
    """
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        rounds = tournament_rounds(locked)
        last_round = locked.final_round or locked.rounds_planned
        if locked.status != Tournament.Status.RUNNING or len(rounds) >= last_round:
            raise EditConflict
        if rounds and any(play.status == Play.Status.IN_PROGRESS for play in rounds[-1]):
            raise EditConflict
        number = len(rounds) + 1
        if number == locked.final_round:
            return [start_final_table(locked, user, night, finalists)]
        entries = locked.entries.select_related("player").order_by(Lower("player__name"))
        active = [entry.player for entry in entries
                  if entry.dropped_after_round is None or entry.dropped_after_round >= number]
        night = night or tonights_night(locked.household, active, user)
        history = [[[p.player_key for p in sorted(play.participants.all(), key=lambda p: p.seat)]
                    for play in tables] for tables in rounds]
        by_key = {player.key: player for player in active}
        [seating] = games.seat_rounds(list(by_key), 1, locked.table_sizes,
                                      seed=locked.seed + number, history=history)
        return [start_play(household=locked.household, game=locked.game,
                           own_game=locked.own_game, players=[by_key[key] for key in table],
                           house_rules=locked.house_rules, tournament=locked,
                           round_number=number, table_number=index, game_night=night, user=user)
                for index, table in enumerate(seating, start=1)]


def drop_out(tournament: Tournament, player: Player) -> None:
    """``player`` plays no more rounds after the ones already seated."""
    played = tournament.plays.values_list("round_number", flat=True).order_by(
        "-round_number").first() or 0
    with transaction.atomic():
        TournamentEntry.objects.filter(tournament=tournament, player=player,
                                       dropped_after_round__isnull=True).update(
            dropped_after_round=played)
        household_changed(tournament.household_id)


def start_final_table(tournament: Tournament, user: AbstractBaseUser | None,
                      night: GameNight | None = None, chosen: Sequence[str] = ()) -> Play:
    """The best ``final_table`` players of the rounds, in standings order, at one table.

    Players who dropped out do not sit. Of the players level on every tie-break at
    the cut, those in ``chosen`` sit; :class:`FinalTableChoice` unless they are exactly
    as many as the seats left for them.
    """
    cut = tournament.final_cut()
    picked = [key for key in cut.tied if key in set(chosen)]
    if len(picked) != cut.open_seats:
        raise FinalTableChoice(cut)
    players = {player.key: player for player in tournament.players.all()}
    best = [players[key] for key in (*cut.seated, *picked)]
    night = night or tonights_night(tournament.household, best, user)
    return start_play(household=tournament.household, game=tournament.game, players=best,
                      own_game=tournament.own_game, house_rules=tournament.house_rules,
                      tournament=tournament, round_number=tournament.final_round,
                      table_number=1, game_night=night, user=user)
