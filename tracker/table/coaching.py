"""The coach (``games.coach``) on the web: its tables, and what it says about a finished sheet
or a roll on the dice pads.

No request waits for a table. ``make run`` computes every table ahead into
``COACH_TABLES_DIR`` (data/coach): ``manage.py serve`` queues :func:`compute_all_tables`
(``manage.py coach_tables``) for the worker of background work at every start; a server
reads a table from there or from the shared cache (about 2.5 MB compressed; a cache that
refuses it leaves each server to read its own) and keeps the last few used in this
process's memory. A table found nowhere (a server started otherwise, or house rules whose
table an update renamed) is queued as a task, :func:`compute_table`, for a worker of
background work, which computes it in a process of its own (``coach.compute_apart``) and
shares it; meanwhile :func:`coach_for` answers None and :func:`being_prepared` says so, and
the page tells the family the coach is getting ready. The first analysis under a fresh
server once waited 15.6 s for this inside its request.

Whether a table is queued, or failed just now, is kept in the shared cache: every server
knows, and a table is queued once however many servers and pages ask for it.
"""

from __future__ import annotations

import io
import logging
import threading
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django_tasks import task

import games
from games import coach
from games.coach import Coach, TurnReview
from games.dice_sheet import DiceSheetRules
from tracker.table.models import KniffelCell, Participant, Play

logger = logging.getLogger(__name__)

#: Tables kept in memory per process (a classic Kniffel table is about 11 MB there).
KEPT_IN_MEMORY = 4
#: How long the shared cache keeps a table: a changed engine or coach names another table.
CACHED_SECONDS = 30 * 24 * 60 * 60
#: A table takes a few seconds (a minute with the other variants' computing beside it); past
#: this the computation is given up.
COMPUTE_SECONDS = 120
#: After a failed computation, that table is not tried again for this long, so that a
#: struggling worker is not handed one more computation per request.
RETRY_SECONDS = 60
#: How long a queued table counts as being prepared: the time to compute it, and as long
#: again for the worker to reach it; a table still missing then is queued again.
PREPARING_SECONDS = 2 * COMPUTE_SECONDS
#: How often a page waiting for a table asks again, in seconds.
ASK_AGAIN_SECONDS = 5

_loaded: OrderedDict[str, Coach] = OrderedDict()
_guard = threading.Lock()


@task()
def compute_all_tables() -> None:
    """Every table computed ahead where it is missing (``manage.py coach_tables``): half a
    minute the first time, seconds later."""
    call_command("coach_tables", verbosity=0, stdout=io.StringIO())


def tables_dir() -> Path:
    return Path(settings.COACH_TABLES_DIR)


def cache_key(name: str) -> str:
    return f"coach-table:{name}"


def preparing_key(name: str) -> str:
    return f"coach-table-preparing:{name}"


def failed_key(name: str) -> str:
    return f"coach-table-failed:{name}"


def coach_for(rules: DiceSheetRules, house_rules: Mapping[str, Any]) -> Coach | None:
    """The coach for a game under its house rules when its table is ready; otherwise None,
    and the table is queued for the background work (:func:`being_prepared`) unless it
    failed within the last ``RETRY_SECONDS`` (logged)."""
    name = coach.table_name(rules, house_rules)
    with _guard:
        if name in _loaded:
            _loaded.move_to_end(name)
            return _loaded[name]
    found = stored_coach(rules, house_rules, name)
    if found is None:
        prepare(rules, house_rules, name)
        return None
    remember(name, found)
    return found


def coach_for_play(play: Play) -> Coach | None:
    return coach_for(play.rules, play.house_rules)


def being_prepared(rules: DiceSheetRules, house_rules: Mapping[str, Any]) -> bool:
    """Whether the table is queued or being computed: a page asks again in a moment."""
    return cache.get(preparing_key(coach.table_name(rules, house_rules))) is not None


def prepare(rules: DiceSheetRules, house_rules: Mapping[str, Any], name: str) -> None:
    """Queue the table's computation, unless it is queued already or failed just now."""
    if cache.get(failed_key(name)) is not None:
        return
    if not cache.add(preparing_key(name), True, PREPARING_SECONDS):
        return
    try:
        compute_table.enqueue(rules.key, dict(house_rules))
    except Exception:  # a queue out of reach: the page says the coach could not get ready
        cache.delete(preparing_key(name))
        logger.exception("The coach's table %s could not be queued", name)


@task()
def compute_table(game: str, house_rules: dict[str, Any]) -> None:
    """Compute, share and keep one table (queued by :func:`prepare`)."""
    rules = games.get(game)
    name = coach.table_name(rules, house_rules)
    try:
        found = coach.compute_apart(rules, house_rules, COMPUTE_SECONDS)
    except RuntimeError:
        cache.set(failed_key(name), True, RETRY_SECONDS)
        logger.exception("The coach's table for %s could not be computed", rules.key)
    else:
        keep(found, name)
    finally:
        cache.delete(preparing_key(name))


def remember(name: str, found: Coach) -> None:
    """Keep ``found`` in this process, the least recently used table making room."""
    with _guard:
        _loaded[name] = found
        _loaded.move_to_end(name)
        while len(_loaded) > KEPT_IN_MEMORY:
            _loaded.popitem(last=False)


def stored_coach(rules: DiceSheetRules, house_rules: Mapping[str, Any], name: str
                 ) -> Coach | None:
    """The table from the shared cache, or else from this machine's tables directory (and
    then shared)."""
    data = cache.get(cache_key(name))
    if data is not None:
        found = coach.from_bytes(rules, house_rules, data)
        if found is not None:
            return found
    found = coach.load(rules, house_rules, tables_dir())
    if found is not None:
        _share(coach.to_bytes(found), name)
    return found


def keep(found: Coach, name: str) -> None:
    """Share a table just computed, and store it on this machine where that is possible."""
    data = coach.to_bytes(found)
    _share(data, name)
    try:
        coach.store(found, tables_dir(), data)
    except OSError:
        logger.info("The coach's table %s stays out of %s", name, tables_dir())


def _share(data: bytes, name: str) -> None:
    try:
        cache.set(cache_key(name), data, CACHED_SECONDS)
    except Exception:  # a cache that refuses 2.5 MB (memcached) must not break the page
        logger.warning("The shared cache refused the coach's table %s", name, exc_info=True)


# What the coach says about a finished sheet ----------------------------------------------------

def turns_of(play: Play, participant: Participant) -> list[KniffelCell]:
    """The player's cells in the order they were first entered: one a turn."""
    return sorted((cell for cell in play.cells.all() if cell.player_id == participant.player_id),
                  key=lambda cell: cell.pk)


def review(found: Coach, cells: list[KniffelCell]) -> list[TurnReview]:
    return found.review([(cell.field, cell.points, cell.dice) for cell in cells])


def summary(reviews: list[TurnReview], final_total: int) -> dict[str, Any]:
    """The game in a few numbers: what the sheet was worth at the start, the luck of the
    final dice, the points the choices gave away, and what the turns typed without dice
    (and bonuses noted by hand) did to the score. ``lost_per_choice`` is Verhoeff's measure of
    proficiency: the points given away per weighed choice (None with nothing weighed)."""
    start = reviews[0].expected_before if reviews else 0.0
    weighed = [turn for turn in reviews if turn.best is not None]
    luck = sum(turn.luck for turn in weighed)
    lost = sum(turn.lost for turn in weighed)
    return {
        "expected": start,
        "total": final_total,
        "luck": luck,
        "lost": lost,
        "lost_per_choice": lost / len(weighed) if weighed else None,
        "weighed": len(weighed),
        "typed": len(reviews) - len(weighed),
        "rest": final_total - start - luck + lost,
        "best_choices": sum(1 for turn in weighed if turn.lost < 0.005),
    }
