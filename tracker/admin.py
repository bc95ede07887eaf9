from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tracker.evenings.models import GameNight, Series, SeriesChange, Tournament, TournamentEntry
from tracker.households.limits import AddressCount
from tracker.households.models import AppliedEntry, Household, ImportJob, Invitation, Player
from tracker.room.models import ShareLink
from tracker.table.models import (
    HeadToHeadTally,
    KniffelCell,
    KniffelFieldTally,
    OwnGame,
    Participant,
    Play,
    PlayChange,
)


@admin.register(Household)
class HouseholdAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name", "members__username"]
    filter_horizontal = ["members"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "household", "colour", "created_at"]
    list_filter = ["household"]
    search_fields = ["name"]


@admin.register(OwnGame)
class OwnGameAdmin(admin.ModelAdmin):
    list_display = ["name", "household", "scoring", "teams", "end", "end_at"]
    list_filter = ["household", "scoring"]
    search_fields = ["name"]


@admin.register(GameNight)
class GameNightAdmin(admin.ModelAdmin):
    list_display = ["date", "household", "host"]
    list_filter = ["household", "date"]
    search_fields = ["notes", "players__name"]
    date_hierarchy = "date"
    filter_horizontal = ["players"]


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0
    fields = ["seat", "player", "points", "place"]
    readonly_fields = ["points", "place"]


@admin.register(Play)
class PlayAdmin(admin.ModelAdmin):
    list_display = ["__str__", "game", "status", "game_night", "series", "race_number",
                    "updated_at"]
    list_filter = ["game", "status", "household"]
    search_fields = ["participants__player__name", "series__name"]
    readonly_fields = ["result", "version", "scored_by_points", "lower_is_better"]
    inlines = [ParticipantInline]
    list_select_related = ["game_night__household", "series"]


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "races_planned", "status", "household", "created_at"]
    list_filter = ["game", "status", "household"]
    search_fields = ["name", "players__name"]
    filter_horizontal = ["players"]


@admin.register(Participant)
class ParticipantAdmin(admin.ModelAdmin):
    list_display = ["player", "play", "seat", "points", "place"]
    list_filter = ["play__game", "place"]
    search_fields = ["player__name"]
    list_select_related = ["player", "play"]


@admin.register(KniffelCell)
class KniffelCellAdmin(admin.ModelAdmin):
    list_display = ["play", "player", "field", "points", "entered_by", "entered_at", "version"]
    list_filter = ["field", "play__game"]
    search_fields = ["player__name"]
    list_select_related = ["play", "player", "entered_by"]
    readonly_fields = ["version"]


@admin.register(PlayChange)
class PlayChangeAdmin(admin.ModelAdmin):
    list_display = ["play", "action", "changed_by", "changed_at"]
    list_filter = ["action", "play__game"]
    search_fields = ["play__participants__player__name", "changed_by__username"]
    list_select_related = ["play", "changed_by"]


@admin.register(AppliedEntry)
class AppliedEntryAdmin(admin.ModelAdmin):
    """Entries the devices sent with a key, kept a week so that none is applied twice."""

    list_display = ["key", "user", "path", "status", "created_at"]
    list_filter = ["status"]
    search_fields = ["key", "path", "user__username"]
    list_select_related = ["user"]
    readonly_fields = ["user", "key", "path", "status", "content_type", "headers",
                       "created_at"]
    exclude = ["body"]


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    """Uploaded exports on their way to a household: how far each got, and why one failed."""

    list_display = ["__str__", "user", "name", "state", "plays_done", "plays_total",
                    "created_at"]
    list_filter = ["state"]
    search_fields = ["name", "user__username"]
    list_select_related = ["user"]
    readonly_fields = ["user", "name", "language", "notes", "state", "plays_total",
                       "plays_done", "household", "message", "runner", "beat_at", "attempts",
                       "created_at"]
    exclude = ["data"]


@admin.register(ShareLink)
class ShareLinkAdmin(admin.ModelAdmin):
    list_display = ["__str__", "household", "created_at", "revoked_at"]
    list_filter = ["household", "revoked_at"]
    search_fields = ["token", "series__name"]
    list_select_related = ["play", "game_night", "series"]


@admin.register(SeriesChange)
class SeriesChangeAdmin(admin.ModelAdmin):
    list_display = ["series", "action", "races_before", "races_after", "changed_by",
                    "changed_at"]
    list_filter = ["action"]
    search_fields = ["series__name"]
    list_select_related = ["series", "changed_by"]


class TournamentEntryInline(admin.TabularInline):
    model = TournamentEntry
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "rounds_planned", "final_table", "status", "household"]
    list_filter = ["game", "status", "household"]
    search_fields = ["name", "players__name"]
    inlines = [TournamentEntryInline]


@admin.register(TournamentEntry)
class TournamentEntryAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "dropped_after_round"]
    list_filter = ["tournament"]
    search_fields = ["player__name", "tournament__name"]
    list_select_related = ["player", "tournament"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["__str__", "household", "created_by", "expires_at", "accepted_by",
                    "revoked_at"]
    list_filter = ["household"]
    search_fields = ["household__name", "created_by__username", "accepted_by__username"]
    list_select_related = ["household", "created_by", "accepted_by"]
    readonly_fields = ["token", "accepted_by", "accepted_at"]


class TallyAdmin(admin.ModelAdmin):
    """Running totals are derived from the results: shown, never edited by hand
    (``manage.py rebuild_tallies`` recomputes them)."""

    list_select_related = True

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(KniffelFieldTally)
class KniffelFieldTallyAdmin(TallyAdmin):
    list_display = ["player", "game", "field", "cells", "points", "scored"]
    list_filter = ["game", "field"]
    search_fields = ["player__name"]


@admin.register(HeadToHeadTally)
class HeadToHeadTallyAdmin(TallyAdmin):
    list_display = ["player", "opponent", "game", "together", "ahead", "behind"]
    list_filter = ["game"]
    search_fields = ["player__name", "opponent__name"]


@admin.register(AddressCount)
class AddressCountAdmin(admin.ModelAdmin):
    """Sign-ups and failed attempts per address within the hour; deleting a row lifts that
    address's pause at once."""

    list_display = ["address", "kind", "count", "window_start"]
    list_filter = ["kind"]
    search_fields = ["address"]
    readonly_fields = ["kind", "address", "window_start", "count"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
