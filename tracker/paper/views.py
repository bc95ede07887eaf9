"""Printed sheets on the web: a form with a preview, and the PDF download."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_safe

from tracker.common import regions
from tracker.common.heavy import asks_for_pdf, heavy, not_a_preview
from tracker.common.pdf import (
    cannot_print,
    pdf_response,
    preview_response,
    print_language,
    print_paper,
    render_html,
    render_pdf,
    repeat_pages,
    sheet_response,
)
from tracker.evenings.models import GameNight, Series, Tournament
from tracker.evenings.pages import night_context
from tracker.households.access import get_for_household, get_household_for_user
from tracker.paper.forms import OwnPadForm, PadForm, TallyForm, with_defaults
from tracker.paper.own_pads import OwnPad, own_sheet_context, printable
from tracker.paper.printing import (
    certificates_context,
    filled_sheet_context,
    pad_context,
    render_pad,
    series_context,
    tally_context,
    tournament_print_context,
)
from tracker.table.models import OwnGame, Play, PlayStatus
from tracker.table.queries import participants_in_seat_order


def print_page(request: HttpRequest, pad_form: PadForm, tally_form: TallyForm, *,
               status: int = 200) -> HttpResponse:
    """The Print page: the pad form with its preview, and the tally sheet form."""
    household = get_household_for_user(request)
    context: dict[str, Any] = {"form": pad_form, "tally_form": tally_form,
                               "own_games": household.own_games.all() if household else []}
    if pad_form.is_valid():
        shown = pad_form.data.copy()
        shown.pop("format", None)
        context |= {"query": shown.urlencode(), "pages": pad_form.pad().pages}
    return render(request, "print/pad_form.html", context, status=status)


def tally_defaults(request: HttpRequest) -> dict[str, Any]:
    return TallyForm.defaults() | {"lang": print_language(request)}


@login_required
@require_safe
@xframe_options_sameorigin
@heavy(asks_for_pdf)
def pad(request: HttpRequest) -> HttpResponse:
    """The pad form; ``?format=pdf`` downloads the pad, ``?format=preview`` shows one sheet."""
    form = PadForm(with_defaults(request.GET, PadForm.defaults() | {"lang": print_language(
        request)}), household=get_household_for_user(request))
    wanted = request.GET.get("format")
    if not form.is_valid() or wanted not in ("pdf", "preview"):
        return print_page(request, form, TallyForm(initial=tally_defaults(request)),
                          status=400 if wanted and not form.is_valid() else 200)
    pad = form.pad()
    if wanted == "pdf":
        return pdf_response(render_pad(pad), ("kniffel", pad.variant, pad.paper))
    return preview_response(render_html("print/kniffel_pad.html",
                                         pad_context(pad) | {"preview": True}, pad.language))


@login_required
@require_safe
@xframe_options_sameorigin
@heavy(asks_for_pdf)
def own_game_pad(request: HttpRequest, own_game_id: int) -> HttpResponse:
    """A blank score pad of an own game: the form with a preview; ``?format=pdf`` downloads
    it, ``?format=preview`` shows the sheet."""
    own_game = get_for_household(request, OwnGame.objects.select_related("household"),
                                 pk=own_game_id)
    form = OwnPadForm(with_defaults(request.GET, OwnPadForm.defaults() | {
        "lang": print_language(request)}), own_game=own_game)
    wanted = request.GET.get("format")
    if form.is_valid() and wanted == "pdf":
        pad = form.pad()
        return pdf_response(render_own_pad(pad), ("pad", own_game.name, pad.paper))
    if form.is_valid() and wanted == "preview":
        pad = form.pad()
        return preview_response(render_html(pad.template, pad.context() | {"preview": True},
                                            pad.language))
    context: dict[str, Any] = {"form": form, "own_game": own_game}
    if form.is_valid():
        shown = form.data.copy()
        shown.pop("format", None)
        context |= {"query": shown.urlencode(), "pages": form.pad().pages}
    return render(request, "print/own_pad_form.html", context,
                  status=400 if wanted and not form.is_valid() else 200)


def render_own_pad(pad: OwnPad) -> bytes:
    """The pad's PDF: its one page, ``pad.sheets`` times."""
    pdf = render_pdf(pad.template, pad.context(), pad.language)
    return repeat_pages(pdf, pad.sheets) if pad.sheets > 1 else pdf


@login_required
@require_safe
@xframe_options_sameorigin
@heavy(not_a_preview)
def play_sheet(request: HttpRequest, play_id: int) -> HttpResponse:
    """The filled score sheet of a Kniffel play, or the score pad of an own game with points,
    in progress or finished."""
    play = get_for_household(request, Play.objects.select_related("game_night", "own_game")
                             .prefetch_related(participants_in_seat_order(), "cells"), pk=play_id)
    language = print_language(request)
    if printable(play):
        paper = print_paper(request)
        return sheet_response(request, "print/own_pad.html",
                              own_sheet_context(play, language, paper), language,
                              (play.own_game.name, play.pk, paper))
    if not play.is_dice_sheet:
        return cannot_print(request, _("Only Kniffel games and own games with points have a "
                                       "score sheet to print."))
    return sheet_response(request, "print/filled_sheet.html",
                          filled_sheet_context(play, language, print_paper(request)), language,
                          (play.game, play.pk))


@login_required
@require_safe
@xframe_options_sameorigin
@heavy(not_a_preview)
def series_standings(request: HttpRequest, series_id: int) -> HttpResponse:
    series = get_for_household(request, Series.objects.select_related("own_game"), pk=series_id)
    language = print_language(request)
    paper = print_paper(request)
    return sheet_response(request, "print/series.html",
                          series_context(series, language, paper), language,
                          ("series", series.name, paper))


@login_required
@require_safe
@xframe_options_sameorigin
@heavy(not_a_preview)
def tally(request: HttpRequest) -> HttpResponse:
    """The tally sheet; a mistake brings back the Print page, the input and its errors."""
    form = TallyForm(with_defaults(request.GET, tally_defaults(request)))
    if not form.is_valid():
        pad_form = PadForm(with_defaults(QueryDict(), PadForm.defaults() | {
            "lang": print_language(request)}), household=get_household_for_user(request))
        return print_page(request, pad_form, form, status=400)
    data = form.cleaned_data
    return sheet_response(request, "print/tally.html",
                          tally_context(data["races"], data["players"], data["lang"],
                                        data["paper"]),
                          data["lang"], ("maus-im-nacken-tally",))


@login_required
@require_safe
@xframe_options_sameorigin
@heavy(not_a_preview)
def night_certificates(request: HttpRequest, night_id: int) -> HttpResponse:
    """One certificate for each player with the most wins of the evening."""
    night = get_for_household(request, GameNight.objects.all(), pk=night_id)
    context = night_context(night)
    language = print_language(request)
    with regions.override(language):
        if context["in_progress"]:
            return cannot_print(request, _(
                "A game of this evening is still being played: the certificates can be printed "
                "once every game is finished or abandoned."))
        winners = [row.name for row in context["standings"] if row.rank == 1 and row.wins]
        if not context["standings"]:
            return cannot_print(request, _("No game of this evening is finished yet."))
        if not winners:
            return cannot_print(request, _("Nobody has won a game this evening: there is no "
                                           "certificate to print."))
        what = _("won the most games of the evening")
    return sheet_response(request, "print/certificates.html",
                          certificates_context(winners, what, night.date, language,
                                               print_paper(request)), language,
                          ("certificates", f"{night.date:%Y-%m-%d}"))


@login_required
@require_safe
@xframe_options_sameorigin
@heavy(not_a_preview)
def series_certificates(request: HttpRequest, series_id: int) -> HttpResponse:
    """One certificate for each winner, once the series is decided."""
    series = get_for_household(request, Series.objects.all(), pk=series_id)
    races = list(series.plays.filter(status=PlayStatus.FINISHED).order_by("race_number", "id")
                 .prefetch_related("participants"))
    language = print_language(request)
    with regions.override(language):
        if not races:
            return cannot_print(request, _("No race of this series is finished yet."))
        if series.status == Series.Status.RUNNING:
            return cannot_print(request, _(
                "The series is not decided yet: %(played)s of %(planned)s races played. The "
                "certificates can be printed after the last race.") % {
                    "played": len(races), "planned": series.races_planned})
        what = _("won the series “%(series)s”") % {"series": series.name}
    names = {p.key: p.name for p in series.players.all()}
    winners = [names.get(row.player, row.player) for row in series.standings(races)
               if row.rank == 1]
    decided = timezone.localdate(max(race.updated_at for race in races))
    return sheet_response(request, "print/certificates.html",
                          certificates_context(winners, what, decided, language,
                                               print_paper(request)),
                          language, ("certificates", series.name))


@login_required
@require_safe
@xframe_options_sameorigin
@heavy(not_a_preview)
def tournament_sheet(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Seating list per round and the standings, to hang on the wall."""
    tournament = get_for_household(request, Tournament.objects.select_related("own_game"),
                                   pk=tournament_id)
    language = print_language(request)
    paper = print_paper(request)
    return sheet_response(request, "print/tournament.html",
                          tournament_print_context(tournament, language, paper), language,
                          ("tournament", tournament.name, paper))
