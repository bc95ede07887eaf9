"""The coach (``games.coach``) on the web: its tables, and what it says about a finished sheet
or a roll on the dice pads.

A table is worked out when a page first needs it, in that request: a few seconds, in a process
of its own (``coach.compute_apart``), so that a server process never holds the compiler and the
solver's peak. It is then kept in the shared cache, where every server finds it (about 2.5 MB
compressed; a cache that refuses it leaves each process to compute its own), and in this
process's memory (the last few used). ``COACH_TABLES_DIR`` (data/coach), where ``manage.py
coach_tables`` can put every table ahead, is read when it holds the table and written when it
can be: a speed-up for one machine that nothing depends on.

Two threads of one process wanting the same table wait for one computation; two servers may
each compute it once, which costs seconds and needs no lock shared between machines.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache

from games import coach
from games.coach import Coach, TurnReview
from games.dice_sheet import DiceSheetRules
from tracker.table.models import KniffelCell, Participant, Play

logger = logging.getLogger(__name__)

#: Tables kept in memory per process (a classic Kniffel table is about 11 MB there).
KEPT_IN_MEMORY = 4
#: How long the shared cache keeps a table: a changed engine or coach names another table.
CACHED_SECONDS = 30 * 24 * 60 * 60
#: A table takes a few seconds; past this the request gives up (under gunicorn's 30 s).
COMPUTE_SECONDS = 25
#: After a failed computation, requests for that table wait this long before trying again,
#: so that a struggling server is not handed one more computation per request.
RETRY_SECONDS = 60

_loaded: OrderedDict[str, Coach] = OrderedDict()
_guard = threading.Lock()
_computing: dict[str, threading.Lock] = {}
_failed: dict[str, float] = {}


def tables_dir() -> Path:
    return Path(settings.COACH_TABLES_DIR)


def cache_key(name: str) -> str:
    return f"coach-table:{name}"


def coach_for(rules: DiceSheetRules, house_rules: Mapping[str, Any]) -> Coach | None:
    """The coach for a game under its house rules, its table read or computed now; None only
    when the computation failed (it is logged, and tried again a minute later)."""
    name = coach.table_name(rules, house_rules)
    with _guard:
        if name in _loaded:
            _loaded.move_to_end(name)
            return _loaded[name]
        computing = _computing.setdefault(name, threading.Lock())
    with computing:
        with _guard:
            if name in _loaded:
                return _loaded[name]
        found = stored_coach(rules, house_rules, name)
        if found is None:
            if time.monotonic() - _failed.get(name, -RETRY_SECONDS) < RETRY_SECONDS:
                return None
            try:
                found = coach.compute_apart(rules, house_rules, COMPUTE_SECONDS)
            except RuntimeError:
                _failed[name] = time.monotonic()
                logger.exception("The coach's table for %s could not be computed", rules.key)
                return None
            keep(found, name)
        with _guard:
            _loaded[name] = found
            while len(_loaded) > KEPT_IN_MEMORY:
                _loaded.popitem(last=False)
    return found


def coach_for_play(play: Play) -> Coach | None:
    return coach_for(play.rules, play.house_rules)


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
