"""ASGI entry point: what gunicorn's uvicorn workers serve (tracker/gunicorn_conf.py).

The streams of changes (``/live/…``, ``/board/…/live/``) go to Django's ASGI handler, so an
open stream waits in the event loop and holds no thread. Every other request goes to the
WSGI application in a pool of threads (a2wsgi), as gunicorn's threads served it before:
the app's views and middleware are synchronous, and Django's ASGI handler passes each
request through every middleware by a hop between threads, opens a new database
connection per request and a new thread per request. Measured with ``bench/pages.py`` on one
uvicorn process, trivial views / sheet pages / cell saves a second: 348 / 157 / 77 through
Django's ASGI handler, 716 / 348 / 95 through this pool (gunicorn's threads, WSGI: 928 /
459 / 117; ``sheet_vs_trivial`` 0.45, 0.49 and 0.49).
"""

from __future__ import annotations

import os

from a2wsgi import WSGIMiddleware
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")

from tracker.common.live import STREAM_PATH  # noqa: E402 - once the settings are named

#: Threads that serve the synchronous views, as many as gunicorn's threads before.
THREADS = 12

streams = get_asgi_application()
pages = WSGIMiddleware(get_wsgi_application(), workers=THREADS)


async def application(scope, receive, send) -> None:  # noqa: ANN001 - ASGI's own shapes
    """A stream to Django's ASGI handler, anything else to the WSGI application."""
    if scope["type"] == "http" and STREAM_PATH.match(scope["path"]):
        await streams(scope, receive, send)
    else:
        await pages(scope, receive, send)
