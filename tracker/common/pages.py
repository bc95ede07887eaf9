"""Answering a request with a page: the whole page or, for htmx, the region it asked for;
and where to go back to after a form."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme


def render_page(request: HttpRequest, template: str, context: Mapping[str, Any], *,
                partial: str | None = None, status: int = 200) -> HttpResponse:
    """The whole page, or for an htmx request only its ``partial`` region."""
    name = f"{template}#{partial}" if partial and request.htmx else template
    response = render(request, name, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


#: The pages being rendered in this process, by cache key: see :func:`rendered_once`.
_rendering: dict[str, threading.Lock] = {}
_rendering_guard = threading.Lock()


@contextmanager
def rendered_once(key: str | None) -> Iterator[str | None]:
    """The page kept in the cache under ``key`` once no other request of this process is
    rendering it: the caller renders and keeps it when None (a None ``key``: a page not
    kept, rendered each time).

    A change reaches every device on a game at once, and each asks for the new page: one
    renders it, the others wait for it instead of rendering it beside it. (``bench/devices.py``:
    seven tablets rendering a sheet side by side made the last one wait for all seven.)"""
    if key is None:
        yield None
        return
    with _rendering_guard:
        lock = _rendering.setdefault(key, threading.Lock())
    with lock:
        try:
            yield cache.get(key)
        finally:
            with _rendering_guard:
                if _rendering.get(key) is lock:
                    del _rendering[key]


def safe_next(request: HttpRequest, default: str) -> str:
    """The page to go back to, if the form named one on this site.

    Only a path: ``redirect`` would take anything else for the name of a view.
    """
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target.startswith("/") and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return default


class NotAllowedPageMiddleware:
    """An address opened in a way it does not take (a form's address typed into the
    browser, a link to something only a button does) answers with a page that says so,
    instead of Django's empty 405."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content or request.htmx:
            return response
        page = render(request, "405.html", status=405)
        page["Allow"] = response.get("Allow", "")
        patch_vary_headers(page, ["HX-Request"])
        return page
