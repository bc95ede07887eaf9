"""A night's place: at home by default, typed or chosen from the places used before on the
night's form, and changed later on its page."""

import datetime

import pytest
from django.urls import reverse

from tests.factories import GameNightFactory
from tracker.evenings.models import GameNight, places_used

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def test_places_used_are_the_households_latest_first(household, stranger):
    GameNightFactory(household=household, date=datetime.date(2026, 1, 3), place="Ferienhaus Sylt")
    GameNightFactory(household=household, date=datetime.date(2026, 5, 1),
                     place="Bei Oma in Kassel")
    GameNightFactory(household=household, date=datetime.date(2026, 2, 1), place="Ferienhaus Sylt")
    GameNightFactory(household=household, date=datetime.date(2026, 6, 1))
    GameNightFactory(household=stranger.households.get(), place="Elsewhere")
    assert places_used(household) == ["Bei Oma in Kassel", "Ferienhaus Sylt"]


def test_the_nights_form_offers_the_places_used_before(host_client, household):
    GameNightFactory(household=household, date=datetime.date(2026, 1, 3),
                     place="Bei Oma in Kassel")
    page = host_client.get(reverse("night_new")).content.decode()
    assert 'list="night-place-input-used"' in page
    assert '<option value="Bei Oma in Kassel">' in page and 'placeholder="At home"' in page


def test_a_night_starts_where_it_is_typed_and_at_home_by_default(host_client, family):
    host_client.post(reverse("night_new"), {"date": "2026-11-20", "place": "  Ferienhaus   Sylt ",
                                            "players": [family[0].pk, family[1].pk]})
    host_client.post(reverse("night_new"), {"date": "2026-11-21",
                                            "players": [family[0].pk, family[1].pk]})
    assert dict(GameNight.objects.values_list("date__day", "place")) == {
        20: "Ferienhaus Sylt", 21: ""}


def test_the_night_page_shows_the_place_and_changes_it(host_client, night):
    url = reverse("night_place", args=[night.pk])
    page = host_client.get(night.get_absolute_url()).content.decode()
    assert "📍 At home" in page and url in page
    form = host_client.get(url, **HTMX).content.decode()
    assert 'name="place"' in form and "<html" not in form
    response = host_client.post(url, {"place": "Bei Oma in Kassel"}, **HTMX)
    assert response.status_code == 200 and "<strong>Bei Oma in Kassel</strong>" in (
        response.content.decode())
    night.refresh_from_db()
    assert night.place == "Bei Oma in Kassel"
    assert "Bei Oma in Kassel" in host_client.get(night.get_absolute_url()).content.decode()
    # Without JavaScript: the form is a page, saving goes back to the night.
    assert "<html" in host_client.get(url).content.decode()
    response = host_client.post(url, {"place": ""})
    assert response.status_code == 302 and response["Location"] == night.get_absolute_url()
    night.refresh_from_db()
    assert night.place == ""


def test_a_place_too_long_is_refused_and_changes_nothing(host_client, night):
    response = host_client.post(reverse("night_place", args=[night.pk]), {"place": "x" * 101},
                                **HTMX)
    assert response.status_code == 422 and "at most 100 characters" in response.content.decode()
    night.refresh_from_db()
    assert night.place == ""


def test_another_households_night_is_not_found(client, stranger, night):
    client.force_login(stranger)
    url = reverse("night_place", args=[night.pk])
    assert client.post(url, {"place": "Mine"}).status_code == 404
    assert client.get(url).status_code == 404
    night.refresh_from_db()
    assert night.place == ""
