"""Run the background work: ``python manage.py run_worker``."""

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS, task_backends

from tracker.portability import imports


class Command(BaseCommand):
    help = ("Run the queued background work (imports, the coach's tables) until stopped, and "
            "every 10 to 20 seconds hand an import whose worker died to a new one. Start as "
            "many as you like, on any machine with the app's settings: each task runs once. "
            "On the database's queue (the default) this is django-tasks-db's db_worker; with "
            "DJANGO_TASKS_URL=redis://… it is an RQ worker.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--batch", action="store_true",
                            help="Run what is queued now, then stop (no sweep).")

    def handle(self, *args: Any, batch: bool = False, **options: Any) -> None:
        if not batch:
            imports.start_sweeper()
        backend = task_backends[DEFAULT_TASK_BACKEND_ALIAS]
        if type(backend).__module__.startswith("django_tasks_rq"):
            # RQ's simple worker runs each task in the worker's own process, as db_worker
            # does: no forked process outlives a worker that is stopped or killed.
            call_command("rqworker", "default", job_class="django_tasks_rq.Job",
                         worker_class="rq.worker.SimpleWorker", burst=batch,
                         verbosity=options["verbosity"])
        else:
            call_command("db_worker", queue_name="default", batch=batch, reload=False,
                         verbosity=options["verbosity"])
