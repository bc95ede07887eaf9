"""Who belongs to which household: founding one, joining one through an invitation, leaving
one, and deleting it.

An invitation lets in exactly one person. Accepting it locks the invitation's row and
marks it used with a conditional update, in the same transaction that adds the member
(and, for someone signing up, the one that creates their account): when two people use
one link at the same moment, one of them joins and the other is told the link was used.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from tracker.households import limits
from tracker.households.models import Household, Invitation

#: How many plays one step of deleting a household removes: each step is a transaction of
#: its own, so tablets of other households keep saving while a large one is deleted.
PLAYS_PER_STEP = 500

#: The demo family's account (`manage.py seed_demo`): its password is its name.
DEMO_USER = "demo"


class InvitationClosed(Exception):
    """The invitation lets nobody in any more; ``reason`` is "used", "revoked" or "expired"."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class LastMember(Exception):
    """The person is the household's last member: it can be deleted, not left."""


class AlreadyMember(Exception):
    """The person is a member of the invitation's household already: nothing was changed."""


def closed_reason(invitation: Invitation) -> str | None:
    """Why the invitation lets nobody in ("used", "revoked", "expired"), or None while open."""
    if invitation.accepted_at is not None:
        return "used"
    if invitation.revoked_at is not None:
        return "revoked"
    if invitation.expires_at <= timezone.now():
        return "expired"
    return None


def found_household(name: str, user: AbstractBaseUser) -> Household:
    """A new household with ``user`` as its first member.

    Raises :class:`~tracker.households.limits.TooManyHouseholds` when ``user`` belongs to
    ``HOUSEHOLDS_PER_ACCOUNT`` households already.
    """
    with transaction.atomic():
        limits.lock_account(user)
        limits.check_households_left(user)
        household = Household.objects.create(name=name)
        household.members.add(user)
    return household


def start_family(account: UserCreationForm, name: str, address: str
                 ) -> tuple[AbstractBaseUser, Household]:
    """The account of a valid sign-up form and its household named ``name``, counted
    against ``SIGNUPS_PER_HOUR`` for ``address`` in the same transaction: sign-ups sent
    together are counted one after the other, and one that fails is not counted.

    Raises :class:`~tracker.households.limits.TooMany` when the address made its new
    accounts for the hour already.
    """
    with transaction.atomic():
        limits.take(limits.AddressCount.Kind.SIGNUP, address, settings.SIGNUPS_PER_HOUR)
        user = account.save()
        return user, found_household(name, user)


def accept_invitation(invitation: Invitation, user: AbstractBaseUser) -> Household:
    """Make ``user`` a member of the invitation's household and mark the invitation used.

    Call it inside the caller's transaction when the account is created for the
    invitation: if the invitation turns out to be used, the new account goes too.

    Raises :class:`InvitationClosed` when the invitation is used, revoked or expired, and
    :class:`AlreadyMember` when the user belongs to the household already.
    """
    with transaction.atomic():
        locked = Invitation.objects.select_for_update().select_related("household").get(
            pk=invitation.pk)
        reason = closed_reason(locked)
        if reason is not None:
            raise InvitationClosed(reason)
        household = locked.household
        if household.members.filter(pk=user.pk).exists():
            raise AlreadyMember
        now = timezone.now()
        # SQLite ignores select_for_update; the condition makes a second use fail there too.
        marked = Invitation.objects.filter(
            pk=locked.pk, accepted_at__isnull=True, revoked_at__isnull=True,
            expires_at__gt=now).update(accepted_by=user, accepted_at=now)
        if not marked:
            raise InvitationClosed("used")
        household.members.add(user)
    return household


def leave_household(household: Household, user: AbstractBaseUser) -> None:
    """Take ``user`` out of ``household``; its data stays with the other members.

    Raises :class:`LastMember` when nobody else belongs to it: a household nobody can
    see would be lost, so its last member deletes it instead.
    """
    with transaction.atomic():
        locked = Household.objects.select_for_update().get(pk=household.pk)
        if not locked.members.exclude(pk=user.pk).exists():
            raise LastMember
        locked.members.remove(user)


def delete_household(household_id: int) -> None:
    """Delete a household with everything in it: players, evenings, plays, series,
    tournaments, its own games, invitations and share links.

    Its members go first, in a transaction of their own, so that it disappears from
    every page at once; then its plays, :data:`PLAYS_PER_STEP` at a time; then the rest.
    A household left without members by a step that failed is invisible and is deleted
    by the next call.
    """
    Household.members.through.objects.filter(household_id=household_id).delete()
    household = Household.objects.filter(pk=household_id).first()
    if household is None:
        return
    # Reached through the household's relations: the models of the floors above declare them.
    while step := list(household.plays.order_by("pk").values_list("pk", flat=True)
                       [:PLAYS_PER_STEP]):
        with transaction.atomic():
            household.plays.filter(pk__in=step).delete()
    with transaction.atomic():
        # Tournaments and series first: their entries and games protect players and own games.
        household.tournaments.all().delete()
        household.series.all().delete()
        household.game_nights.all().delete()
        Household.objects.filter(pk=household_id).delete()
