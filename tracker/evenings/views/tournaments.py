"""Tournaments: where everyone sits each round, results table by table, standings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tracker.common.pages import render_page
from tracker.common.parsing import small_int
from tracker.evenings.forms import TournamentForm
from tracker.evenings.models import Tournament
from tracker.evenings.pages import (
    tournament_context,
)
from tracker.evenings.recording import (
    FinalTableChoice,
    drop_out,
    end_tournament,
    start_tournament_round,
)
from tracker.households.access import get_for_household, household_required
from tracker.table.following import follow_context, followed_state
from tracker.table.recording import EditConflict


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    household = household_required(request)
    # Nobody is ticked: a tournament is often more than tonight's table (twelve cousins).
    form = TournamentForm(request.POST or None, household=household,
                          initial={"game": "maus_im_nacken"})
    if request.method == "POST" and form.is_valid():
        form.instance.created_by = request.user
        tournament = form.save()
        return redirect(tournament)
    return render_page(request, "tournaments/new.html", {"form": form},
                       status=422 if form.errors else 200)


@login_required
@require_safe
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    state = followed_state(Tournament, tournament_id, request.user.pk)
    tournament = get_for_household(request, Tournament.objects.select_related("own_game"),
                                   pk=tournament_id)
    return render_page(request, "tournaments/detail.html",
                       tournament_context(tournament) | follow_context(
        "tournament", tournament_id, state))


@login_required
@require_POST
def tournament_round(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_for_household(request, Tournament.objects.all(), pk=tournament_id)
    try:
        start_tournament_round(tournament, user=request.user,
                               finalists=request.POST.getlist("finalist"))
    except EditConflict:
        messages.error(request, _("Every table of this round needs its result first."))
    except FinalTableChoice as choice:
        messages.error(request, ngettext(
            "Choose %(count)s player for the final table from those level on every tie-break.",
            "Choose %(count)s players for the final table from those level on every tie-break.",
            choice.cut.open_seats) % {"count": choice.cut.open_seats})
    return redirect(tournament)


@login_required
@require_POST
def tournament_drop_out(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_for_household(request, Tournament.objects.all(), pk=tournament_id)
    entry = tournament.entries.select_related("player").filter(
        player_id=small_int(request.POST.get("player"))).first()
    if entry is not None:
        drop_out(tournament, entry.player)
        messages.success(request, _("%(name)s plays no more rounds.") %
                         {"name": entry.player.name})
    return redirect(tournament)


@login_required
@require_POST
def tournament_end(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """End the tournament after the rounds played; tables still under way are abandoned."""
    tournament = get_for_household(request, Tournament.objects.all(), pk=tournament_id)
    try:
        end_tournament(tournament, user=request.user)
    except EditConflict:
        messages.error(request, _("This tournament has already ended."))
    return redirect(tournament)
