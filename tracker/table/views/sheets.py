"""The Kniffel score sheet: one column per player, one tap per cell, from several tablets."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from games import InvalidResult
from games.coach import ROLLS_PER_TURN
from tracker.common.engine_text import say
from tracker.common.pages import render_page
from tracker.common.parsing import small_int
from tracker.households.access import get_for_household
from tracker.table.cells import NoSuchCell, enter_cell, sheet_participant
from tracker.table.models import Participant, Play
from tracker.table.queries import PLAY_ABANDONED, participants_in_seat_order
from tracker.table.recording import (
    EditConflict,
    PlayAbandoned,
    set_extra_kniffels,
    undo_cell,
)
from tracker.table.sheet import (
    editor_context,
    further_kniffel_question,
    out_of_turn_question,
    read_dice,
    saved_cell_context,
    sheet_context,
    tap_dice,
)


def sheet_play(request: HttpRequest, play_id: int) -> Play:
    play = get_for_household(
        request, Play.objects.select_related("game_night", "series", "tournament").prefetch_related(
            participants_in_seat_order()),
        pk=play_id)
    if not play.is_dice_sheet:
        raise Http404("not a score sheet")
    return play


def read_rolls_left(raw: str) -> int:
    """The rolls the player still has this turn, as the coach's hint asks: 0 (the final roll,
    also for anything unreadable), 1 or 2."""
    return int(raw) if raw in {str(left) for left in range(ROLLS_PER_TURN)} else 0


def participant_of(play: Play, player_id: int, field: str) -> Participant:
    """The participant whose cell ``field`` this is; 404 for a cell the sheet does not have."""
    try:
        return sheet_participant(play, player_id, field)
    except NoSuchCell:
        raise Http404("no such cell") from None


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def cell_editor(request: HttpRequest, play_id: int, player_id: int, field: str) -> HttpResponse:
    """Enter one cell: dice on the pads and a choice among what they score, or typed points."""
    if request.method == "POST" and ("choose" in request.POST or "save" in request.POST):
        return save_cell(request, play_id, player_id, field)
    play = sheet_play(request, play_id)
    participant = participant_of(play, player_id, field)
    tap = request.POST.get("tap", "")
    dice = tap_dice(play, read_dice(play, request.POST.get("dice", "")), tap)
    rolls_left = read_rolls_left(tap.removeprefix("rolls:") if tap.startswith("rolls:")
                                 else request.POST.get("rolls_left", ""))
    context = editor_context(play, participant, field, dice,
                             typed=request.POST.get("points", "").strip(), rolls_left=rolls_left)
    if request.method == "GET" and "anyway" not in request.GET:
        context["ask"] = out_of_turn_question(play, participant, field, context["cell"])
    return render_editor(request, play, context)


def save_cell(request: HttpRequest, play_id: int, player_id: int, field: str) -> HttpResponse:
    """Store the chosen field or the typed points, then answer with the changed parts only."""
    chosen = request.POST.get("choose") if "choose" in request.POST else None
    try:
        entry = enter_cell(play_id, player_id, field, member=request.user,
                           dice_sent=request.POST.get("dice", ""), chosen=chosen,
                           typed=request.POST.get("points", "").strip(),
                           expected_version=small_int(request.POST.get("version")))
    except NoSuchCell:
        raise Http404("no such cell") from None
    except PlayAbandoned:
        return render_sheet(request, sheet_play(request, play_id), message=PLAY_ABANDONED,
                            status=409)
    except EditConflict as conflict:
        play = sheet_play(request, play_id)
        current = conflict.current
        target = chosen or field
        player = next(p.player for p in play.participants.all() if p.player_id == player_id)
        message = _("%(player)s's %(field)s was entered on another tablet in the meantime "
                    "(%(points)s). Your entry was not saved.") % {
            "player": player.name, "field": say(play.rules.field(target).label),
            "points": current.points if current else "–"}
        return render_sheet(request, play, message=message, status=409)
    play, participant = entry.play, entry.participant
    if entry.problems:
        context = editor_context(play, participant, field, entry.dice,
                                 typed=request.POST.get("points", "").strip(),
                                 problems=entry.problems)
        return render_editor(request, play, context, status=422)
    if "save" in request.POST:
        question = further_kniffel_question(play, participant, entry.target, entry.cell.points)
        if question:
            return render_further_kniffel_question(request, play, question)
    if not request.htmx or play.status != Play.Status.IN_PROGRESS:
        return render_sheet(request, sheet_play(request, play_id))
    return render_page(request, "plays/sheet_saved.html",
                       saved_cell_context(play, participant, entry.target, entry.cell,
                                          entry.totals_before))


def render_further_kniffel_question(request: HttpRequest, play: Play, question: dict[str, Any]
                                    ) -> HttpResponse:
    """The saved sheet, with the further-Kniffel question where the editor was."""
    participant = next(p for p in play.participants.all()
                       if p.player_id == question["participant"].player_id)
    context = sheet_context(play) | {"further": question | {"participant": participant}}
    if not request.htmx:
        return render_page(request, "plays/sheet.html", context)
    response = render_page(request, "plays/sheet.html", context, partial="sheet")
    return reswap(retarget(response, "#sheet"), "outerHTML")


def render_editor(request: HttpRequest, play: Play, context: dict[str, Any], status: int = 200
                  ) -> HttpResponse:
    if request.htmx:
        return render_page(request, "plays/sheet.html", {"editor": context, "play": play},
                           partial="editor", status=status)
    return render_page(request, "plays/sheet.html", sheet_context(play) | {"editor": context},
                       status=status)


def render_sheet(request: HttpRequest, play: Play, *, message: str = "", status: int = 200
                 ) -> HttpResponse:
    """After a change: htmx gets the whole sheet region back (totals, turn, winner) in place."""
    if not request.htmx:
        return redirect(play) if status == 200 else render_page(
            request, "plays/sheet.html", sheet_context(play, message=message), status=status)
    response = render_page(request, "plays/sheet.html", sheet_context(play, message=message),
                           partial="sheet", status=status)
    return reswap(retarget(response, "#sheet"), "outerHTML")


@login_required
@require_POST
def sheet_undo(request: HttpRequest, play_id: int) -> HttpResponse:
    play = sheet_play(request, play_id)
    try:
        undo_cell(play, expected_version=small_int(request.POST.get("version")) or 0,
                  user=request.user)
    except PlayAbandoned:
        return render_sheet(request, sheet_play(request, play_id), status=409,
                            message=PLAY_ABANDONED)
    except EditConflict:
        return render_sheet(request, sheet_play(request, play_id), status=409, message=_(
            "Someone entered another cell in the meantime; nothing was undone."))
    return render_sheet(request, sheet_play(request, play_id))


@login_required
@require_POST
def sheet_extra_kniffels(request: HttpRequest, play_id: int) -> HttpResponse:
    play = sheet_play(request, play_id)
    player_id, _sep, count_text = request.POST.get("set", "").partition(":")
    participant = next((p for p in play.participants.all() if str(p.player_id) == player_id),
                       None)
    count, version = small_int(count_text), small_int(request.POST.get("version"))
    if participant is None or count is None or version is None:
        return render_sheet(request, play, status=400,
                            message=_("That change could not be read; nothing was saved."))
    try:
        set_extra_kniffels(play, participant.player, count, expected_version=version,
                           user=request.user)
    except InvalidResult as refused:
        names = play.player_names()
        return render_sheet(request, play, status=422,
                            message=" ".join(say(p, names) for p in refused.problems))
    except PlayAbandoned:
        return render_sheet(request, sheet_play(request, play_id), status=409,
                            message=PLAY_ABANDONED)
    except EditConflict:
        return render_sheet(request, sheet_play(request, play_id), status=409, message=_(
            "The sheet was changed on another tablet in the meantime; look again and retry."))
    return render_sheet(request, sheet_play(request, play_id))
