"""A play's note and length: measured at the first result, written and corrected on the
result page, refused for what is not a finished play of the household."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import OwnGameFactory, played_own_game
from tracker.table.models import Play
from tracker.table.recording import abandon_play, record_result, start_play
from tracker.table.story import measured_length

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def skyjo(household, night, family):
    """A finished game of Skyjo (fewest points win) of Anna and Ben."""
    own = OwnGameFactory(household=household, name="Skyjo", scoring="fewest_points")
    return played_own_game(household, night, own, family[:2],
                           {"scores": {family[0].key: 12, family[1].key: 30}})


def started_minutes_ago(play, minutes):
    Play.objects.filter(pk=play.pk).update(
        created_at=timezone.now() - timedelta(minutes=minutes, seconds=10))
    play.refresh_from_db()


@pytest.mark.parametrize(("seconds", "minutes"), [
    (0, None), (29, None), (31, 1), (35 * 60 + 20, 35), (24 * 3600, 1440),
    (24 * 3600 + 31, None), (-60, None)])
def test_a_length_is_a_minute_to_a_day(seconds, minutes):
    start = timezone.now()
    assert measured_length(start, start + timedelta(seconds=seconds)) == minutes


def test_the_first_result_measures_the_length_from_the_start(household, night, family):
    play = start_play(household=household, game="mau_mau", players=family[:2],
                      game_night=night)
    started_minutes_ago(play, 25)
    record_result(play, {"winner": family[1].key},
                  expected_version=play.version)
    play.refresh_from_db()
    assert play.status == Play.Status.FINISHED and play.length_minutes == 25


def test_a_correction_keeps_the_length_and_a_length_set_stays(skyjo, family):
    Play.objects.filter(pk=skyjo.pk).update(length_minutes=40,
                                            created_at=timezone.now() - timedelta(hours=3))
    skyjo.refresh_from_db()
    record_result(skyjo, {"scores": {family[0].key: 12, family[1].key: 9}},
                  expected_version=skyjo.version)
    skyjo.refresh_from_db()
    assert skyjo.length_minutes == 40


def test_a_result_entered_after_the_game_has_no_length(skyjo):
    assert skyjo.length_minutes is None


def test_the_result_page_offers_the_note_and_the_length(host_client, skyjo):
    page = host_client.get(skyjo.get_absolute_url() + "?final=1").content.decode()
    assert 'name="note"' in page and 'name="length_minutes"' in page
    assert reverse("play_story", args=[skyjo.pk]) in page


def test_a_note_and_a_length_are_kept_with_htmx(host_client, skyjo):
    version = skyjo.version
    response = host_client.post(reverse("play_story", args=[skyjo.pk]),
                                {"note": "Oma's first win\r\nat last!", "length_minutes": "35"},
                                **HTMX)
    page = response.content.decode()
    assert response.status_code == 200 and "<html" not in page
    assert "Oma&#x27;s first win<br>at last!" in page and "Took 35 minutes." in page
    skyjo.refresh_from_db()
    assert (skyjo.note, skyjo.length_minutes) == ("Oma's first win\nat last!", 35)
    # Devices showing the play follow; a correction under way elsewhere is not disturbed.
    assert skyjo.version == version


def test_without_javascript_the_note_is_kept_and_the_play_shown(host_client, skyjo):
    form = host_client.get(reverse("play_story", args=[skyjo.pk]))
    assert form.status_code == 200 and "<html" in form.content.decode()
    response = host_client.post(reverse("play_story", args=[skyjo.pk]),
                                {"note": "Close call", "length_minutes": ""})
    assert response.status_code == 302 and response["Location"] == skyjo.get_absolute_url()
    skyjo.refresh_from_db()
    assert (skyjo.note, skyjo.length_minutes) == ("Close call", None)
    assert "Close call" in host_client.get(skyjo.get_absolute_url()).content.decode()


@pytest.mark.parametrize(("data", "message"), [
    ({"note": "x" * 1001, "length_minutes": "30"},
     "A note has at most 1000 characters; this one has 1001."),
    ({"note": "Fine", "length_minutes": "0"}, "from 1 to 1440 (a day)"),
    ({"note": "Fine", "length_minutes": "1441"}, "from 1 to 1440 (a day)"),
    ({"note": "Fine", "length_minutes": "half an hour"}, "from 1 to 1440 (a day)"),
    ({"note": "Fine", "length_minutes": "9" * 40}, "from 1 to 1440 (a day)"),
])
def test_bad_input_is_refused_clearly_and_changes_nothing(host_client, skyjo, data, message):
    for extra in ({}, HTMX):
        response = host_client.post(reverse("play_story", args=[skyjo.pk]), data, **extra)
        assert response.status_code == 422 and message in response.content.decode()
    skyjo.refresh_from_db()
    assert (skyjo.note, skyjo.length_minutes) == ("", None)


def test_a_note_of_a_thousand_characters_with_line_breaks_fits(host_client, skyjo):
    note = "\r\n".join(["x" * 99] * 10)
    response = host_client.post(reverse("play_story", args=[skyjo.pk]), {"note": note}, **HTMX)
    assert response.status_code == 200
    skyjo.refresh_from_db()
    assert len(skyjo.note) == 999


def test_another_households_play_and_a_deleted_play_are_not_found(client, stranger, skyjo):
    client.force_login(stranger)
    url = reverse("play_story", args=[skyjo.pk])
    assert client.post(url, {"note": "Mine now"}).status_code == 404
    assert client.get(url).status_code == 404
    skyjo.refresh_from_db()
    assert skyjo.note == ""
    skyjo.household.members.add(stranger)
    gone = skyjo.pk
    skyjo.delete()
    assert client.post(reverse("play_story", args=[gone]), {"note": "x"}).status_code == 404


def test_a_game_under_way_or_abandoned_keeps_no_note(host_client, household, night, family,
                                                     skyjo):
    running = start_play(household=household, game="mau_mau", players=family[:2],
                         game_night=night)
    response = host_client.post(reverse("play_story", args=[running.pk]), {"note": "x"}, **HTMX)
    assert response.status_code == 409 and "once the game has its result" in (
        response.content.decode())
    assert host_client.get(reverse("play_story", args=[running.pk])).status_code == 302
    abandon_play(skyjo, expected_version=skyjo.version)
    response = host_client.post(reverse("play_story", args=[skyjo.pk]), {"note": "x"}, **HTMX)
    assert response.status_code == 409 and "abandoned" in response.content.decode()
    running.refresh_from_db()
    skyjo.refresh_from_db()
    assert running.note == skyjo.note == ""


def test_a_note_is_shown_with_a_button_to_change_it(host_client, skyjo):
    Play.objects.filter(pk=skyjo.pk).update(note="Ben <b>won</b>", length_minutes=20)
    page = host_client.get(skyjo.get_absolute_url()).content.decode()
    assert "Ben &lt;b&gt;won&lt;/b&gt;" in page and "Took 20 minutes." in page
    assert "Change the note or length" in page and 'name="note"' not in page
    form = host_client.get(reverse("play_story", args=[skyjo.pk]), **HTMX).content.decode()
    assert 'name="note"' in form and "<html" not in form and "data-follow-hold" in form
