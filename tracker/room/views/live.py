"""Open pages told of every change the moment it is committed: server-sent events.

A followed page (a sheet, a score pad, a result form, an evening, a series, a tournament)
and a TV board each open one stream (the browser's ``EventSource``), naming the state they
show (``?state=``; on a reconnect the browser names the last event's id instead, which is
the state it told). The stream listens to its household's channel (:mod:`tracker.common.live`)
and, whenever that wakes it, reads the state again (:mod:`tracker.table.following`,
:func:`tracker.room.sharing.shown_state`): when it differs from what the device was told,
it sends it as a ``changed`` event, and the page reads itself again. So a device back from a
dropped Wi-Fi or a restarted server learns at once whether anything changed meanwhile, and
a change told twice is read once.

Where every device is shown the same page, the stream sends it with the change (a
``content`` event, rendered once for all of them): a TV board's content, and the page of a
Kniffel sheet or score pad in progress (:mod:`tracker.table.shared_pages`). Eight
tablets and ten TVs on a game cost the server one rendering and no request each.

The first event, ``ready``, tells the page the stream came through; a page that gets none
(a proxy that holds streams back) asks now and then instead (``static/js/live.js``).
Served by uvicorn's workers, a stream waits in the event loop and holds no thread; under
``runserver`` and the tests' server, which are threaded, it holds one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections
from django.http import Http404, HttpRequest, StreamingHttpResponse
from django.utils.translation import get_language, override
from django.views.decorators.http import require_safe

from tracker.common import live
from tracker.households.models import household_channel
from tracker.room.models import ShareLink
from tracker.room.sharing import shown_state
from tracker.room.views.app import FOLLOWED
from tracker.room.views.boards import board_content
from tracker.table.following import followed_state
from tracker.table.models import Play
from tracker.table.shared_pages import shared_play_page

#: An ``alive`` event this often keeps the connection open through proxies, lets a server
#: notice a device that left, and tells the device that its stream still works (a page that
#: hears nothing for 45 seconds opens another: ``static/js/live.js``).
KEEPALIVE_SECONDS = 20.0

#: Reads the state a stream shows now: None when there is nothing to show any more.
StateReader = Callable[[], "str | None"]
#: What a stream sends with a change to ``state``: the new content, or None for the state only.
ContentReader = Callable[[str], "str | None"]


@require_safe
def page_stream(request: HttpRequest, kind: str, object_id: int) -> StreamingHttpResponse:
    """The stream of a followed page of the user's household (404: gone or not theirs)."""
    model = FOLLOWED.get(kind)
    user_id = request.user.pk
    if model is None or followed_state(model, object_id, user_id) is None:
        raise Http404("nothing to follow")
    household_id = model.objects.filter(pk=object_id).values_list(
        "household_id", flat=True).first()
    language = get_language()

    def read() -> str | None:
        return followed_state(model, object_id, user_id)

    def content(_state: str) -> str | None:
        with override(language):
            return shared_play_page(request, object_id, shared=True)[0]

    return stream_response(request, household_channel(household_id), read,
                           content if model is Play else None)


@require_safe
def board_stream(request: HttpRequest, token: str) -> StreamingHttpResponse:
    """The stream of a TV board opened through its share link (404: revoked)."""
    link_id, _state = shown_state(token)
    household_id = ShareLink.objects.filter(pk=link_id).values_list(
        "household_id", flat=True).first()

    language = get_language()

    def read() -> str | None:
        try:
            return shown_state(token)[1]
        except Http404:
            return None

    def content(state: str) -> str | None:
        with override(language):
            try:
                return board_content(request, link_id, state)
            except Http404:
                return None

    return stream_response(request, household_channel(household_id), read, content)


def stream_response(request: HttpRequest, channel: str, read: StateReader,
                    content: ContentReader | None = None) -> StreamingHttpResponse:
    """The stream of ``channel`` for a device that shows the state it names."""
    shown = request.headers.get("Last-Event-ID") or request.GET.get("state", "")
    tell = Telling(read, content or (lambda _state: None))
    events = (async_events(channel, tell, shown) if isinstance(request, ASGIRequest)
              else thread_events(channel, tell, shown))
    response = StreamingHttpResponse(events, content_type="text/event-stream")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx passes each event on as it comes
    return response


def event(name: str, state: str | None = None, data: str | None = None) -> str:
    """One server-sent event; a change's id is the state it tells, its data the state or
    the new content (a line of data for each line)."""
    lines = [f"event: {name}"]
    if state is not None:
        lines.append(f"id: {state}")
    text = data if data is not None else state or ""
    lines += [f"data: {line}" for line in text.split("\n")]
    return "\n".join(lines) + "\n\n"


#: The page reconnects by itself, naming the state it shows then (``static/js/live.js``):
#: no ``retry`` is sent for the browser's own reconnecting, which would name an older one.
READY = event("ready")
KEEPALIVE = event("alive")


class Telling:
    """What a stream tells its device, from the state it told it last."""

    def __init__(self, read: StateReader, content: ContentReader) -> None:
        self.read, self.content = read, content

    def news(self, told: str) -> tuple[str | None, str | None]:
        """The state now, and the event that tells it (None: nothing to tell)."""
        state = self.read()
        if state is None:
            return None, event("gone")
        if state == told:
            return state, None
        html = self.content(state)
        return state, event("content", state, html) if html else event("changed", state)

    def news_from_the_pool(self, told: str) -> tuple[str | None, str | None]:
        """As :meth:`news`, in a thread of the event loop's pool, on a connection of the
        database that is still good: a stream outlives many of the server's requests."""
        close_old_connections()
        return self.news(told)


async def async_events(channel: str, tell: Telling, shown: str) -> AsyncIterator[str]:
    async with live.subscribed(channel) as listener:
        yield READY
        told = shown
        while True:
            state, message = await sync_to_async(tell.news_from_the_pool, thread_sensitive=False)(
                told)
            if message:
                yield message
                if state is None:
                    return
                told = state
            while not await listener.wait(KEEPALIVE_SECONDS):
                yield KEEPALIVE


def thread_events(channel: str, tell: Telling, shown: str) -> Iterator[str]:
    with live.subscribed_thread(channel) as listener:
        yield READY
        told = shown
        while True:
            state, message = tell.news(told)
            if message:
                yield message
                if state is None:
                    return
                told = state
            while not listener.wait(KEEPALIVE_SECONDS):
                yield KEEPALIVE
