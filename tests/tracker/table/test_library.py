"""The household's own games: listed on the Household page, added and changed there."""

import pytest
from django.urls import reverse

from tests.factories import HouseholdFactory, OwnGameFactory
from tracker.table.models import OwnGame
from tracker.table.recording import record_result, start_play

pytestmark = pytest.mark.django_db

FULL = {"scoring": "most_points", "end": "host", "end_at": "0"}


def test_the_household_page_lists_the_own_games_with_their_scoring(host_client, household,
                                                                    night, family):
    skyjo = OwnGameFactory(household=household, name="Skyjo", scoring="fewest_points")
    start_play(household=household, game="generic", own_game=skyjo, players=family[:2],
               game_night=night)
    OwnGameFactory(household=HouseholdFactory(), name="Dixit")
    page = host_client.get(reverse("household")).content.decode()
    assert "Skyjo" in page and "Fewest points win" in page and "1 play" in page
    assert "Dixit" not in page


def test_a_game_of_one_s_own_is_added_with_how_it_ends(host_client, household):
    response = host_client.post(reverse("own_game_add"), {
        "name": "Wizard", "scoring": "most_points", "end": "rounds", "end_at": "15",
        "min_players": "3", "max_players": "6", "note": "Trumps!",
        "tiebreak_count": "  tricks  won "})
    assert response.status_code == 302 and response["Location"].endswith("#games")
    wizard = OwnGame.objects.get(household=household)
    assert wizard.house_rules == {"scoring": "most_points", "teams": False, "end": "rounds",
                                  "end_at": 15, "sheet": "rounds", "categories": [],
                                  "tiebreak": "", "tiebreak_count": "tricks won"}


@pytest.mark.parametrize("data,message", [
    ({"end": "rounds", "end_at": "0"},
     "Say after how many rounds, or at which score, the game ends."),
    ({"scoring": "places", "end": "target", "end_at": "100"},
     "Only a game with points can end at a score."),
    ({"scoring": "cooperative", "teams": "on"},
     "A co-operative game is played by the whole table: it has no teams."),
    ({"min_players": "5", "max_players": "2"}, "At least as many as the fewest players."),
    ({"name": "  "}, "This field is required."),
    ({"name": "x" * 61}, "A name has at most 60 characters; this one has 61."),
])
def test_a_definition_the_engine_cannot_score_is_explained(host_client, household, data,
                                                          message):
    response = host_client.post(reverse("own_game_add"), {"name": "Wizard", **FULL, **data})
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not OwnGame.objects.exists()


def test_other_games_can_be_renamed_and_its_plays_follow(host_client, household, night,
                                                         family):
    other = OwnGameFactory(household=household, name="Other games")
    play = start_play(household=household, game="generic", own_game=other,
                      players=family[:2], game_night=night)
    record_result(play, {"scores": {family[0].key: 3, family[1].key: 5}},
                  expected_version=play.version)
    response = host_client.post(reverse("own_game_edit", args=[other.pk]),
                                {**FULL, "name": "Uno"})
    assert response.status_code == 302
    assert "Uno" in host_client.get(play.get_absolute_url()).content.decode()
    assert "Uno" in host_client.get(reverse("history")).content.decode()


def test_a_name_taken_in_the_library_is_refused_whatever_its_case(host_client, household):
    OwnGameFactory(household=household, name="Uno")
    response = host_client.post(reverse("own_game_add"), {**FULL, "name": "UNO"})
    assert response.status_code == 422
    assert "Your library has a game of this name already." in response.content.decode()


def test_another_household_s_own_game_is_not_found(host_client):
    other = OwnGameFactory(household=HouseholdFactory(), name="Secret")
    assert host_client.get(reverse("own_game_edit", args=[other.pk])).status_code == 404
    assert host_client.post(reverse("own_game_edit", args=[other.pk]),
                            {**FULL, "name": "Mine"}).status_code == 404
