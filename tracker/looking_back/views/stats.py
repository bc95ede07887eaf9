"""Looking back: the history, a page per player and per game, and the year in review."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import InvalidPage, Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_safe

from tracker.common import regions
from tracker.common.heavy import heavy, not_a_preview
from tracker.common.pages import render_page
from tracker.common.pdf import PAPER_SIZES, print_language, print_paper, sheet_response
from tracker.households.access import get_for_household, household_required
from tracker.households.models import Household, Player
from tracker.looking_back import stats
from tracker.looking_back.categories import player_categories
from tracker.looking_back.charts import count_bars, count_rows, rate_line
from tracker.looking_back.forms import HistoryFilterForm
from tracker.looking_back.game_page import game_stats as game_numbers
from tracker.looking_back.history import history_objects
from tracker.table.models import DICE_GAMES, Participant, Play

HISTORY_PAGE_SIZE = 25


def household_players(household: Household) -> dict[int, Player]:
    """The household's players by pk, to name players in aggregated rows without a join."""
    return {player.pk: player for player in Player.objects.filter(household=household)}


@login_required
@require_safe
def history(request: HttpRequest) -> HttpResponse:
    """Every night, play, series and tournament, newest first, filtered and paginated."""
    household = household_required(request)
    filtering = {key: value for key, value in request.GET.items() if key != "page"}
    form = HistoryFilterForm(filtering or None, household=household)
    if form.is_bound and not form.is_valid():
        return render_page(request, "stats/history.html", {
            "form": form, "household": household}, status=400)
    entries = stats.history_entries(household, **(form.filters() if form.is_bound else {}))
    try:
        page = Paginator(entries, HISTORY_PAGE_SIZE).page(request.GET.get("page") or 1)
    except InvalidPage as error:
        raise Http404(str(error)) from None
    query = request.GET.copy()
    query.pop("page", None)
    players = household_players(household)
    return render_page(request, "stats/history.html", {
        "household": household, "form": form, "page": page,
        "entries": history_objects(list(page.object_list)), "query": query.urlencode(),
        "players": sorted(players.values(), key=lambda player: player.name.lower()),
        "games": stats.played_games(household), "years": stats.years_played(household),
    }, partial="entries")


@login_required
@require_safe
def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_for_household(request, Player.objects.select_related("household"),
                               pk=player_id)
    players = household_players(player.household)
    numbers = stats.player_stats(player, players)
    chart = rate_line(numbers["over_time"], _("Period"), _("Games won")) \
        if numbers["over_time"] else None
    return render_page(request, "stats/player.html", {
        "player": player, "stats": numbers, "chart": chart,
        "analysed": analysed_plays(player), "categories": player_categories(player)})


#: How many of a player's latest Kniffel games their page links to the coach's analysis of.
ANALYSED_SHOWN = 5


def analysed_plays(player: Player) -> list[Participant]:
    """The player's latest finished Kniffel games (classic or space), newest first: one query."""
    return list(Participant.objects.filter(
        player=player, play__status=Play.Status.FINISHED,
        play__game__in=DICE_GAMES).select_related("play").order_by(
        "-play__updated_at", "-play_id")[:ANALYSED_SHOWN])


@login_required
@require_safe
def game_stats(request: HttpRequest, game: str) -> HttpResponse:
    household = household_required(request)
    counted = stats.counted_game(household, game)
    if counted is None:
        raise Http404("no such game")
    numbers = game_numbers(household, game, household_players(household), counted)
    x_title = _("Points") if counted.scored_by_points else _("Place")
    chart = count_bars(numbers["distribution"], x_title, _("Results")) \
        if numbers["distribution"] else None
    return render_page(request, "stats/game.html", {
        "scored_by_points": counted.scored_by_points, "game": counted.name, "key": game,
        "stats": numbers, "chart": chart})


def review_year(year: int) -> int:
    if not stats.year_in_range(year):
        raise Http404("no such year")
    return year


def review_context(household: Household, year: int) -> dict[str, Any]:
    """What the year in review shows, on the page and on paper."""
    review = stats.year_review(household, year, household_players(household))
    chart = count_rows([{"label": row["name"], "count": row["plays"]}
                        for row in review["games"]], _("Games played")) \
        if review["games"] else None
    return {"household": household, "review": review, "chart": chart}


@login_required
@require_safe
def year_review(request: HttpRequest, year: int) -> HttpResponse:
    household = household_required(request)
    return render_page(request, "stats/review.html", review_context(
        household, review_year(year)) | {"years": stats.years_played(household)})


@login_required
@require_safe
@xframe_options_sameorigin
@heavy(not_a_preview)
def year_review_print(request: HttpRequest, year: int) -> HttpResponse:
    """The year in review as a PDF (or, with ``?format=html``, as the page it is made from)."""
    household = household_required(request)
    year = review_year(year)
    language = print_language(request)
    with regions.override(language):
        context = review_context(household, year) | {
            "title": _("%(household)s: %(year)s in review") % {
                "household": household.name, "year": year},
            "paper": PAPER_SIZES[print_paper(request)], "language": language,
            "printed": date_format(timezone.localdate(), "DATE_FORMAT")}
    return sheet_response(request, "print/review.html", context, language,
                          ("review", year))
