"""Printed sheets on the web: a form with a preview, and the PDF download."""

from __future__ import annotations

from urllib.parse import urlencode

from csp.constants import UNSAFE_INLINE
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone, translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_safe

from tracker.forms import PadForm, TallyForm
from tracker.models import GameNight, Play, PlayStatus, Series, Tournament
from tracker.printing import (
    certificates_context,
    filled_sheet_context,
    pad_context,
    render_html,
    render_pad,
    render_pdf,
    series_context,
    tally_context,
    tournament_print_context,
)
from tracker.views.common import get_for_household, participants_in_seat_order
from tracker.views.nights import night_context


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_safe
@xframe_options_sameorigin
def pad(request: HttpRequest) -> HttpResponse:
    """The pad form; ``?format=pdf`` downloads the pad, ``?format=preview`` shows one sheet."""
    form = PadForm(request.GET or PadForm.defaults())
    wanted = request.GET.get("format")
    if not form.is_valid():
        return render(request, "print/pad_form.html", {"form": form}, status=400 if wanted
                      else 200)
    pad = form.pad()
    if wanted == "pdf":
        return pdf_response(render_pad(pad), f"kniffel-{pad.variant}-{pad.paper}.pdf")
    if wanted == "preview":
        return preview_response(render_html("print/kniffel_pad.html",
                                             pad_context(pad) | {"preview": True}, pad.language))
    shown = {name: value for name, value in form.data.items() if name != "format"}
    return render(request, "print/pad_form.html", {"form": form, "query": urlencode(shown)})


def print_language(request: HttpRequest) -> str:
    """``?lang=de`` or ``?lang=en``; otherwise the page's language."""
    wanted = request.GET.get("lang")
    return wanted if wanted in ("de", "en") else (get_language() or "en")[:2]


def sheet_response(request: HttpRequest, template: str, context: dict, language: str,
                   filename: str) -> HttpResponse:
    """The PDF, or with ``?format=html`` the same sheet as a web page to look at."""
    if request.GET.get("format") == "html":
        return preview_response(render_html(template, context | {"preview": True}, language))
    return pdf_response(render_pdf(template, context, language), filename)


def preview_response(html: str) -> HttpResponse:
    """A printed sheet as a web page: its paper's CSS is inline, so inline styles are allowed
    for this page alone (scripts stay forbidden)."""
    response = HttpResponse(html)
    response._csp_update = {"style-src": [UNSAFE_INLINE]}
    return response


def cannot_print(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "print/error.html", {"message": message}, status=400)


@login_required
@require_safe
@xframe_options_sameorigin
def play_sheet(request: HttpRequest, play_id: int) -> HttpResponse:
    """The filled score sheet of a Kniffel play, in progress or finished."""
    play = get_for_household(request, Play.objects.select_related("game_night")
                             .prefetch_related(participants_in_seat_order(), "cells"), pk=play_id)
    if not play.is_dice_sheet:
        return cannot_print(request, _("Only Kniffel games have a score sheet to print."))
    language = print_language(request)
    return sheet_response(request, "print/filled_sheet.html",
                          filled_sheet_context(play, language), language,
                          f"{play.game}-{play.pk}.pdf")


@login_required
@require_safe
@xframe_options_sameorigin
def series_standings(request: HttpRequest, series_id: int) -> HttpResponse:
    series = get_for_household(request, Series.objects.all(), pk=series_id)
    language = print_language(request)
    return sheet_response(request, "print/series.html", series_context(series, language),
                          language, f"series-{series.pk}.pdf")


@login_required
@require_safe
@xframe_options_sameorigin
def tally(request: HttpRequest) -> HttpResponse:
    form = TallyForm(request.GET or {"races": 5, "lang": print_language(request)})
    if not form.is_valid():
        return cannot_print(request, " ".join(
            f"{form.fields[name].label}: {' '.join(errors)}" for name, errors in
            form.errors.items()))
    data = form.cleaned_data
    return sheet_response(request, "print/tally.html",
                          tally_context(data["races"], data["players"], data["lang"]),
                          data["lang"], "maus-im-nacken-tally.pdf")


@login_required
@require_safe
@xframe_options_sameorigin
def night_certificates(request: HttpRequest, night_id: int) -> HttpResponse:
    """One certificate for each player with the most wins of the evening."""
    night = get_for_household(request, GameNight.objects.all(), pk=night_id)
    standings = night_context(night)["standings"]
    winners = [row.name for row in standings if row.rank == 1 and row.wins]
    if not winners:
        return cannot_print(request, _("No game of this evening is finished yet."))
    language = print_language(request)
    with translation.override(language):
        what = _("won the most games of the evening")
    return sheet_response(request, "print/certificates.html",
                          certificates_context(winners, what, night.date, language), language,
                          f"certificates-{night.date:%Y-%m-%d}.pdf")


@login_required
@require_safe
@xframe_options_sameorigin
def series_certificates(request: HttpRequest, series_id: int) -> HttpResponse:
    series = get_for_household(request, Series.objects.all(), pk=series_id)
    if not series.plays.filter(status=PlayStatus.FINISHED).exists():
        return cannot_print(request, _("No race of this series is finished yet."))
    names = {p.key: p.name for p in series.players.all()}
    winners = [names.get(row.player, row.player) for row in series.standings() if row.rank == 1]
    language = print_language(request)
    with translation.override(language):
        what = _("won the series “%(series)s”") % {"series": series.name}
    return sheet_response(request, "print/certificates.html",
                          certificates_context(winners, what, timezone.localdate(), language),
                          language, f"certificates-series-{series.pk}.pdf")


@login_required
@require_safe
@xframe_options_sameorigin
def tournament_sheet(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Seating list per round and the standings, to hang on the wall."""
    tournament = get_for_household(request, Tournament.objects.all(), pk=tournament_id)
    language = print_language(request)
    return sheet_response(request, "print/tournament.html",
                          tournament_print_context(tournament, language), language,
                          f"tournament-{tournament.pk}.pdf")
