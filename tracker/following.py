"""Devices that follow each other: what one tablet enters, the others show within a second.

A page where a game is entered or watched (a sheet, a score pad, a result form, an evening,
a series, a tournament) names its state: a short text that changes whenever anything the
page shows changes, read from one small query before the page itself is read. The open
page asks about twice a second whether the state is still the one it shows (``If-None-
Match``): while nothing changed the answer is a 304 with no body, so six tablets and a TV
cost a handful of index lookups a second. When something changed, the page reads itself
again and swaps in what changed, keeping what the device is in the middle of.
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.urls import reverse

from tracker.models import (
    GameNight,
    Household,
    Participant,
    Play,
    Player,
    Series,
    SeriesChange,
    Tournament,
    TournamentEntry,
)

#: How often an open page asks while it is shown, and while it is hidden (another tab, a
#: sleeping screen): an entry shows within about the first, plus the time to read the page.
VISIBLE_MILLISECONDS = 500
HIDDEN_MILLISECONDS = 10_000

TABLES = {
    "play": Play._meta.db_table, "night": GameNight._meta.db_table,
    "series": Series._meta.db_table, "tournament": Tournament._meta.db_table,
    "participant": Participant._meta.db_table, "player": Player._meta.db_table,
    "member": Household.members.through._meta.db_table,
    "present": GameNight.players.through._meta.db_table,
    "series_change": SeriesChange._meta.db_table, "entry": TournamentEntry._meta.db_table,
}

#: The plays of an evening, a series or a tournament: their number, and the sums of their
#: versions and draft revisions, which grow with every entry in any of them.
PLAYS_OF = """(SELECT COUNT(*) FROM {play} p WHERE p.{owner}_id = o.id),
              (SELECT SUM(p.version) FROM {play} p WHERE p.{owner}_id = o.id),
              (SELECT SUM(p.draft_revision) FROM {play} p WHERE p.{owner}_id = o.id),
              (SELECT MAX(pl.updated_at) FROM {player} pl WHERE pl.household_id = o.household_id)"""

#: Everything each kind of page shows depends on, for one of the user's households only.
STATE_SQL = {
    "play": """SELECT o.version, o.draft_revision, o.status,
                      (SELECT MAX(pl.updated_at) FROM {participant} pa
                       JOIN {player} pl ON pl.id = pa.player_id WHERE pa.play_id = o.id)""",
    "night": "SELECT " + PLAYS_OF.replace("{owner}", "game_night") + """,
                      (SELECT COUNT(*) FROM {present} pr WHERE pr.gamenight_id = o.id),
                      (SELECT SUM(pr.player_id) FROM {present} pr WHERE pr.gamenight_id = o.id),
                      (SELECT SUM(pr.player_id * pr.player_id) FROM {present} pr
                        WHERE pr.gamenight_id = o.id)""",
    "series": "SELECT " + PLAYS_OF.replace("{owner}", "series") + """, o.status, o.races_planned,
                      (SELECT COUNT(*) FROM {series_change} c WHERE c.series_id = o.id)""",
    "tournament": "SELECT " + PLAYS_OF.replace("{owner}", "tournament") + """, o.status,
                      (SELECT COUNT(*) FROM {entry} e WHERE e.tournament_id = o.id
                                                      AND e.dropped_after_round IS NOT NULL)""",
}
STATE_SQL = {
    kind: (select + f" FROM {{{kind}}} o JOIN {{member}} m ON m.household_id = o.household_id"
                    " WHERE o.id = %s AND m.user_id = %s").format_map(TABLES)
    for kind, select in STATE_SQL.items()
}


def followed_state(kind: str, object_id: int, user_id: int | None) -> str | None:
    """The state of the ``kind`` page of ``object_id`` as the user may see it; None when the
    object is not one of the user's households' (or no longer exists)."""
    if kind not in STATE_SQL or user_id is None:
        return None
    with connection.cursor() as cursor:
        cursor.execute(STATE_SQL[kind], [object_id, user_id])
        row = cursor.fetchone()
    return None if row is None else state_text(row)


def state_text(values: Any) -> str:
    """The values as one short text: digits of dates and times (text or datetime, as the
    database gives them), nothing for a missing value."""
    return "-".join("".join(filter(str.isalnum, str(value))) if value is not None else ""
                    for value in values)


def follow_context(kind: str, object_id: int, state: str | None) -> dict[str, Any]:
    """What a followed page names for its ``<main>``: where to ask, and the state it shows."""
    if state is None:
        return {}
    return {"follow": {"url": reverse("follow", args=[kind, object_id]), "state": state,
                       "every": VISIBLE_MILLISECONDS, "hidden_every": HIDDEN_MILLISECONDS}}
