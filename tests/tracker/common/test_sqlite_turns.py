"""Writers on SQLite take turns (tracker/common/sqlite): a transaction waits for the one under
way to end, whether it commits or rolls back, and never fails for it."""

import threading
import time

import pytest
from django.db import connection, connections, transaction

from tracker.households.models import Household

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's backend only")]


def write_in_a_thread(name: str, finished: list[tuple[str, float]]) -> threading.Thread:
    def write() -> None:
        try:
            with transaction.atomic():
                Household.objects.create(name=name)
            finished.append((name, time.monotonic()))
        finally:
            connections.close_all()

    thread = threading.Thread(target=write)
    thread.start()
    return thread


@pytest.mark.parametrize("first_ends", ["commit", "rollback"])
def test_a_writer_waits_for_the_turn_under_way_then_writes(first_ends):
    finished: list[tuple[str, float]] = []
    with transaction.atomic():
        Household.objects.create(name="First")
        waiting = write_in_a_thread("Second", finished)
        time.sleep(0.3)
        assert finished == [], "the second writer did not wait for the first"
        ended = time.monotonic()
        if first_ends == "rollback":
            transaction.set_rollback(True)
    waiting.join(timeout=10)

    assert [name for name, _at in finished] == ["Second"] and finished[0][1] >= ended
    expected = {"First", "Second"} if first_ends == "commit" else {"Second"}
    assert set(Household.objects.values_list("name", flat=True)) == expected


def test_eight_writers_at_once_each_write_once():
    finished: list[tuple[str, float]] = []
    threads = [write_in_a_thread(f"Family {number}", finished) for number in range(8)]
    for thread in threads:
        thread.join(timeout=20)

    assert len(finished) == 8
    assert Household.objects.count() == 8
