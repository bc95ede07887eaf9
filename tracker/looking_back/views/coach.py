"""The coach's analysis of a finished Kniffel game, one player at a time, on the page and on
paper: each turn entered with the dice weighed against the coach's choice for those dice."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_safe

from tracker.common import regions
from tracker.common.engine_text import say
from tracker.common.heavy import heavy, not_a_preview
from tracker.common.pages import render_page
from tracker.common.pdf import (
    PAPER_SIZES,
    cannot_print,
    print_language,
    print_paper,
    sheet_response,
)
from tracker.households.access import get_for_household
from tracker.table import coaching
from tracker.table.models import Participant, Play
from tracker.table.queries import participants_in_seat_order
from tracker.table.sheet import face_label


def analysed_play(request: HttpRequest, play_id: int) -> Play:
    """A Kniffel play of the user's household with its players and cells; 404 for any other
    game, which has no dice to weigh."""
    play = get_for_household(
        request, Play.objects.select_related("game_night").prefetch_related(
            participants_in_seat_order(), "cells"), pk=play_id)
    if not play.is_dice_sheet:
        raise Http404("only Kniffel games are analysed")
    return play


def participant_in(play: Play, player_id: int) -> Participant:
    participant = next((p for p in play.participants.all() if p.player_id == player_id), None)
    if participant is None:
        raise Http404("not a player of this game")
    return participant


def analysis_context(play: Play, participant: Participant) -> dict[str, Any]:
    """What the analysis shows; ``preparing`` while the coach's table is being computed,
    ``unavailable`` when it could not be."""
    context: dict[str, Any] = {
        "play": play, "participant": participant, "rules": play.rules,
        "others": [p for p in play.participants.all() if p != participant],
        "finished": play.status == Play.Status.FINISHED,
    }
    found = coaching.coach_for_play(play) if context["finished"] else None
    if found is None and context["finished"]:
        if coaching.being_prepared(play.rules, play.house_rules):
            return context | {"preparing": True, "ask_again": coaching.ASK_AGAIN_SECONDS}
        return context | {"unavailable": True}
    if found is None:
        return context
    cells = coaching.turns_of(play, participant)
    reviews = coaching.review(found, cells)
    rows = []
    expected_final = reviews[0].expected_before if reviews else 0.0
    for number, turn in enumerate(reviews, start=1):
        expected_final += turn.change
        rows.append({
            "number": number,
            "dice": [face_label(play, die) for die in turn.dice] if turn.dice else None,
            "field": say(play.rules.field(turn.field).label),
            "points": turn.points,
            "best": {"field": say(play.rules.field(turn.best.field).label),
                     "points": turn.best.points} if turn.best else None,
            "same": turn.best is not None and turn.best.field == turn.field,
            "allowed": turn.allowed,
            "lost": turn.lost,
            "luck": turn.luck,
            "expected_final": expected_final,
        })
    return context | {"rows": rows,
                      "summary": coaching.summary(reviews, participant.points or 0)}


def unavailable(request: HttpRequest, context: dict[str, Any]) -> HttpResponse:
    """The page for a game that is not finished: nothing to weigh yet."""
    return render_page(request, "plays/analysis.html", context, status=404)


@login_required
@require_safe
def play_analysis(request: HttpRequest, play_id: int, player_id: int) -> HttpResponse:
    play = analysed_play(request, play_id)
    context = analysis_context(play, participant_in(play, player_id))
    if not context["finished"]:
        return unavailable(request, context)
    return render_page(request, "plays/analysis.html", context)


@login_required
@require_safe
@xframe_options_sameorigin
@heavy(not_a_preview)
def play_analysis_print(request: HttpRequest, play_id: int, player_id: int) -> HttpResponse:
    """The analysis as a PDF (or, with ``?format=html``, as the page it is made from)."""
    play = analysed_play(request, play_id)
    participant = participant_in(play, player_id)
    language = print_language(request)
    with regions.override(language):
        context = analysis_context(play, participant)
        if not context["finished"]:
            return cannot_print(request, _("The coach weighs a game once it is finished."))
        if context.get("preparing"):
            response = cannot_print(request, _(
                "The coach is working out its tables for these house rules: try again in a "
                "moment."), status=503)
            response["Retry-After"] = str(coaching.ASK_AGAIN_SECONDS)
            return response
        if context.get("unavailable"):
            return cannot_print(request, _(
                "The coach could not work out its tables for these house rules just now. "
                "Try again in a moment."))
        context |= {
            "title": _("%(player)s: the coach's analysis") % {
                "player": participant.player.name},
            "paper": PAPER_SIZES[print_paper(request)], "language": language,
            "printed": date_format(timezone.localdate(), "DATE_FORMAT")}
    return sheet_response(request, "print/analysis.html", context, language,
                          ("analysis", play.pk, participant.player.name))
