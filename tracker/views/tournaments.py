"""Tournaments: where everyone sits each round, results table by table, standings."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

import games
from tracker.following import follow_context, followed_state
from tracker.forms import TournamentForm
from tracker.models import GameNight, Play, PlayStatus, Tournament
from tracker.parsing import small_int
from tracker.recording import (
    EditConflict,
    FinalTableChoice,
    drop_out,
    end_tournament,
    start_tournament_round,
)
from tracker.standings import cut_for_page, tournament_place_points
from tracker.views.common import (
    active_share_link,
    get_for_household,
    household_required,
    participants_in_seat_order,
    render_page,
)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    household = household_required(request)
    tonight = GameNight.objects.filter(household=household, date=timezone.localdate()).first()
    form = TournamentForm(request.POST or None, household=household,
                          initial={"game": "maus_im_nacken",
                                   "players": list(tonight.players.all()) if tonight else []})
    if request.method == "POST" and form.is_valid():
        form.instance.created_by = request.user
        tournament = form.save()
        return redirect(tournament)
    return render_page(request, "tournaments/new.html", {"form": form},
                       status=422 if form.errors else 200)


def tournament_context(tournament: Tournament) -> dict[str, Any]:
    """The current round's tables with their players, and the standings (constant queries)."""
    plays = list(tournament.plays.select_related("own_game")
                 .order_by("round_number", "table_number")
                 .prefetch_related(participants_in_seat_order()))
    entries = {str(entry.player_id): entry for entry in
               tournament.entries.select_related("player")}
    current = max((play.round_number for play in plays), default=0)
    tables = [play for play in plays if play.round_number == current]
    complete = all(play.status != PlayStatus.IN_PROGRESS for play in tables)
    standings = [item | {"entry": entries[item["player"]]}
                 for item in tournament.standings(plays)]
    names = {key: entry.player.name for key, entry in entries.items()}
    last_round = tournament.final_round or tournament.rounds_planned
    can_start = (complete and current < last_round
                 and tournament.status == Tournament.Status.RUNNING)
    return {
        "tournament": tournament,
        "rules": tournament.rules,
        "round": current,
        "tables": tables,
        "is_final": current == tournament.final_round,
        "round_complete": complete and bool(tables),
        "can_start": can_start,
        "next_round": current + 1,
        "next_is_final": current + 1 == tournament.final_round,
        "finished": tournament.status == Tournament.Status.FINISHED,
        "running": tournament.status == Tournament.Status.RUNNING,
        "rounds": range(1, max(current, 1) + 1),
        "standings": standings,
        "active": [entry for entry in entries.values() if entry.dropped_after_round is None],
        "scored_by_points": tournament.scored_by_points,
        "place_points": tournament_place_points(tournament),
        "tiebreak_labels": [games.METRICS[key].label for key in tournament.tiebreaks[1:]],
        "cut": final_cut(tournament, plays, names, current, can_start),
    }


def final_cut(tournament: Tournament, plays: list[Play], names: dict[str, str], current: int,
              can_start: bool) -> dict[str, Any] | None:
    """Who sits at the final table, once the rounds before it are played; None before."""
    final_round = tournament.final_round
    if final_round is None or not (current == final_round
                                   or can_start and current + 1 == final_round):
        return None
    seated = [p.player_key for play in plays if play.round_number == final_round
              for p in play.participants.all()]
    return cut_for_page(tournament.final_cut(plays), tournament.tiebreaks, names, seated)


@login_required
@require_safe
def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    state = followed_state("tournament", tournament_id, request.user.pk)
    tournament = get_for_household(request, Tournament.objects.select_related("own_game"),
                                   pk=tournament_id)
    return render_page(request, "tournaments/detail.html", tournament_context(tournament) | {
        "share_link": active_share_link(tournament=tournament)} | follow_context(
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
