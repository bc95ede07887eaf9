"""Share links: an unguessable address that shows one play, night, series or tournament
on the room's TV without signing in."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tracker.evenings.models import GameNight, Series, Tournament
from tracker.households.models import Household, new_token
from tracker.table.models import Play


class ShareLink(models.Model):
    """An unguessable link to a read-only scoreboard of a play, a game night or a series."""

    token = models.CharField(_("token"), max_length=40, unique=True, default=new_token,
                             editable=False)
    household = models.ForeignKey(Household, on_delete=models.CASCADE,
                                  related_name="share_links", verbose_name=_("household"))
    play = models.ForeignKey(Play, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="share_links", verbose_name=_("play"))
    game_night = models.ForeignKey(GameNight, on_delete=models.CASCADE, null=True, blank=True,
                                   related_name="share_links", verbose_name=_("game night"))
    series = models.ForeignKey(Series, on_delete=models.CASCADE, null=True, blank=True,
                               related_name="share_links", verbose_name=_("series"))
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, null=True, blank=True,
                                   related_name="share_links", verbose_name=_("tournament"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("share link")
        verbose_name_plural = _("share links")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(play__isnull=False, game_night__isnull=True, series__isnull=True,
                             tournament__isnull=True)
                           | Q(play__isnull=True, game_night__isnull=False, series__isnull=True,
                               tournament__isnull=True)
                           | Q(play__isnull=True, game_night__isnull=True, series__isnull=False,
                               tournament__isnull=True)
                           | Q(play__isnull=True, game_night__isnull=True, series__isnull=True,
                               tournament__isnull=False)),
                name="share_link_shows_one_thing",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.target} ({self.token[:6]}…)"

    @property
    def target(self) -> Play | GameNight | Series | Tournament:
        return self.play or self.game_night or self.series or self.tournament
