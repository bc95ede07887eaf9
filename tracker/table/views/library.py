"""The household's own games: the library's list on the Household page, adding and changing."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from tracker.common.pages import render_page
from tracker.households.access import get_for_household, household_required
from tracker.table.forms import OwnGameForm
from tracker.table.models import OwnGame


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def own_game_edit(request: HttpRequest, own_game_id: int | None = None) -> HttpResponse:
    """Add a game of the family's own, or change one: its plays keep their results and are
    scored as defined when they were played; later plays follow the change."""
    household = household_required(request)
    own_game = (get_for_household(request, OwnGame.objects.all(), pk=own_game_id)
                if own_game_id is not None else None)
    form = OwnGameForm(request.POST or None, household=household, instance=own_game)
    if request.method == "POST" and form.is_valid():
        form.save()
        return redirect(reverse("household") + "#games")
    return render_page(request, "households/own_game.html",
                       {"form": form, "own_game": own_game},
                       status=422 if form.errors else 200)
