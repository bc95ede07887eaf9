"""The ratings page, its CSV, switching ratings off and on, and a player's ratings."""

from __future__ import annotations

import csv
import io

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from tracker.common.downloads import attachment
from tracker.common.pages import render_page
from tracker.households.access import get_for_household, household_required
from tracker.households.models import Player, household_changed
from tracker.ratings.pages import csv_rows, player_ratings, ratings_context

CSV_COLUMNS = ["player", "game", "rating", "mu", "sigma", "plays", "provisional"]


@login_required
@require_safe
def ratings(request: HttpRequest) -> HttpResponse:
    household = household_required(request)
    context = {"household": household}
    if household.ratings_shown:
        context |= ratings_context(household)
    return render_page(request, "ratings/ratings.html", context)


@login_required
@require_safe
def ratings_csv(request: HttpRequest) -> HttpResponse:
    """Every rating as a spreadsheet: a row per player and game, the overall with no game."""
    household = household_required(request)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    writer.writerows(csv_rows(household) if household.ratings_shown else [])
    # The byte order mark makes spreadsheets read the file as UTF-8, umlauts included.
    return attachment("\ufeff" + out.getvalue(), "text/csv; charset=utf-8",
                      (household.name, _("ratings")), "csv", fallback="ratings")


@login_required
@require_POST
def ratings_switch(request: HttpRequest) -> HttpResponse:
    """Show the household's ratings, or hide them on every page."""
    household = household_required(request)
    household.ratings_shown = request.POST.get("shown") == "1"
    household.save(update_fields=["ratings_shown"])
    household_changed(household.pk, setup=True)
    return redirect("ratings")


@login_required
@require_safe
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's rating in each game, for their page: asked for once the page is shown, so
    that a page after a changed result does not wait for the whole history to be rated;
    opened at its own address, a page of its own."""
    found = get_for_household(request, Player.objects.select_related("household"),
                              pk=player_id)
    return render_page(request, "ratings/player.html",
                       {"ratings": player_ratings(found), "player": found}, partial="ratings")
