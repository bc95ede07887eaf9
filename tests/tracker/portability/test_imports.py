"""An uploaded export imported in steps beside the requests, and the page that follows it."""

import json
import time
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from tests.tracker.portability.transfer_fixtures import build_everything, run_imports
from tracker.households.models import Household, ImportJob, Player
from tracker.portability import files, importer, imports
from tracker.portability.export import export_household
from tracker.portability.imports import create_job, run_job
from tracker.table.models import HeadToHeadTally, Play

pytestmark = pytest.mark.django_db


@pytest.fixture
def everything(household, night, family, host):
    return build_everything(household, night, family, host)


@pytest.fixture
def small_steps(monkeypatch):
    """Two plays a step, so that even a small household takes several."""
    monkeypatch.setattr(imports, "PLAYS_PER_STEP", 2)


def as_file(document):
    return json.dumps(document).encode()


def counts():
    return (Household.objects.count(), Player.objects.count(), Play.objects.count(),
            HeadToHeadTally.objects.count())


def upload(client, data, **fields):
    return client.post(reverse("household_import"), {
        "document": SimpleUploadedFile("family.json", data, "application/json"), **fields})


def progress(client, job, **headers):
    return client.get(reverse("household_import_progress", args=[job.pk]), headers=headers)


def test_an_import_in_steps_gives_the_household_the_import_at_once_gives(
        everything, host, small_steps):
    first = export_household(everything)
    job = create_job(host, as_file(first), name=everything.name)

    run_job(job.pk, job.runner)

    job.refresh_from_db()
    assert (job.state, job.plays_done, job.plays_total) == ("done", len(first["plays"]),
                                                           len(first["plays"]))
    assert job.data == b""
    assert list(job.household.members.all()) == [host]
    second = export_household(job.household)
    assert {**second, "exported_at": None} == {**first, "exported_at": None}


def test_an_error_in_a_later_step_leaves_nothing_behind(everything, host, small_steps,
                                                        monkeypatch):
    before = counts()
    written = []
    real = importer.Importer.write_plays

    def write_then_break(importer, prepared):
        if written:
            raise RuntimeError("the disk is full")
        written.append(real(importer, prepared))

    monkeypatch.setattr(importer.Importer, "write_plays", write_then_break)
    job = create_job(host, as_file(export_household(everything)), name="")

    run_job(job.pk, job.runner)

    job.refresh_from_db()
    assert written
    assert job.state == "failed"
    assert "error of the server's" in job.message
    assert counts() == before


def test_a_refusal_in_a_later_step_is_shown_by_name_and_leaves_nothing(
        client, everything, host, small_steps):
    document = export_household(everything)
    document["plays"][-1]["status"] = "finished"
    document["plays"][-1]["result"] = {}
    before = counts()
    client.force_login(host)

    upload(client, as_file(document))
    run_imports()
    page = progress(client, ImportJob.objects.get()).content.decode()

    assert "the play&#x27;s status does not match its result." in page
    assert counts() == before


class WorkerKilled(BaseException):
    """The worker's process ending mid-step, as a kill does: nothing of the job's own code
    runs after it."""


def killed_after(monkeypatch, steps):
    """Kill the worker in the middle of writing plays, after ``steps`` steps of plays; the
    starts of the plays prepared from then on are kept in the list returned."""
    real_write, real_prepare = importer.Importer.write_plays, importer.Importer.prepare_plays
    written, starts = [], []

    def write(importer, prepared):
        if len(written) == steps:
            raise WorkerKilled
        written.append(real_write(importer, prepared))

    def prepare(importer, start, stop):
        starts.append(start)
        return real_prepare(importer, start, stop)

    monkeypatch.setattr(importer.Importer, "write_plays", write)
    monkeypatch.setattr(importer.Importer, "prepare_plays", prepare)

    def revive():
        monkeypatch.setattr(importer.Importer, "write_plays", real_write)

    return starts, revive


def interrupted_job(host, document, monkeypatch, steps=2):
    """A job whose worker was killed after ``steps`` steps of plays, silent since."""
    job = create_job(host, as_file(document), name="Copy")
    starts, revive = killed_after(monkeypatch, steps)
    with pytest.raises(WorkerKilled):
        run_job(job.pk, job.runner)
    revive()
    ImportJob.objects.filter(pk=job.pk).update(beat_at=timezone.now() - timedelta(minutes=2))
    job.refresh_from_db()
    return job, starts


def test_an_interrupted_job_goes_on_from_its_last_step(
        client, everything, host, small_steps, monkeypatch,
        django_capture_on_commit_callbacks):
    first = export_household(everything)
    job, starts = interrupted_job(host, first, monkeypatch)
    households = Household.objects.count()
    assert (job.state, job.plays_done, job.household.plays.count()) == ("running", 4, 4)
    client.force_login(host)

    with django_capture_on_commit_callbacks() as queued:
        page = progress(client, job)
    starts.clear()
    run_imports()

    job.refresh_from_db()
    assert page.status_code == 200
    assert len(queued) == 1
    assert (job.state, job.attempts) == ("done", 2)
    assert starts[0] == 4, "the plays written before were written again"
    assert Household.objects.count() == households
    assert job.household.members.get() == host
    assert {**export_household(job.household), "exported_at": None,
            "household": None} == {**first, "exported_at": None, "household": None}


def test_an_interruption_among_the_game_nights_goes_on_from_there(
        everything, host, monkeypatch):
    """Players and nights written before are found again, not written twice."""
    first = export_household(everything)
    job = create_job(host, as_file(first), name="Copy")
    real = importer.Importer.import_series

    def killed(importer, household):
        raise WorkerKilled

    monkeypatch.setattr(importer.Importer, "import_series", killed)
    with pytest.raises(WorkerKilled):
        run_job(job.pk, job.runner)
    monkeypatch.setattr(importer.Importer, "import_series", real)
    job.refresh_from_db()
    players = Player.objects.filter(household=job.household).count()
    ImportJob.objects.filter(pk=job.pk).update(beat_at=timezone.now() - timedelta(minutes=2))

    assert imports.resume_stale_jobs() == 1
    run_imports()

    job.refresh_from_db()
    assert job.state == "done"
    assert job.parts_done == len(importer.Importer(first).parts_before_plays())
    assert Player.objects.filter(household=job.household).count() == players
    assert {**export_household(job.household), "exported_at": None,
            "household": None} == {**first, "exported_at": None, "household": None}


def test_a_runner_still_beating_is_left_alone(client, host, django_capture_on_commit_callbacks):
    job = create_job(host, b"{}", name="")
    client.force_login(host)

    with django_capture_on_commit_callbacks() as started:
        progress(client, job)

    assert started == []


def test_a_job_interrupted_again_and_again_fails_and_says_so(
        client, everything, host, small_steps, monkeypatch):
    job, _starts = interrupted_job(host, export_household(everything), monkeypatch)
    ImportJob.objects.filter(pk=job.pk).update(attempts=imports.MAX_ATTEMPTS)
    client.force_login(host)

    page = progress(client, job).content.decode()

    assert "The import was interrupted 5 times" in page
    assert not Household.objects.filter(pk=job.household_id).exists()


def test_a_job_waiting_in_the_queue_is_not_taken_for_dead(host):
    """Behind another import, a job can wait for minutes: that is not a dead worker. Only
    after ``QUEUED_TOO_LONG`` is it queued again, and that counts as no start."""
    job = create_job(host, b"{}", name="")
    ImportJob.objects.filter(pk=job.pk).update(beat_at=timezone.now() - timedelta(minutes=3))

    assert imports.resume_stale_jobs() == 0
    ImportJob.objects.filter(pk=job.pk).update(beat_at=timezone.now() - timedelta(minutes=11))
    assert imports.resume_stale_jobs() == 1

    again = ImportJob.objects.get(pk=job.pk)
    assert (again.state, again.attempts) == ("waiting", 1) and again.runner != job.runner
    run_job(job.pk, job.runner)  # the task queued first comes after all: it does nothing
    assert ImportJob.objects.get(pk=job.pk).state == "waiting"


def test_the_progress_page_waits_then_counts_the_plays(client, host):
    job = create_job(host, b"{}", name="")
    client.force_login(host)

    waiting = progress(client, job).content.decode()
    ImportJob.objects.filter(pk=job.pk).update(state="running")
    reading = progress(client, job, HX_Request="true").content.decode()
    ImportJob.objects.filter(pk=job.pk).update(
        plays_total=5000, plays_done=1200, household=Household.objects.create(name="New"))
    running = progress(client, job, HX_Request="true").content.decode()

    assert "about to start" in waiting and "about to start" in reading
    assert 'hx-trigger="every 1s"' in waiting
    assert "1,200 of 5,000 plays imported" in running
    assert "<html" not in running


def test_the_progress_page_groups_the_thousands_as_the_language_writes_them(client, host):
    job = create_job(host, b"{}", name="")
    ImportJob.objects.filter(pk=job.pk).update(
        state="running", plays_total=20004, plays_done=12200,
        household=Household.objects.create(name="New"))
    client.force_login(host)
    client.cookies["django_language"] = "de"

    running = progress(client, job, HX_Request="true").content.decode()

    assert "12.200 von 20.004 Partien importiert" in running
    assert 'max="20004" value="12200"' in running


def test_a_finished_import_switches_the_device_to_the_new_household(
        client, everything, host):
    client.force_login(host)
    upload(client, as_file(export_household(everything)), name="Grandma's copy")
    run_imports()
    job = ImportJob.objects.get()

    answer = progress(client, job, HX_Request="true")
    shown = client.get(reverse("household")).content.decode()

    assert answer["HX-Redirect"] == reverse("household")
    assert client.cookies["household"].value == f"{host.pk}:{job.household_id}"
    assert "Imported as Grandma&#x27;s copy." in shown


def test_another_users_import_does_not_exist(client, host, stranger):
    job = create_job(host, b"{}", name="")
    client.force_login(stranger)

    assert progress(client, job).status_code == 404


@pytest.mark.parametrize("data", [
    b"", b"\xff\xfe\x00", b"{}", b"[]", b'"text"', b"null",
    b'{"format": "family-scorekeeper", "version": true}',
    b'{"format": "family-scorekeeper", "version": 0}',
])
def test_a_bad_upload_gets_a_clear_422(host_client, household, data):
    response = upload(host_client, data)

    assert response.status_code == 422
    assert 'class="error" role="alert"' in response.content.decode()
    assert not ImportJob.objects.exists()


def test_a_file_over_the_limit_is_refused_before_it_is_stored(host_client, household,
                                                              monkeypatch):
    monkeypatch.setattr(files, "MAX_BYTES", 100)

    response = upload(host_client, b" " * 200 + b"{}")

    assert response.status_code == 422
    assert not ImportJob.objects.exists()


def test_the_import_page_says_what_fits(host_client, household):
    page = host_client.get(reverse("household_import")).content.decode()

    assert ("Up to 20 MB: about 20,000 plays, or 1,700 Kniffel games entered cell by cell."
            in page)


@pytest.mark.django_db(transaction=True)
def test_the_upload_queues_the_import_for_a_worker(client, household, night, family, host):
    data = as_file(export_household(build_everything(household, night, family, host)))
    client.force_login(host)

    response = upload(client, data, name="Queued")
    waiting = ImportJob.objects.get()
    call_command("run_worker", batch=True, verbosity=0)
    job = ImportJob.objects.get()

    assert response.url == reverse("household_import_progress", args=[job.pk])
    assert waiting.state == "waiting"
    assert job.state == "done"
    assert Household.objects.get(name="Queued").members.get() == host


def test_a_job_whose_runner_died_goes_on_though_nobody_looks(
        everything, host, small_steps, monkeypatch, django_capture_on_commit_callbacks):
    """The worker was killed mid-import and the uploader never comes back: the sweep every
    worker runs hands the job to a new runner, and it lands."""
    job, _starts = interrupted_job(host, export_household(everything), monkeypatch)
    fresh = create_job(host, b"{}", name="")  # its runner is alive

    with django_capture_on_commit_callbacks() as queued:
        assert imports.resume_stale_jobs() == 1
    run_imports()

    job.refresh_from_db()
    assert len(queued) == 1 and (job.state, job.attempts) == ("done", 2)
    assert job.household.members.get() == host
    assert ImportJob.objects.get(pk=fresh.pk).attempts == 1


@pytest.mark.django_db(transaction=True)
def test_a_runner_reading_a_large_file_says_it_is_alive(host, monkeypatch):
    job = create_job(host, b"{}", name="")
    ImportJob.objects.filter(pk=job.pk).update(beat_at=timezone.now() - timedelta(minutes=2))
    monkeypatch.setattr(imports, "BEAT_SECONDS", 0.01)

    with imports.beating(job.pk, job.runner):
        time.sleep(0.2)

    job.refresh_from_db()
    assert timezone.now() - job.beat_at < imports.STALE_AFTER


@pytest.mark.parametrize(("tasks_url", "worker"), [("", "db_worker"),
                                                   ("redis://127.0.0.1:6390/1", "rqworker")])
def test_a_worker_sweeps_for_interrupted_imports_and_runs_the_queue(
        monkeypatch, settings, tasks_url, worker):
    from tracker.management.commands import run_worker

    if tasks_url:
        settings.TASKS = {"default": {"BACKEND": "django_tasks_rq.RQBackend",
                                      "QUEUES": ["default"]}}
        settings.RQ_QUEUES = {"default": {"URL": tasks_url}}
    started, called = [], []
    monkeypatch.setattr(imports, "start_sweeper", lambda: started.append(True))
    monkeypatch.setattr(run_worker, "call_command", lambda name, *args, **kw: called.append(name))

    call_command("run_worker", verbosity=0)

    assert started == [True] and called == [worker]
