"""The coach (``games.coach``) on the web: its tables under ``data/coach``, and what it says
about a finished sheet or a roll on the dice pads.

A table is read from disk once per server process (in well under a second). A table that is
missing is computed in a background thread, a minute or two on a small machine, while the
pages say that the coach is still preparing; ``manage.py coach_tables`` computes them all
ahead. A lock file beside the table keeps several server processes from computing the same
one at once.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.conf import settings

from games import coach
from games.coach import Coach, TurnReview
from games.dice_sheet import DiceSheetRules
from tracker.models import KniffelCell, Participant, Play

logger = logging.getLogger(__name__)

#: Tables kept in memory per process (a classic Kniffel table is about 8 MB).
KEPT_IN_MEMORY = 4
#: A lock file older than this belongs to a computation that died: it is taken over.
STALE_LOCK_SECONDS = 30 * 60
#: Games with at most this many fields have small tables (Weltraum-Kniffel: about a second):
#: they are computed right away rather than in the background.
COMPUTED_AT_ONCE_FIELDS = 11

_loaded: OrderedDict[str, Coach] = OrderedDict()
_guard = threading.Lock()


def tables_dir() -> Path:
    return Path(settings.COACH_TABLES_DIR)


def coach_for(rules: DiceSheetRules, house_rules: Mapping[str, Any]) -> Coach | None:
    """The coach for a game under its house rules; None while its table is being computed
    (the computation is started here when nobody has started it)."""
    directory = tables_dir()
    key = f"{directory}/{coach.table_name(rules, house_rules)}"
    with _guard:
        if key in _loaded:
            _loaded.move_to_end(key)
            return _loaded[key]
    found = coach.load(rules, house_rules, directory)
    if found is None and len(rules.field_keys) <= COMPUTED_AT_ONCE_FIELDS:
        found = coach.compute(coach.Model(rules, house_rules), directory)
    if found is None:
        start_computing(rules, house_rules, directory)
        return None
    with _guard:
        _loaded[key] = found
        while len(_loaded) > KEPT_IN_MEMORY:
            _loaded.popitem(last=False)
    return found


def coach_for_play(play: Play) -> Coach | None:
    return coach_for(play.rules, play.house_rules)


def start_computing(rules: DiceSheetRules, house_rules: Mapping[str, Any], directory: Path
                    ) -> bool:
    """Compute the table in a background thread unless another process or thread already
    does; whether this call started it."""
    lock = directory / f"{coach.table_name(rules, house_rules)}.computing"
    directory.mkdir(parents=True, exist_ok=True)
    if _abandoned(lock):
        lock.unlink(missing_ok=True)
    try:
        handle = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    with os.fdopen(handle, "w") as written:
        written.write(str(os.getpid()))
    thread = threading.Thread(target=_compute, args=(rules, dict(house_rules), directory, lock),
                              name="coach-table", daemon=True)
    thread.start()
    return True


def _abandoned(lock: Path) -> bool:
    """Whether a lock file was left by a computation that no longer runs: its process has
    ended (the server processes share one machine), or it is older than any computation."""
    try:
        started = lock.stat().st_mtime
        pid = int(lock.read_text() or 0)
    except FileNotFoundError:
        return False
    except ValueError:
        pid = 0
    if time.time() - started > STALE_LOCK_SECONDS:
        return True
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def _compute(rules: DiceSheetRules, house_rules: dict[str, Any], directory: Path, lock: Path
             ) -> None:
    try:
        coach.compute(coach.Model(rules, house_rules), directory)
    except Exception:  # a failed computation must not take the server process down
        logger.exception("The coach's table for %s could not be computed", rules.key)
    finally:
        lock.unlink(missing_ok=True)


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
    (and bonuses noted by hand) did to the score."""
    start = reviews[0].expected_before if reviews else 0.0
    weighed = [turn for turn in reviews if turn.best is not None]
    luck = sum(turn.luck for turn in weighed)
    lost = sum(turn.lost for turn in weighed)
    return {
        "expected": start,
        "total": final_total,
        "luck": luck,
        "lost": lost,
        "weighed": len(weighed),
        "typed": len(reviews) - len(weighed),
        "rest": final_total - start - luck + lost,
        "best_choices": sum(1 for turn in weighed if turn.lost < 0.005),
    }
