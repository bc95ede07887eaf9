"""Read-only scoreboards for the room, opened through an unguessable share link.

The board polls every few seconds with the state it shows; when nothing
changed the answer is an empty 204, so a TV left on all evening costs one
small query per poll.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Count, Sum
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from tracker.models import GameNight, Play, Series, ShareLink, Tournament
from tracker.views.common import (
    get_for_household,
    household_required,
    participants_in_seat_order,
    render_page,
)
from tracker.views.nights import night_context
from tracker.views.series import series_context
from tracker.views.sheets import sheet_context
from tracker.views.tournaments import tournament_context

POLL_SECONDS = 3


def board_state(link: ShareLink) -> str:
    """A short text that changes whenever anything the board shows changes."""
    if link.play_id:
        version = Play.objects.filter(pk=link.play_id).values_list("version", flat=True).first()
        return f"p{version}"
    if link.game_night_id:
        plays = Play.objects.filter(game_night_id=link.game_night_id)
    elif link.series_id:
        plays = Play.objects.filter(series_id=link.series_id)
    else:
        plays = Play.objects.filter(tournament_id=link.tournament_id)
    summary = plays.aggregate(count=Count("id"), versions=Sum("version"))
    return f"{summary['count']}-{summary['versions'] or 0}"


@require_safe
def board(request: HttpRequest, token: str) -> HttpResponse:
    link = get_object_or_404(ShareLink.objects.select_related("household"), token=token,
                             revoked_at__isnull=True)
    state = board_state(link)
    if request.htmx and request.GET.get("since") == state:
        return HttpResponse(status=204)
    return render_page(request, "boards/board.html", board_context(link) | {
        "state": state, "poll_seconds": POLL_SECONDS, "board": True}, partial="board")


def board_context(link: ShareLink) -> dict[str, Any]:
    if link.play_id:
        # No cells prefetched: a sheet's table comes from the cache unless it changed.
        play = Play.objects.prefetch_related(participants_in_seat_order()).get(pk=link.play_id)
        if play.is_dice_sheet:
            return {"link": link, "kind": "sheet"} | sheet_context(play)
        ranked = sorted(play.participants.all(), key=lambda p: (p.place or 99, p.seat))
        return {"link": link, "kind": "play", "play": play, "ranked": ranked}
    if link.game_night_id:
        return {"link": link, "kind": "night"} | night_context(link.game_night)
    if link.tournament_id:
        return {"link": link, "kind": "tournament"} | tournament_context(link.tournament)
    return {"link": link, "kind": "series"} | series_context(link.series)


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
    ShareLink.objects.get_or_create(household=target.household, revoked_at__isnull=True,
                                    **{field: target},
                                    defaults={"created_by": request.user})
    return redirect(target)


@login_required
@require_POST
def share_revoke(request: HttpRequest, token: str) -> HttpResponse:
    link = get_object_or_404(ShareLink, token=token, household=household_required(request))
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    return redirect(link.target)


