"""Home, game nights and the household's players."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.db.models import Count, Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.base import shared_places
from tracker.forms import GameNightForm, PlayerForm
from tracker.models import GameNight, Play, PlayStatus, Series, ShareLink, Tournament
from tracker.views.common import (
    active_share_link,
    get_for_household,
    get_household_for_user,
    household_required,
    participants_in_seat_order,
    render_page,
)

RECENT_NIGHTS = 5


@require_GET
def health(request: HttpRequest) -> HttpResponse:
    """For monitoring and load balancers: the app answers, without touching the database."""
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    household = get_household_for_user(request)
    if household is None:
        return render_page(request, "home.html", {"household": None})
    nights = list(GameNight.objects.filter(household=household)
                  .annotate(play_count=Count("plays", distinct=True))
                  .order_by("-date", "-id")
                  .prefetch_related("players")[:RECENT_NIGHTS])
    today = timezone.localdate()
    tonight = next((night for night in nights if night.date == today), None)
    open_plays = (Play.objects.filter(household=household, status=PlayStatus.IN_PROGRESS)
                  .prefetch_related(participants_in_seat_order()).order_by("-updated_at"))
    running_series = (Series.objects.filter(household=household, status=Series.Status.RUNNING)
                      .annotate(races_played=Count("plays", distinct=True,
                                                   filter=Q(plays__status=PlayStatus.FINISHED)))
                      .prefetch_related(Prefetch("share_links", to_attr="active_links",
                                                 queryset=ShareLink.objects.filter(
                                                     revoked_at__isnull=True))))
    return render_page(request, "home.html", {
        "household": household,
        "tonight": tonight,
        "nights": nights,
        "open_plays": open_plays,
        "running_series": running_series,
        "tournaments": Tournament.objects.filter(household=household,
                                                 status=Tournament.Status.RUNNING)[:5],
    })


@login_required
@require_http_methods(["GET", "POST"])
def night_new(request: HttpRequest) -> HttpResponse:
    household = household_required(request)
    form = GameNightForm(request.POST or None, household=household,
                         initial={"date": timezone.localdate(), "host": request.user})
    if request.method == "POST" and form.is_valid():
        night = form.save(commit=False)
        night.host = request.user
        night.save()
        form.save_m2m()
        return redirect("night_detail", night.pk)
    return render_page(request, "nights/new.html", {
        "form": form, "player_form": PlayerForm(household=household)},
        status=422 if form.errors else 200)


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
                return redirect("night_new")
    form = GameNightForm(household=household,
                         initial={"players": sorted(ticked), "date": timezone.localdate()})
    return render_page(request, "nights/new.html", {"form": form, "player_form": player_form},
                       partial="players", status=422 if player_form.errors else 200)


@dataclass
class NightRow:
    """A player's evening: games played, and how often they came first, second and third."""

    name: str
    colour: str
    played: int = 0
    wins: int = 0
    seconds: int = 0
    thirds: int = 0
    rank: int = 0


def night_standings(plays: list[Play]) -> list[NightRow]:
    """Most wins first, then most second places, then third places; ties share a rank."""
    rows: dict[str, NightRow] = {}
    for play in plays:
        if play.status != PlayStatus.FINISHED:
            continue
        for participant in play.participants.all():
            player = participant.player
            row = rows.setdefault(player.key, NightRow(player.name, player.colour))
            row.played += 1
            if participant.place in (1, 2, 3):
                attribute = ("wins", "seconds", "thirds")[participant.place - 1]
                setattr(row, attribute, getattr(row, attribute) + 1)
    places = shared_places(rows, lambda key: (-rows[key].wins, -rows[key].seconds,
                                              -rows[key].thirds))
    for key, row in rows.items():
        row.rank = places[key]
    return sorted(rows.values(), key=lambda row: (row.rank, row.name))


def night_context(night: GameNight) -> dict:
    plays = list(night.plays.prefetch_related(participants_in_seat_order())
                 .order_by("created_at", "id"))
    return {"night": night, "plays": plays, "standings": night_standings(plays)}


@login_required
@require_GET
def night_detail(request: HttpRequest, night_id: int) -> HttpResponse:
    night = get_for_household(request, GameNight.objects.prefetch_related("players"),
                              pk=night_id)
    return render_page(request, "nights/detail.html", night_context(night) | {
        "share_link": active_share_link(game_night=night)})
