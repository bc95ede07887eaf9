"""Home, game nights and the household's players."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import IntegrityError
from django.db.models import Case, Count, Prefetch, Q, QuerySet, When
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.base import shared_places
from tracker.following import follow_context, followed_state
from tracker.forms import GameNightForm, NightPlayersForm, PlayerForm
from tracker.models import (
    GameNight,
    Household,
    Play,
    PlayStatus,
    Series,
    ShareLink,
    Tournament,
)
from tracker.views.common import (
    M,
    active_share_link,
    get_for_household,
    get_household_for_user,
    household_required,
    participants_in_seat_order,
    render_page,
)

RECENT_NIGHTS = 5
OLDER_OPEN_PLAYS = 5
OPEN_PLAYS_PER_PAGE = 25
RECENT_COMPETITIONS = 5


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
    })


def open_plays(household: Household) -> QuerySet[Play]:
    """The household's games under way, the latest changed first."""
    return (Play.objects.filter(household=household, status=PlayStatus.IN_PROGRESS)
            .select_related("game_night", "series", "tournament", "own_game")
            .prefetch_related(participants_in_seat_order())
            .order_by("-updated_at", "-id"))


@login_required
@require_safe
def open_play_list(request: HttpRequest) -> HttpResponse:
    """Every unfinished game of earlier evenings, page by page, to continue or abandon."""
    household = household_required(request)
    older = open_plays(household).exclude(game_night__date=timezone.localdate())
    page = Paginator(older, OPEN_PLAYS_PER_PAGE).get_page(request.GET.get("page"))
    return render_page(request, "plays/open.html", {"page": page})


def running_first(queryset: QuerySet[M], running: str) -> QuerySet[M]:
    """Running ones first, then the newest."""
    return queryset.annotate(done=Case(When(status=running, then=0), default=1)).order_by(
        "done", "-created_at", "-id")


def recent_series(household: Household) -> list[Series]:
    """The running series, then the latest finished or ended ones."""
    return list(running_first(Series.objects.filter(household=household), Series.Status.RUNNING)
                .select_related("own_game")
                .annotate(races_played=Count("plays", distinct=True,
                                             filter=Q(plays__status=PlayStatus.FINISHED)))
                .prefetch_related(Prefetch("share_links", to_attr="active_links",
                                           queryset=ShareLink.objects.filter(
                                               revoked_at__isnull=True)))[:RECENT_COMPETITIONS])


def recent_tournaments(household: Household) -> list[Tournament]:
    """The running tournaments, then the latest finished or ended ones."""
    return list(running_first(Tournament.objects.filter(household=household),
                              Tournament.Status.RUNNING)
                .select_related("own_game")[:RECENT_COMPETITIONS])


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
        "form": form, "player_form": PlayerForm(household=household)},
        status=422 if form.errors else 200)


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


def safe_next(request: HttpRequest, default: str) -> str:
    """The page to go back to, if the form named one on this site.

    Only a path: ``redirect`` would take anything else for the name of a view.
    """
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target.startswith("/") and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return default


@dataclass
class NightRow:
    """A player's evening: games played, and how often they came first, second and third."""

    name: str
    colour: str
    pk: int
    played: int = 0
    wins: int = 0
    seconds: int = 0
    thirds: int = 0
    rank: int = 0


def night_standings(plays: list[Play]) -> list[NightRow]:
    """Most wins first, then most second places, then third places; ties share a rank.

    A co-operative game the table won is a win for everyone at it; one the table lost is
    nobody's win nor second place (the engine gives the game place 1). In a team game every
    member counts the team's place.
    """
    rows: dict[str, NightRow] = {}
    for play in plays:
        if play.status != PlayStatus.FINISHED:
            continue
        for participant in play.participants.all():
            player = participant.player
            row = rows.setdefault(player.key, NightRow(player.name, player.colour, player.pk))
            row.played += 1
            place = participant.place
            if play.cooperative and place != 1:
                continue
            if place in (1, 2, 3):
                attribute = ("wins", "seconds", "thirds")[place - 1]
                setattr(row, attribute, getattr(row, attribute) + 1)
    places = shared_places(rows, lambda key: (-rows[key].wins, -rows[key].seconds,
                                              -rows[key].thirds))
    for key, row in rows.items():
        row.rank = places[key]
    return sorted(rows.values(), key=lambda row: (row.rank, row.name))


def night_context(night: GameNight) -> dict[str, Any]:
    """The night's plays, series races and tournament tables included, and its standings."""
    plays = list(night.plays.select_related("series", "tournament", "own_game")
                 .prefetch_related(participants_in_seat_order())
                 .order_by("created_at", "id"))
    return {"night": night, "plays": plays, "standings": night_standings(plays),
            "is_tonight": night.date == timezone.localdate(),
            "in_progress": [play for play in plays if play.status == PlayStatus.IN_PROGRESS]}


@login_required
@require_safe
def night_detail(request: HttpRequest, night_id: int) -> HttpResponse:
    state = followed_state("night", night_id, request.user.pk)
    night = get_for_household(request, GameNight.objects.prefetch_related("players"),
                              pk=night_id)
    return render_page(request, "nights/detail.html", night_context(night) | {
        "share_link": active_share_link(game_night=night)} | follow_context(
        "night", night_id, state))
