import re

import pytest
from django.urls import reverse

from tests.factories import GameNightFactory
from tracker.table.recording import start_play

pytestmark = pytest.mark.django_db


def test_visitor_is_invited_to_log_in(client):
    page = client.get(reverse("home"))
    assert page.status_code == 200
    assert reverse("login") in page.content.decode()


def test_host_sees_the_household_and_its_nights(host_client, household, family):
    night = GameNightFactory(household=household)
    night.players.set(family)
    start_play(household=household, game="kniffel", players=family[:2], game_night=night)
    page = host_client.get(reverse("home")).content.decode()
    assert "Familie Test" in page
    assert "Games in progress" in page and "Kniffel" in page
    assert "Anna, Ben, Carla, David" in page


def test_latest_night_comes_first(host_client, household):
    import datetime

    for day in (1, 20, 10):
        GameNightFactory(household=household, date=datetime.date(2026, 11, day))
    page = host_client.get(reverse("home")).content.decode()
    assert page.index("Nov. 20, 2026") < page.index("Nov. 10, 2026") < page.index("Nov. 1, 2026")


def test_member_of_no_household_is_told_so(client, db):
    from tests.factories import UserFactory

    client.force_login(UserFactory())
    assert "does not belong to a household" in client.get(reverse("home")).content.decode()


def test_another_households_data_stays_hidden(client, stranger, household, family):
    GameNightFactory(household=household).players.set(family)
    client.force_login(stranger)
    page = client.get(reverse("home")).content.decode()
    assert "Anna" not in page and "Other family" in page


@pytest.mark.parametrize("nights", [1, 12])
def test_home_runs_a_constant_number_of_queries(host_client, household, family, nights,
                                                django_assert_max_num_queries):
    for _ in range(nights):
        night = GameNightFactory(household=household)
        night.players.set(family)
        start_play(household=household, game="kniffel", players=family, game_night=night)
    with django_assert_max_num_queries(10):
        assert host_client.get(reverse("home")).status_code == 200


def test_language_switch_on_every_page(client):
    page = client.get(reverse("home")).content.decode()
    assert f'action="{reverse("set_language")}"' in page
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    german = client.get(reverse("home")).content.decode()
    assert '<html lang="de">' in german
    assert "Anmelden" in german


def test_browser_language_is_honoured(client):
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9").content.decode()
    assert "Passwort" in page


def test_unknown_page_is_a_404(client):
    assert client.get("/no/such/page/").status_code == 404


def test_home_shows_tonights_games_and_only_the_latest_older_ones(host_client, household,
                                                                  family):
    from datetime import timedelta

    from django.utils import timezone

    today = timezone.localdate()
    tonight = GameNightFactory(household=household, date=today)
    tonights = start_play(household=household, game="mau_mau", players=family[:2],
                          game_night=tonight)
    for days_ago in range(1, 13):
        night = GameNightFactory(household=household, date=today - timedelta(days=days_ago))
        start_play(household=household, game="kniffel", players=family[:2], game_night=night)
    page = host_client.get(reverse("home")).content.decode()
    assert tonights.get_absolute_url() in page
    assert len(re.findall(r'class="button" href="/plays/\d+/"', page)) == 1 + 5
    assert reverse("open_plays") in page

    first = host_client.get(reverse("open_plays")).content.decode()
    assert len(re.findall(r'class="button" href="/plays/\d+/"', first)) == 12
    assert tonights.get_absolute_url() not in first
    assert "Page" not in first


def test_the_list_of_unfinished_games_is_paginated(host_client, household, family):
    from datetime import date, timedelta

    for days_ago in range(1, 28):
        night = GameNightFactory(household=household, date=date(2020, 1, 1) + timedelta(days_ago))
        start_play(household=household, game="mau_mau", players=family[:2], game_night=night)
    second = host_client.get(reverse("open_plays"), {"page": "2"}).content.decode()
    assert len(re.findall(r'class="button" href="/plays/\d+/"', second)) == 2
    assert "Page 2 of 2" in second
    assert host_client.get(reverse("open_plays"), {"page": "x" * 50}).status_code == 200
