"""The score pad of an own game with points: a round at a time, from several tablets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from games import InvalidResult
from tracker.common.engine_text import say
from tracker.common.pages import render_page
from tracker.common.parsing import small_int
from tracker.households.access import get_for_household
from tracker.table.models import Play
from tracker.table.pad_entries import NoSuchColumn, enter_round_points, seen_points
from tracker.table.queries import PLAY_ABANDONED, participants_in_seat_order
from tracker.table.recording import EditConflict, PlayAbandoned
from tracker.table.rounds import (
    Layout,
    finish_own_game,
    kept_round_by_round,
    record_tie_counts,
    stored_rounds,
    undo_round,
)
from tracker.table.score_pad import (
    apply_key,
    moves_down,
    next_cell,
    pad_context,
    sides_of,
    ties_to_break,
)


def pad_play(request: HttpRequest, play_id: int) -> Play:
    """One of the user's plays kept on the score pad, with its players; else 404."""
    play = get_for_household(
        request, Play.objects.select_related("game_night", "series", "tournament", "own_game")
        .prefetch_related(participants_in_seat_order()), pk=play_id)
    if not kept_round_by_round(play):
        raise Http404("not kept on the score pad")
    return play


def render_pad(request: HttpRequest, play_id: int, *, message: str = "", status: int = 200
               ) -> HttpResponse:
    """After a change: htmx gets the whole pad back in place, others the page (or, after a
    change that went through, a redirect to it)."""
    if not request.htmx and status == 200:
        return redirect("play_detail", play_id)
    return pad_response(request, pad_context(pad_play(request, play_id), message=message),
                        status)


def pad_response(request: HttpRequest, context: dict[str, Any], status: int) -> HttpResponse:
    """The whole pad: in place of the old one for htmx, else the page."""
    if not request.htmx:
        return render_page(request, "plays/pad.html", context, status=status)
    response = render_page(request, "plays/pad.html", context, partial="pad", status=status)
    return reswap(retarget(response, "#pad"), "outerHTML")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def pad_cell(request: HttpRequest, play_id: int, number: int, side: int) -> HttpResponse:
    """The number pad for one cell of the pad; a key tapped without JavaScript shows it
    again with the number changed, "save" stores the points."""
    if request.method == "POST" and "save" in request.POST:
        return save_points(request, play_id, number, side)
    play = pad_play(request, play_id)
    typed = None
    if request.method == "POST":
        typed = apply_key(request.POST.get("points", "").strip(), request.POST.get("key", ""))
    context = pad_context(play, cell=(number, side), typed=typed, history=[])
    if context["editor"] is None:
        raise Http404("no such cell")
    if request.htmx:
        return render_page(request, "plays/pad_cell.html", context | {"tapped": True})
    return render_pad_page_with(request, play, context)


def render_pad_page_with(request: HttpRequest, play: Play, context: dict[str, Any],
                         status: int = 200) -> HttpResponse:
    context = context | {"history": list(play.changes.select_related("changed_by"))}
    return render_page(request, "plays/pad.html", context, status=status)


def save_points(request: HttpRequest, play_id: int, number: int, index: int) -> HttpResponse:
    """Store one side's points of one round and answer with what changed on the pad."""
    typed = request.POST.get("points", "").strip()
    try:
        entry = enter_round_points(play_id, number, index, member=request.user, typed=typed,
                                   expected_version=small_int(request.POST.get("version")),
                                   seen=seen_points(request.POST.get("seen")))
    except NoSuchColumn:
        raise Http404("no such column of a score pad") from None
    except PlayAbandoned:
        return render_pad(request, play_id, message=str(PLAY_ABANDONED), status=409)
    except EditConflict:
        return render_conflict(request, play_id, number, index, typed)
    play, message = entry.play, entry.message
    if message:
        context = pad_context(play, cell=(number, index), typed=typed, message=message,
                              history=[])
        if request.htmx:
            return render_page(request, "plays/pad_cell.html", context, status=422)
        return render_pad_page_with(request, pad_play(request, play_id), context, status=422)
    if not request.htmx:
        return redirect("play_detail", play_id)
    cell = next_cell(stored_rounds(play), entry.sides, after=(number, index),
                     layout=Layout.of(play), down=moves_down(play),
                     under_way=play.status == Play.Status.IN_PROGRESS)
    return render_page(request, "plays/pad_saved.html",
                       pad_context(play, cell=cell, history=[], new_change=entry.change))


def render_conflict(request: HttpRequest, play_id: int, number: int, index: int, typed: str
                    ) -> HttpResponse:
    """Another tablet saved the same cell first: the pad as it is now, its number pad open on
    that cell with this tablet's points and both numbers said, kept until someone on this
    tablet saves again or dismisses them."""
    play = pad_play(request, play_id)
    context = pad_context(play, cell=(number, index), typed=typed)
    stored = context["editor"]["stored"] if context["editor"] else None
    if stored is None:
        context["message"] = _(
            "The pad was changed on another tablet in the meantime: your %(typed)s was not "
            "saved and nothing was overwritten. Save it again if it is still missing."
        ) % {"typed": typed}
    else:
        context["message"] = _(
            "Not saved: another tablet entered %(stored)s here at the same moment, you typed "
            "%(typed)s. Save to put %(typed)s in its place, or dismiss to keep %(stored)s."
        ) % {"stored": stored, "typed": typed}
    return pad_response(request, context | {"refused": True}, 409)


@login_required
@require_POST
def pad_undo_round(request: HttpRequest, play_id: int) -> HttpResponse:
    """Take back the last round."""
    play = pad_play(request, play_id)
    return changed_pad(request, play_id, lambda version: undo_round(
        play, expected_version=version, user=request.user), _(
        "The pad was changed on another tablet in the meantime; nothing was undone. "
        "Look at it again."))


@login_required
@require_POST
def pad_finish(request: HttpRequest, play_id: int) -> HttpResponse:
    """End the game: places follow from the totals."""
    play = pad_play(request, play_id)
    return changed_pad(request, play_id, lambda version: finish_own_game(
        play, expected_version=version, user=request.user), _(
        "The pad was changed on another tablet in the meantime; the game is not finished "
        "yet. Look at it again."))


@login_required
@require_POST
def pad_tie_counts(request: HttpRequest, play_id: int) -> HttpResponse:
    """Break a finished game's tie by the count its rules name (Wingspan: food tokens
    left): a whole number for each tied side; one left blank keeps the tie for now (and
    takes back a count entered before)."""
    play = pad_play(request, play_id)
    sides = {side.index: side for side in sides_of(play)}
    counts: dict[str, int | None] = {}
    for tie in ties_to_break(play, list(sides.values())):
        for side, _count in tie.sides:
            typed = request.POST.get(f"count-{side.index}", "").strip()
            counts[side.key] = None  # left blank: no count (yet)
            if typed:
                counts[side.key] = small_int(typed) if len(typed) <= 7 else None
                if counts[side.key] is None:
                    return render_pad(request, play_id, status=422, message=_(
                        "%(side)s: enter the count as a whole number of 0 or more; nothing "
                        "was changed.") % {"side": side.name})
    try:
        return changed_pad(request, play_id, lambda version: record_tie_counts(
            play, counts, expected_version=version, user=request.user), _(
            "The pad was changed on another tablet in the meantime; the tie is not broken "
            "yet. Look at it again."))
    except InvalidResult as refused:
        return render_pad(request, play_id, status=422,
                          message=say(refused.problems[0], {s.key: s.name
                                                            for s in sides.values()}))


def changed_pad(request: HttpRequest, play_id: int, change: Callable[[int], object],
                conflict: str) -> HttpResponse:
    """Make ``change`` at the version the form saw and answer with the pad; a play abandoned
    meanwhile, or changed on another tablet (``conflict`` says what was not done), is
    refused with the pad as it is."""
    try:
        change(small_int(request.POST.get("version")) or 0)
    except PlayAbandoned:
        return render_pad(request, play_id, message=str(PLAY_ABANDONED), status=409)
    except EditConflict:
        return render_pad(request, play_id, status=409, message=conflict)
    return render_pad(request, play_id)
