"""Headers every page of the app gets, and entries that are applied once."""

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _

from tracker.households.access import HOUSEHOLD_COOKIE, HOUSEHOLD_COOKIE_SECONDS
from tracker.households.models import AppliedEntry


class HouseholdChoiceMiddleware:
    """Keeps the household a request switched to
    (:func:`tracker.households.access.switch_household`)
    in a cookie of the device's, for as long as browsers keep cookies."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        switched = getattr(request, "switched_household_id", None)
        if switched is not None and response.status_code < 400:
            response.set_cookie(HOUSEHOLD_COOKIE, f"{request.user.pk}:{switched}",
                                max_age=HOUSEHOLD_COOKIE_SECONDS, samesite="Lax",
                                httponly=True, secure=request.is_secure())
        return response


class PrivatePagesMiddleware:
    """Pages, fragments and PDFs carry a household's data: no browser or proxy keeps them.

    Static files are answered by WhiteNoise before this runs and stay cacheable.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        patch_cache_control(response, private=True, no_store=True)
        return response


#: What a device's key for an entry may look like: long enough not to be guessed or repeated.
ENTRY_KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")

#: Answers kept for a key: a result applied, or refused for a reason that holds on a retry
#: (the conflict with another tablet, an impossible result). Anything else, such as a
#: login that ran out, is not kept, so that the entry can be sent again once it is mended.
KEPT_STATUSES = {409, 422}

#: The headers that tell htmx what to do with an answer, replayed with it.
REPLAYED_HEADERS = ("Location", "HX-Redirect", "HX-Location", "HX-Refresh", "HX-Retarget",
                    "HX-Reswap", "HX-Trigger")

#: How long a key is remembered: longer than any device stays offline during a game night.
#: Keys older than that are dropped when their user logs in, and every PRUNE_EVERY entries.
ENTRY_KEYS_KEPT = timedelta(days=7)
PRUNE_EVERY = 200


class EntryOnceMiddleware:
    """Applies each entry sent with an ``Idempotency-Key`` header once.

    The key is stored in the same transaction as whatever the entry changes, so either both
    are stored or neither. A second request with the key (sent again while the first was
    still on its way, or after the answer was lost) waits for the first and gets its answer.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = request.headers.get("Idempotency-Key", "")
        if (request.method != "POST" or not ENTRY_KEY.fullmatch(key)
                or not request.user.is_authenticated):
            return self.get_response(request)
        with transaction.atomic():
            try:
                with transaction.atomic():
                    entry = AppliedEntry.objects.create(user=request.user, key=key,
                                                        path=request.path[:400])
            except IntegrityError:
                return replay(AppliedEntry.objects.get(user=request.user, key=key), request)
            response = self.get_response(request)
            if response.status_code >= 500:
                transaction.set_rollback(True)  # nothing of a failed entry stays, key included
            elif response.streaming or not (response.status_code < 400
                                            or response.status_code in KEPT_STATUSES):
                entry.delete()
            else:
                keep_answer(entry, response)
                if entry.pk % PRUNE_EVERY == 0:
                    forget_old_entry_keys()
        return response


def keep_answer(entry: AppliedEntry, response: HttpResponse) -> None:
    entry.status = response.status_code
    entry.content_type = response.get("Content-Type", "")
    entry.headers = {name: response[name] for name in REPLAYED_HEADERS if name in response}
    entry.body = response.content
    entry.save(update_fields=["status", "content_type", "headers", "body"])


def replay(entry: AppliedEntry, request: HttpRequest) -> HttpResponse:
    """The answer the entry got the first time; sent to another address, a 422 (a key is
    for one entry)."""
    if entry.path != request.path[:400]:
        return HttpResponse(_("This entry was sent before with another address."),
                            status=422, content_type="text/plain; charset=utf-8")
    response = HttpResponse(bytes(entry.body), status=entry.status,
                            content_type=entry.content_type or None)
    for name, value in entry.headers.items():
        response[name] = value
    response["Idempotent-Replayed"] = "true"
    return response


def forget_old_entry_keys(user: Any = None, **kwargs: Any) -> None:
    """Drop the keys older than :data:`ENTRY_KEYS_KEPT`: the user's (when they log in, as
    the ``user_logged_in`` signal's receiver), or everyone's."""
    old = AppliedEntry.objects.filter(created_at__lt=timezone.now() - ENTRY_KEYS_KEPT)
    (old if user is None else old.filter(user=user)).delete()
