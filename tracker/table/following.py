"""Devices that follow each other: what one tablet enters, the others show within a second.

A page where a game is entered or watched (a sheet, a score pad, a result form, an evening,
a series, a tournament) names its state: a short text that changes whenever anything the
page shows changes, read before the page itself is read. The open page asks about twice a
second whether the state is still the one it shows (``If-None-Match``): while nothing
changed the answer is a 304 with no body, so six tablets and a TV cost a handful of index
lookups a second. When something changed, the page reads itself again and swaps in what
changed, keeping what the device is in the middle of.

The state is made of version counters kept in step where things are written, read with
``values_list`` in one query that also checks the user's membership:

- a play's page: the play's ``version`` (every result, cell, round and status written),
  its ``draft_revision`` (every tap on its result form), its status, and its household's
  ``setup_version`` (a player renamed or recoloured, a scoreboard link made or revoked);
- every other page (an evening, a series, a tournament): its household's ``version``,
  which grows with every change any followed page of the household shows
  (:func:`tracker.households.models.household_changed`).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Model
from django.urls import reverse

from tracker.table.models import Play

#: How often an open page asks while it is shown, and while it is hidden (another tab, a
#: sleeping screen): an entry shows within about the first, plus the time to read the page.
VISIBLE_MILLISECONDS = 500
HIDDEN_MILLISECONDS = 10_000

#: What a play's page depends on, and what every other followed page depends on.
PLAY_STATE = ("version", "draft_revision", "status", "household__setup_version")
HOUSEHOLD_STATE = ("household__version",)


def followed_state(model: type[Model], object_id: int, user_id: int | None) -> str | None:
    """The state of the page of ``model``'s object ``object_id`` (a play, or a model whose
    objects belong to a household) as the user may see it; None when the object is not one
    of the user's households' (or no longer exists)."""
    if user_id is None:
        return None
    fields = PLAY_STATE if model is Play else HOUSEHOLD_STATE
    found = (model._default_manager.filter(pk=object_id, household__members=user_id)
             .values_list(*fields).first())
    return None if found is None else state_text(found)


def state_text(values: Any) -> str:
    """The values as one short text: nothing for a missing value."""
    return "-".join("" if value is None else str(value) for value in values)


def follow_context(kind: str, object_id: int, state: str | None) -> dict[str, Any]:
    """What a followed page names for its ``<main>``: where to ask, and the state it shows."""
    if state is None:
        return {}
    return {"follow": {"url": reverse("follow", args=[kind, object_id]), "state": state,
                       "every": VISIBLE_MILLISECONDS, "hidden_every": HIDDEN_MILLISECONDS}}
