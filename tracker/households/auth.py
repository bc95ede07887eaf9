"""Signing in with a password, with the signed-in user kept in the shared cache."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.signals import user_logged_in
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save

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
