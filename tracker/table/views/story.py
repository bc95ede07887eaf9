"""A finished play's note and length, written at the end of the game or any time later."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tracker.common.pages import render_page
from tracker.households.access import get_for_household
from tracker.table.forms import PlayStoryForm
from tracker.table.models import Play
from tracker.table.queries import PLAY_ABANDONED
from tracker.table.story import keep_story


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def play_story(request: HttpRequest, play_id: int) -> HttpResponse:
    """The form for the note and length (GET), or them stored (POST): htmx gets the part of
    the result page back, a browser without JavaScript the play's page."""
    play = get_for_household(request, Play.objects.select_related("own_game"), pk=play_id)
    if request.method != "POST":
        if play.status != Play.Status.FINISHED:
            return redirect(play)
        return story_response(request, {"play": play, "editing": True})
    form = PlayStoryForm(request.POST)
    if not form.is_valid():
        return story_response(request, {"play": play, "form": form, "editing": True},
                              status=422)
    if not keep_story(play, note=form.cleaned_data["note"],
                      length_minutes=form.cleaned_data["length_minutes"]):
        play.refresh_from_db(fields=["status"])
        message = PLAY_ABANDONED if play.status == Play.Status.ABANDONED else _(
            "A note and a length are kept once the game has its result. Nothing was saved.")
        return story_response(request, {"play": play, "form": form, "editing": True,
                                        "message": message}, status=409)
    if not request.htmx:
        return redirect(play)
    return story_response(request, {"play": play})


def story_response(request: HttpRequest, context: dict[str, Any], status: int = 200
                   ) -> HttpResponse:
    return render_page(request, "plays/story.html", context, partial="story", status=status)
