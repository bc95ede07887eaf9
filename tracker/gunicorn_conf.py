"""How gunicorn serves the app, for `make run` and the benches alike.

Given as ``--config python:tracker.gunicorn_conf``.

Three processes of four threads each: a worker busy for seconds with a large PDF or an
export still answers the tablets on its other threads, and the heavy pages themselves are
limited per member (tracker/common/heavy.py). Imports run on a thread of their own
(tracker/portability/imports.py). A request still stops after 30 seconds.
"""

workers = 3
worker_class = "gthread"
threads = 4
timeout = 30
