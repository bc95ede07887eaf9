"""How gunicorn serves the app, for `make run` and the benches alike.

Given as ``--config python:tracker.gunicorn_conf``, serving ``tracker.asgi``.

gunicorn keeps the processes and uvicorn serves in each (``uvicorn-worker``): an open page's
stream of changes waits in uvicorn's event loop and holds no thread, so a thousand tablets
and TVs cost no more than their sockets, while every view still runs in a thread of its
own. At home, with nothing shared between processes, one process serves everything: a
change made through it reaches every open stream (:mod:`tracker.common.live`). Where a
Redis is shared (``DJANGO_EVENTS_URL``, or the cache's), three processes serve, and the
changes reach the streams of all of them, and of every other server, through it. Imports
and the coach's tables run apart, in the worker of background work (``manage.py
run_worker``); the heavy pages are limited per member (tracker/common/heavy.py).
"""

from __future__ import annotations

import os

from uvicorn_worker import UvicornWorker


def shares_redis() -> bool:
    """Whether the settings will name a Redis for the live events (tracker/settings.py)."""
    url = os.environ.get("DJANGO_EVENTS_URL") or os.environ.get("DJANGO_CACHE_URL", "")
    return url.startswith(("redis://", "rediss://"))


class Worker(UvicornWorker):
    """uvicorn in a gunicorn process. On a restart its open streams are closed after a few
    seconds: the devices open them again, on the next process, and catch up."""

    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "lifespan": "off",
                     "timeout_graceful_shutdown": 3}


workers = 3 if shares_redis() else 1
worker_class = "tracker.gunicorn_conf.Worker"
graceful_timeout = 5
