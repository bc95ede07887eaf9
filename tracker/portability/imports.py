"""Imports that never block the room: an uploaded export becomes a household in steps.

The upload's request checks the file (its size, JSON, format and version, a BG Stats file's
conversion), stores it in an :class:`~tracker.households.models.ImportJob` and answers at
once. Once that is committed, a thread of the same server process runs the job. What the plays name
(players, own games, game nights, series, tournaments) is written in a few short steps
first; then each step writes ``PLAYS_PER_STEP`` plays in a transaction of its own, after
reading, checking and scoring them outside it, so SQLite's write lock is held a few tenths
of a second at most and tablets saving meanwhile wait no longer than that.

All or nothing: the household has no member until the last step adds the uploader, so
nobody sees it half made; a refusal, or any error, deletes what was written and keeps
why, in the uploader's language, for the progress page.

A thread rather than a process of its own or a task queue: nothing more to install or
keep running, and the progress and the upload live in the database, so any server can
show the job and take it over. A runner dies with its server process (a restart, a
deploy): a job with no step finished for ``STALE_AFTER`` is started again from the
beginning, what its dead runner wrote deleted first, by the next look at its progress
on any server, or by any server's sweep (every ``SWEEP_SECONDS`` or so) whether anybody
looks or not; after ``MAX_ATTEMPTS`` starts it fails with a message saying so.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tracker.households import membership
from tracker.households.models import Household, ImportJob
from tracker.portability.document import ImportRefused, refusals
from tracker.portability.files import read_file
from tracker.portability.importer import Importer

logger = logging.getLogger(__name__)

#: Plays written per transaction: at most about 0.2 s of holding SQLite's write lock.
PLAYS_PER_STEP = 50
#: A step takes well under a second; a runner silent this long has died.
STALE_AFTER = timedelta(seconds=60)
#: How often each server process looks for jobs whose runner died.
SWEEP_SECONDS = 20
MAX_ATTEMPTS = 3
#: A pause after each step: a tablet waiting for SQLite's write lock retries every 0.1 s at
#: most, and would otherwise find the lock taken again by the next step each time.
PAUSE_BETWEEN_STEPS = 0.15


class Superseded(Exception):
    """Another runner holds the job now: this one stops and leaves everything to it."""


def new_runner() -> str:
    return secrets.token_hex(8)


def create_job(user: Any, data: bytes, *, name: str, notes: list[str]) -> ImportJob:
    """A job importing ``data`` (read by :func:`~tracker.portability.files.read_file` already) for
    ``user``, run once the caller's transaction commits."""
    job = ImportJob.objects.create(
        user=user, data=data, name=name, notes=notes, runner=new_runner(), attempts=1,
        language=translation.get_language() or "en")
    transaction.on_commit(lambda: start_runner(job.pk, job.runner))
    return job


def start_runner(job_id: int, runner: str) -> None:
    threading.Thread(target=run_in_thread, args=(job_id, runner), name=f"import-{job_id}",
                     daemon=True).start()


def run_in_thread(job_id: int, runner: str) -> None:
    try:
        run_job(job_id, runner)
    finally:
        # A thread's database connection is its own: closed here, or it stays open.
        connection.close()


def run_job(job_id: int, runner: str) -> None:
    """Run the job as ``runner``, to the end or until another runner takes it over."""
    job = ImportJob.objects.filter(pk=job_id, runner=runner).first()
    if job is None or job.ended:
        return
    with translation.override(job.language):
        try:
            with refusals():
                import_in_steps(job, runner)
        except ImportRefused as refused:
            fail(job, runner, str(refused))
        except Superseded:
            pass
        except Exception:
            logger.exception("Import %s stopped on an error", job_id)
            fail(job, runner, _(
                "The import stopped on an error of the server's. Nothing was imported: "
                "try again, and tell the site's owner if it happens again."))


def import_in_steps(job: ImportJob, runner: str) -> None:
    if job.household_id is not None:
        delete_household(job.household_id)
    reading = read_file(bytes(job.data))
    importer = Importer(reading.document)
    total = importer.play_count
    with step(job.pk, runner) as changes:
        household = importer.begin(job.name or None)
        changes |= {"household": household, "state": ImportJob.State.RUNNING,
                    "plays_total": total, "plays_done": 0}
    for part in importer.parts_before_plays():
        with step(job.pk, runner):
            part()
        time.sleep(PAUSE_BETWEEN_STEPS)
    for start in range(0, total, PLAYS_PER_STEP):
        stop = min(start + PLAYS_PER_STEP, total)
        prepared = importer.prepare_plays(start, stop)
        with step(job.pk, runner) as changes:
            importer.write_plays(prepared)
            changes["plays_done"] = stop
        time.sleep(PAUSE_BETWEEN_STEPS)
    with step(job.pk, runner) as changes:
        household.members.add(job.user_id)
        changes |= {"state": ImportJob.State.DONE, "data": b""}


@contextmanager
def step(job_id: int, runner: str) -> Iterator[dict[str, Any]]:
    """A transaction that writes a step and the job's progress together, ``changes`` to the
    job as the caller leaves them; rolled back with Superseded when ``runner`` no longer
    holds the job."""
    changes: dict[str, Any] = {}
    with transaction.atomic():
        yield changes
        if not ImportJob.objects.filter(pk=job_id, runner=runner).update(
                beat_at=timezone.now(), **changes):
            raise Superseded


def fail(job: ImportJob, runner: str, message: str) -> None:
    """End ``job`` with ``message`` and delete what it wrote, unless another runner holds it."""
    if ImportJob.objects.filter(pk=job.pk, runner=runner).update(
            state=ImportJob.State.FAILED, message=message, data=b"", beat_at=timezone.now()):
        household_id = ImportJob.objects.filter(pk=job.pk).values_list(
            "household_id", flat=True).first()
        if household_id is not None:
            delete_household(household_id)


def delete_household(household_id: int) -> None:
    """Delete a household an import left unfinished, its plays a few hundred at a time
    (:func:`tracker.households.membership.delete_household`); a household that has members is never
    touched."""
    if Household.objects.filter(pk=household_id, members=None).exists():
        membership.delete_household(household_id)


def resume_stale_jobs() -> int:
    """Start again every job whose runner died (see :func:`resume_if_stale`), whether or not
    anybody looks at its progress; how many were started again or failed."""
    stale = ImportJob.objects.filter(state__in=[ImportJob.State.WAITING,
                                                ImportJob.State.RUNNING],
                                     beat_at__lt=timezone.now() - STALE_AFTER)
    resumed = 0
    for job in stale:
        before = job.runner
        resumed += resume_if_stale(job).runner != before
    return resumed


def sweep_forever() -> None:
    """Every ``SWEEP_SECONDS`` (a random part more, so that servers started together take
    turns), start again the jobs whose runner died: an import interrupted by a restart goes
    on within a minute or two, and one nobody revisits still ends, its upload emptied."""
    while True:
        time.sleep(SWEEP_SECONDS * (1 + random.random()))
        try:
            resume_stale_jobs()
        except Exception:
            logger.exception("Looking for interrupted imports failed")
        finally:
            connection.close()


def start_sweeper() -> None:
    """The sweep in a thread of this server process (gunicorn's ``post_worker_init``)."""
    threading.Thread(target=sweep_forever, name="import-sweeper", daemon=True).start()


def resume_if_stale(job: ImportJob) -> ImportJob:
    """``job`` as it is now; started again by a new runner when the one that held it has
    finished no step for ``STALE_AFTER``, or failed after ``MAX_ATTEMPTS`` starts."""
    if job.ended or job.beat_at > timezone.now() - STALE_AFTER:
        return job
    runner = new_runner()
    claimed = ImportJob.objects.filter(pk=job.pk, runner=job.runner, beat_at=job.beat_at,
                                       state__in=[ImportJob.State.WAITING,
                                                 ImportJob.State.RUNNING]
                                       ).update(runner=runner, beat_at=timezone.now(),
                                                attempts=F("attempts") + 1)
    job.refresh_from_db()
    if claimed and job.attempts > MAX_ATTEMPTS:
        with translation.override(job.language):
            fail(job, runner, _(
                "The import was interrupted %(count)s times, perhaps by the server "
                "restarting. Nothing was imported: try again.") % {"count": MAX_ATTEMPTS})
        job.refresh_from_db()
    elif claimed:
        transaction.on_commit(lambda: start_runner(job.pk, runner))
    return job
