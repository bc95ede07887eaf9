"""Headers every page of the app gets, and entries that are applied once."""

import html
import json
import re
import zlib
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.html import format_html
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
#: Keys older than that are dropped when their user logs in, and for everyone at most once
#: every PRUNE_SECONDS, by the first entry after that (or ``manage.py prune_entry_keys``).
ENTRY_KEYS_KEPT = timedelta(days=7)
PRUNE_SECONDS = 3600
PRUNE_CLAIM = "entry-keys-pruned"

#: What a key may keep of its answer, all told: a busy tablet writes thousands of keys an
#: evening, and a repeat needs the answer's status and where to go, rarely its page. A
#: Kniffel cell's answer, the longest a tablet sends often, is ~0.9 KB compressed for two
#: players and ~1.2 KB for six; what does not fit is rebuilt on a repeat (see :func:`replay`).
KEPT_BYTES = 1536


class EntryOnceMiddleware:
    """Applies each entry sent with an ``Idempotency-Key`` header once.

    The key is stored in the same transaction as whatever the entry changes, so either both
    are stored or neither. A second request with the key (sent again while the first was
    still on its way, or after the answer was lost) waits for the first and gets its answer.
    An entry whose body did not arrive whole is refused and its key not kept: the page that
    sent it has mostly gone (left while it sent), and the next page's try is the entry.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = request.headers.get("Idempotency-Key", "")
        if (request.method != "POST" or not ENTRY_KEY.fullmatch(key)
                or not request.user.is_authenticated):
            return self.get_response(request)
        if not arrived_whole(request):
            # Seen only where the page that sent it is still open (a proxy that cut it):
            # the outbox takes a refused entry out, so it has to be entered again.
            return alert_answer(_("This entry arrived incomplete and was not saved: please "
                                  "enter it again."), status=400)
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
        if cache.add(PRUNE_CLAIM, True, timeout=PRUNE_SECONDS):
            forget_old_entry_keys()
        return response


def alert_answer(message: str, status: int) -> HttpResponse:
    """A refusal as its message alone: the page swaps nothing and says it where the entry
    was made (the outbox reads the alert)."""
    response = HttpResponse(format_html('<p class="error" role="alert">{}</p>', message),
                            status=status)
    response["HX-Reswap"] = "none"
    return response


def arrived_whole(request: HttpRequest) -> bool:
    """Whether the request's body is as long as its Content-Length says. A device that goes
    away while it sends leaves the server a body cut short (the ASGI server ends it there),
    which would be read as a form without its fields: a Save without the points, answered
    as a tap and its key kept as applied."""
    try:
        return len(request.body) == int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False


def keep_answer(entry: AppliedEntry, response: HttpResponse) -> None:
    """Keep what a repeat of the entry needs, in at most :data:`KEPT_BYTES`: the status, the
    headers that say where to go, and the answer itself, compressed, where it fits. An
    answer that does not fit is rebuilt on a repeat (see :func:`replay`); of a refusal, its
    message is kept."""
    entry.status = response.status_code
    entry.content_type = response.get("Content-Type", "")[:100]
    entry.headers = {name: response[name] for name in REPLAYED_HEADERS if name in response}
    room = (KEPT_BYTES - len(entry.key) - len(entry.path.encode()) - len(entry.content_type)
            - len(json.dumps(entry.headers).encode()) - 16)
    entry.body = compact_answer(without_csrf_tokens(response.content), room)
    if not entry.body and response.status_code >= 400:
        message = refusal_of(response.content).encode()[:room]
        entry.body, entry.content_type = message.decode("utf-8", "ignore").encode(), REFUSAL_TYPE
    entry.save(update_fields=["status", "content_type", "headers", "body"])


def compact_answer(content: bytes, room: int) -> bytes:
    """``content`` compressed, if it fits in ``room`` bytes; else nothing."""
    compressed = zlib.compress(content, 9)
    return compressed if len(compressed) <= room else b""


#: A form's CSRF token: random, so it does not compress, and a page repeats it per form.
CSRF_FIELD = re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]*(")')


def without_csrf_tokens(content: bytes) -> bytes:
    """``content`` with its forms' CSRF tokens left empty: they are most of what a kept
    answer cannot compress, and a repeat fills in the asking device's own (:func:`replay`)."""
    return CSRF_FIELD.sub(rb"\1\2", content)


def with_csrf_tokens(content: bytes, request: HttpRequest) -> bytes:
    """``content`` with every form's CSRF token filled in for ``request``."""
    if not CSRF_FIELD.search(content):
        return content
    token = get_token(request).encode()
    return CSRF_FIELD.sub(lambda field: field.group(1) + token + field.group(2), content)


#: The kept answer is only a refusal's message (its page did not fit).
REFUSAL_TYPE = "text/x-refusal; charset=utf-8"
ALERT = re.compile(r'role="alert"[^>]*>(.*?)</', re.DOTALL)
TAGS = re.compile(r"<[^>]+>")


def refusal_of(content: bytes) -> str:
    """A refusal's message: the text of its first alert (the answer's page leaves it out)."""
    found = ALERT.search(content.decode("utf-8", "replace"))
    text = TAGS.sub("", found.group(1)) if found else ""
    return html.unescape(" ".join(text.split()))


def replay(entry: AppliedEntry, request: HttpRequest) -> HttpResponse:
    """The answer the entry got the first time; sent to another address, a 422 (a key is
    for one entry).

    An answer too long to keep is rebuilt: the entry was applied, so the page asks for
    nothing to be swapped (``HX-Reswap: none``) and shows the change by following the game,
    as it shows another tablet's; a refusal comes back as its message alone.
    """
    if entry.path != request.path[:400]:
        return HttpResponse(_("This entry was sent before with another address."),
                            status=422, content_type="text/plain; charset=utf-8")
    kept = bytes(entry.body)
    rebuilt = entry.content_type == REFUSAL_TYPE or not kept
    if entry.content_type == REFUSAL_TYPE:
        response = alert_answer(kept.decode(), status=entry.status)
    elif kept:
        response = HttpResponse(with_csrf_tokens(zlib.decompress(kept), request),
                                status=entry.status,
                                content_type=entry.content_type or None)
    else:
        response = HttpResponse(b"", status=entry.status)
    for name, value in entry.headers.items():
        response[name] = value
    if rebuilt:
        response["HX-Reswap"] = "none"
    response["Idempotent-Replayed"] = "true"
    return response


def forget_old_entry_keys(user: Any = None, **kwargs: Any) -> None:
    """Drop the keys older than :data:`ENTRY_KEYS_KEPT`: the user's (when they log in, as
    the ``user_logged_in`` signal's receiver), or everyone's."""
    old = AppliedEntry.objects.filter(created_at__lt=timezone.now() - ENTRY_KEYS_KEPT)
    (old if user is None else old.filter(user=user)).delete()
