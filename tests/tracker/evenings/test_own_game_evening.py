"""The evening's standings, its games and its certificates with the family's own games: a
co-operative game won is everyone's win, lost nobody's; in a team game each member takes the
team's place; in a fewest-points game the lowest total wins."""

import pytest
from django.urls import reverse

from tests.factories import OwnGameFactory, played_own_game
from tests.tracker.paper.conftest import read_pdf
from tracker.evenings.pages import night_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(household, night, family):
    """Hanabi won by Anna, Ben and Carla, lost by Anna, Ben and David; Spades won by Anna and
    Carla against Ben and David; Skyjo won by Ben (5) before Anna (10) and Carla (20)."""
    anna, ben, carla, david = family
    hanabi = OwnGameFactory(household=household, name="Hanabi", scoring="cooperative")
    spades = OwnGameFactory(household=household, name="Spades", teams=True)
    skyjo = OwnGameFactory(household=household, name="Skyjo", scoring="fewest_points")
    played_own_game(household, night, hanabi, [anna, ben, carla], {"won": True, "score": 21})
    played_own_game(household, night, hanabi, [anna, ben, david], {"won": False, "score": 12})
    played_own_game(household, night, spades, family, {
        "teams": {"North": [anna.key, carla.key], "East": [ben.key, david.key]},
        "scores": {"North": 250, "East": 180}})
    played_own_game(household, night, skyjo, [anna, ben, carla],
           {"scores": {anna.key: 10, ben.key: 5, carla.key: 20}})
    return night


def test_the_evenings_standings_count_co_operative_team_and_fewest_points_games(
        evening, family):
    rows = night_standings(list(evening.plays.prefetch_related("participants__player")))
    assert [(row.name, row.rank, row.wins, row.seconds, row.thirds, row.played)
            for row in rows] == [
        ("Anna", 1, 2, 1, 0, 4),  # Hanabi won, Spades; second in Skyjo
        ("Ben", 1, 2, 1, 0, 4),  # Hanabi won, Skyjo; the losing team of Spades is 2nd
        ("Carla", 3, 2, 0, 1, 3),  # Hanabi won, Spades; third in Skyjo
        ("David", 4, 0, 1, 0, 2),  # Hanabi lost is no second place; Spades' second team is
    ]


def test_the_night_page_says_how_the_co_operative_games_ended(host_client, evening):
    page = host_client.get(evening.get_absolute_url()).content.decode()
    assert page.count("won together") == 1 and page.count("lost together") == 1
    assert "Certificates for the winners (PDF)" in page


def test_the_certificates_go_to_the_players_with_the_most_wins(host_client, evening):
    """Anna and Ben both won two games and came second once: each gets a certificate."""
    response = host_client.get(reverse("night_certificates", args=[evening.pk]),
                               {"lang": "en"})
    assert response.status_code == 200
    pages, _ = read_pdf(response.content)
    assert len(pages) == 2 and "Anna" in pages[0] and "Ben" in pages[1]


def test_an_evening_of_one_lost_co_operative_game_has_no_certificate(host_client, household,
                                                                      night, family):
    hanabi = OwnGameFactory(household=household, name="Hanabi", scoring="cooperative")
    played_own_game(household, night, hanabi, family[:3], {"won": False})
    page = host_client.get(night.get_absolute_url()).content.decode()
    assert "lost together" in page and "Certificates for the winners" not in page
    response = host_client.get(reverse("night_certificates", args=[night.pk]), {"lang": "en"})
    assert response.status_code == 400
    assert "Nobody has won a game this evening" in response.content.decode()


@pytest.mark.parametrize("games", [1, 8])
def test_the_night_page_runs_a_constant_number_of_queries(host_client, household, night,
                                                          family, games,
                                                          django_assert_max_num_queries):
    hanabi = OwnGameFactory(household=household, name="Hanabi", scoring="cooperative")
    for number in range(games):
        played_own_game(household, night, hanabi, family, {"won": number % 2 == 0})
    with django_assert_max_num_queries(10):
        assert host_client.get(night.get_absolute_url()).status_code == 200
