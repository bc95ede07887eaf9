"""Entering one side's points of one round on the score pad of an own game.

The play is read once, locked, and written in the same transaction, as a Kniffel cell is
(:mod:`tracker.table.cells`): an entry runs a constant handful of queries.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from games import InvalidResult
from games.sums import is_sum, read_short_sum, tidy_sum
from tracker.common.engine_text import say
from tracker.common.parsing import parse_whole_number
from tracker.table.models import Play, PlayChange
from tracker.table.recording import EditConflict, lock_sheet
from tracker.table.rounds import (
    Layout,
    kept_round_by_round,
    set_locked_round_points,
    stored_rounds,
)
from tracker.table.score_pad import NOTHING_TO_SAVE, Side, sides_of


class NoSuchColumn(Exception):
    """The play is not one of the member's kept on the score pad, or has no such column."""


@dataclass
class PadEntry:
    """What an entry did: the play as stored after it, and the change it made; or the
    ``message`` saying why nothing was stored."""

    play: Play
    sides: list[Side]
    change: PlayChange | None = None
    message: str = ""


#: What a tablet says it saw in a cell: the points, blank (None), or nothing said.
NOT_SAID = object()


def seen_points(raw: str | None) -> int | None | object:
    """The cell's points as the tablet showed them (``seen`` of its form): a number, blank
    for an empty cell, NOT_SAID without the field or with anything else."""
    if raw is None:
        return NOT_SAID
    if raw.strip() == "":
        return None
    points = parse_whole_number(raw)
    return NOT_SAID if points is None else points


def enter_round_points(play_id: int, number: int, index: int, *, member: AbstractBaseUser,
                       typed: str, expected_version: int | None,
                       seen: int | None | object = NOT_SAID) -> PadEntry:
    """Store the ``typed`` points (a whole number, or a short sum such as "3+6+2") of
    column ``index`` in row ``number``: a round, or a category, whose points are taken off
    the total when it is a minus category.

    ``seen`` is what the tablet showed in that cell when its number pad opened: the entry
    overwrites only that, so two tablets entering other cells never stand in each other's way,
    and a tablet that saw another tablet's points may replace them. Without it,
    ``expected_version`` (the play's version as the tablet saw it) decides. NoSuchColumn,
    EditConflict and PlayAbandoned change nothing; unreadable points or a pad the rules
    refuse come back as the entry's ``message``.
    """
    with transaction.atomic():
        return _enter_locked(play_id, number, index, member=member, typed=typed,
                             expected_version=expected_version, seen=seen)


def _enter_locked(play_id: int, number: int, index: int, *, member: AbstractBaseUser,
                  typed: str, expected_version: int | None, seen: int | None | object
                  ) -> PadEntry:
    try:
        play = lock_sheet(play_id, member=member)
    except Play.DoesNotExist:
        raise NoSuchColumn(f"no play {play_id}") from None
    if not kept_round_by_round(play):
        raise NoSuchColumn(f"play {play_id} is not kept on the score pad")
    sides = sides_of(play)
    if not 0 <= index < len(sides):
        raise NoSuchColumn(f"no column {index}")
    entry = PadEntry(play, sides)
    points = read_short_sum(typed)
    if points is None:
        entry.message = str(NOTHING_TO_SAVE)
        return entry
    category = Layout.of(play).category(number)
    if category and category["minus"]:
        if points < 0:
            entry.message = _("%(category)s is taken off the total: type the points without "
                              "a minus.") % {"category": category["name"]}
            return entry
        points = -points
    if seen is not NOT_SAID:
        rounds = stored_rounds(play)
        now = rounds[number - 1].get(sides[index].key) if 1 <= number <= len(rounds) else None
        if now != seen:
            raise EditConflict
        expected_version = play.version
    if expected_version is None:
        raise EditConflict
    try:
        entry.change = set_locked_round_points(
            play, number, sides[index].key, points, expected_version=expected_version,
            user=member, typed_sum=tidy_sum(typed) if is_sum(typed) else "")
    except InvalidResult as refused:
        names = {side.key: side.name for side in sides}
        entry.message = " ".join(say(problem, names) for problem in refused.problems)
        transaction.set_rollback(True)  # nothing of refused points is kept
    return entry
