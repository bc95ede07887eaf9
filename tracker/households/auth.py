"""Signing in with a password, with the signed-in user kept in the shared cache, and
paused after too many wrong passwords."""

from __future__ import annotations

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.signals import user_logged_in
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tracker.households import limits

#: How an account that has just chosen its password is logged in.
PASSWORD_BACKEND = "tracker.households.auth.CachedUserBackend"

#: How long a user is kept at most; saving or deleting the user forgets it at once.
USER_SECONDS = 5 * 60


def user_cache_key(user_id: Any) -> str:
    return f"signed-in-user:{user_id}"


class CachedUserBackend(ModelBackend):
    """Django's password backend, reading the user of each request from the cache that all
    server processes share instead of the database.

    Every request of a signed-in tablet needs its user, and the query's cost is mostly
    the ORM's, so the cache saves a noticeable part of a sheet page. A saved user (a new
    password, an account switched off) is forgotten at once, so Django's checks of the
    session against the password and of ``is_active`` see the stored user.
    """

    def get_user(self, user_id: Any) -> AbstractBaseUser | None:
        key = user_cache_key(user_id)
        user = cache.get(key)
        if user is None:
            user = super().get_user(user_id)
            if user is not None:
                cache.set(key, user, timeout=USER_SECONDS)
        return user


def forget_user(sender: type, instance: AbstractBaseUser, **kwargs: Any) -> None:
    cache.delete(user_cache_key(instance.pk))


def connect_signals() -> None:
    from tracker.households.middleware import forget_old_entry_keys

    user_model = get_user_model()
    post_save.connect(forget_user, sender=user_model, dispatch_uid="forget-saved-user")
    post_delete.connect(forget_user, sender=user_model, dispatch_uid="forget-deleted-user")
    user_logged_in.connect(forget_old_entry_keys, dispatch_uid="forget-old-entry-keys")


class LoginThrottleHandler(AxesDatabaseHandler):
    """django-axes' handler, which pauses an account at one address after its wrong
    passwords, and also pauses an address that failed ``FAILED_LOGINS_PER_HOUR`` times
    within the hour, whichever accounts it tried: a stranger guessing many accounts waits,
    the family's other devices log in as before."""

    def is_locked(self, request: HttpRequest, credentials: dict | None = None) -> bool:
        return (super().is_locked(request, credentials)
                or address_wait_minutes(request) is not None)

    def user_login_failed(self, sender: Any, credentials: dict, request: HttpRequest | None = None,
                          **kwargs: Any) -> None:
        """Count a wrong password; a try refused because its client already waits is not
        counted again (django-axes records nothing then either): the pause it waits out
        does not grow, and hammering the login writes no row."""
        waited = request is not None and getattr(request, "axes_locked_out", False)
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or waited:
            return
        failures = limits.record(limits.AddressCount.Kind.FAILED_LOGIN,
                                 limits.client_address(request))
        if failures >= settings.FAILED_LOGINS_PER_HOUR:
            request.axes_locked_out = True
            request.axes_credentials = credentials


def address_wait_minutes(request: HttpRequest) -> int | None:
    """How many minutes the request's address waits before it may log in again, or None."""
    try:
        limits.check(limits.AddressCount.Kind.FAILED_LOGIN, limits.client_address(request),
                     settings.FAILED_LOGINS_PER_HOUR)
    except limits.TooMany as too_many:
        return too_many.minutes
    return None


def locked_out(request: HttpRequest, original_response: HttpResponse | None = None,
               credentials: dict | None = None) -> HttpResponse:
    """The page of a paused login (429): an address that failed too often waits for the
    rest of its hour, an account at one address for ``AXES_COOLOFF_TIME``."""
    by_address = address_wait_minutes(request)
    minutes = by_address or int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    response = render(request, "registration/locked_out.html", {
        "failure_limit": settings.AXES_FAILURE_LIMIT, "minutes": minutes,
        "by_address": by_address is not None}, status=429)
    response["Retry-After"] = str(minutes * 60)
    return response
