"""Open pages told of each change by their stream: what a stream sends, to whom, and when."""

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory
from tracker.common import live
from tracker.households.models import household_changed
from tracker.room.models import ShareLink
from tracker.room.views.live import KEEPALIVE, READY
from tracker.table.recording import abandon_play, change_draft, start_play, write_cell
from tracker.table.sheet import CSRF_SLOT, USER_SLOT

pytestmark = pytest.mark.django_db


def events(response):
    """The stream's events, one at a time, as the device reads them."""
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert "no-store" in response["Cache-Control"]
    return iter(response.streaming_content)


def parsed(event: bytes) -> tuple[str, str, str]:
    """An event's name, id and data (its lines of data joined), as EventSource reads it."""
    name, event_id, data = "", "", []
    for line in event.decode().strip().splitlines():
        field, _, value = line.partition(": ")
        if field == "event":
            name = value
        elif field == "id":
            event_id = value
        elif field == "data":
            data.append(value)
    return name, event_id, "\n".join(data)


def told_state(event: bytes) -> str:
    """The state a ``changed`` event tells, or a ``content`` event sends the page of."""
    name, event_id, data = parsed(event)
    assert (name, event_id) == ("changed", data) or name == "content" and event_id in data
    return event_id


def page_stream(client, play, state: str):
    return client.get(reverse("live", args=["play", play.pk]), {"state": state})


def test_a_sheet_is_sent_with_a_cell_entered_on_another_tablet(
        host_client, host, kniffel, family, django_capture_on_commit_callbacks):
    shown = host_client.get(kniffel.get_absolute_url()).content.decode()
    state = shown.split('data-state="', 1)[1].split('"', 1)[0]
    stream = events(page_stream(host_client, kniffel, state))
    assert next(stream).decode() == READY
    with django_capture_on_commit_callbacks(execute=True):
        write_cell(kniffel, family[0], "chance", 23, expected_version=None)
    name, new_state, sent = parsed(next(stream))
    # The tablet is sent the page every tablet on the game shares: it asks for nothing.
    assert name == "content" and new_state != state
    assert f'data-state="{new_state}"' in sent and ">23<" in sent
    # It is the page a tablet reads, with slots where each puts in its own CSRF token (and,
    # opening it, its id).
    page = host_client.get(kniffel.get_absolute_url()).content.decode()
    token = page.split('"X-CSRFToken": "', 1)[1].split('"', 1)[0]
    assert CSRF_SLOT in sent and token not in sent
    assert page.replace(token, CSRF_SLOT).replace(
        f'data-user="{host.pk}"', f'data-user="{USER_SLOT}"').strip() == sent.strip()


def test_a_result_form_is_told_of_a_change_and_reads_itself(
        host_client, household, night, family, django_capture_on_commit_callbacks):
    play = start_play(household=household, game="mau_mau", players=family[:3], game_night=night)
    state = host_client.get(play.get_absolute_url()).content.decode().split(
        'data-state="', 1)[1].split('"', 1)[0]
    stream = events(page_stream(host_client, play, state))
    next(stream)
    with django_capture_on_commit_callbacks(execute=True):
        change_draft(play, lambda stored: ({**(stored.current_draft or {}), "note": 1}, None))
    # Each tablet's form is its own (what it has typed): the stream names the state only.
    assert told_state(next(stream)) != state


def test_a_device_back_from_a_dropped_connection_is_told_what_it_missed(
        host_client, kniffel, family):
    stale = host_client.get(kniffel.get_absolute_url()).content.decode()
    state = stale.split('data-state="', 1)[1].split('"', 1)[0]
    write_cell(kniffel, family[0], "chance", 23, expected_version=None)
    stream = events(page_stream(host_client, kniffel, state))
    next(stream)
    assert told_state(next(stream)) != state
    # The browser names the last event's id when it reconnects by itself.
    again = events(host_client.get(reverse("live", args=["play", kniffel.pk]),
                                   HTTP_LAST_EVENT_ID=state))
    next(again)
    assert told_state(next(again)) != state


def test_a_board_is_told_and_then_told_when_its_link_is_revoked(
        client, kniffel, family, django_capture_on_commit_callbacks):
    link = ShareLink.objects.create(household=kniffel.household, play=kniffel)
    board = client.get(reverse("board", args=[link.token])).content.decode()
    state = board.split('data-state="', 1)[1].split('"', 1)[0]
    stream = events(client.get(reverse("board_live", args=[link.token]), {"state": state}))
    assert next(stream).decode() == READY
    with django_capture_on_commit_callbacks(execute=True):
        write_cell(kniffel, family[1], "fours", 12, expected_version=None)
    name, new_state, content = parsed(next(stream))
    # The TV is sent its new content with the change: it asks for nothing.
    assert name == "content" and new_state != state
    assert content.strip().startswith('<section id="board"') and ">12<" in content
    assert f'data-state="{new_state}"' in content
    with django_capture_on_commit_callbacks(execute=True):
        link.revoked_at = link.created_at
        link.save()
        household_changed(link.household_id, setup=True)
    assert next(stream).decode().startswith("event: gone")
    assert next(stream, None) is None


def test_a_stream_is_only_for_the_households_members(client, host_client, stranger, kniffel):
    client.force_login(stranger)
    assert page_stream(client, kniffel, "").status_code == 404
    client.logout()
    assert page_stream(client, kniffel, "").status_code == 404
    assert client.get(reverse("live", args=["nothing", kniffel.pk])).status_code in (302, 404)
    assert client.get(reverse("board_live", args=["no-such-token"])).status_code == 404


def test_an_abandoned_game_is_told_as_a_change(host_client, kniffel,
                                               django_capture_on_commit_callbacks):
    state = host_client.get(kniffel.get_absolute_url()).content.decode().split(
        'data-state="', 1)[1].split('"', 1)[0]
    stream = events(page_stream(host_client, kniffel, state))
    next(stream)
    with django_capture_on_commit_callbacks(execute=True):
        abandon_play(kniffel, expected_version=None)
    assert "abandoned" in told_state(next(stream))


def test_a_change_wakes_only_the_streams_of_its_household_once_committed(
        household, django_capture_on_commit_callbacks):
    other = PlayerFactory().household
    woken: list[str] = []

    class Listener:
        def __init__(self, name: str) -> None:
            self.name = name

        def wake(self) -> None:
            woken.append(self.name)

    ours, theirs = Listener("ours"), Listener("theirs")
    listening_before = live.hub.count()
    live.hub.add(f"household-{household.pk}", ours)
    live.hub.add(f"household-{other.pk}", theirs)
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            household_changed(household.pk)
        assert woken == []  # not before the change is committed
        for callback in callbacks:
            callback()
        assert woken == ["ours"]
    finally:
        live.hub.remove(f"household-{household.pk}", ours)
        live.hub.remove(f"household-{other.pk}", theirs)
    assert live.hub.count() == listening_before


def test_a_change_elsewhere_in_the_household_sends_nothing(
        host_client, household, night, family, monkeypatch,
        django_capture_on_commit_callbacks):
    """Another game started in the same household wakes the stream, which reads its state
    again and finds it unchanged: its page is not read again for nothing."""
    monkeypatch.setattr("tracker.room.views.live.KEEPALIVE_SECONDS", 0.05)
    kniffel = start_play(household=household, game="kniffel", players=family[:2],
                         game_night=night)
    state = host_client.get(kniffel.get_absolute_url()).content.decode().split(
        'data-state="', 1)[1].split('"', 1)[0]
    stream = events(page_stream(host_client, kniffel, state))
    next(stream)
    with django_capture_on_commit_callbacks(execute=True):
        start_play(household=household, game="kniffel", players=family[2:], game_night=night)
    assert next(stream).decode() == KEEPALIVE
