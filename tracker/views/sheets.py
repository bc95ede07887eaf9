"""The Kniffel score sheet: one column per player, one tap per cell, from several tablets."""

from __future__ import annotations

from datetime import datetime
from functools import cached_property
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.html import format_html_join
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from games import InvalidResult
from games.coach import ROLLS_PER_TURN
from games.dice_sheet import DICE
from games.kniffel import upper_bonus_missing
from games.weltraum_kniffel import SYMBOL_ICONS
from tracker import coaching
from tracker.engine_text import say
from tracker.following import follow_context, followed_state, state_text
from tracker.models import (
    DICE_GAMES,
    Household,
    KniffelCell,
    Participant,
    Play,
    Player,
    ShareLink,
)
from tracker.parsing import parse_whole_number, small_int
from tracker.recording import (
    EditConflict,
    PlayAbandoned,
    lock_sheet,
    next_race_number,
    set_extra_kniffels,
    stored_cell,
    undo_cell,
    write_locked_cell,
)
from tracker.views.common import (
    PLAY_ABANDONED,
    active_share_link,
    get_for_household,
    participants_in_seat_order,
    render_page,
    show_household_of,
)

DIE_FACES = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}


def sheet_play(request: HttpRequest, play_id: int) -> Play:
    play = get_for_household(
        request, Play.objects.select_related("game_night", "series", "tournament").prefetch_related(
            participants_in_seat_order()),
        pk=play_id)
    if not play.is_dice_sheet:
        raise Http404("not a score sheet")
    return play


def face_label(play: Play, face: Any) -> str:
    return DIE_FACES.get(face) or SYMBOL_ICONS.get(face, str(face))


class SheetRows:
    """The sheet's rows of cells, read from the database only when the cached table is stale."""

    def __init__(self, play: Play, participants: list[Participant], next_key: str | None):
        self.play, self.participants, self.next_key = play, participants, next_key

    @cached_property
    def cells(self) -> dict[tuple[str, str], KniffelCell]:
        return {(str(cell.player_id), cell.field): cell for cell in self.play.cells.all()}

    @cached_property
    def rows(self) -> list[dict[str, Any]]:
        return [
            {"field": field, "label": say(field.label), "upper": field.upper,
             "cells": [cell_slot(self.play, p, field.key,
                                 self.cells.get((p.player_key, field.key)))
                       for p in self.participants]}
            for field in self.play.rules.fields
        ]

    @cached_property
    def latest(self) -> KniffelCell | None:
        """The cell entered or corrected last: the scoreboard highlights it."""
        return max(self.cells.values(), key=lambda cell: (cell.entered_at, cell.pk), default=None)

    @property
    def latest_id(self) -> str:
        latest = self.latest
        return f"c-{latest.player_id}-{latest.field}" if latest else ""

    @property
    def latest_player_id(self) -> int | None:
        return self.latest.player_id if self.latest else None

    @property
    def players_changed(self) -> datetime | None:
        """When one of the players was last renamed or given another colour."""
        return max((p.player.updated_at for p in self.participants), default=None)

    @property
    def bonus(self) -> list[dict[str, Any]]:
        return [bonus_cell(self.play, p) for p in self.participants]

    @property
    def upper(self) -> list[dict[str, Any]]:
        return [row for row in self.rows if row["upper"]]

    @property
    def lower(self) -> list[dict[str, Any]]:
        return [row for row in self.rows if not row["upper"]]


def bonus_cell(play: Play, participant: Participant) -> dict[str, Any]:
    """The player's stored bonus, and what their upper part still needs for it (Kniffel)."""
    sheet = play.result.get("sheets", {}).get(participant.player_key, {})
    return {"participant": participant, "points": participant.details.get("bonus", 0),
            "missing": upper_bonus_missing(sheet)}


#: The rows of totals under each column of the classic sheet (ids as in sheet_table.html).
CLASSIC_TOTALS = [
    {"id": "sum-upper", "key": "upper_sum", "grand": False},
    {"id": "sum-upper-total", "key": "upper_total", "grand": False},
    {"id": "sum-extra", "key": "extra_kniffel_bonus", "grand": False},
    {"id": "sum-lower-total", "key": "lower_total", "grand": False},
    {"id": "sum-upper-again", "key": "upper_total", "grand": False},
    {"id": "sum-total", "key": "total", "grand": True},
]
SPACE_TOTALS = [{"id": "sum-total", "key": "total", "grand": True}]


def saved_cell_context(play: Play, participant: Participant, field: str, cell: KniffelCell,
                       totals_before: dict[str, Any]) -> dict[str, Any]:
    """What changes on the sheet when one cell is saved: the cell, those of its player's
    totals that differ from ``totals_before`` (the player's details before the save), the
    upper bonus after an upper field, the further Kniffels when the cell earned one, the
    turn, and the version the sheet's forms send (all of the forms after the first entry)."""
    classic = play.game == "kniffel"
    return sheet_context(play) | {
        "editor": None,
        "slot": cell_slot(play, participant, field, cell),
        "saved_totals": [row for row in (CLASSIC_TOTALS if classic else SPACE_TOTALS)
                         if participant.details.get(row["key"]) != totals_before.get(row["key"])
                         # A first lower field struck shows the lower total 0 where it was empty.
                         or (row["key"] == "lower_total" and not play.rules.field(field).upper)],
        "saved_bonus": bonus_cell(play, participant)
        if classic and play.rules.field(field).upper else None,
        "saved_extras": classic and participant.details.get("extra_kniffels")
        != totals_before.get("extra_kniffels"),
        "first_entry": sum(p.details.get("filled", 0) for p in play.participants.all()) == 1,
    }


def cell_slot(play: Play, participant: Participant, field: str, cell: KniffelCell | None
              ) -> dict[str, Any]:
    return {"participant": participant, "cell": cell, "field": field,
            "label": say(play.rules.field(field).label),
            "id": f"c-{participant.player_id}-{field}",
            "url": reverse("cell_editor", args=[play.pk, participant.player_id, field])}


def player_in_turn(play: Play) -> Participant | None:
    """Whose turn it is in a game in progress, counting round the table from the start player."""
    if play.status != Play.Status.IN_PROGRESS:
        return None
    in_turn_order = play.in_turn_order()
    key = play.rules.next_in_turn(
        {p.player_key: p.details.get("filled", 0) for p in in_turn_order})
    return next((p for p in in_turn_order if p.player_key == key), None)


def sheet_context(play: Play, *, message: str = "") -> dict[str, Any]:
    """The sheet as stored: totals per player, whose turn it is, and the rows (lazily)."""
    participants = list(play.participants.all())
    in_turn = player_in_turn(play)
    next_key = in_turn.player_key if in_turn else None
    return {
        "play": play,
        "rules": play.rules,
        "participants": participants,
        "sheet": SheetRows(play, participants, next_key),
        "classic": play.game == "kniffel",
        "next_key": next_key,
        "next_player": in_turn.player if in_turn else None,
        "winners": [p.player for p in participants if p.place == 1]
        if play.status == Play.Status.FINISHED else [],
        "anything_entered": any(p.details.get("filled", 0) for p in participants),
        "message": message,
        "next_race": next_race_number(play.series)
        if play.series_id and play.status == Play.Status.FINISHED else None,
    }


#: Stands for the visitor's CSRF token in a sheet page rendered once for all visitors.
CSRF_SLOT = "csrf-slot-of-the-shared-sheet"


def sheet_page_key(request: HttpRequest, play_id: int, version: int, share_token: str | None,
                   players_changed: Any) -> str:
    """What a cached sheet page depends on: the play's version, its share link (made or
    revoked without a new version), when one of its players was last renamed or given
    another colour, the language, the visitor's menu and the address."""
    changed = "".join(filter(str.isdigit, str(players_changed)))  # text or datetime: digits
    return (f"sheet-page:{play_id}:{version}:{share_token or '-'}:{changed}:"
            f"{get_language()}:{int(request.user.is_staff)}:{request.get_host()}")


def sheet_page_state(play_id: int, user_id: int
                     ) -> tuple[tuple[int, str | None, Any], str, int] | None:
    """What the cached page of a sheet in progress of one of the user's households depends
    on (see :func:`sheet_page_key`), its state as the devices following it know it (see
    :mod:`tracker.following`), and its household; None when there is no such sheet.

    Written in SQL because it runs on every view of a sheet: compiling it through the ORM
    costs many times what running it does.
    """
    members = Household.members.through._meta
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT play.version, play.draft_revision, play.status, play.household_id,"
            f" (SELECT link.token FROM {ShareLink._meta.db_table} link"
            f"  WHERE link.play_id = play.id AND link.revoked_at IS NULL"
            f"  ORDER BY link.id LIMIT 1),"
            f" (SELECT MAX(player.updated_at) FROM {Player._meta.db_table} player"
            f"  JOIN {Participant._meta.db_table} participant"
            f"  ON participant.player_id = player.id WHERE participant.play_id = play.id)"
            f" FROM {Play._meta.db_table} play"
            f" JOIN {members.db_table} member ON member.household_id = play.household_id"
            f" WHERE play.id = %s AND member.user_id = %s AND play.status = %s"
            f" AND play.game IN ({', '.join(['%s'] * len(DICE_GAMES))})",
            [play_id, user_id, Play.Status.IN_PROGRESS, *DICE_GAMES])
        row = cursor.fetchone()
    if row is None:
        return None
    version, draft_revision, status, household_id, token, players_changed = row
    return (version, token, players_changed), state_text(
        (version, draft_revision, status, players_changed)), household_id


def cached_sheet_page(request: HttpRequest, play_id: int
                      ) -> tuple[HttpResponse | None, str | None, dict[str, Any]]:
    """The page of a sheet in progress from the shared cache, or None and the key to keep
    the page under once it is rendered (None: a page not to keep); and how a page of the
    play follows the other devices (:func:`tracker.following.follow_context`).

    One small query finds what the page depends on; the play itself is loaded only when
    the page has to be rendered. The state is read before the play, so a page is never
    kept under a key newer than what it shows, nor names a state newer than it shows.
    """
    found = sheet_page_state(play_id, request.user.pk)
    if found is None:
        return None, None, follow_context(
            "play", play_id, followed_state("play", play_id, request.user.pk))
    depends_on, state, household_id = found
    show_household_of(request, household_id)
    follow = follow_context("play", play_id, state)
    if request.GET or len(get_messages(request)):
        return None, None, follow
    key = sheet_page_key(request, play_id, *depends_on)
    page = cache.get(key)
    if page is None:
        return None, key, follow
    return sheet_page_response(request, page), key, follow


def render_sheet_page(request: HttpRequest, play: Play, key: str | None,
                      follow: dict[str, Any]) -> HttpResponse:
    """The sheet page; ``play`` comes without its participants, ``follow`` says how the page
    follows the other devices (see :mod:`tracker.following`).

    A game in progress is rendered once per ``key`` (see :func:`cached_sheet_page`) and
    kept in the cache that all server processes share, for every tablet that opens it,
    with each visitor's own CSRF token put in. A finished game (which links to what comes
    next in its series), and a page with a message to show, are rendered each time.
    """
    prefetch_related_objects([play], participants_in_seat_order())
    context = sheet_context(play) | follow | {"share_link": active_share_link(play=play)}
    if key is None or play.status != Play.Status.IN_PROGRESS:
        return render_page(request, "plays/sheet.html", context)
    page = render_to_string("plays/sheet.html", context | {"csrf_token": CSRF_SLOT}, request)
    cache.set(key, page, timeout=60 * 60 * 24)
    return sheet_page_response(request, page)


def sheet_page_response(request: HttpRequest, page: str) -> HttpResponse:
    response = HttpResponse(page.replace(CSRF_SLOT, get_token(request)))
    patch_vary_headers(response, ["HX-Request"])
    return response


def read_dice(play: Play, raw: str) -> list[Any]:
    """The dice entered so far from the form; anything that is not a face is dropped."""
    faces = {str(face): face for face in play.rules.faces}
    return [faces[token] for token in raw.split(",") if token in faces][:DICE]


def open_sheet(play: Play, participant: Participant, field_key: str) -> dict[str, int]:
    """The player's sheet with the tapped field counted as open."""
    return {field: points
            for field, points in play.result.get("sheets", {}).get(participant.player_key,
                                                                   {}).items()
            if field != field_key}


def roll_options(play: Play, participant: Participant, field_key: str, dice: list[Any]
                 ) -> list[dict[str, Any]]:
    """What five dice score in each field still open for the player (the tapped field counts
    as open), as the editor lists them; nothing until all five dice are in."""
    if len(dice) != DICE:
        return []
    rules = play.rules
    sheet = open_sheet(play, participant, field_key)
    scores = rules.options(dice, sheet, play.house_rules)
    return [{"key": f.key, "label": say(f.label), "points": scores[f.key],
             "tapped": f.key == field_key}
            for f in rules.fields if f.key in scores]


def read_rolls_left(raw: str) -> int:
    """The rolls the player still has this turn, as the coach's hint asks: 0 (the final roll,
    also for anything unreadable), 1 or 2."""
    return int(raw) if raw in {str(left) for left in range(ROLLS_PER_TURN)} else 0


def coach_hint(play: Play, participant: Participant, field_key: str, dice: list[Any],
               rolls_left: int) -> dict[str, Any] | None:
    """The coach's hint for the dice on the pads, where the play's house rules allow it and
    the game is under way: the field it would choose, the expected final score of each
    field, and with rolls left the dice it would keep. None without the house rule."""
    if not play.house_rules.get("coach_hint") or play.status != Play.Status.IN_PROGRESS:
        return None
    hint: dict[str, Any] = {"rolls_left": rolls_left, "choices": range(ROLLS_PER_TURN)}
    if len(dice) != DICE:
        return hint
    found = coaching.coach_for_play(play)
    if found is None:
        return hint | {"unavailable": True}
    sheet = open_sheet(play, participant, field_key)
    advice = found.advise(sheet, dice, rolls_left)
    house_rules = play.rules.default_house_rules() | play.house_rules
    banked = play.rules.totals(sheet, participant.details.get("extra_kniffels", 0),
                               house_rules)["total"]
    hint |= {"field": advice.best_field.field,
             "field_label": say(play.rules.field(advice.best_field.field).label),
             "worth": {option.field: banked + option.worth for option in advice.fields}}
    if advice.reroll:
        keep = advice.best_keep
        hint["keep"] = {"dice": format_html_join(" ", '<span class="small-die">{}</span>',
                                                 ((face_label(play, die),) for die in keep.dice)),
                        "reroll": DICE - len(keep.dice), "worth": banked + keep.worth}
    elif rolls_left:
        hint["write_now"] = True
    return hint


def editor_context(play: Play, participant: Participant, field_key: str, dice: list[Any], *,
                   typed: str = "", problems: list[str] | None = None, message: str = "",
                   rolls_left: int = 0) -> dict[str, Any]:
    rules = play.rules
    hint = coach_hint(play, participant, field_key, dice, rolls_left)
    options = roll_options(play, participant, field_key, dice)
    if hint and "worth" in hint:
        for option in options:
            option["worth"] = hint["worth"].get(option["key"])
            option["coach"] = option["key"] == hint["field"]
    return {
        "play": play,
        "participant": participant,
        "field": rules.field(field_key),
        "field_label": say(rules.field(field_key).label),
        "cell": stored_cell(play, participant.player, field_key),
        "dice": [{"face": die, "label": face_label(play, die)} for die in dice],
        "dice_value": ",".join(map(str, dice)),
        "empty_slots": range(DICE - len(dice)),
        "pad": [{"face": face, "label": face_label(play, face)} for face in rules.faces],
        "options": options,
        "scores_most": rules.must_score_most(rules.default_house_rules() | play.house_rules),
        "hint": hint,
        "typed": typed,
        "problems": problems or [],
        "message": message,
    }


def participant_of(play: Play, player_id: int, field: str) -> Participant:
    """The participant whose cell ``field`` this is; 404 for a cell the sheet does not have."""
    participant = next((p for p in play.participants.all() if p.player_id == player_id), None)
    if participant is None or field not in play.rules.field_keys:
        raise Http404("no such cell")
    return participant


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def cell_editor(request: HttpRequest, play_id: int, player_id: int, field: str) -> HttpResponse:
    """Enter one cell: dice on the pads and a choice among what they score, or typed points."""
    if request.method == "POST" and ("choose" in request.POST or "save" in request.POST):
        return save_cell(request, play_id, player_id, field)
    play = sheet_play(request, play_id)
    participant = participant_of(play, player_id, field)
    tap = request.POST.get("tap", "")
    dice = tap_dice(play, read_dice(play, request.POST.get("dice", "")), tap)
    rolls_left = read_rolls_left(tap.removeprefix("rolls:") if tap.startswith("rolls:")
                                 else request.POST.get("rolls_left", ""))
    context = editor_context(play, participant, field, dice,
                             typed=request.POST.get("points", "").strip(), rolls_left=rolls_left)
    if request.method == "GET" and "anyway" not in request.GET:
        context["ask"] = out_of_turn_question(play, participant, field, context["cell"])
    return render_editor(request, play, context)


def save_cell(request: HttpRequest, play_id: int, player_id: int, field: str) -> HttpResponse:
    """Store the chosen field or the typed points, then answer with the changed parts only.

    The play is read once, locked, and written in the same transaction: a save runs a
    constant handful of queries, whatever the number of players or cells.
    """
    typed = request.POST.get("points", "").strip()
    expected = small_int(request.POST.get("version"))
    target = request.POST.get("choose", field)
    problems: list[str] = []
    try:
        with transaction.atomic():
            play = lock_sheet(play_id, member=request.user)
            if not play.is_dice_sheet:
                raise Http404("not a score sheet")
            participant = participant_of(play, player_id, field)
            dice = read_dice(play, request.POST.get("dice", ""))
            if "choose" in request.POST:
                scores = {option["key"]: option["points"]
                          for option in roll_options(play, participant, field, dice)}
                points = scores.get(target)
                problems = [] if points is not None else [
                    _("Enter all five dice, then choose a field.")]
                if target != field:
                    expected = None
            else:
                points = parse_whole_number(typed)
                problems = [] if points is not None else [_("Type the points as a whole number.")]
            if not problems:
                totals_before = dict(participant.details)
                cell = write_locked_cell(play, participant.player, target, points,
                                         expected_version=expected,
                                         dice=dice if "choose" in request.POST else None,
                                         user=request.user)
    except Play.DoesNotExist:
        raise Http404("no such play") from None
    except InvalidResult as refused:
        names = play.player_names()
        problems = [say(problem, names) for problem in refused.problems]
    except PlayAbandoned:
        return render_sheet(request, sheet_play(request, play_id), message=PLAY_ABANDONED,
                            status=409)
    except EditConflict as conflict:
        play = sheet_play(request, play_id)
        current = conflict.current
        message = _("%(player)s's %(field)s was entered on another tablet in the meantime "
                    "(%(points)s). Your entry was not saved.") % {
            "player": participant.player.name, "field": say(play.rules.field(target).label),
            "points": current.points if current else "–"}
        return render_sheet(request, play, message=message, status=409)
    if problems:
        context = editor_context(play, participant, field, dice, typed=typed, problems=problems)
        return render_editor(request, play, context, status=422)
    if "save" in request.POST:
        question = further_kniffel_question(play, participant, target, cell.points)
        if question:
            return render_further_kniffel_question(request, play, question)
    if not request.htmx or play.status != Play.Status.IN_PROGRESS:
        return render_sheet(request, sheet_play(request, play_id))
    return render_page(request, "plays/sheet_saved.html",
                       saved_cell_context(play, participant, target, cell, totals_before))


def further_kniffel_question(play: Play, participant: Participant, field: str, points: int
                             ) -> dict[str, Any] | None:
    """What to ask after typed points that could be a further Kniffel; None when they cannot.

    Dice entered on the pads count a further Kniffel by themselves; typed points do not
    say whether five alike were rolled, so the host answers.
    """
    if play.game != "kniffel":
        return None
    sheet = {key: points for key, points in
             play.result.get("sheets", {}).get(participant.player_key, {}).items()
             if key != field}
    if not play.rules.further_kniffel(field, None, points, sheet, play.house_rules):
        return None
    count = participant.details.get("extra_kniffels", 0) + 1
    return {"participant": participant, "field_label": say(play.rules.field(field).label),
            "points": points, "set": f"{participant.player_id}:{count}"}


def render_further_kniffel_question(request: HttpRequest, play: Play, question: dict[str, Any]
                                    ) -> HttpResponse:
    """The saved sheet, with the further-Kniffel question where the editor was."""
    participant = next(p for p in play.participants.all()
                       if p.player_id == question["participant"].player_id)
    context = sheet_context(play) | {"further": question | {"participant": participant}}
    if not request.htmx:
        return render_page(request, "plays/sheet.html", context)
    response = render_page(request, "plays/sheet.html", context, partial="sheet")
    return reswap(retarget(response, "#sheet"), "outerHTML")


def out_of_turn_question(play: Play, participant: Participant, field: str,
                         cell: KniffelCell | None) -> dict[str, Any] | None:
    """What to ask before an empty cell is entered for someone whose turn it is not; else None.

    Only opening the editor asks: saving out of turn stays allowed, the question just
    catches a tap in the wrong column. Going back opens the same row for the player in
    turn while it is open there, and otherwise closes the editor.
    """
    in_turn = player_in_turn(play)
    if cell is not None or in_turn is None or in_turn == participant:
        return None
    url = reverse("cell_editor", args=[play.pk, participant.player_id, field])
    open_for_in_turn = not play.cells.filter(player_id=in_turn.player_id, field=field).exists()
    return {
        "in_turn": in_turn,
        "anyway_url": f"{url}?anyway=1",
        "back_url": reverse("cell_editor", args=[play.pk, in_turn.player_id, field])
        if open_for_in_turn else play.get_absolute_url(),
    }


def tap_dice(play: Play, dice: list[Any], tap: str) -> list[Any]:
    if tap.startswith("die:") and len(dice) < DICE:
        return read_dice(play, ",".join([*map(str, dice), tap.removeprefix("die:")]))
    if tap.startswith("undie:") and tap.removeprefix("undie:").isdecimal():
        index = int(tap.removeprefix("undie:"))
        return [die for position, die in enumerate(dice) if position != index]
    if tap == "clear":
        return []
    return dice


def render_editor(request: HttpRequest, play: Play, context: dict[str, Any], status: int = 200
                  ) -> HttpResponse:
    if request.htmx:
        return render_page(request, "plays/sheet.html", {"editor": context, "play": play},
                           partial="editor", status=status)
    return render_page(request, "plays/sheet.html", sheet_context(play) | {"editor": context},
                       status=status)


def render_sheet(request: HttpRequest, play: Play, *, message: str = "", status: int = 200
                 ) -> HttpResponse:
    """After a change: htmx gets the whole sheet region back (totals, turn, winner) in place."""
    if not request.htmx:
        return redirect(play) if status == 200 else render_page(
            request, "plays/sheet.html", sheet_context(play, message=message), status=status)
    response = render_page(request, "plays/sheet.html", sheet_context(play, message=message),
                           partial="sheet", status=status)
    return reswap(retarget(response, "#sheet"), "outerHTML")


@login_required
@require_POST
def sheet_undo(request: HttpRequest, play_id: int) -> HttpResponse:
    play = sheet_play(request, play_id)
    try:
        undo_cell(play, expected_version=small_int(request.POST.get("version")) or 0,
                  user=request.user)
    except PlayAbandoned:
        return render_sheet(request, sheet_play(request, play_id), status=409,
                            message=PLAY_ABANDONED)
    except EditConflict:
        return render_sheet(request, sheet_play(request, play_id), status=409, message=_(
            "Someone entered another cell in the meantime; nothing was undone."))
    return render_sheet(request, sheet_play(request, play_id))


@login_required
@require_POST
def sheet_extra_kniffels(request: HttpRequest, play_id: int) -> HttpResponse:
    play = sheet_play(request, play_id)
    player_id, _sep, count_text = request.POST.get("set", "").partition(":")
    participant = next((p for p in play.participants.all() if str(p.player_id) == player_id),
                       None)
    count, version = small_int(count_text), small_int(request.POST.get("version"))
    if participant is None or count is None or version is None:
        return render_sheet(request, play, status=400,
                            message=_("That change could not be read; nothing was saved."))
    try:
        set_extra_kniffels(play, participant.player, count, expected_version=version,
                           user=request.user)
    except InvalidResult as refused:
        names = play.player_names()
        return render_sheet(request, play, status=422,
                            message=" ".join(say(p, names) for p in refused.problems))
    except PlayAbandoned:
        return render_sheet(request, sheet_play(request, play_id), status=409,
                            message=PLAY_ABANDONED)
    except EditConflict:
        return render_sheet(request, sheet_play(request, play_id), status=409, message=_(
            "The sheet was changed on another tablet in the meantime; look again and retry."))
    return render_sheet(request, sheet_play(request, play_id))

