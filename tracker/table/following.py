"""Devices that follow each other: what one tablet enters, the others are told at once.

A page where a game is entered or watched (a sheet, a score pad, a result form, an evening,
a series, a tournament) names its state: a short text that changes whenever anything the
page shows changes, read before the page itself is read. The page's stream of changes
(:mod:`tracker.room.views.live`) reads it again whenever its household's channel wakes it
and tells the device when it differs from what the device shows, with the page where
every device shows the same (:mod:`tracker.table.shared_pages`); the device puts in what
changed, keeping what it is in the middle of. Where no
stream comes through, the page asks now and then instead (``If-None-Match``, a 304 while
nothing changed).

The state is made of version counters kept in step where things are written:

- a play's page: the play's ``version`` (every result, cell, round and status written),
  its ``draft_revision`` (every tap on its result form), its status, and its household's
  ``setup_version`` (a player renamed or recoloured, a scoreboard link made or revoked);
- every other page (an evening, a series, a tournament): its household's ``version``,
  which grows with every change any followed page of the household shows
  (:func:`tracker.households.models.household_changed`).

They are read in one statement that also checks the user's membership, written in SQL: the
one module of the app that writes SQL itself, for a measured need. Every view of a Kniffel
sheet or score pad in progress reads the state first (the page itself comes from the
cache), and every woken stream reads it again. Built through the ORM, the query takes
longer to compile than the rest of the cached page takes: measured with push in place
(``bench/pages.py``, one uvicorn process, 2026-11-29), ``sheet_vs_trivial`` 0.32 and 304
sheets a second through the ORM against 0.45 and 449 with this statement. (Before push,
when every open page also asked twice a second, ``bench/devices.py`` measured
``follow_latency_p95_ms`` 1648 against 1005.) Tables and columns come from the models'
definitions; each statement is built once per model.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.db import connection
from django.db.models import Model
from django.urls import reverse

from tracker.households.models import Household
from tracker.table.models import DICE_GAMES, Play

#: How often an open page asks when no stream of changes reaches it (a proxy that holds
#: streams back, see :mod:`tracker.room.views.live`), while it is shown and while hidden.
VISIBLE_MILLISECONDS = 5_000
HIDDEN_MILLISECONDS = 30_000


def followed_state(model: type[Model], object_id: int, user_id: int | None) -> str | None:
    """The state of the page of ``model``'s object ``object_id`` (a play, or a model whose
    objects belong to a household) as the user may see it; None when the object is not one
    of the user's households' (or no longer exists)."""
    if user_id is None:
        return None
    found = state_row(model, object_id, user_id)
    return None if found is None else state_text(found)


#: The games whose page in progress is kept in the cache once rendered: the Kniffel sheets,
#: and the own games' score pads (their other pages are never kept).
PAGES_KEPT = (*DICE_GAMES, "generic")


def sheet_state(play_id: int, user_id: int) -> tuple[Any, ...] | None:
    """A Kniffel sheet or own game in progress of one of the user's households: its play's version,
    draft revision and status, its household's setup version, and its household's id;
    None when there is no such sheet."""
    return state_row(Play, play_id, user_id, sheet_in_progress=True)


def state_row(model: type[Model], object_id: int, user_id: int, *,
              sheet_in_progress: bool = False) -> tuple[Any, ...] | None:
    sql, conditions = state_sql(model, sheet_in_progress, connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [object_id, user_id, *conditions])
        return cursor.fetchone()


@lru_cache(maxsize=16)
def state_sql(model: type[Model], sheet_in_progress: bool, vendor: str
              ) -> tuple[str, tuple[str, ...]]:
    """The statement that reads the state of an object of ``model`` for a member, and the
    values of its further conditions: a play's own counters and its household's setup
    version, or for any other object its household's version."""
    quote = connection.ops.quote_name

    def column(of: type[Model], name: str) -> str:
        return quote(of._meta.get_field(name).column)

    members = Household.members.through
    play_columns = [f"o.{column(Play, name)}" for name in ("version", "draft_revision", "status")]
    household_column = column(Household, "setup_version" if model is Play else "version")
    selected = [*(play_columns if model is Play else []), f"h.{household_column}"]
    owner = f"o.{column(model, 'household')}"
    if sheet_in_progress:
        selected.append(owner)
    sql = (f"SELECT {', '.join(selected)} FROM {quote(model._meta.db_table)} o"
           f" JOIN {quote(Household._meta.db_table)} h ON h.{column(Household, 'id')} = {owner}"
           f" JOIN {quote(members._meta.db_table)} m ON m.{column(members, 'household')} = {owner}"
           f" WHERE o.{column(model, 'id')} = %s AND m.{column(members, 'user')} = %s")
    if not sheet_in_progress:
        return sql, ()
    sql += (f" AND o.{column(Play, 'status')} = %s"
            f" AND o.{column(Play, 'game')} IN ({', '.join(['%s'] * len(PAGES_KEPT))})")
    return sql, (Play.Status.IN_PROGRESS, *PAGES_KEPT)


def state_text(values: Any) -> str:
    """The values as one short text: nothing for a missing value."""
    return "-".join("" if value is None else str(value) for value in values)


def follow_context(kind: str, object_id: int, state: str | None) -> dict[str, Any]:
    """What a followed page names for its ``<main>``: its stream of changes, where to ask
    when the stream does not come through, and the state it shows."""
    if state is None:
        return {}
    return {"follow": {"url": reverse("follow", args=[kind, object_id]), "state": state,
                       "stream": reverse("live", args=[kind, object_id]),
                       "every": VISIBLE_MILLISECONDS, "hidden_every": HIDDEN_MILLISECONDS}}
