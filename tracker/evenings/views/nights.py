"""Home, game nights and the household's players."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import IntegrityError
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tracker.common.pages import render_page, safe_next
from tracker.evenings.forms import GameNightForm, NightPlaceForm, NightPlayersForm
from tracker.evenings.models import GameNight, places_used
from tracker.evenings.pages import (
    night_context,
    open_plays,
    recent_series,
    recent_tournaments,
)
from tracker.households.access import (
    get_for_household,
    get_household_for_user,
    household_required,
)
from tracker.households.forms import PlayerForm
from tracker.table.following import follow_context, followed_state

RECENT_NIGHTS = 5
OLDER_OPEN_PLAYS = 5
OPEN_PLAYS_PER_PAGE = 25


@require_safe
def health(request: HttpRequest) -> HttpResponse:
    """For monitoring and load balancers: the app answers, without touching the database."""
    return HttpResponse("ok", content_type="text/plain")


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    household = get_household_for_user(request)
    if household is None:
        return render_page(request, "home.html", {"household": None})
    today = timezone.localdate()
    nights = list(GameNight.objects.filter(household=household)
                  .annotate(play_count=Count("plays", distinct=True))
                  .order_by("-date", "-id")
                  .prefetch_related("players")[:RECENT_NIGHTS])
    tonight = next((night for night in nights if night.date == today), None)
    older_plays = list(
        open_plays(household).exclude(game_night__date=today)[:OLDER_OPEN_PLAYS + 1])
    return render_page(request, "home.html", {
        "household": household,
        "tonight": tonight,
        "nights": nights,
        "tonights_plays": list(open_plays(household).filter(game_night__date=today)),
        "older_plays": older_plays[:OLDER_OPEN_PLAYS],
        "more_older_plays": len(older_plays) > OLDER_OPEN_PLAYS,
        "series_list": recent_series(household),
        "tournaments": recent_tournaments(household),
        # A household signed up a moment ago has nobody to play yet.
        "players_to_add": not household.players.exists(),
    })


@login_required
@require_safe
def open_play_list(request: HttpRequest) -> HttpResponse:
    """Every unfinished game of earlier evenings, page by page, to continue or abandon."""
    household = household_required(request)
    older = open_plays(household).exclude(game_night__date=timezone.localdate())
    page = Paginator(older, OPEN_PLAYS_PER_PAGE).get_page(request.GET.get("page"))
    return render_page(request, "plays/open.html", {"page": page})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def night_new(request: HttpRequest) -> HttpResponse:
    household = household_required(request)
    existing = GameNight.objects.filter(household=household, date=timezone.localdate()).first()
    if existing is not None and request.method == "GET":
        return redirect(existing)
    form = GameNightForm(request.POST or None, household=household,
                         initial={"date": timezone.localdate(), "host": request.user})
    if request.method == "POST" and form.is_valid():
        night = form.save(commit=False)
        night.host = request.user
        night.save()
        form.save_m2m()
        return redirect("night_detail", night.pk)
    return render_page(request, "nights/new.html", {
        "form": form, "player_form": PlayerForm(household=household),
        "places": places_used(household)}, status=422 if form.errors else 200)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def night_players(request: HttpRequest, night_id: int) -> HttpResponse:
    """Who is here tonight: a late arrival is ticked, someone who went home is unticked.

    Their games stay in the night's history and standings either way.
    """
    night = get_for_household(request, GameNight.objects.select_related("household"),
                              pk=night_id)
    form = NightPlayersForm(request.POST if request.method == "POST" else None, instance=night,
                            household=night.household)
    if request.method == "POST" and form.is_valid():
        form.save()
        return redirect(night)
    return render_page(request, "nights/players.html", {
        "night": night, "form": form, "player_form": PlayerForm(household=night.household)},
        status=422 if form.errors else 200)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def night_place(request: HttpRequest, night_id: int) -> HttpResponse:
    """Where the night took place: the form (GET), or the place changed (POST). htmx gets
    the night page's place back, a browser without JavaScript the night's page."""
    night = get_for_household(request, GameNight.objects.all(), pk=night_id)
    form = NightPlaceForm(request.POST if request.method == "POST" else None, instance=night)
    if request.method == "POST" and form.is_valid():
        form.save()
        if not request.htmx:
            return redirect(night)
        return render_page(request, "nights/place.html", {"night": night}, partial="place")
    return render_page(request, "nights/place.html", {
        "night": night, "form": form, "editing": True, "places": places_used(night.household)},
        partial="place", status=422 if form.errors else 200)


@login_required
@require_POST
def player_add(request: HttpRequest) -> HttpResponse:
    """Add a player inline; htmx gets the player tiles back with the new one ticked."""
    household = household_required(request)
    player_form = PlayerForm(request.POST, household=household)
    ticked = set(request.POST.getlist("players"))
    if player_form.is_valid():
        try:
            player = player_form.save()
        except IntegrityError:
            pass
        else:
            ticked.add(str(player.pk))
            player_form = PlayerForm(household=household)
            if not request.htmx:
                return redirect(safe_next(request, reverse("night_new")))
    form = GameNightForm(household=household,
                         initial={"players": sorted(ticked), "date": timezone.localdate()})
    return render_page(request, "nights/player_tiles.html",
                       {"form": form, "player_form": player_form},
                       status=422 if player_form.errors else 200)


@login_required
@require_safe
def night_detail(request: HttpRequest, night_id: int) -> HttpResponse:
    state = followed_state(GameNight, night_id, request.user.pk)
    night = get_for_household(request, GameNight.objects.prefetch_related("players"),
                              pk=night_id)
    return render_page(request, "nights/detail.html", night_context(night) | follow_context(
        "night", night_id, state))
