"""The background work in tests that run inside a transaction."""

from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult


def run_queued_tasks() -> int:
    """Run every task queued so far, as ``manage.py run_worker`` would, but in the test's
    own transaction (the worker's loop closes connections between tasks, the test's one
    included); how many ran."""
    worker = Worker(queue_names=["default"], interval=0, batch=True, backend_name="default",
                    startup_delay=False, max_tasks=None, worker_id="tests",
                    excluded_queue_names=[])
    queued = list(DBTaskResult.objects.ready())
    for result in queued:
        result.claim(worker.worker_id)
        worker.run_task(result)
    return len(queued)
