"""Imports that never block the room: an uploaded export becomes a household in steps.

The upload's request only checks the file (its size, JSON, format and version), stores it
in an :class:`~tracker.households.models.ImportJob` and answers at once. Once that is
committed, a task on the queue of background work (Django's task framework, run by
``manage.py run_worker``) runs the job: it reads the file (a BG Stats file is converted
then), writes what the plays name (players, own games, game nights, series, tournaments)
in a few short steps, then each step writes ``PLAYS_PER_STEP`` plays in a transaction of
its own, after reading, checking and scoring them outside it, so SQLite's write lock is
held a few tenths of a second at most and tablets saving meanwhile wait no longer than
that.

All or nothing: the household has no member until the last step adds the uploader, so
nobody sees it half made; a refusal, or any error, deletes what was written and keeps
why, in the uploader's language, for the progress page.

Each step writes its count of parts or plays done with what it wrote, so it happens once.
A job waits in the queue (behind another import, say) until a worker takes it; the runner
then marks it running and says it is alive every ``BEAT_SECONDS``. A worker killed
mid-import (a restart, a deploy, a machine gone) falls silent, and after ``STALE_AFTER``
a new runner takes the job over and goes on from the last step written: the sweep every
worker runs (every ``SWEEP_SECONDS`` or so) finds it whether anybody looks at the
progress or not, and so does the progress page. After ``MAX_ATTEMPTS`` starts the job
fails with a message saying so. A job still waiting after ``QUEUED_TOO_LONG`` is queued
again, as the queue may have lost it (a Redis emptied): that is no start, and the task
queued first, should it still come, finds the job no longer its own and does nothing.
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

from django.db import DatabaseError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django_tasks import task

from tracker.households import membership
from tracker.households.models import Household, ImportJob
from tracker.portability.document import ImportRefused, refusals
from tracker.portability.files import read_file
from tracker.portability.importer import Importer

logger = logging.getLogger(__name__)

#: Plays written per transaction: at most about 0.2 s of holding SQLite's write lock.
PLAYS_PER_STEP = 50
#: How often a runner says it is alive, reading a large file as much as writing steps.
BEAT_SECONDS = 5
#: A runner silent this long has died with its worker.
STALE_AFTER = timedelta(seconds=30)
#: A job no worker has taken this long is queued again.
QUEUED_TOO_LONG = timedelta(minutes=10)
#: How often each worker looks for jobs whose runner died.
SWEEP_SECONDS = 10
MAX_ATTEMPTS = 5
#: A pause after each step: the writers woken when a step ends (tracker/common/sqlite) take
#: their turns before the import asks for its next one.
PAUSE_BETWEEN_STEPS = 0.15


class Superseded(Exception):
    """Another runner holds the job now: this one stops and leaves everything to it."""


def new_runner() -> str:
    return secrets.token_hex(8)


def create_job(user: Any, data: bytes, *, name: str) -> ImportJob:
    """A job importing ``data`` (checked by :func:`~tracker.portability.files.check_file`
    already) for ``user``, queued once the caller's transaction commits."""
    job = ImportJob.objects.create(
        user=user, data=data, name=name, runner=new_runner(), attempts=1,
        language=translation.get_language() or "en")
    queue_after_commit(job.pk, job.runner)
    return job


def queue_after_commit(job_id: int, runner: str) -> None:
    """Queue the job for ``runner`` once the job is committed: a worker never looks for it
    earlier. A queue out of reach is logged; the sweep queues the job again once it has
    waited ``QUEUED_TOO_LONG``."""
    transaction.on_commit(lambda: run_import.enqueue(job_id, runner), robust=True)


@task()
def run_import(job_id: int, runner: str) -> None:
    """The task a worker runs: the job, as ``runner``."""
    with beating(job_id, runner):
        run_job(job_id, runner)


def run_job(job_id: int, runner: str) -> None:
    """Run the job as ``runner``, to the end or until another runner takes it over."""
    started = ImportJob.objects.filter(
        pk=job_id, runner=runner, state__in=[ImportJob.State.WAITING, ImportJob.State.RUNNING]
    ).update(state=ImportJob.State.RUNNING, beat_at=timezone.now())
    job = ImportJob.objects.filter(pk=job_id, runner=runner).first()
    if not started or job is None:
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
    """Read the file and write it in steps, from the step after the last one written."""
    reading = read_file(bytes(job.data))
    importer = Importer(reading.document)
    total = importer.play_count
    if job.household_id is None:
        with step(job.pk, runner) as changes:
            household = importer.begin(job.name or None)
            changes |= {"household": household, "plays_total": total,
                        "notes": reading.notes}
    else:
        household = job.household
        importer.resume(household, job.parts_done, job.plays_done)
    parts = importer.parts_before_plays()
    for number, part in enumerate(parts[job.parts_done:], start=job.parts_done + 1):
        with step(job.pk, runner) as changes:
            part()
            changes["parts_done"] = number
        time.sleep(PAUSE_BETWEEN_STEPS)
    for start in range(job.plays_done, total, PLAYS_PER_STEP):
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
def beating(job_id: int, runner: str) -> Iterator[None]:
    """Say every ``BEAT_SECONDS`` that ``runner`` is alive, from a thread of its own, while
    the caller works: a long read of a large file is no sign of a dead worker."""
    done = threading.Event()

    def beat() -> None:
        try:
            while not done.wait(BEAT_SECONDS):
                try:
                    ImportJob.objects.filter(pk=job_id, runner=runner).update(
                        beat_at=timezone.now())
                except DatabaseError:  # the next beat, or the next step, tries again
                    logger.warning("Import %s could not say it is alive", job_id,
                                   exc_info=True)
        finally:
            connection.close()

    beater = threading.Thread(target=beat, name=f"import-{job_id}-beat", daemon=True)
    beater.start()
    try:
        yield
    finally:
        done.set()
        beater.join()


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
    """Hand every job whose runner died to a new one (see :func:`resume_if_stale`), whether
    or not anybody looks at its progress; how many were taken over or failed."""
    now = timezone.now()
    stale = ImportJob.objects.filter(
        Q(state=ImportJob.State.RUNNING, beat_at__lt=now - STALE_AFTER)
        | Q(state=ImportJob.State.WAITING, beat_at__lt=now - QUEUED_TOO_LONG))
    resumed = 0
    for job in stale:
        before = job.runner
        resumed += resume_if_stale(job).runner != before
    return resumed


def sweep_forever() -> None:
    """Every ``SWEEP_SECONDS`` (a random part more, so that workers started together take
    turns), hand the jobs whose runner died to a new one: an import interrupted by a
    restart goes on within a minute, and one nobody revisits still ends, its upload
    emptied."""
    while True:
        time.sleep(SWEEP_SECONDS * (1 + random.random()))
        try:
            resume_stale_jobs()
        except Exception:
            logger.exception("Looking for interrupted imports failed")
        finally:
            connection.close()


def start_sweeper() -> None:
    """The sweep in a thread of this worker process (``manage.py run_worker``)."""
    threading.Thread(target=sweep_forever, name="import-sweeper", daemon=True).start()


def resume_if_stale(job: ImportJob) -> ImportJob:
    """``job`` as it is now; taken over by a new runner, queued to go on from its last step,
    when the one that ran it has been silent for ``STALE_AFTER`` (failed after
    ``MAX_ATTEMPTS`` starts), or queued again when no worker has taken it for
    ``QUEUED_TOO_LONG``."""
    running = job.state == ImportJob.State.RUNNING
    silent = timezone.now() - job.beat_at
    if job.ended or silent < (STALE_AFTER if running else QUEUED_TOO_LONG):
        return job
    runner = new_runner()
    claimed = ImportJob.objects.filter(pk=job.pk, runner=job.runner, beat_at=job.beat_at,
                                       state=job.state
                                       ).update(runner=runner, beat_at=timezone.now(),
                                                attempts=F("attempts") + int(running))
    job.refresh_from_db()
    if claimed and job.attempts > MAX_ATTEMPTS:
        with translation.override(job.language):
            fail(job, runner, _(
                "The import was interrupted %(count)s times, perhaps by the server "
                "restarting. Nothing was imported: try again.") % {"count": MAX_ATTEMPTS})
        job.refresh_from_db()
    elif claimed:
        queue_after_commit(job.pk, runner)
    return job
