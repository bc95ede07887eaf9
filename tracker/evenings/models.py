"""Game nights, and the series and tournaments that several plays make up."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import games
from tracker.households.models import Household, Player, household_changed
from tracker.table.models import OwnGame, Play, PlayStatus, game_choices, game_display


class SeriesStatus(models.TextChoices):
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    ENDED_EARLY = "ended_early", _("Ended early")


class GameNight(models.Model):
    """An evening of games: a date, a host, the players present and their plays."""

    household = models.ForeignKey(Household, on_delete=models.CASCADE,
                                  related_name="game_nights", verbose_name=_("household"))
    date = models.DateField(_("date"), default=timezone.localdate)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="hosted_nights", verbose_name=_("host"))
    players = models.ManyToManyField(Player, related_name="game_nights", blank=True,
                                     verbose_name=_("players present"))
    notes = models.TextField(_("notes"), blank=True)
    #: Where the night took place; empty for at home.
    place = models.CharField(_("where"), max_length=100, blank=True, default="")
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("game night")
        verbose_name_plural = _("game nights")
        ordering = ["-date", "-id"]
        indexes = [models.Index(fields=["household", "date"], name="night_household_date")]

    def __str__(self) -> str:
        return f"{self.household} {self.date:%Y-%m-%d}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, and move the night's plays to its new date when the date changed."""
        moved = self.pk is not None and getattr(self, "_stored_date", self.date) != self.date
        with transaction.atomic():
            super().save(*args, **kwargs)
            if moved:
                # Their change time too: the ratings, kept by it, take them in a new order.
                self.plays.update(played_on=self.date, updated_at=timezone.now())
            household_changed(self.household_id)
        self._stored_date = self.date

    def get_absolute_url(self) -> str:
        return reverse("night_detail", args=[self.pk])

    @classmethod
    def from_db(cls, db: Any, field_names: Any, values: Any) -> GameNight:
        night = super().from_db(db, field_names, values)
        night._stored_date = night.__dict__.get("date")
        return night


def places_used(household: Household) -> list[str]:
    """The places of the household's game nights other than at home, the latest first: what
    a night's form offers to choose from."""
    return list(GameNight.objects.filter(household=household).exclude(place="")
                .values("place").annotate(last=models.Max("date"))
                .order_by("-last", "place").values_list("place", flat=True))


class Series(models.Model):
    """Several races of one game with the number agreed in advance, added up."""

    Status = SeriesStatus

    household = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="series",
                                  verbose_name=_("household"))
    name = models.CharField(_("name"), max_length=100)
    game = models.CharField(_("game"), max_length=40, choices=game_choices,
                            default="maus_im_nacken")
    own_game = models.ForeignKey(OwnGame, on_delete=models.PROTECT, null=True, blank=True,
                                 related_name="series", verbose_name=_("own game"))
    players = models.ManyToManyField(Player, related_name="series", verbose_name=_("players"))
    races_planned = models.PositiveSmallIntegerField(_("races agreed"), default=5)
    tiebreaks = models.JSONField(_("tie-break order"), default=list, blank=True,
                                 help_text=_("Empty: the game's own order."))
    place_points = models.JSONField(_("points per place"), default=list, blank=True,
                                    help_text=_("For games without points. Empty: the default "
                                                "table."))
    house_rules = models.JSONField(_("house rules"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=SeriesStatus,
                              default=SeriesStatus.RUNNING)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("series")
        verbose_name_plural = _("series")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(races_planned__gte=1, races_planned__lte=100),
                                   name="series_races_planned_1_to_100"),
            models.CheckConstraint(condition=Q(game__in=list(games.GAMES)),
                                   name="series_game_registered"),
            models.CheckConstraint(condition=Q(status__in=SeriesStatus.values),
                                   name="series_status_known"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("series_detail", args=[self.pk])

    @property
    def rules(self) -> games.Rules:
        return games.get(self.game)

    def get_game_display(self) -> str:
        """The game's name: an own game's as the family named it, else the rules'."""
        return game_display(self)

    @property
    def fewer_points_win(self) -> bool:
        """Whether the fewest points lead the standings (penalty points)."""
        return self.rules.fewer_points_win(self.rules.default_house_rules() | self.house_rules)

    @property
    def tiebreak_order(self) -> tuple[str, ...]:
        """The metrics standings are sorted on, most important first."""
        return tuple(self.tiebreaks) or self.rules.series_tiebreaks

    def standings(self, races: list[Play] | None = None) -> list[games.StandingRow]:
        """Standings from the stored points of the finished races, in race order.

        ``races`` are the finished races when the caller has them loaded already.
        """
        if races is None:
            races = list(self.plays.filter(status=PlayStatus.FINISHED)
                         .order_by("race_number", "id").prefetch_related("participants"))
        return games.series_standings(
            [race.stored_outcome() for race in races],
            tiebreaks=self.tiebreak_order,
            place_points=self.place_points or games.DEFAULT_PLACE_POINTS,
            players=[player.key for player in self.players.all()],
        )

    def next_race_number(self) -> int | None:
        """The number of the series' next race when one can start now: none is under way and
        fewer races than agreed have been started. None otherwise."""
        if self.status != Series.Status.RUNNING:
            return None
        races = list(self.plays.exclude(status=Play.Status.ABANDONED)
                     .values_list("status", flat=True))
        if Play.Status.IN_PROGRESS in races or len(races) >= self.races_planned:
            return None
        last = self.plays.order_by("-race_number").values_list("race_number", flat=True).first()
        return (last or 0) + 1

    def settle(self) -> None:
        """Keep the status in step with the races' results: a series is finished once its
        agreed races all have a result, and running before. A series ended early stays ended
        early, whatever is corrected afterwards."""
        locked = Series.objects.select_for_update().get(pk=self.pk)
        if locked.status == Series.Status.ENDED_EARLY:
            return
        finished = locked.plays.filter(status=Play.Status.FINISHED).count()
        status = (Series.Status.FINISHED if finished >= locked.races_planned
                  else Series.Status.RUNNING)
        if status != locked.status:
            locked.status = status
            locked.save(update_fields=["status"])


class TournamentStatus(models.TextChoices):
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    ENDED_EARLY = "ended_early", _("Ended early")


class Tournament(models.Model):
    """More players than one table holds: rounds of several tables, seated by the engine."""

    Status = TournamentStatus

    household = models.ForeignKey(Household, on_delete=models.CASCADE,
                                  related_name="tournaments", verbose_name=_("household"))
    name = models.CharField(_("name"), max_length=100)
    game = models.CharField(_("game"), max_length=40, choices=game_choices,
                            default="maus_im_nacken")
    own_game = models.ForeignKey(OwnGame, on_delete=models.PROTECT, null=True, blank=True,
                                 related_name="tournaments", verbose_name=_("own game"))
    players = models.ManyToManyField(Player, through="TournamentEntry",
                                     related_name="tournaments", verbose_name=_("players"))
    rounds_planned = models.PositiveSmallIntegerField(_("rounds"), default=3)
    final_table = models.PositiveSmallIntegerField(
        _("final table for the top"), null=True, blank=True,
        help_text=_("Optional: after the rounds, the best players play one final table."))
    seed = models.PositiveIntegerField(_("seating seed"), default=0)
    house_rules = models.JSONField(_("house rules"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=TournamentStatus,
                              default=TournamentStatus.RUNNING)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(rounds_planned__gte=1, rounds_planned__lte=30),
                                   name="tournament_rounds_1_to_30"),
            models.CheckConstraint(condition=Q(game__in=list(games.GAMES)),
                                   name="tournament_game_registered"),
            models.CheckConstraint(condition=Q(status__in=TournamentStatus.values),
                                   name="tournament_status_known"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament_detail", args=[self.pk])

    @property
    def rules(self) -> games.Rules:
        return games.get(self.game)

    def get_game_display(self) -> str:
        """The game's name: an own game's as the family named it, else the rules'."""
        return game_display(self)

    @property
    def tiebreaks(self) -> tuple[str, ...]:
        """The metrics standings are sorted on, most important first: the game's."""
        return self.rules.series_tiebreaks

    @property
    def table_sizes(self) -> tuple[int, int]:
        """The fewest and most players at one table: an own game's as its library entry says
        (read with the tournament: pages select it), else the rules'."""
        rules = self.rules
        if self.own_game_id is None:
            return rules.min_players, rules.max_players
        return (self.own_game.min_players or rules.min_players,
                self.own_game.max_players or rules.max_players)

    @property
    def scored_by_points(self) -> bool:
        """Whether tables have points of their own; otherwise places earn points."""
        rules = self.rules
        return rules.scores_points(rules.default_house_rules() | self.house_rules)

    @property
    def fewer_points_win(self) -> bool:
        """Whether the fewest points lead the standings (penalty points)."""
        rules = self.rules
        return rules.fewer_points_win(rules.default_house_rules() | self.house_rules)

    @property
    def final_round(self) -> int | None:
        """The number of the final table's round, when the tournament has one."""
        return self.rounds_planned + 1 if self.final_table else None

    def standings(self, plays: list[Play] | None = None) -> list[dict[str, Any]]:
        """Rows best first: player key, standing row and points per round.

        A round's points are None while the player's table is still playing (or when
        they did not play that round), so they show blank rather than 0.

        Total points over all finished tables, then the game's tie-breaks. When the
        final table is played, its places decide the top of the standings.
        """
        if plays is None:
            plays = list(self.plays.order_by("round_number", "table_number")
                         .prefetch_related("participants"))
        finished = [play for play in plays if play.status == PlayStatus.FINISHED]
        # A player withdrawn before round 1 never played: they are not in the standings.
        dropped = {str(player_id): after is not None for player_id, after in
                   self.entries.values_list("player_id", "dropped_after_round") if after != 0}
        outcomes = [play.stored_outcome() for play in finished]
        rows = games.series_standings(outcomes, self.tiebreaks, players=list(dropped))
        rounds = max((play.round_number for play in plays), default=0)
        final = next((play for play in finished if play.round_number == self.final_round), None)
        final_places = final.stored_outcome().places if final else {}
        result = []
        for row, rank in games.ranks_with_final(rows, final_places):
            per_round: list[int | None] = [None] * rounds
            for play, outcome, points in zip(finished, outcomes, row.race_points, strict=True):
                if row.player in outcome.points:
                    per_round[play.round_number - 1] = (
                        per_round[play.round_number - 1] or 0) + points
            result.append({"player": row.player, "row": row, "rounds": per_round, "rank": rank,
                           "dropped": dropped[row.player]})
        return result

    def final_cut(self, plays: list[Play] | None = None) -> games.Cut:
        """Who sits at the final table: the best of the rounds before it, tie-breaks applied.

        Players who dropped out do not sit. ``plays`` as for :meth:`standings`.
        """
        if plays is None:
            plays = list(self.plays.order_by("round_number", "table_number")
                         .prefetch_related("participants"))
        rounds = [play for play in plays if play.round_number != self.final_round]
        rows = [item["row"] for item in self.standings(rounds) if not item["dropped"]]
        return games.final_table_cut(rows, self.final_table or 0, self.tiebreaks)

    def settle(self) -> None:
        """Keep the status in step with the tables' results: a tournament is finished once
        every table of its last round is decided."""
        locked = Tournament.objects.select_for_update().get(pk=self.pk)
        if locked.status == Tournament.Status.ENDED_EARLY:
            return
        last_round = locked.final_round or locked.rounds_planned
        tables = list(locked.plays.filter(round_number=last_round)
                      .values_list("status", flat=True))
        done = bool(tables) and Play.Status.IN_PROGRESS not in tables
        status = Tournament.Status.FINISHED if done else Tournament.Status.RUNNING
        if status != locked.status:
            locked.status = status
            locked.save(update_fields=["status"])


class TournamentEntry(models.Model):
    """A player in a tournament; one who drops out is seated no more after that round."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    dropped_after_round = models.PositiveSmallIntegerField(_("dropped out after round"),
                                                           null=True, blank=True)

    class Meta:
        verbose_name = _("tournament player")
        verbose_name_plural = _("tournament players")
        constraints = [models.UniqueConstraint(fields=["tournament", "player"],
                                               name="tournament_entry_once")]

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"


class SeriesChange(models.Model):
    """A decision about a series, kept for the record: ended early, or extended."""

    class Action(models.TextChoices):
        ENDED_EARLY = "ended_early", _("Ended early")
        EXTENDED = "extended", _("Extended")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="changes",
                               verbose_name=_("series"))
    action = models.CharField(_("action"), max_length=20, choices=Action)
    races_before = models.PositiveSmallIntegerField(_("races agreed before"))
    races_after = models.PositiveSmallIntegerField(_("races agreed after"))
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+",
                                   verbose_name=_("changed by"))
    changed_at = models.DateTimeField(_("changed"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("series change")
        verbose_name_plural = _("series changes")
        ordering = ["-changed_at", "-id"]

    def __str__(self) -> str:
        return f"{self.series} {self.action}"
