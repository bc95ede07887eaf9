"""ASGI entry point: what gunicorn's uvicorn workers serve (tracker/gunicorn_conf.py).

The streams of changes (``/live/…``, ``/board/…/live/``) go to Django's ASGI handler, so an
open stream waits in the event loop and holds no thread (:class:`StreamHandler`). Every
other request goes to the
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

import django
from a2wsgi import WSGIMiddleware
from django.core.handlers.asgi import ASGIHandler
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tracker.settings")

from tracker.common.live import STREAM_PATH  # noqa: E402 - once the settings are named

#: Threads that serve the synchronous views, as many as gunicorn's threads before.
THREADS = 12



class StreamHandler(ASGIHandler):
    """Django's ASGI handler without a thread of its own for each request.

    Django runs a request's synchronous parts (its middleware, the view) in a thread made
    for that request, kept until the response ends: for a stream, as long as the page is
    open (``bench/streams.py``: 2,000 open streams held 2,000 threads, 910 MB). Here they
    run in asgiref's one shared thread instead, a few milliseconds as a stream opens; the
    open stream then waits in the event loop alone."""

    async def __call__(self, scope, receive, send) -> None:  # noqa: ANN001 - ASGI's shapes
        if scope["type"] != "http":
            raise ValueError(f"Only HTTP streams, not {scope['type']}.")
        await self.handle(scope, receive, send)


django.setup(set_prefix=False)
streams = StreamHandler()
pages = WSGIMiddleware(get_wsgi_application(), workers=THREADS)


async def application(scope, receive, send) -> None:  # noqa: ANN001 - ASGI's own shapes
    """A stream to Django's ASGI handler, anything else to the WSGI application."""
    if scope["type"] == "http" and STREAM_PATH.match(scope["path"]):
        await streams(scope, receive, send)
    else:
        await pages(scope, receive, send)
