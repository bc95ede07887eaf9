"""Starting a game in tonight's night: pick a game, tap the players in seat order; or the
same game again."""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import InvalidResult
from tracker.common.engine_text import say
from tracker.common.pages import render_page
from tracker.evenings.forms import NewPlayForm
from tracker.evenings.models import GameNight
from tracker.evenings.recording import start_rematch
from tracker.households.access import get_for_household
from tracker.table.forms import QuickOwnGameForm
from tracker.table.library import library
from tracker.table.models import game_key_of
from tracker.table.queries import plays_with_players
from tracker.table.recording import (
    start_play,
)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def play_new(request: HttpRequest, night_id: int) -> HttpResponse:
    """Pick a game, tap the players in seat order, choose who starts and the house rules."""
    night = get_for_household(request, GameNight.objects.prefetch_related("players"),
                              pk=night_id)
    present = list(night.players.all())
    data = request.POST.copy() if request.method == "POST" else None
    tap = request.POST.get("tap", "")
    # What is typed into the short form for a game of one's own stays through every tap, and
    # is checked only when it is added.
    new_game = QuickOwnGameForm(request.POST if tap == "add_game" else None,
                                household=night.household, prefix="new_game", initial={
                                    "name": request.POST.get("new_game-name", ""),
                                    "scoring": request.POST.get("new_game-scoring")})
    if tap == "add_game" and new_game.is_valid():
        data["game"] = game_key_of("generic", new_game.save().pk)
        new_game = QuickOwnGameForm(household=night.household, prefix="new_game")
    form = NewPlayForm(data, present=present, games_offered=library(night.household, night))
    start_key = form_key(request.POST.get("once", ""))
    problems: list[str] = []
    seats = form.seat_keys()
    if tap.startswith("seat:"):
        key = tap.removeprefix("seat:")
        if key in form.present:
            seats = [k for k in seats if k != key] if key in seats else [*seats, key]
    elif request.method == "POST" and "start" in request.POST and form.is_valid():
        chosen = form.chosen()
        if chosen is None:
            form.add_error("game", _("Choose a game."))
        else:
            try:
                play = start_play(household=night.household, game=chosen.rules.key,
                                  own_game=chosen.own_game, start_key=start_key,
                                  players=form.cleaned_data["players"],
                                  house_rules=form.cleaned_data["house_rules"],
                                  start_seat=form.cleaned_data["start_seat"],
                                  game_night=night, user=request.user)
            except InvalidResult as refused:
                names = {p.key: p.name for p in present}
                problems = [say(problem, names) for problem in refused.problems]
            else:
                if request.htmx:
                    return HttpResponseClientRedirect(play.get_absolute_url())
                return redirect(play)
    context = new_play_context(night, form, present, seats, problems) | {
        "new_game": new_game, "once": start_key}
    return render_page(request, "plays/new.html", context, partial="setup",
                       status=422 if problems or form.errors or new_game.errors else 200)


def form_key(sent: str) -> str:
    """The key a new-game form carries through its taps, so that "Start the game" tapped twice
    (or sent again after a dropped connection) starts one game: the one sent, or a new one."""
    return sent if re.fullmatch(r"[A-Za-z0-9_-]{16,40}", sent) else secrets.token_urlsafe(16)


def new_play_context(night: GameNight, form: NewPlayForm, present: list, seats: list[str],
                     problems: list[str]) -> dict[str, Any]:
    chosen = form.chosen()
    rules = chosen.rules if chosen else None
    chosen_rules = form.house_rules()
    by_key = {player.key: player for player in present}
    seated = [by_key[key] for key in seats]
    start_seat = form.start_seat()
    starter = seated[start_seat] if seated and start_seat is not None else None
    return {
        "night": night,
        "form": form,
        "games": form.games_offered,
        "played_tonight": set(night.plays.values_list("game_key", flat=True)),
        "chosen": chosen,
        "rules": rules,
        "present": present,
        "seated": seated,
        "seats_value": ",".join(seats),
        "starter": starter,
        "who_starts": rules.who_starts(rules.default_house_rules() | chosen_rules)
        if rules else None,
        "house_rules": [
            (option, chosen_rules.get(option.key, option.default)) for option in
            (chosen.house_rules_to_choose if chosen else ())
        ],
        "hint": rules.setup_hint(len(seats), rules.default_house_rules() | chosen_rules)
        if rules and seats else None,
        "problems": problems,
    }


@login_required
@require_POST
def play_rematch(request: HttpRequest, play_id: int) -> HttpResponse:
    """The same game again with the same players; the next player round the table starts."""
    play = get_for_household(request, plays_with_players(), pk=play_id)
    if play.series_id or play.tournament_id:
        raise Http404("a series or tournament goes on from its own page")
    try:
        rematch = start_rematch(play, user=request.user)
    except InvalidResult:
        messages.error(request, _("This game cannot be played again with the same players."))
        return redirect(play)
    if request.htmx:
        return HttpResponseClientRedirect(rematch.get_absolute_url())
    return redirect(rematch)
