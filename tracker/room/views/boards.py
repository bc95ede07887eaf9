"""Read-only scoreboards for the room, opened through an unguessable share link.

An open board is told of every change by its stream (:mod:`tracker.room.views.live`), then
asks for its new content, naming the state it shows in ``If-None-Match``: 304 Not Modified,
with no body, when nothing it shows changed after all. Where no stream comes through, the
board asks so now and then by itself."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_POST, require_safe

from tracker.common.pages import render_page, rendered_once
from tracker.common.pdf import PAPER_SIZES, print_language, print_paper, sheet_response
from tracker.evenings.models import GameNight, Series, Tournament
from tracker.households.access import get_for_household, household_required
from tracker.room.boards import board_context
from tracker.room.models import ShareLink
from tracker.room.sharing import board_address, revoke, share, shown_state
from tracker.table.models import Play

#: How often an open board asks whether anything changed when no stream reaches it.
POLL_MILLISECONDS = 5_000


def board_etag(state: str) -> str:
    """The board's entity tag: its state in the visitor's language."""
    return f'"{state}-{get_language()}"'


@require_safe
def board(request: HttpRequest, token: str) -> HttpResponse:
    """The scoreboard page; asked again by the open board (an htmx-style request naming the
    state it shows in ``If-None-Match``), only its changed content, or 304."""
    link_id, state = shown_state(token)
    etag = board_etag(state)
    if request.htmx:
        response = get_conditional_response(request, etag=etag) or HttpResponse(
            board_content(request, link_id, state))
    else:
        response = render_page(request, "boards/board.html", board_page_context(
            request, shown_link(link_id), state))
    response["ETag"] = etag
    patch_vary_headers(response, ["HX-Request", "Accept-Language", "Cookie"])
    return response


def shown_link(link_id: int) -> ShareLink:
    """The link with what its board shows; 404 when it was revoked a moment ago, between
    reading its state and reading it."""
    return get_object_or_404(ShareLink.objects.select_related(
        "household", "game_night", "series", "tournament"), pk=link_id, revoked_at__isnull=True)


def board_page_context(request: HttpRequest, link: ShareLink, state: str) -> dict[str, Any]:
    return board_context(link) | {
        "etag": board_etag(state), "state": state, "poll_milliseconds": POLL_MILLISECONDS,
        "board": True, "board_url": board_address(request, link)}


def board_content(request: HttpRequest, link_id: int, state: str) -> str:
    """The board's content in ``state``, as every TV on it shows it after a change: rendered
    once (:func:`tracker.common.pages.rendered_once`) for its language and the address its
    QR code names. Http404 when the link was revoked a moment ago."""
    key = f"board:{link_id}:{board_etag(state)}:{request.get_host()}"
    with rendered_once(key) as kept:
        if kept is not None:
            return kept
        content = render_to_string("boards/board.html#board", board_page_context(
            request, shown_link(link_id), state), request)
        cache.set(key, content, timeout=60 * 60)
        return content


SHAREABLE = {"play": Play, "night": GameNight, "series": Series, "tournament": Tournament}


@login_required
@require_POST
def share_create(request: HttpRequest, kind: str, object_id: int) -> HttpResponse:
    """Make (or reuse) the share link of a play, night or series, and go back to its page."""
    model = SHAREABLE.get(kind)
    if model is None:
        raise Http404("nothing to share")
    target = get_for_household(request, model.objects.all(), pk=object_id)
    field = {"play": "play", "night": "game_night", "series": "series",
             "tournament": "tournament"}[kind]
    share(target, field, request.user)
    return redirect(target)


@login_required
@require_POST
def share_revoke(request: HttpRequest, token: str) -> HttpResponse:
    link = get_object_or_404(ShareLink, token=token, household=household_required(request))
    revoke(link)
    return redirect(link.target)


@login_required
@require_safe
@xframe_options_sameorigin
def share_card(request: HttpRequest, token: str) -> HttpResponse:
    """A card to print and put up in the room: the board's QR code, big, and its address."""
    link = get_object_or_404(
        ShareLink.objects.select_related("household", "play", "game_night", "series",
                                         "tournament"),
        token=token, household=household_required(request), revoked_at__isnull=True)
    language = print_language(request)
    paper = print_paper(request)
    context = {"link": link, "address": board_address(request, link), "numbered": False,
               "title": link.household.name, "paper": PAPER_SIZES[paper], "paper_key": paper}
    return sheet_response(request, "print/share_card.html", context, language,
                          ("scoreboard", link.token[:6], paper))
