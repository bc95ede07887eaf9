"""What the Kniffel score sheet shows: its rows and cells, the player in turn, the dice
editor with the coach's hint, the questions a cell can raise, and what a cached page of
the sheet depends on.

The views in :mod:`tracker.table.views.sheets` read the request, call these and render."""

from __future__ import annotations

from datetime import datetime
from functools import cached_property
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.translation import get_language

from games.coach import ROLLS_PER_TURN
from games.dice_sheet import DICE
from games.kniffel import upper_bonus_missing
from games.weltraum_kniffel import SYMBOL_ICONS
from tracker.common.engine_text import say
from tracker.table import coaching
from tracker.table.announcements import (
    announcement,
    entry_said,
    lead_said,
    points_said,
    turn_said,
    win_said,
)
from tracker.table.following import sheet_state, state_text
from tracker.table.models import KniffelCell, Participant, Play
from tracker.table.recording import (
    stored_cell,
)

DIE_FACES = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}


def face_label(play: Play, face: Any) -> str:
    return DIE_FACES.get(face) or SYMBOL_ICONS.get(face, str(face))


def face_name(play: Play, face: Any) -> str:
    """A die's face as a screen reader says it: its number, or its symbol's name (the
    space dice's symbols name the upper fields)."""
    if isinstance(face, int):
        return str(face)
    return say(play.rules.field(face).label)


def face(play: Play, value: Any) -> dict[str, Any]:
    return {"face": value, "label": face_label(play, value), "name": face_name(play, value)}


def sheet_leaders(participants: list[Participant]) -> list[Participant]:
    """The players with the highest total on the sheet, once anything is entered."""
    if not any(p.details.get("filled", 0) for p in participants):
        return []
    best = max(p.details.get("total", 0) for p in participants)
    return [p for p in participants if p.details.get("total", 0) == best]


class SheetRows:
    """The sheet's rows of cells, read from the database only when the cached table is stale."""

    def __init__(self, play: Play, participants: list[Participant], next_key: str | None,
                 saved: KniffelCell | None = None):
        self.play, self.participants, self.next_key = play, participants, next_key
        self.saved = saved  # the cell just saved: the latest, known without reading the rest

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
        if self.saved is not None:
            return self.saved
        return max(self.cells.values(), key=lambda cell: (cell.entered_at, cell.pk), default=None)

    @property
    def latest_id(self) -> str:
        latest = self.latest
        return f"c-{latest.player_id}-{latest.field}" if latest else ""

    @property
    def latest_player_id(self) -> int | None:
        return self.latest.player_id if self.latest else None

    @property
    def announcement(self) -> str:
        """What changed last, who leads and whose turn it is, as a screen reader hears it
        when another tablet enters: "Ben: Full House 25. Ben leads with 143. Anna's turn."."""
        latest = self.latest
        names = {p.player_id: p.player.name for p in self.participants}
        entry = ""
        if latest and latest.player_id in names:
            entry = entry_said(names[latest.player_id],
                               say(self.play.rules.field(latest.field).label),
                               points_said(latest.points))
        if self.play.status == Play.Status.FINISHED:
            return announcement(entry, win_said([p.player.name for p in self.participants
                                                 if p.place == 1]))
        leaders = sheet_leaders(self.participants)
        in_turn = next((p.player.name for p in self.participants
                        if p.player_key == self.next_key), None)
        return announcement(
            entry,
            lead_said([p.player.name for p in leaders], leaders[0].details.get("total", 0))
            if leaders else "",
            turn_said(in_turn))

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
    return sheet_context(play, saved=cell) | {
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


def sheet_context(play: Play, *, message: str = "", saved: KniffelCell | None = None
                  ) -> dict[str, Any]:
    """The sheet as stored: totals per player, whose turn it is, and the rows (lazily);
    ``saved`` is the cell a save just wrote."""
    participants = list(play.participants.all())
    in_turn = player_in_turn(play)
    next_key = in_turn.player_key if in_turn else None
    return {
        "play": play,
        "rules": play.rules,
        "participants": participants,
        "sheet": SheetRows(play, participants, next_key, saved),
        "classic": play.game == "kniffel",
        "next_key": next_key,
        "next_player": in_turn.player if in_turn else None,
        "winners": [p.player for p in participants if p.place == 1]
        if play.status == Play.Status.FINISHED else [],
        "anything_entered": any(p.details.get("filled", 0) for p in participants),
        "message": message,
        "next_race": play.series.next_race_number()
        if play.series_id and play.status == Play.Status.FINISHED else None,
    }


#: Stands for the visitor's CSRF token in a sheet page rendered once for all visitors.
CSRF_SLOT = "csrf-slot-of-the-shared-sheet"
#: Stands for the visitor's id there (``data-user``, under which the device keeps its outbox).
USER_SLOT = "user-slot-of-the-shared-sheet"


def sheet_page_key(request: HttpRequest, play_id: int, version: int, setup_version: int
                   ) -> str:
    """What a cached sheet page depends on: the play's version, its household's setup (a
    player renamed or recoloured, a scoreboard link made or revoked: see
    :func:`tracker.households.models.household_changed`), the language, the visitor's menu
    and the address."""
    return (f"sheet-page:{play_id}:{version}:{setup_version}:"
            f"{get_language()}:{int(request.user.is_staff)}:{request.get_host()}")


def sheet_page_state(play_id: int, user_id: int) -> tuple[tuple[int, int], str, int] | None:
    """What the cached page of a sheet in progress of one of the user's households depends
    on (see :func:`sheet_page_key`), its state as the devices following it know it (see
    :mod:`tracker.table.following`), and its household; None when there is no such sheet.
    One query."""
    found = sheet_state(play_id, user_id)
    if found is None:
        return None
    *state, household_id = found
    version, _draft_revision, _status, setup_version = state
    return (version, setup_version), state_text(state), household_id


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


def roll_table(play: Play, participant: Participant, field_key: str) -> dict[str, Any]:
    """What the editor needs to answer dice on the device (``static/js/dice.js``): the faces
    in the engine's order, the tapped field, and for each field the player may still fill
    (the tapped one counts as open) its key, its label and what each of the engine's 252
    rolls scores there (:meth:`games.dice_sheet.DiceSheetRules.roll_table`), as points
    joined by commas, empty where the rules keep that roll out of the field.

    Commas rather than a JSON list: ``null`` for every roll kept out would double the space
    game's table, where a roll goes only where it scores the most."""
    rules = play.rules
    table = rules.roll_table(open_sheet(play, participant, field_key), play.house_rules)
    return {
        "faces": [str(face) for face in rules.faces],
        "tapped": field_key,
        "fields": [[key, say(rules.field(key).label),
                    ",".join("" if points is None else str(points) for points in column)]
                   for key, column in table.items()],
    }


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
        if coaching.being_prepared(play.rules, play.house_rules):
            return hint | {"preparing": True}
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
        "dice": [face(play, die) for die in dice],
        "dice_value": ",".join(map(str, dice)),
        "empty_slots": range(DICE - len(dice)),
        "pad": [face(play, value) for value in rules.faces],
        "options": options,
        # The coach's hint needs the server at every tap; without it the device answers.
        "roll_table": None if hint else roll_table(play, participant, field_key),
        "scores_most": rules.must_score_most(rules.default_house_rules() | play.house_rules),
        "hint": hint,
        "typed": typed,
        "problems": problems or [],
        "message": message,
    }


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

def read_dice(play: Play, raw: str) -> list[Any]:
    """The dice entered so far from the form; anything that is not a face is dropped."""
    faces = {str(face): face for face in play.rules.faces}
    return [faces[token] for token in raw.split(",") if token in faces][:DICE]


def tap_dice(play: Play, dice: list[Any], tap: str) -> list[Any]:
    if tap.startswith("die:") and len(dice) < DICE:
        return read_dice(play, ",".join([*map(str, dice), tap.removeprefix("die:")]))
    if tap.startswith("undie:") and tap.removeprefix("undie:").isdecimal():
        index = int(tap.removeprefix("undie:"))
        return [die for position, die in enumerate(dice) if position != index]
    if tap == "clear":
        return []
    return dice
