"""A household and the people in it: its players, its members' invitations, the entries a
member's devices sent (each applied once), and an import under way that becomes a new
household.

A :class:`Household` owns everything: its players, game nights, series and plays; a user
may change a household's data only as one of its members."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.base import canonical_name
from tracker.common import live

#: Player colours: the four board colours first, then more for bigger families.
COLOURS = [
    ("#d62828", _("Red")),
    ("#1d4ed8", _("Blue")),
    ("#eab308", _("Yellow")),
    ("#15803d", _("Green")),
    ("#7c3aed", _("Purple")),
    ("#ea580c", _("Orange")),
    ("#db2777", _("Pink")),
    ("#0891b2", _("Turquoise")),
    ("#57534e", _("Grey")),
    ("#111827", _("Black")),
]


#: A player's look at one table: a colour of :data:`COLOURS` and a marker (0: a plain dot;
#: 1, 2: a ring, a square), so that past ten players nobody at a table looks like another.
SeatLook = tuple[str, int]
MARKERS = 3


def seat_looks(colours: list[str]) -> list[SeatLook]:
    """How each player at a table looks, in seat order, from their own ``colours``: the
    first to have a colour keeps it; a player whose colour is taken at the table takes the
    first colour nobody there has, and past ten players a colour again with the next
    marker."""
    palette = [colour for colour, _label in COLOURS]
    taken: set[SeatLook] = set()
    looks: list[SeatLook | None] = []
    for colour in colours:
        look = (colour, 0)
        looks.append(None if look in taken else look)
        taken.add(look)
    free = [(colour, marker) for marker in range(MARKERS) for colour in palette
            if (colour, marker) not in taken]
    return [look if look is not None else (free.pop(0) if free else (colour, 0))
            for look, colour in zip(looks, colours, strict=True)]


def colour_label(colour: str) -> str:
    """A palette colour's name in the active language ("Red")."""
    return str(dict(COLOURS).get(colour, colour))


def tidy_name(name: str) -> str:
    """A name as it looks: " Anna  Lena " is "Anna Lena", an accent typed as two characters
    becomes one, and invisible characters (zero-width spaces) are dropped, so names that
    look the same are the same name and a name of invisible characters only is empty."""
    return canonical_name(name)


class Household(models.Model):
    """A family or club: the people who share players, nights and standings."""

    name = models.CharField(_("name"), max_length=100)
    members = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="households",
                                     blank=True, verbose_name=_("members"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # What the devices following the household's pages compare (tracker.table.following):
    # ``version`` grows with every change that a followed page of the household shows,
    # ``setup_version`` when a player's name or colour or a scoreboard link changes.
    version = models.PositiveBigIntegerField(_("version"), default=1, editable=False)
    setup_version = models.PositiveBigIntegerField(_("setup version"), default=1,
                                                   editable=False)
    #: Some families prefer not to see who plays how well: then no page shows ratings.
    ratings_shown = models.BooleanField(_("ratings shown"), default=True)
    #: What the app this came from knows of the household as a whole, by app
    #: (``{"bgstats": {...}}``): its places and its lists of tags, groups and challenges,
    #: written back when exporting to that app.
    elsewhere = models.JSONField(_("from other apps"), default=dict, blank=True,
                                 editable=False)

    class Meta:
        verbose_name = _("household")
        verbose_name_plural = _("households")
        ordering = ["name"]
        constraints = [models.CheckConstraint(condition=~Q(name=""),
                                              name="household_name_not_empty")]

    def __str__(self) -> str:
        return self.name


def household_changed(household_id: int, *, setup: bool = False) -> None:
    """Tell the devices following the household's pages that something they show changed:
    called, inside the writing transaction, by everything that writes what a followed page
    shows. ``setup``: a player's name or colour, or a scoreboard link, which every page of
    the household shows, the pages of single games included."""
    counters = {"version": F("version") + 1}
    if setup:
        counters["setup_version"] = F("setup_version") + 1
    Household.objects.filter(pk=household_id).update(**counters)
    transaction.on_commit(partial(live.publish, household_channel(household_id)))


def household_channel(household_id: int) -> str:
    """The channel of live events that the open pages of a household listen to."""
    return f"household-{household_id}"


class Player(models.Model):
    """A person at the table, reused across nights."""

    household = models.ForeignKey(Household, on_delete=models.CASCADE, related_name="players",
                                  verbose_name=_("household"))
    name = models.CharField(_("name"), max_length=40)
    colour = models.CharField(_("colour"), max_length=7, choices=COLOURS, default=COLOURS[0][0])
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    #: What the app this came from knows of it, by app (``{"bgstats": {...}}``): its ids and
    #: what the app has no place for, written back when exporting to that app.
    elsewhere = models.JSONField(_("from other apps"), default=dict, blank=True,
                                 editable=False)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = [Lower("name")]
        constraints = [
            models.UniqueConstraint(
                Lower("name"), "household", name="player_name_unique_in_household",
                violation_error_message=_("There is already a player with this name."),
            ),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
            models.CheckConstraint(condition=Q(colour__in=[value for value, _ in COLOURS]),
                                   name="player_colour_known"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name = tidy_name(self.name)
        with transaction.atomic():
            super().save(*args, **kwargs)
            household_changed(self.household_id, setup=True)

    @property
    def key(self) -> str:
        """How this player is named in a play's result."""
        return str(self.pk)


INVITATION_DAYS = 7


def new_token() -> str:
    return secrets.token_urlsafe(18)


def invitation_expiry() -> datetime:
    return timezone.now() + timedelta(days=INVITATION_DAYS)


class Invitation(models.Model):
    """A link that lets one more person join a household: used once, expires, revocable."""

    token = models.CharField(_("token"), max_length=40, unique=True, default=new_token,
                             editable=False)
    household = models.ForeignKey(Household, on_delete=models.CASCADE,
                                  related_name="invitations", verbose_name=_("household"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="+",
                                   verbose_name=_("invited by"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"), default=invitation_expiry)
    accepted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                    null=True, blank=True, related_name="+",
                                    verbose_name=_("accepted by"))
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.household} ({self.token[:6]}…)"

    def get_absolute_url(self) -> str:
        return reverse("invitation_accept", args=[self.token])

    @property
    def is_open(self) -> bool:
        """Not used, not revoked and not expired: it still lets someone in."""
        return (self.accepted_at is None and self.revoked_at is None
                and self.expires_at > timezone.now())


class AppliedEntry(models.Model):
    """An entry a device sent with a key of its own (the ``Idempotency-Key`` header), and the
    answer it got: sent again (a retry after a dropped connection, a double tap, the device's
    outbox after a reload), it is answered the same and applied no second time."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    key = models.CharField(max_length=64)
    path = models.CharField(max_length=400)
    status = models.PositiveSmallIntegerField(null=True)
    content_type = models.CharField(max_length=100, blank=True, default="")
    headers = models.JSONField(default=dict, blank=True)
    body = models.BinaryField(default=b"", blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"],
                                               name="entry_applied_once")]

    def __str__(self) -> str:
        return f"{self.key} → {self.path}"


class ImportJob(models.Model):
    """An uploaded export on its way to becoming a new household.

    Kept in the database, the upload included, so that any server can run the import and
    show how far it got. The household it writes has no member until the last step, so
    nobody sees it half made; a refusal or a failure deletes it again.
    """

    class State(models.TextChoices):
        WAITING = "waiting", _("waiting")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="import_jobs")
    #: The uploaded file, emptied once the job has ended.
    data = models.BinaryField(default=b"", blank=True)
    name = models.CharField(max_length=100, blank=True)
    #: The language the refusals and notes are in: the uploader's.
    language = models.CharField(max_length=10)
    #: What a BG Stats file held that the app does not keep.
    notes = models.JSONField(default=list, blank=True)
    state = models.CharField(max_length=10, choices=State, default=State.WAITING)
    plays_total = models.PositiveIntegerField(default=0)
    #: How far the job got, each count written with its step: a new runner goes on from here.
    parts_done = models.PositiveIntegerField(default=0)
    plays_done = models.PositiveIntegerField(default=0)
    household = models.ForeignKey(Household, on_delete=models.SET_NULL, null=True,
                                  blank=True, related_name="+")
    #: Why the job failed, in ``language``.
    message = models.TextField(blank=True)
    #: The runner that holds the job: a step written by any other is rolled back.
    runner = models.CharField(max_length=32, blank=True)
    #: When the runner last finished a step; long ago means the runner died.
    beat_at = models.DateTimeField(default=timezone.now)
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"import {self.pk} ({self.state})"

    @property
    def ended(self) -> bool:
        return self.state in (self.State.DONE, self.State.FAILED)
