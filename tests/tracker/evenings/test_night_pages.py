import re

import pytest
from django.urls import reverse

from tests.factories import GameNightFactory, PlayerFactory
from tracker.evenings.models import GameNight
from tracker.households.models import Player
from tracker.table.recording import record_result, start_play

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def test_pages_that_change_data_need_a_login(client, household):
    night = GameNightFactory(household=household)
    for url in (reverse("night_new"), reverse("night_detail", args=[night.pk]),
                reverse("play_new", args=[night.pk])):
        response = client.get(url)
        assert response.status_code == 302 and reverse("login") in response["Location"]


def test_home_offers_to_start_tonight(host_client):
    page = host_client.get(reverse("home")).content.decode()
    assert "Start a game night" in page and reverse("night_new") in page


def test_home_offers_a_new_game_tonight(host_client, household):
    night = GameNightFactory(household=household)
    page = host_client.get(reverse("home")).content.decode()
    assert reverse("play_new", args=[night.pk]) in page


def test_start_a_night_with_the_players_present(host_client, host, family):
    response = host_client.post(reverse("night_new"), {
        "date": "2026-11-21", "players": [family[0].pk, family[2].pk]})
    night = GameNight.objects.get()
    assert response.status_code == 302 and response["Location"] == night.get_absolute_url()
    assert list(night.players.order_by("name")) == [family[0], family[2]]
    assert night.host == host


def test_a_night_needs_players(host_client, family):
    response = host_client.post(reverse("night_new"), {"date": "2026-11-21"})
    assert response.status_code == 422
    assert "Tap the players who are here." in response.content.decode()
    assert not GameNight.objects.exists()


def test_only_the_households_players_can_be_ticked(host_client, family, stranger):
    outsider = PlayerFactory(name="Outsider")
    response = host_client.post(reverse("night_new"), {"date": "2026-11-21",
                                                       "players": [outsider.pk]})
    assert response.status_code == 422
    assert not GameNight.objects.exists()


def test_add_a_player_inline(host_client, household, family):
    response = host_client.post(reverse("player_add"), {
        "name": "  Zoe  ", "colour": "#1d4ed8", "players": [str(family[0].pk)]}, **HTMX)
    assert response.status_code == 200
    page = response.content.decode()
    zoe = Player.objects.get(name="Zoe")
    assert 'id="players"' in page and "<html" not in page
    assert f'value="{zoe.pk}"' in page and page.count("checked") >= 2


@pytest.mark.parametrize("name,message", [("anna", "There is already a player with this name."),
                                          ("   ", "This field is required.")])
def test_a_duplicate_or_empty_player_is_refused(host_client, family, name, message):
    response = host_client.post(reverse("player_add"), {"name": name, "colour": "#1d4ed8"},
                                **HTMX)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert Player.objects.count() == 4


def test_a_name_over_the_limit_is_refused_with_a_message_not_cut(host_client, family):
    """The input has no maxlength: a pasted long name reaches the server and is explained."""
    page = host_client.get(reverse("night_new")).content.decode()
    assert not re.search(r'<input[^>]*name="name"[^>]*maxlength', page)
    response = host_client.post(reverse("player_add"), {"name": "Maximilian " * 4 + "Sommer",
                                                        "colour": "#1d4ed8"}, **HTMX)
    assert response.status_code == 422
    assert "A name has at most 40 characters; this one has 50." in response.content.decode()
    assert "Maximilian Maximilian Maximilian Maximilian Sommer" in response.content.decode()
    assert Player.objects.count() == 4


def test_add_player_without_javascript_goes_back(host_client, family):
    response = host_client.post(reverse("player_add"), {"name": "Zoe", "colour": "#1d4ed8"})
    assert response.status_code == 302 and response["Location"] == reverse("night_new")


def test_another_households_night_is_not_found(client, stranger, household):
    night = GameNightFactory(household=household)
    client.force_login(stranger)
    assert client.get(reverse("night_detail", args=[night.pk])).status_code == 404
    assert client.get(reverse("play_new", args=[night.pk])).status_code == 404


def maus_race(household, night, players, first):
    play = start_play(household=household, game="maus_im_nacken", players=players,
                      game_night=night)
    elephants = {p.key: ["caught"] * 4 for p in players}
    elephants[first.key] = ["home:1", "caught", "caught", "caught"]
    record_result(play, {"elephants": elephants}, expected_version=1)
    return play


def test_night_shows_its_games_and_standings(host_client, household, family):
    night = GameNightFactory(household=household)
    night.players.set(family)
    maus_race(household, night, family[:3], family[1])
    maus_race(household, night, family[:3], family[1])
    maus_race(household, night, family[:3], family[0])
    page = host_client.get(reverse("night_detail", args=[night.pk])).content.decode()
    assert page.count("Die Maus im Nacken") >= 3
    standings = page[page.index('<table class="standings">'):page.index("<h2>Games</h2>")]
    assert standings.index("Ben") < standings.index("Anna") < standings.index("Carla")


@pytest.mark.parametrize("races", [1, 8])
def test_night_page_runs_a_constant_number_of_queries(host_client, household, family, races,
                                                      django_assert_max_num_queries):
    night = GameNightFactory(household=household)
    night.players.set(family)
    for _ in range(races):
        maus_race(household, night, family, family[0])
    with django_assert_max_num_queries(10):
        assert host_client.get(reverse("night_detail", args=[night.pk])).status_code == 200
