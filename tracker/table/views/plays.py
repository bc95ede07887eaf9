"""Starting a game, entering its result with the game's own form, and the finished result."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.messages import get_messages
from django.db.models import prefetch_related_objects
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from games import InvalidResult
from tracker.common.engine_text import say
from tracker.common.pages import render_page, safe_next
from tracker.common.parsing import UnreadableInput, small_int
from tracker.households.access import get_for_household
from tracker.table.entry import ENTRIES
from tracker.table.models import Play, PlayChange
from tracker.table.queries import PLAY_ABANDONED, participants_in_seat_order, plays_with_players
from tracker.table.recording import (
    EditConflict,
    PlayAbandoned,
    abandon_play,
    change_draft,
    last_correction,
    record_result,
    undo_correction,
)
from tracker.table.rounds import kept_round_by_round
from tracker.table.shared_pages import (
    play_follow_context,
    play_page,
    shared_page_response,
    shared_play_page,
)


@login_required
@require_safe
def play_detail(request: HttpRequest, play_id: int) -> HttpResponse:
    """The game's page: its sheet, its score pad, its result form (as far as it is entered,
    on any tablet) or its result; followed by every device that has it open."""
    shared = not request.GET and not len(get_messages(request))
    page, follow, play = shared_play_page(request, play_id, shared=shared)
    if page is not None:
        return shared_page_response(request, page)
    if follow is None:
        follow = play_follow_context(request, play_id)
    if play is None:
        play = get_for_household(
            request, Play.objects.select_related("game_night", "series", "tournament",
                                                 "own_game"), pk=play_id)
    if play.is_dice_sheet or (kept_round_by_round(play) and "final" not in request.GET):
        template, context = play_page(play)
        return render_page(request, template, context | follow)
    prefetch_related_objects([play], participants_in_seat_order())
    if play.status == Play.Status.IN_PROGRESS:
        entry = ENTRIES[play.game]
        draft = play.current_draft or entry.blank(keys(play), play.house_rules)
        return render_page(request, "plays/detail.html", entry_context(play, draft) | follow)
    return render_page(request, "plays/detail.html", result_context(play) | follow)


@login_required
@require_safe
def play_edit(request: HttpRequest, play_id: int) -> HttpResponse:
    """The game's form again, filled with the stored result, to correct it."""
    play = get_for_household(request, plays_with_players(), pk=play_id)
    if play.is_dice_sheet or play.status == Play.Status.ABANDONED:
        return redirect(play)
    draft = (play.current_draft or dict(play.result)
             or ENTRIES[play.game].blank(keys(play), play.house_rules))
    return render_page(request, "plays/detail.html", entry_context(play, draft), partial="play")


@login_required
@require_POST
def play_entry(request: HttpRequest, play_id: int) -> HttpResponse:
    """A tap changes the draft and shows the form again; "save" records it through the rules."""
    play = get_for_household(request, plays_with_players(), pk=play_id)
    if play.is_dice_sheet:
        return redirect(play)
    entry = ENTRIES[play.game]
    try:
        if "save" not in request.POST:
            return tap_draft(request, play)
        draft = read_draft(request, play, play)
    except UnreadableInput as unreadable:
        return render_page(request, "plays/detail.html", entry_context(
            play, entry.blank(keys(play), play.house_rules),
            message=_("%(reason)s It has been reset; please enter the result again.")
            % {"reason": unreadable.message}),
            partial="play", status=400)
    result = entry.result(draft)
    # A team game's teams, formed on this form, may go on to the score pad, round by round.
    on_the_pad = request.POST.get("save") == "rounds" and isinstance(draft.get("teams"), dict)
    if on_the_pad:
        result = {"teams": draft["teams"], "rounds": []}
    try:
        expected = small_int(request.POST.get("version"))
        if expected is None:
            raise EditConflict
        record_result(play, result, expected_version=expected, user=request.user)
    except InvalidResult as refused:
        return render_page(request, "plays/detail.html",
                           entry_context(play, draft, problems=refused.problems),
                           partial="play", status=422)
    except PlayAbandoned:
        return render_page(request, "plays/detail.html",
                           entry_context(play, draft, message=PLAY_ABANDONED),
                           partial="play", status=409)
    except EditConflict:
        return render_page(request, "plays/detail.html", entry_context(
            play, draft, message=_("This result was changed on another tablet in the meantime. "
                                   "Your entry is kept below; reload the page to see theirs.")),
            partial="play", status=409)
    if on_the_pad and request.htmx:
        return HttpResponseClientRedirect(play.get_absolute_url())
    if request.htmx:
        play = get_for_household(request, plays_with_players(), pk=play_id)
        return render_page(request, "plays/detail.html", result_context(play), partial="play")
    return redirect(play)


def read_draft(request: HttpRequest, play: Play, stored: Play) -> dict[str, Any]:
    """The draft as ``stored`` keeps it (else as the form carried it), with what the form
    sent typed into it."""
    data = request.POST.copy()
    if stored.current_draft:
        data["draft"] = json.dumps(stored.current_draft)
    return ENTRIES[play.game].read(data, keys(play), play.house_rules)


def tap_draft(request: HttpRequest, play: Play) -> HttpResponse:
    """Apply a tap (or what was typed) to the draft kept for the play, so that a reload or
    another tablet shows it, and show the form again.

    The tap applies to the draft as stored, not as this device last saw it: taps of two
    tablets, or several sent one after the other from a device's outbox, all count.
    """
    entry = ENTRIES[play.game]

    def tap(stored: Play) -> tuple[dict[str, Any], str | None]:
        draft = read_draft(request, play, stored)
        if (stored.status == Play.Status.FINISHED
                and small_int(request.POST.get("version")) != stored.version):
            # A form from before the result was saved: a correction starts from the result.
            return draft, _("This game was finished on another tablet in the meantime: your "
                            "tap was not kept. Correct the result if something is wrong.")
        return draft, entry.tap(draft, request.POST.get("tap", ""), keys(play))

    draft, refused = change_draft(play, tap)
    return render_page(request, "plays/detail.html",
                       entry_context(play, draft, message=refused or ""),
                       partial="play", status=422 if refused else 200)


@login_required
@require_POST
def play_abandon(request: HttpRequest, play_id: int) -> HttpResponse:
    """Abandon a game under way (or a finished one): kept in the history, out of all standings."""
    play = get_for_household(request, plays_with_players(), pk=play_id)
    try:
        abandon_play(play, expected_version=small_int(request.POST.get("version")) or 0,
                     user=request.user)
    except EditConflict:
        messages.error(request, _("This game was changed on another tablet in the meantime; "
                                  "look at it again before abandoning it."))
    else:
        messages.success(request, _("%(game)s was abandoned.") % {"game": play.label})
    target = safe_next(request, play.get_absolute_url())
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


@login_required
@require_http_methods(["GET", "POST"])
def play_undo_correction(request: HttpRequest, play_id: int) -> HttpResponse:
    """Asks first what the last correction changed; confirmed, brings the result back."""
    play = get_for_household(request, plays_with_players(), pk=play_id)
    correction = last_correction(play)
    if request.method == "GET":
        if correction is None:
            return redirect(play)
        return render_page(request, "plays/undo_correction.html", {
            "play": play, "rules": play.rules, "correction": correction,
            "changed": correction_rows(play, correction, undoing=True)})
    try:
        undo_correction(play, expected_version=small_int(request.POST.get("version")) or 0,
                        user=request.user)
    except (InvalidResult, EditConflict) as refused:
        message = PLAY_ABANDONED if isinstance(refused, PlayAbandoned) else _(
            "This result was changed on another tablet in the meantime; nothing was undone. "
            "Look at it again.")
        play = get_for_household(request, plays_with_players(), pk=play_id)
        return render_page(request, "plays/detail.html", result_context(play) | {
            "message": message}, status=409)
    messages.success(request, _("The last correction was undone."))
    return redirect(play)


RESULT_CHANGES = (PlayChange.Action.RESULT, PlayChange.Action.EDITED, PlayChange.Action.UNDONE)


def correction_rows(play: Play, change: PlayChange, *, undoing: bool = False
                    ) -> list[dict[str, Any]]:
    """Each player whose place or points a result, a correction or its undoing changed,
    before and after; ``undoing`` shows what undoing ``change`` would do instead."""
    if change.action not in RESULT_CHANGES or not isinstance(change.data.get("points"), dict):
        return []
    previous = change.data.get("previous") or {}
    rows = []
    for participant in play.participants.all():
        key = participant.player_key
        before = ((previous.get("places") or {}).get(key),
                  (previous.get("points") or {}).get(key))
        after = ((change.data.get("places") or {}).get(key),
                 (change.data.get("points") or {}).get(key))
        if undoing:
            before, after = after, before
        if before != after:
            rows.append({"player": participant.player, "place_before": before[0],
                         "place_after": after[0], "points_before": before[1],
                         "points_after": after[1]})
    return rows


def keys(play: Play) -> list[str]:
    return [participant.player_key for participant in play.participants.all()]


def entry_context(play: Play, draft: dict[str, Any], *, problems=(), message: str = ""
                  ) -> dict[str, Any]:
    """The game's form with the draft, live preview and the engine's messages by player."""
    participants = list(play.participants.all())
    names = play.player_names()
    entry = ENTRIES[play.game]
    by_player: dict[str, list[str]] = {}
    general: list[str] = []
    for problem in problems:
        text = say(problem, names)
        if problem.player in names:
            by_player.setdefault(problem.player, []).append(text)
        else:
            general.append(text)
    flags: dict[str, set[str]] = {}
    for problem in problems:
        if problem.player in names and problem.field:
            flags.setdefault(problem.player, set()).add(problem.field)
    rows = [{"p": p, "key": p.player_key, "problems": by_player.get(p.player_key, []),
             "flags": flags.get(p.player_key, set())} for p in participants]
    return {
        "play": play,
        "rules": play.rules,
        "participants": participants,
        "player_names": names,
        "rows": rows,
        "entry_template": entry.template,
        "draft": draft,
        "draft_json": json.dumps(draft),
        "preview": entry.preview(draft, list(names)),
        "general_problems": general,
        "message": message,
        "editing": True,
        "seat_values": play.house_rules.get("seat_values",
                                            play.rules.default_house_rules().get("seat_values")),
    }


def result_context(play: Play) -> dict[str, Any]:
    participants = play.in_result_order()
    changes = list(play.changes.select_related("changed_by"))
    return {
        "play": play,
        "rules": play.rules,
        "ranked": participants,
        "winners": [p for p in participants if p.place == 1],
        "changes": [{"change": change, "changed": correction_rows(play, change)}
                    for change in changes],
        "can_undo_correction": last_correction(play) is not None,
        "editing": False,
        "next_race": play.series.next_race_number() if play.series_id else None,
    }
