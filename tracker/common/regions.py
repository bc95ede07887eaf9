"""Dates and numbers as the browser's region writes them, in the language the site speaks.

The site speaks five languages; a browser names a region too ("en-GB", "de-CH"). Django's
format modules differ by region (27 Nov 2026 and 27/11/2026 in Britain, Nov. 27, 2026 and
11/27/2026 in the United States), and Django reads them for the active language. So, once
LocaleMiddleware has chosen the language, the region the browser asks for in that language
is activated where Django has formats for it: the catalogs stay the language's own (gettext
reads "en_GB" as "en" when there is no British catalog), and ``request.LANGUAGE_CODE`` stays
the site's language, the one the language menu shows.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from functools import lru_cache

from django.http import HttpRequest, HttpResponse
from django.utils import translation


def languages_asked(accept_language: str) -> list[str]:
    """The language tags of an Accept-Language header, lower case, most wanted first."""
    weighed = []
    for position, part in enumerate(accept_language.split(",")):
        tag, *params = (piece.strip() for piece in part.split(";"))
        weight = 1.0
        for param in params:
            name, _equals, value = param.partition("=")
            if name.strip() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if tag and tag != "*" and weight > 0:
            weighed.append((-weight, position, tag.lower()))
    return [tag for _weight, _position, tag in sorted(weighed)]


@lru_cache(maxsize=64)
def has_formats(tag: str) -> bool:
    """Whether Django has a format module of its own for the language tag (``en-gb``)."""
    try:
        return importlib.util.find_spec(
            f"django.conf.locale.{translation.to_locale(tag)}.formats") is not None
    except (ImportError, ValueError):
        return False


def regional_variant(language: str, accept_language: str) -> str:
    """``language`` in the region the browser asks for it first, where that has formats of
    its own: ``en`` and "en-GB,en;q=0.9" give ``en-gb``; "en-US" and "en" give ``en``."""
    first = next((tag for tag in languages_asked(accept_language)
                  if tag == language or tag.startswith(f"{language}-")), language)
    return first if has_formats(first) else language


def in_region(language: str) -> str:
    """``language``, in the region active now when that is a region of it: a printed sheet
    asked for in English by a British browser writes British dates."""
    active = translation.get_language() or ""
    return active if active.startswith(f"{language}-") else language


class RegionalFormatsMiddleware:
    """After LocaleMiddleware: the chosen language in the browser's region."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = translation.get_language()
        if language:
            variant = regional_variant(language, request.headers.get("Accept-Language", ""))
            if variant != language:
                translation.activate(variant)
        return self.get_response(request)


def override(language: str) -> translation.override:
    """``translation.override`` for a sheet in ``language``, in the active region of it."""
    return translation.override(in_region(language))
