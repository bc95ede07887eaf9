"""How gunicorn serves the app, for `make run` and the benches alike.

Given as ``--config python:tracker.gunicorn_conf``.

Three processes of four threads each: a worker busy for seconds with a large PDF or an
export still answers the tablets on its other threads, and the heavy pages themselves are
limited per member (tracker/common/heavy.py). Imports and the coach's tables run apart, in
the worker of background work (``manage.py run_worker``). A request still stops after 30
seconds.
"""

workers = 3
worker_class = "gthread"
threads = 4
timeout = 30
