"""A play's story: the note the family keeps with it ("Oma's first win") and how long it
took.

A play's length is measured once, when it first gets its result: the minutes from its
start to that moment. A length under a minute says the result was entered after the game,
and one over a day that the game was left open overnight: neither is kept. The family may
correct the length, and write or change the note, whenever the play is finished."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import F

from tracker.households.models import household_changed
from tracker.table.models import Play

#: The longest note the family keeps with a play, in characters.
NOTE_LENGTH = 1000
#: The shortest and longest length a play may have, in minutes: a minute, a day.
SHORTEST_MINUTES = 1
LONGEST_MINUTES = 1440


def measured_length(started: datetime, finished: datetime) -> int | None:
    """The minutes from ``started`` to ``finished``, rounded; None outside a minute to a day."""
    minutes = round((finished - started).total_seconds() / 60)
    return minutes if SHORTEST_MINUTES <= minutes <= LONGEST_MINUTES else None


def keep_story(play: Play, *, note: str, length_minutes: int | None) -> bool:
    """Store the note and the length of a finished play; False (and nothing changes) when
    the play is not finished (any more).

    The devices that show the play follow: the play's draft revision changes, not its
    version, so a correction under way on another tablet goes on undisturbed."""
    with transaction.atomic():
        changed = Play.objects.filter(pk=play.pk, status=Play.Status.FINISHED).update(
            note=note, length_minutes=length_minutes, draft_revision=F("draft_revision") + 1)
        if changed:
            household_changed(play.household_id)
    if changed:
        play.note, play.length_minutes = note, length_minutes
    return bool(changed)
