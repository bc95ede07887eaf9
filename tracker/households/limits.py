"""Limits on what one address or one account may do: new accounts and failed attempts per
address within an hour, households per account.

The counts live in the database, not the cache. A count is read and raised while its row is
locked (``select_for_update`` on PostgreSQL; on SQLite every transaction takes the write lock
when it begins), so requests arriving together, in any number of server processes, are
counted one after the other whichever cache the site uses; a cache's ``incr`` is atomic on
Redis but a read-then-write on the file cache, and the file cache's ``incr`` also restarts
the entry's timeout.
"""

from __future__ import annotations

import math
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, models, transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import ngettext

from tracker.households.models import Household, ImportJob

#: How long one address's count runs before it starts again from nothing.
WINDOW = timedelta(hours=1)


class AddressCount(models.Model):
    """How often something limited happened from one address since ``window_start``."""

    class Kind(models.TextChoices):
        SIGNUP = "signup", "new account"
        FAILED_SIGNUP = "failed-signup", "failed sign-up"
        FAILED_LOGIN = "failed-login", "failed login"

    kind = models.CharField(max_length=20, choices=Kind)
    address = models.CharField(max_length=45)
    window_start = models.DateTimeField(db_index=True)
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "address"],
                                               name="one_count_per_kind_and_address")]

    def __str__(self) -> str:
        return f"{self.kind} from {self.address}: {self.count}"


class TooMany(Exception):
    """The address reached its limit; it may try again after ``wait``."""

    def __init__(self, wait: timedelta):
        super().__init__(wait)
        self.wait = wait

    @property
    def minutes(self) -> int:
        """The wait in whole minutes, rounded up: never "try again in 0 minutes"."""
        return max(1, math.ceil(self.wait.total_seconds() / 60))


class TooManyHouseholds(Exception):
    """The account belongs to ``limit`` households (or is importing some) already."""

    def __init__(self, limit: int):
        super().__init__(limit)
        self.limit = limit

    def message(self) -> str:
        """Why the account founds no more households, in the active language."""
        return ngettext(
            "You belong to %(limit)d household already, as many as one account may found. "
            "Leave one, or ask the site's owner for more.",
            "You belong to %(limit)d households already, as many as one account may found. "
            "Leave one, or ask the site's owner for more.", self.limit) % {"limit": self.limit}


def client_address(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR", "")


def wait_for(count: AddressCount | None, limit: int) -> timedelta | None:
    """How long the address must wait, or None while it is under ``limit`` in its window."""
    if count is None:
        return None
    ends = count.window_start + WINDOW
    now = timezone.now()
    if ends <= now or count.count < limit:
        return None
    return ends - now


def check(kind: str, address: str, limit: int) -> None:
    """Raise :class:`TooMany` when ``address`` reached ``limit`` of ``kind`` within the hour."""
    wait = wait_for(AddressCount.objects.filter(kind=kind, address=address).first(), limit)
    if wait is not None:
        raise TooMany(wait)


def locked_count(kind: str, address: str) -> AddressCount:
    """The address's row, locked until the caller's transaction ends; a window that has
    ended starts again from nothing."""
    now = timezone.now()
    try:
        with transaction.atomic():
            AddressCount.objects.get_or_create(kind=kind, address=address,
                                               defaults={"window_start": now})
    except IntegrityError:
        pass  # made by a request that arrived together with this one
    count = AddressCount.objects.select_for_update().get(kind=kind, address=address)
    if count.window_start + WINDOW <= now:
        count.window_start, count.count = now, 0
    return count


def take(kind: str, address: str, limit: int) -> None:
    """Count one more ``kind`` from ``address``, or raise :class:`TooMany` when it reached
    ``limit`` within the hour. Call it inside the transaction that does what is counted: if
    that fails, the count goes back too."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("take() counts inside the transaction of what it counts")
    count = locked_count(kind, address)
    wait = wait_for(count, limit)
    if wait is not None:
        raise TooMany(wait)
    count.count += 1
    count.save()


def record(kind: str, address: str) -> int:
    """Count one more ``kind`` from ``address``; the count within the hour, this one included."""
    with transaction.atomic():
        count = locked_count(kind, address)
        count.count += 1
        count.save()
        forget_ended_windows()
    return count.count


def forget_ended_windows() -> None:
    """Delete the counts whose hour is over: a site open to the internet sees many addresses."""
    AddressCount.objects.filter(window_start__lte=timezone.now() - WINDOW).delete()


def lock_account(user: AbstractBaseUser) -> None:
    """Hold the account's row until the transaction ends, so that two households founded
    at the same moment are counted one after the other."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()


def check_households_left(user: AbstractBaseUser) -> None:
    """Raise :class:`TooManyHouseholds` when ``user`` may found no more households: those
    they belong to and those their unfinished imports are making count against
    ``HOUSEHOLDS_PER_ACCOUNT``. Call it after :func:`lock_account`, in the transaction that
    founds the household."""
    limit = settings.HOUSEHOLDS_PER_ACCOUNT
    belongs = Household.objects.filter(members=user).count()
    importing = ImportJob.objects.filter(
        user=user, state__in=[ImportJob.State.WAITING, ImportJob.State.RUNNING]).count()
    if belongs + importing >= limit:
        raise TooManyHouseholds(limit)
