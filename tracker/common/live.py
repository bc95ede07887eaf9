"""Changes told the moment they are committed: what every open stream of the app listens to.

A write that changes what an open page shows names its channel (``household-7``) with
:func:`publish`, once its transaction has committed. Every stream subscribed to that channel
wakes (:func:`subscribed`), reads the state of what it shows again, and tells its device
when that changed. A wake-up carries nothing but the channel: several changes in a row wake
a stream once, and a stream woken for nothing (another page of the household) sends nothing.

Within one server process the hub is enough: ``make run`` serves the app from one process,
with SQLite, and needs nothing more. Where several processes or servers serve one site,
``settings.LIVE_EVENTS_URL`` names the Redis they share (its pub/sub, which keeps nothing:
a stream that was away compares states when it comes back, see
:mod:`tracker.room.views.live`): a change is published there, and each process hears every
channel on one connection of its own and wakes its streams.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Protocol

from django.conf import settings

logger = logging.getLogger(__name__)

#: The addresses of the streams (tracker/urls.py: ``live`` and ``board_live``).
STREAM_PATH = re.compile(r"^/(live/[^/]+/[^/]+|board/[^/]+/live)/$")
#: Channels on the shared Redis start with this, so that a Redis shared with other sites
#: wakes nothing of theirs.
REDIS_PREFIX = "scorekeeper-live:"
#: After the shared Redis was lost, how long to wait before connecting again.
RECONNECT_SECONDS = 1.0


class Listener(Protocol):
    def wake(self) -> None: ...


class AsyncListener:
    """A stream served by the event loop: woken from any thread."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.changed = asyncio.Event()

    def wake(self) -> None:
        self.loop.call_soon_threadsafe(self.changed.set)

    async def wait(self, seconds: float) -> bool:
        """Whether a change came within ``seconds`` (the wake-ups since are taken with it)."""
        try:
            await asyncio.wait_for(self.changed.wait(), seconds)
        except TimeoutError:
            return False
        self.changed.clear()
        return True


class ThreadListener:
    """A stream served by a thread of its own (``manage.py runserver``, the tests' server)."""

    def __init__(self) -> None:
        self.changed = threading.Event()

    def wake(self) -> None:
        self.changed.set()

    def wait(self, seconds: float) -> bool:
        """Whether a change came within ``seconds`` (the wake-ups since are taken with it)."""
        if not self.changed.wait(seconds):
            return False
        self.changed.clear()
        return True


class Hub:
    """The streams of this process, by channel."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[str, set[Listener]] = defaultdict(set)

    def add(self, channel: str, listener: Listener) -> None:
        with self._lock:
            self._listeners[channel].add(listener)

    def remove(self, channel: str, listener: Listener) -> None:
        with self._lock:
            listeners = self._listeners.get(channel)
            if listeners is not None:
                listeners.discard(listener)
                if not listeners:
                    del self._listeners[channel]

    def wake(self, channel: str) -> None:
        with self._lock:
            listeners = list(self._listeners.get(channel, ()))
        for listener in listeners:
            listener.wake()

    def wake_all(self) -> None:
        """Every stream reads its state again: after the shared Redis was lost for a while,
        a change may have been missed."""
        with self._lock:
            listeners = [listener for group in self._listeners.values() for listener in group]
        for listener in listeners:
            listener.wake()

    def count(self) -> int:
        with self._lock:
            return sum(len(group) for group in self._listeners.values())


hub = Hub()


class RedisBridge:
    """This process's one connection to the shared Redis: what is published anywhere wakes
    the streams here. It is opened with the first stream and lives as long as the process."""

    def __init__(self, url: str) -> None:
        import redis  # only where several servers share a site (pip's extra "redis")

        self.client = redis.Redis.from_url(url)
        self._started = False
        self._lock = threading.Lock()

    def publish(self, channel: str) -> None:
        self.client.publish(REDIS_PREFIX + channel, b"")

    def start(self) -> None:
        with self._lock:
            if not self._started:
                self._started = True
                threading.Thread(target=self._listen, name="live-events", daemon=True).start()

    def _listen(self) -> None:
        pattern = REDIS_PREFIX + "*"
        lost = False
        while True:
            try:
                pubsub = self.client.pubsub(ignore_subscribe_messages=True)
                pubsub.psubscribe(pattern)
                if lost:
                    hub.wake_all()
                for message in pubsub.listen():
                    if message["type"] == "pmessage":
                        hub.wake(message["channel"].decode()[len(REDIS_PREFIX):])
            except Exception:  # noqa: BLE001 - Redis gone for a while: connect again
                logger.warning("Lost the shared Redis of live events; connecting again.",
                               exc_info=True)
                lost = True
                time.sleep(RECONNECT_SECONDS)


_bridge: RedisBridge | None = None
_bridge_lock = threading.Lock()


def bridge() -> RedisBridge | None:
    """The shared Redis, where the settings name one."""
    global _bridge
    url = settings.LIVE_EVENTS_URL
    if not url:
        return None
    with _bridge_lock:
        if _bridge is None:
            _bridge = RedisBridge(url)
        return _bridge


def publish(channel: str) -> None:
    """Wake every stream subscribed to ``channel``, on every server of the site. Called once
    the change is committed: a stream woken earlier would read the state before it."""
    shared = bridge()
    if shared is None:
        hub.wake(channel)
        return
    try:
        shared.publish(channel)
    except Exception:  # noqa: BLE001 - the write stands; devices catch up when they ask
        logger.warning("Could not publish a live event on %s.", channel, exc_info=True)
        hub.wake(channel)


def _listening(channel: str, listener: Listener) -> None:
    shared = bridge()
    if shared is not None:
        shared.start()
    hub.add(channel, listener)


@asynccontextmanager
async def subscribed(channel: str) -> AsyncIterator[AsyncListener]:
    """A listener woken by every change published on ``channel`` while the block runs."""
    listener = AsyncListener()
    _listening(channel, listener)
    try:
        yield listener
    finally:
        hub.remove(channel, listener)


@contextmanager
def subscribed_thread(channel: str) -> Iterator[ThreadListener]:
    """As :func:`subscribed`, for a stream served by a thread of its own."""
    listener = ThreadListener()
    _listening(channel, listener)
    try:
        yield listener
    finally:
        hub.remove(channel, listener)
