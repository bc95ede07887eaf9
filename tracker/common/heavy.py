"""Pages that keep a server busy for seconds: large printed pads, tournament sheets, exports.

Six large pads asked for at once took every worker for twenty seconds, and a tablet's
sheet waited up to thirteen. So each member has at most ``AT_ONCE`` of them in the making
at a time; one more is answered at once with a 429 page that says so, and the tablets keep
the rest of the server. The slots are keys of the shared cache, so every server process
counts alike; a slot whose request died with its worker frees itself after
``SLOT_SECONDS``.
"""

from __future__ import annotations

import fcntl
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

#: Heavy requests of one member at once: enough for a pad and its tally sheet.
AT_ONCE = 2
#: Longer than any heavy page takes (gunicorn stops a request after 30 s).
SLOT_SECONDS = 60
#: How long the 429 page asks to wait before trying again.
RETRY_SECONDS = 5

View = Callable[..., HttpResponse]


def asks_for_pdf(request: HttpRequest) -> bool:
    """A form with a preview whose ``?format=pdf`` makes the PDF."""
    return request.GET.get("format") == "pdf"


def not_a_preview(request: HttpRequest) -> bool:
    """A sheet that is a PDF unless ``?format=html`` asks for the web page."""
    return request.GET.get("format") != "html"


def always(request: HttpRequest) -> bool:
    return True


def heavy(is_heavy: Callable[[HttpRequest], bool] = always) -> Callable[[View], View]:
    """Limit the view's requests for which ``is_heavy`` is true to ``AT_ONCE`` per member."""

    def decorator(view: View) -> View:
        @wraps(view)
        def limited(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not (request.user.is_authenticated and is_heavy(request)):
                return view(request, *args, **kwargs)
            slot = take_slot(request.user.pk)
            if slot is None:
                response = render(request, "busy.html", {"count": AT_ONCE}, status=429)
                response["Retry-After"] = str(RETRY_SECONDS)
                return response
            try:
                return view(request, *args, **kwargs)
            finally:
                cache.delete(slot)

        return limited

    return decorator


def take_slot(user_id: int) -> str | None:
    """The cache key of a free slot of the user's, now taken; None when all are taken."""
    with one_at_a_time():
        for number in range(AT_ONCE):
            key = f"heavy:{user_id}:{number}"
            if cache.add(key, 1, timeout=SLOT_SECONDS):
                return key
    return None


@contextmanager
def one_at_a_time() -> Iterator[None]:
    """Redis and memcached add a key atomically; the default cache in files looks, then
    writes, and let five of six pads asked for at once through. There a lock file makes
    taking a slot one step for the processes sharing those files."""
    backend = settings.CACHES["default"]["BACKEND"]
    if not backend.endswith("FileBasedCache"):
        yield
        return
    folder = Path(settings.CACHES["default"]["LOCATION"])
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "heavy.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
