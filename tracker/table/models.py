"""What happens at the table: the household's own games, plays with their participants,
Kniffel sheet cells, each play's history and the running tallies the player pages read.

The rules live in the ``games`` package: a play stores the result the engine accepted and,
per participant, the points and places it computed, so standings read stored numbers and
never score history again. In a play's result, players are keyed by ``str(player.pk)``:
names can be corrected later without touching stored results."""

from __future__ import annotations

from functools import cached_property
from typing import Any, Protocol

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import games
from games import Outcome, generic
from tracker.common.engine_text import say, say_lazy
from tracker.households.models import (
    Household,
    Player,
    SeatLook,
    household_changed,
    seat_looks,
    tidy_name,
)

SHEET_FIELDS = sorted(set(games.get("kniffel").field_keys)
                      | set(games.get("weltraum_kniffel").field_keys))
DICE_GAMES = ("kniffel", "weltraum_kniffel")


def game_choices() -> list[tuple[str, Any]]:
    return [(rules.key, say_lazy(rules.name)) for rules in games.all_games()]


class PlayStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", _("In progress")
    FINISHED = "finished", _("Finished")
    ABANDONED = "abandoned", _("Abandoned")


class OwnGame(models.Model):
    """A game of the household's own in its library (Uno, Skyjo, Carcassonne): its name and
    how it is scored and ends, which every play of it takes as its house rules."""

    household = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="own_games",
                                  verbose_name=_("household"))
    name = models.CharField(_("name"), max_length=60)
    scoring = models.CharField(_("how it is scored"), max_length=20, default="most_points",
                               choices=[(key, say_lazy(label))
                                        for key, label in generic.SCORINGS.items()])
    teams = models.BooleanField(_("players sit in teams"), default=False)
    end = models.CharField(_("how it ends"), max_length=20, default="host",
                           choices=[(key, say_lazy(label))
                                    for key, label in generic.ENDINGS.items()])
    end_at = models.PositiveIntegerField(_("rounds, or the score that ends it"), default=0)
    #: How points are written down: round by round (the default), by categories at the end
    #: (Wingspan: birds, bonus cards, eggs ...), or by categories in each round.
    sheet = models.CharField(_("how points are written down"), max_length=20, default="rounds",
                             choices=[(key, say_lazy(label))
                                      for key, label in generic.SHEETS.items()])
    #: The rows of a sheet by categories, in order: ``[{"name": "Birds", "minus": false}]``;
    #: a ``minus`` category's points are taken off the total (penalties).
    categories = models.JSONField(_("categories"), default=list, blank=True)
    #: The category whose most points break a tie of the totals; empty for none.
    tiebreak = models.CharField(_("category that breaks a tie"), max_length=40, blank=True,
                                default="")
    #: A count that is no part of the score, asked for only when totals tie (Wingspan: food
    #: tokens left); the most takes the better place. Empty for none.
    tiebreak_count = models.CharField(_("count that breaks a tie"), max_length=40, blank=True,
                                      default="")
    #: Where the number pad goes after a save: the next player, or the next row.
    pad_moves = models.CharField(_("after each entry, go to"), max_length=20,
                                 default="next_player",
                                 choices=[("next_player", _("the next player")),
                                          ("next_row", _("the next category or round"))])
    min_players = models.PositiveSmallIntegerField(_("fewest players"), null=True, blank=True)
    max_players = models.PositiveSmallIntegerField(_("most players"), null=True, blank=True)
    note = models.TextField(_("note"), blank=True, max_length=1000)
    #: What the app this came from knows of it, by app (``{"bgstats": {...}}``): its ids and
    #: what the app has no place for, written back when exporting to that app.
    elsewhere = models.JSONField(_("from other apps"), default=dict, blank=True,
                                 editable=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("own game")
        verbose_name_plural = _("own games")
        ordering = [Lower("name")]
        constraints = [
            models.UniqueConstraint(Lower("name"), "household", name="own_game_name_unique"),
            models.CheckConstraint(condition=~Q(name=""), name="own_game_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, and tell the pages of its plays: they show its name and pad preference."""
        self.name = tidy_name(self.name)
        with transaction.atomic():
            super().save(*args, **kwargs)
            household_changed(self.household_id, setup=True)

    @property
    def house_rules(self) -> dict[str, Any]:
        """How the game is scored and ends, as the engine reads it from each play."""
        by_categories = self.sheet != "rounds"
        return {"scoring": self.scoring, "teams": self.teams, "end": self.end,
                "end_at": self.end_at, "sheet": self.sheet,
                "categories": self.categories if by_categories else [],
                "tiebreak": self.tiebreak if by_categories else "",
                "tiebreak_count": self.tiebreak_count if self.scores_points else ""}

    @property
    def scores_points(self) -> bool:
        """Whether its plays have totals (and so ties to break)."""
        return self.scoring in ("most_points", "fewest_points")


#: How an own game is named where the statistics count games: "own-<id>".
OWN_GAME_KEY_PREFIX = "own-"


def game_key_of(game: str, own_game_id: int | None) -> str:
    """The key the statistics count a play's game under: the rules' key, or the own game's."""
    return f"{OWN_GAME_KEY_PREFIX}{own_game_id}" if own_game_id is not None else game


def own_game_id_of(key: str) -> int | None:
    """The own game's id in a statistics key such as "own-12"; None for a rules game's key."""
    number = key.removeprefix(OWN_GAME_KEY_PREFIX)
    return int(number) if number != key and number.isdecimal() else None


class PlayedGame(Protocol):
    """A play, a series or a tournament: something played of one game."""

    own_game_id: int | None
    own_game: OwnGame | None

    @property
    def rules(self) -> games.Rules: ...


def game_display(played: PlayedGame) -> str:
    """The name of the game of a play, series or tournament: an own game's as the family
    named it (read with the object: list pages select it), else the rules' in the language
    of the request."""
    if played.own_game_id is not None:
        return played.own_game.name
    return say(played.rules.name)


class Play(models.Model):
    """One game played: which game, who sat where, the result and what it scored."""

    Status = PlayStatus

    household = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="plays",
                                  verbose_name=_("household"))
    # A play's night, series and tournament are the evenings' models, named as the
    # evenings' floor above this one declares them.
    game_night = models.ForeignKey("tracker.GameNight", on_delete=models.CASCADE, null=True,
                                   blank=True, related_name="plays",
                                   verbose_name=_("game night"))
    series = models.ForeignKey("tracker.Series", on_delete=models.CASCADE, null=True, blank=True,
                               related_name="plays", verbose_name=_("series"))
    race_number = models.PositiveSmallIntegerField(_("race"), null=True, blank=True)
    tournament = models.ForeignKey("tracker.Tournament", on_delete=models.CASCADE, null=True,
                                   blank=True, related_name="plays",
                                   verbose_name=_("tournament"))
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    game = models.CharField(_("game"), max_length=40, choices=game_choices)
    own_game = models.ForeignKey(OwnGame, on_delete=models.PROTECT, null=True, blank=True,
                                 related_name="plays", verbose_name=_("own game"))
    # The game as the statistics count it: the rules' key, or "own-<id>" for each own game,
    # so that Uno and Skyjo are two games in the history, the records and the year review.
    game_key = models.CharField(_("game in the statistics"), max_length=40, editable=False,
                                default="")
    # The key of the new-game form that started the play: a second tap on "Start the game",
    # or a retry after a dropped connection, finds this play instead of starting another.
    start_key = models.CharField(max_length=40, blank=True, default="", editable=False)
    house_rules = models.JSONField(_("house rules"), default=dict, blank=True)
    result = models.JSONField(_("result"), default=dict, blank=True)
    start_seat = models.PositiveSmallIntegerField(
        _("start player's seat"), default=0,
        help_text=_("Seats count from 0 in the order the players sit."))
    status = models.CharField(_("status"), max_length=20, choices=PlayStatus,
                              default=PlayStatus.IN_PROGRESS)
    #: False for a play kept in the history but counted in no statistics (BG Stats'
    #: ``ignored`` plays come in so).
    in_statistics = models.BooleanField(_("counts in the statistics"), default=True)
    #: A few lines the family keeps with the play ("Oma's first win").
    note = models.TextField(_("note"), blank=True, default="", max_length=1000)
    #: How long the play took, in minutes: measured from its start to its result, or as
    #: corrected or imported; None when unknown.
    length_minutes = models.PositiveIntegerField(_("length in minutes"), null=True, blank=True)
    scored_by_points = models.BooleanField(default=True, editable=False)
    lower_is_better = models.BooleanField(default=False, editable=False)
    version = models.PositiveIntegerField(default=1, editable=False)
    #: The result form as far as it is entered, kept on every tap so that a reload or another
    #: tablet shows it; it belongs to the result of :attr:`draft_of_version` and lapses when
    #: the result is saved or the game abandoned (both give the play a new version).
    draft = models.JSONField(default=dict, blank=True, editable=False)
    draft_of_version = models.PositiveIntegerField(null=True, blank=True, editable=False)
    draft_revision = models.PositiveIntegerField(default=0, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    #: What the app this came from knows of it, by app (``{"bgstats": {...}}``): its ids and
    #: what the app has no place for, written back when exporting to that app.
    elsewhere = models.JSONField(_("from other apps"), default=dict, blank=True,
                                 editable=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    # Stored rather than computed so that history and statistics sort, filter and
    # group plays by day on an index: the night's date, or the household's local
    # day the play started for series and tournament plays without a night.
    played_on = models.DateField(_("played on"), editable=False)

    class Meta:
        verbose_name = _("play")
        verbose_name_plural = _("plays")
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["household", "played_on", "created_at"],
                         name="play_household_day"),
            models.Index(fields=["household", "status", "game_key", "played_on"],
                         name="play_household_counted"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(game__in=list(games.GAMES)),
                                   name="play_game_registered"),
            models.CheckConstraint(condition=Q(status__in=PlayStatus.values),
                                   name="play_status_known"),
            models.CheckConstraint(
                condition=(Q(game_night__isnull=False) | Q(series__isnull=False)
                           | Q(tournament__isnull=False)),
                name="play_belongs_to_night_series_or_tournament",
            ),
            models.UniqueConstraint(fields=["household", "start_key"], condition=~Q(start_key=""),
                                    name="play_started_once"),
            models.UniqueConstraint(fields=["tournament", "round_number", "table_number"],
                                    condition=Q(tournament__isnull=False),
                                    name="play_one_per_table_of_round"),
            models.CheckConstraint(
                condition=Q(race_number__isnull=True) | Q(race_number__gte=1),
                name="play_race_number_from_1",
            ),
            models.UniqueConstraint(fields=["series", "race_number"],
                                    condition=Q(series__isnull=False),
                                    name="play_one_per_race_of_series"),
            models.CheckConstraint(condition=Q(version__gte=1), name="play_version_from_1"),
            models.CheckConstraint(condition=Q(start_seat__lte=63), name="play_start_seat_known"),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} #{self.pk}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save, keeping :attr:`played_on` the date of the night the play belongs to, and
        :attr:`game_key` the game's."""
        self.game_key = game_key_of(self.game, self.own_game_id)
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "game_key"}
        moved = getattr(self, "_stored_night_id", None) != self.game_night_id
        if self.game_night_id is not None and (moved or self.played_on is None):
            self.played_on = self.game_night.date
            update_fields = kwargs.get("update_fields")
            if update_fields is not None:
                kwargs["update_fields"] = {*update_fields, "played_on"}
        elif self.played_on is None:
            self.played_on = timezone.localdate()
        super().save(*args, **kwargs)
        self._stored_night_id = self.game_night_id

    def get_absolute_url(self) -> str:
        return reverse("play_detail", args=[self.pk])

    def get_game_display(self) -> str:
        """The game's name: an own game's as the family named it, else the rules'."""
        return game_display(self)

    @classmethod
    def from_db(cls, db: Any, field_names: Any, values: Any) -> Play:
        play = super().from_db(db, field_names, values)
        play._stored_night_id = play.__dict__.get("game_night_id")
        return play

    @property
    def current_draft(self) -> dict[str, Any] | None:
        """The result form as far as it was entered for the result stored now, if it was."""
        if self.draft and self.draft_of_version == self.version:
            return self.draft
        return None

    @property
    def label(self) -> str:
        """The game's name, and the series race or tournament table it belongs to."""
        name = str(self.get_game_display())
        if self.series_id and self.race_number:
            return _("%(game)s · %(series)s, race %(number)s") % {
                "game": name, "series": self.series.name, "number": self.race_number}
        if self.tournament_id and self.round_number and (
                self.round_number == self.tournament.final_round):
            return _("%(game)s · %(tournament)s, final table") % {
                "game": name, "tournament": self.tournament.name}
        if self.tournament_id and self.round_number:
            return _("%(game)s · %(tournament)s, round %(round)s, table %(table)s") % {
                "game": name, "tournament": self.tournament.name, "round": self.round_number,
                "table": self.table_number}
        return name

    @property
    def rules(self) -> games.Rules:
        return games.get(self.game)

    @property
    def is_dice_sheet(self) -> bool:
        return self.game in DICE_GAMES

    @property
    def cooperative(self) -> bool:
        """Whether the table wins or loses together: an own game played co-operatively."""
        return self.game == "generic" and self.house_rules.get("scoring") == "cooperative"

    @cached_property
    def seat_looks(self) -> dict[int, SeatLook]:
        """How each player looks at this table, by player id (see :func:`seat_looks`):
        worked out once per play as read, from its participants (prefetched with their
        players on every page that shows them)."""
        seated = sorted(self.participants.all(), key=lambda p: p.seat)
        return dict(zip((p.player_id for p in seated),
                        seat_looks([p.player.colour for p in seated]), strict=True))

    def recoloured(self) -> list[Participant]:
        """The players who look otherwise at this table than elsewhere, in seat order."""
        return [p for p in sorted(self.participants.all(), key=lambda p: p.seat)
                if p.look != (p.player.colour, 0)]

    def starter(self) -> Participant | None:
        """Who starts: the participant in the start seat (from prefetched participants)."""
        return next((p for p in self.participants.all() if p.seat == self.start_seat), None)

    def in_turn_order(self) -> list[Participant]:
        """The participants in the order they take turns: from the start player round the table."""
        seated = sorted(self.participants.all(), key=lambda p: p.seat)
        start = next((index for index, p in enumerate(seated) if p.seat == self.start_seat), 0)
        return seated[start:] + seated[:start]

    def in_result_order(self) -> list[Participant]:
        """Best place first once the play is finished; seat order until then."""
        if self.status != PlayStatus.FINISHED:
            return sorted(self.participants.all(), key=lambda p: p.seat)
        return sorted(self.participants.all(), key=lambda p: (p.place or 10**6, p.seat))

    def player_names(self) -> dict[str, str]:
        """Result keys to the players' names, for the engine's messages."""
        return {p.player.key: p.player.name for p in self.participants.all()}

    def stored_outcome(self) -> Outcome:
        """The outcome as it was stored when the result was accepted; nothing is re-scored."""
        participants = list(self.participants.all())
        return Outcome(
            game=self.game,
            points={p.player_key: p.points or 0 for p in participants if p.place},
            places={p.player_key: p.place for p in participants if p.place},
            details={p.player_key: p.details for p in participants if p.place},
            finished=self.status == PlayStatus.FINISHED,
            scored_by_points=self.scored_by_points,
            lower_is_better=self.lower_is_better,
        )


class Participant(models.Model):
    """A player in a play: their seat, and the points and place the rules gave them."""

    play = models.ForeignKey(Play, on_delete=models.CASCADE, related_name="participants",
                             verbose_name=_("play"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="participations",
                               verbose_name=_("player"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    points = models.IntegerField(_("points"), null=True, blank=True)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    details = models.JSONField(_("details"), default=dict, blank=True)

    class Meta:
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        ordering = ["play", "seat"]
        # Covering indexes: a player's statistics read seats by player, head-to-head
        # reads the other seats of each play, both without touching the table rows.
        indexes = [
            models.Index(fields=["player", "play", "place", "points"],
                         name="participant_player_results"),
            models.Index(fields=["play", "player", "place"], name="participant_play_places"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["play", "player"], name="participant_once_per_play"),
            models.UniqueConstraint(fields=["play", "seat"], name="participant_seat_unique"),
            models.CheckConstraint(condition=Q(place__isnull=True) | Q(place__gte=1),
                                   name="participant_place_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.play}"

    @property
    def player_key(self) -> str:
        return str(self.player_id)

    @property
    def look(self) -> SeatLook:
        """How the player looks at this table (see :func:`seat_looks`): their own colour,
        unless another player at the table has it. Read through the play this participant
        was loaded with (see :attr:`Play.seat_looks`); without it, the player's own colour."""
        play = self.play if Participant.play.is_cached(self) else None
        if play is None:
            return self.player.colour, 0
        return play.seat_looks.get(self.player_id, (self.player.colour, 0))


class KniffelCell(models.Model):
    """One field of one player's Kniffel sheet, as entered on some tablet.

    ``version`` rises with every change; a write names the version it saw, so
    the later of two tablets editing the same cell gets a conflict instead of
    silently overwriting the other.
    """

    play = models.ForeignKey(Play, on_delete=models.CASCADE, related_name="cells",
                             verbose_name=_("play"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+",
                               verbose_name=_("player"))
    field = models.CharField(_("field"), max_length=20)
    points = models.SmallIntegerField(_("points"))
    dice = models.JSONField(_("dice"), null=True, blank=True)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+",
                                   verbose_name=_("entered by"))
    entered_at = models.DateTimeField(_("entered"), default=timezone.now, editable=False)
    version = models.PositiveIntegerField(_("version"), default=1)

    class Meta:
        verbose_name = _("Kniffel cell")
        verbose_name_plural = _("Kniffel cells")
        ordering = ["play", "player", "id"]
        constraints = [
            models.UniqueConstraint(fields=["play", "player", "field"],
                                    name="kniffel_cell_once_per_field"),
            models.CheckConstraint(condition=Q(points__gte=0), name="kniffel_cell_points_min_0"),
            models.CheckConstraint(condition=Q(version__gte=1), name="kniffel_cell_version_from_1"),
            models.CheckConstraint(condition=Q(field__in=SHEET_FIELDS),
                                   name="kniffel_cell_field_known"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.field}={self.points}"


class KniffelFieldTally(models.Model):
    """A player's cells of one dice-sheet field in finished plays: how many, their points,
    and how many scored. Kept by :mod:`tracker.table.tallies`; the household's average of a field
    adds up its players' rows."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+",
                               verbose_name=_("player"))
    game = models.CharField(_("game"), max_length=40)
    field = models.CharField(_("field"), max_length=20)
    cells = models.IntegerField(_("cells"), default=0)
    points = models.BigIntegerField(_("points"), default=0)
    scored = models.IntegerField(_("cells with points"), default=0)

    class Meta:
        verbose_name = _("Kniffel field total")
        verbose_name_plural = _("Kniffel field totals")
        constraints = [models.UniqueConstraint(fields=["player", "game", "field"],
                                               name="kniffel_field_tally_once")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game} {self.field}: {self.points}/{self.cells}"


class HeadToHeadTally(models.Model):
    """How often a player met an opponent in finished plays of a game, and who placed
    higher. Kept by :mod:`tracker.table.tallies`, one row for each side of a pair."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+",
                               verbose_name=_("player"))
    opponent = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+",
                                 verbose_name=_("opponent"))
    game = models.CharField(_("game"), max_length=40)
    together = models.IntegerField(_("together"), default=0)
    ahead = models.IntegerField(_("placed higher"), default=0)
    behind = models.IntegerField(_("placed lower"), default=0)

    class Meta:
        verbose_name = _("head-to-head total")
        verbose_name_plural = _("head-to-head totals")
        constraints = [models.UniqueConstraint(fields=["player", "opponent", "game"],
                                               name="head_to_head_tally_once")]

    def __str__(self) -> str:
        return f"{self.player_id}-{self.opponent_id} {self.game}: {self.together}"


class PlayChange(models.Model):
    """One entry in a play's history: who changed what, and when."""

    class Action(models.TextChoices):
        STARTED = "started", _("Started")
        RESULT = "result", _("Result entered")
        EDITED = "edited", _("Result corrected")
        CELL = "cell", _("Cell entered")
        CELL_CORRECTED = "cell_corrected", _("Cell corrected")
        UNDONE = "undone", _("Entry undone")
        EXTRA_KNIFFEL = "extra_kniffel", _("Further Kniffels noted")
        ROUND_POINTS = "round_points", _("Points entered")
        ROUND_CORRECTED = "round_corrected", _("Points corrected")
        ROUND_UNDONE = "round_undone", _("Round undone")
        FINISHED = "finished", _("Game finished")
        TIE_BROKEN = "tie_broken", _("Tie broken")
        ABANDONED = "abandoned", _("Abandoned")

    play = models.ForeignKey(Play, on_delete=models.CASCADE, related_name="changes",
                             verbose_name=_("play"))
    action = models.CharField(_("action"), max_length=20, choices=Action)
    data = models.JSONField(_("what changed"), default=dict, blank=True)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+",
                                   verbose_name=_("changed by"))
    changed_at = models.DateTimeField(_("changed"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("change")
        verbose_name_plural = _("changes")
        ordering = ["-changed_at", "-id"]

    def __str__(self) -> str:
        return f"{self.play} {self.action}"
