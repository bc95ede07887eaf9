"""Entering one cell of a Kniffel sheet: five dice chosen into a field, or points typed.

The play is read once, locked, and written in the same transaction: an entry runs a
constant handful of queries, whatever the number of players or cells.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from games import InvalidResult
from tracker.common.engine_text import say
from tracker.common.parsing import parse_whole_number
from tracker.table.models import KniffelCell, Participant, Play
from tracker.table.recording import lock_sheet, write_locked_cell
from tracker.table.sheet import read_dice, roll_options


class NoSuchCell(Exception):
    """The sheet has no such player or field, or the play is not a sheet of the member's."""


@dataclass
class CellEntry:
    """What an entry did: the play and participant as stored after it, the field written
    (``target``: the one chosen for the dice, else the tapped one), the cell and the
    player's totals before it; or ``problems`` (nothing stored) to show in the editor."""

    play: Play
    participant: Participant
    target: str
    dice: list[Any]
    cell: KniffelCell | None = None
    totals_before: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def sheet_participant(play: Play, player_id: int, field_key: str) -> Participant:
    """The participant whose cell ``field_key`` this is; NoSuchCell for a cell the sheet
    does not have."""
    participant = next((p for p in play.participants.all() if p.player_id == player_id), None)
    if participant is None or field_key not in play.rules.field_keys:
        raise NoSuchCell(f"no cell {field_key} of player {player_id}")
    return participant


def enter_cell(play_id: int, player_id: int, field_key: str, *, member: AbstractBaseUser,
               dice_sent: str, chosen: str | None, typed: str,
               expected_version: int | None) -> CellEntry:
    """Store the dice into the ``chosen`` field (they score what the rules say there), or
    the ``typed`` points into the tapped ``field_key``.

    ``expected_version`` is the version of the cell the tablet saw (None: it saw the cell
    empty); dice chosen into another field than the tapped one fill an empty cell.
    NoSuchCell, EditConflict and PlayAbandoned change nothing; a person's mistake (no five
    dice, unreadable points, a result the rules refuse) comes back as ``problems``.
    """
    with transaction.atomic():
        return _enter_locked(play_id, player_id, field_key, member=member,
                             dice_sent=dice_sent, chosen=chosen, typed=typed,
                             expected_version=expected_version)


def _enter_locked(play_id: int, player_id: int, field_key: str, *, member: AbstractBaseUser,
                  dice_sent: str, chosen: str | None, typed: str,
                  expected_version: int | None) -> CellEntry:
    try:
        play = lock_sheet(play_id, member=member)
    except Play.DoesNotExist:
        raise NoSuchCell(f"no play {play_id}") from None
    if not play.is_dice_sheet:
        raise NoSuchCell(f"play {play_id} has no sheet")
    participant = sheet_participant(play, player_id, field_key)
    entry = CellEntry(play, participant, chosen or field_key, read_dice(play, dice_sent))
    if chosen is not None:
        scores = {option["key"]: option["points"]
                  for option in roll_options(play, participant, field_key, entry.dice)}
        points = scores.get(chosen)
        if points is None:
            entry.problems = [_("Enter all five dice, then choose a field.")]
        if chosen != field_key:
            expected_version = None
    else:
        points = parse_whole_number(typed)
        if points is None:
            entry.problems = [_("Type the points as a whole number.")]
    if entry.problems:
        return entry
    entry.totals_before = dict(participant.details)
    try:
        entry.cell = write_locked_cell(
            play, participant.player, entry.target, points, expected_version=expected_version,
            dice=entry.dice if chosen is not None else None, user=member)
    except InvalidResult as refused:
        names = play.player_names()
        entry.problems = [say(problem, names) for problem in refused.problems]
        transaction.set_rollback(True)  # nothing of a refused entry is kept
    return entry
