"""A series of races of one game: set up once, standings after every race."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tracker.common.pages import render_page
from tracker.evenings.forms import SeriesForm
from tracker.evenings.models import GameNight, Series, SeriesChange, Tournament
from tracker.evenings.pages import (
    running_first,
    series_context,
)
from tracker.evenings.recording import change_series_length, start_series_race
from tracker.households.access import get_for_household, household_required
from tracker.table.following import follow_context, followed_state
from tracker.table.models import PlayStatus
from tracker.table.recording import EditConflict


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def series_new(request: HttpRequest) -> HttpResponse:
    household = household_required(request)
    creating = request.method == "POST" and "create" in request.POST
    tonight = GameNight.objects.filter(household=household, date=timezone.localdate()).first()
    form = SeriesForm(request.POST or None, household=household,
                      initial={"game": "maus_im_nacken", "races_planned": 5,
                               "tiebreak_1": "points", "tiebreak_2": "wins",
                               "players": list(tonight.players.all()) if tonight else []})
    if creating and form.is_valid():
        series = form.save(commit=False)
        series.created_by = request.user
        series.save()
        form.save_m2m()
        return redirect(series)
    chosen = {key.removeprefix("rule_"): value for key, value in request.POST.items()
              if key.startswith("rule_")}
    return render_page(request, "series/new.html", {
        "form": form,
        "house_rules": [(option, chosen.get(option.key, option.default))
                        for option in form.house_rules_to_choose()],
    }, partial="setup", status=422 if creating and form.errors else 200)


@login_required
@require_safe
def series_detail(request: HttpRequest, series_id: int) -> HttpResponse:
    state = followed_state(Series, series_id, request.user.pk)
    series = get_for_household(request, Series.objects.select_related("own_game")
                               .prefetch_related("players"), pk=series_id)
    return render_page(request, "series/detail.html", series_context(series) | follow_context(
        "series", series_id, state))


@login_required
@require_POST
def series_race(request: HttpRequest, series_id: int) -> HttpResponse:
    """Start the next race and go to its form."""
    series = get_for_household(request, Series.objects.all(), pk=series_id)
    try:
        play = start_series_race(series, user=request.user)
    except EditConflict:
        messages.error(request, _("All agreed races are played or under way."))
        return redirect(series)
    return redirect(play)


@login_required
@require_POST
def series_length(request: HttpRequest, series_id: int) -> HttpResponse:
    """End the series after the races played, or agree one more race."""
    series = get_for_household(request, Series.objects.all(), pk=series_id)
    action = request.POST.get("action")
    if action in SeriesChange.Action.values:
        try:
            change_series_length(series, action, user=request.user)
        except EditConflict:
            messages.error(request, _("This series has already ended."))
    return redirect(series)




@login_required
@require_safe
def series_list(request: HttpRequest) -> HttpResponse:
    """Every series and tournament of the household, running ones first, then newest first."""
    household = household_required(request)
    series = (running_first(Series.objects.filter(household=household), Series.Status.RUNNING)
              .select_related("own_game")
              .annotate(races_played=Count("plays", distinct=True,
                                           filter=Q(plays__status=PlayStatus.FINISHED))))
    tournaments = running_first(Tournament.objects.filter(household=household),
                                Tournament.Status.RUNNING).select_related("own_game")
    return render_page(request, "series/list.html", {"series_list": series,
                                                     "tournaments": tournaments})
