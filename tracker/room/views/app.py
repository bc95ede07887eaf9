"""The app on the tablet's home screen: its manifest, icons, service worker and offline
page; and the question an open page asks whether what it shows is still current."""

from __future__ import annotations

import hashlib
import json

from django.contrib.staticfiles import finders
from django.db.models import Model
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import PrefixNode, static
from django.urls import reverse
from django.utils.cache import get_conditional_response
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tracker.evenings.models import GameNight, Series, Tournament
from tracker.table.following import followed_state
from tracker.table.models import Play

THEME_COLOUR = "#1f2328"
BACKGROUND_COLOUR = "#fbf8f3"

#: (file under static/, size, purpose) of the home-screen icons. "maskable" icons fill the
#: whole square and keep the dice inside the middle 80%, where every launcher's mask leaves it.
ICONS = [
    ("img/icon-192.png", "192x192", "any"),
    ("img/icon-512.png", "512x512", "any"),
    ("img/icon-maskable-192.png", "192x192", "maskable"),
    ("img/icon-maskable-512.png", "512x512", "maskable"),
]

#: Static files the service worker keeps, so that the offline page looks like the app.
OFFLINE_FILES = ["css/app.css", "js/app.js", "img/icon.svg", "img/favicon.ico",
                 "img/apple-touch-icon.png", *(path for path, _size, _purpose in ICONS)]


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: what the tablet needs to put the app on its home screen."""
    response = JsonResponse({
        "name": _("Scorekeeper for game nights"),
        "short_name": _("Scorekeeper"),
        "description": _("Scores, standings and scoreboards for family game nights."),
        "lang": get_language(),
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [{"src": static("img/icon.svg"), "sizes": "any", "type": "image/svg+xml",
                   "purpose": "any"}]
        + [{"src": static(path), "sizes": size, "type": "image/png", "purpose": purpose}
           for path, size, purpose in ICONS],
    }, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


def offline_cache_version() -> str:
    """Changes whenever a kept file changes, so the service worker keeps the new files."""
    digest = hashlib.sha256()
    for path in OFFLINE_FILES:
        digest.update(static(path).encode())
        found = finders.find(path)
        if found:
            with open(found, "rb") as kept:
                digest.update(kept.read())
    return digest.hexdigest()[:12]


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from the site's root so that it looks after every page."""
    # Values written as JSON, which is JavaScript: the script is not HTML to escape for.
    return render(request, "sw.js", {name: mark_safe(json.dumps(value)) for name, value in {
        "version": offline_cache_version(),
        "kept": [reverse("offline"), *(static(path) for path in OFFLINE_FILES)],
        "offline_url": reverse("offline"),
        "static_prefix": PrefixNode.handle_simple("STATIC_URL"),
    }.items()}, content_type="text/javascript; charset=utf-8")


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the app shows when the server cannot be reached: kept by the service worker."""
    return render(request, "offline.html")


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers and feed readers ask for /favicon.ico whatever the page says."""
    return redirect(static("img/favicon.ico"))


#: The pages that follow the other devices, by the kind their address names.
FOLLOWED: dict[str, type[Model]] = {
    "play": Play, "night": GameNight, "series": Series, "tournament": Tournament}


@require_safe
def follow(request: HttpRequest, kind: str, object_id: int) -> HttpResponse:
    """Whether a followed page is still current: 304 while the state named in
    ``If-None-Match`` is the state now, else the new state (404: gone or not the user's)."""
    model = FOLLOWED.get(kind)
    state = None if model is None else followed_state(model, object_id, request.user.pk)
    if state is None:
        raise Http404("nothing to follow")
    etag = f'"{state}"'
    response = get_conditional_response(request, etag=etag) or HttpResponse(
        state, content_type="text/plain; charset=utf-8")
    response["ETag"] = etag
    return response
