"""Who belongs to which household: founding one, and joining one through an invitation.

An invitation lets in exactly one person. Accepting it locks the invitation's row and
marks it used with a conditional update, in the same transaction that adds the member
(and, for someone signing up, the one that creates their account): when two people use
one link at the same moment, one of them joins and the other is told the link was used.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from tracker.models import Household, Invitation


class InvitationClosed(Exception):
    """The invitation lets nobody in any more; ``reason`` is "used", "revoked" or "expired"."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


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
    """A new household with ``user`` as its first member."""
    with transaction.atomic():
        household = Household.objects.create(name=name)
        household.members.add(user)
    return household


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
