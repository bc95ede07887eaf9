"""How gunicorn serves the app, for `make run` and the benches alike.

Given as ``--config python:tracker.gunicorn_conf``.

Three processes of four threads each: a worker busy for seconds with a large PDF or an
export still answers the tablets on its other threads, and the heavy pages themselves are
limited per member (tracker/common/heavy.py). Imports run on a thread of their own
(tracker/portability/imports.py), and each process looks every 20 seconds or so for an
import whose runner died with its process, to start it again. A request still stops after
30 seconds.
"""

workers = 3
worker_class = "gthread"
threads = 4
timeout = 30


def post_worker_init(worker):  # noqa: ARG001 - gunicorn's hook signature
    """Each worker process sweeps for interrupted imports, once the app is loaded."""
    from tracker.portability.imports import start_sweeper

    start_sweeper()
