"""How pages read plays: with what they show, in a fixed number of queries."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext_lazy as _

from tracker.table.models import Participant, Play

PLAY_ABANDONED = _("This game has been abandoned, perhaps on another tablet: it can no longer "
                   "be changed. Nothing was saved.")


def participants_in_seat_order() -> Prefetch:
    return Prefetch("participants",
                    queryset=Participant.objects.select_related("player").order_by("seat"))


def plays_with_players() -> QuerySet[Play]:
    """Plays with their game night, series, tournament, own game and players in seat order,
    as the pages of a play show them."""
    return Play.objects.select_related("game_night", "series", "tournament",
                                       "own_game").prefetch_related(
        participants_in_seat_order())
