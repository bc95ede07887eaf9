"""The page of a game in progress that every device at the table shares.

A Kniffel sheet or a score pad in progress looks the same on every tablet of the household
(in one language, on one address): it is rendered once per change and kept in the cache all
server processes share, with :data:`tracker.table.sheet.CSRF_SLOT` where each visitor's own
CSRF token goes and :data:`tracker.table.sheet.USER_SLOT` where its id goes. A tablet that
opens the page gets it with both put in; a tablet that follows the game gets it pushed by
its stream (:mod:`tracker.room.views.live`) and puts in the token it has
(``static/js/app.js``; its id is outside the regions it shows), so a change costs the server
one rendering and no request per device.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db.models import prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers

from tracker.common.pages import rendered_once
from tracker.households.access import get_for_household, show_household_of
from tracker.table.following import follow_context, followed_state
from tracker.table.models import Play
from tracker.table.queries import participants_in_seat_order
from tracker.table.rounds import kept_round_by_round
from tracker.table.score_pad import pad_context
from tracker.table.sheet import (
    CSRF_SLOT,
    USER_SLOT,
    sheet_context,
    sheet_page_key,
    sheet_page_state,
)

#: How long a shared page stays in the cache: a game is played within a day.
KEPT_SECONDS = 60 * 60 * 24


def shared_play_page(request: HttpRequest, play_id: int, *, shared: bool
                     ) -> tuple[str | None, dict[str, Any] | None, Play | None]:
    """The shared page of the play (see the module), how its page follows the other devices
    (:func:`tracker.table.following.follow_context`; None where the play is no Kniffel sheet
    or own game in progress of the user's households, whose page :func:`play_follow_context`
    follows), and the play where it had to be loaded.

    The page is None where each device is shown a page of its own: a result form, a
    finished game, or a page that is not to be shared (``shared`` False: one with a message
    or asked for with parameters). One small query finds what the page depends on; the play
    is loaded only when the page has to be rendered, once for all the requests waiting for
    it (:func:`tracker.common.pages.rendered_once`). The state is read before the play, so
    a page is never kept under a key older than what it shows, nor names a newer state.
    """
    found = sheet_page_state(play_id, request.user.pk)
    if found is None:
        return None, None, None
    depends_on, state, household_id = found
    show_household_of(request, household_id)
    follow = follow_context("play", play_id, state)
    if not shared:
        return None, follow, None
    key = sheet_page_key(request, play_id, *depends_on)
    page = cache.get(key)
    if page is not None:
        return page, follow, None
    with rendered_once(key) as rendered_meanwhile:
        if rendered_meanwhile is not None:
            return rendered_meanwhile, follow, None
        play = get_for_household(request, Play.objects.select_related(
            "game_night", "series", "tournament", "own_game"), pk=play_id)
        if play.status != Play.Status.IN_PROGRESS or not (
                play.is_dice_sheet or kept_round_by_round(play)):
            return None, follow, play
        template, context = play_page(play)
        page = render_to_string(template, context | follow | {
            "csrf_token": CSRF_SLOT, "user_slot": USER_SLOT}, request)
        cache.set(key, page, timeout=KEPT_SECONDS)
        return page, follow, play


def play_page(play: Play) -> tuple[str, dict[str, Any]]:
    """The template and context of the page of a Kniffel sheet or a score pad (``play``
    comes without its participants)."""
    prefetch_related_objects([play], participants_in_seat_order())
    if play.is_dice_sheet:
        return "plays/sheet.html", sheet_context(play)
    return "plays/pad.html", pad_context(play)


def play_follow_context(request: HttpRequest, play_id: int) -> dict[str, Any]:
    """How the page of any play of the user's households follows the other devices."""
    return follow_context("play", play_id, followed_state(Play, play_id, request.user.pk))


def shared_page_response(request: HttpRequest, page: str) -> HttpResponse:
    """The shared page with the visitor's own CSRF token and id put in."""
    response = HttpResponse(page.replace(CSRF_SLOT, get_token(request))
                            .replace(USER_SLOT, str(request.user.pk)))
    patch_vary_headers(response, ["HX-Request"])
    return response
