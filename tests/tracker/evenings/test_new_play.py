import re

import pytest
from django.urls import reverse

from tests.factories import GameNightFactory, HouseholdFactory, OwnGameFactory
from tracker.table.models import OwnGame, Play
from tracker.table.recording import start_play

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def test_every_game_is_offered_with_its_player_range(host_client, night):
    page = host_client.get(reverse("play_new", args=[night.pk])).content.decode()
    for name in ("Die Maus im Nacken", "Kniffel", "Space Kniffel", "Mau Mau(s)",
                 "A game of your own"):
        assert name in page
    assert "2–4 players" in page


def test_tapping_players_sets_the_seat_order_and_shows_the_hint(host_client, night, family):
    url = reverse("play_new", args=[night.pk])
    data = {"game": "maus_im_nacken", "seats": f"{family[2].pk}", "tap": f"seat:{family[0].pk}"}
    response = host_client.post(url, data, **HTMX)
    page = response.content.decode()
    assert response.status_code == 200 and "<html" not in page
    assert f'name="seats" value="{family[2].pk},{family[0].pk}"' in page
    assert "The mouse starts on square 2." in page
    assert "Seat values on the board" in page


def test_tapping_a_seated_player_again_takes_them_out(host_client, night, family):
    response = host_client.post(reverse("play_new", args=[night.pk]), {
        "game": "kniffel", "seats": f"{family[2].pk},{family[0].pk}",
        "tap": f"seat:{family[2].pk}"}, **HTMX)
    assert f'name="seats" value="{family[0].pk}"' in response.content.decode()


def test_start_a_game_with_house_rules(host_client, night, family):
    response = host_client.post(reverse("play_new", args=[night.pk]), {
        "game": "kniffel", "seats": f"{family[1].pk},{family[0].pk}", "start": "1",
        "starter": f"{family[0].pk}", "rule_joker": "free", "rule_extra_kniffel_bonus": "100",
        "rule_start_player": "highest_roll"})
    play = Play.objects.get()
    assert response.status_code == 302 and response["Location"] == play.get_absolute_url()
    assert [p.player for p in play.participants.order_by("seat")] == [family[1], family[0]]
    assert play.starter().player == family[0]
    assert play.house_rules == {"joker": "free", "extra_kniffel_bonus": 100,
                                "start_player": "highest_roll", "coach_hint": False}


def test_htmx_start_redirects_the_client(host_client, night, family):
    response = host_client.post(reverse("play_new", args=[night.pk]), {
        "game": "mau_mau", "seats": f"{family[1].pk},{family[0].pk}", "start": "1",
        "starter": f"{family[1].pk}"}, **HTMX)
    assert response["HX-Redirect"] == Play.objects.get().get_absolute_url()


@pytest.mark.parametrize("data,message", [
    ({"game": "maus_im_nacken", "seats": "{a}"},
     "Die Maus im Nacken is for 2 to 4 players. This result has 1."),
    ({"game": "maus_im_nacken", "seats": "{a},{b}", "rule_seat_values": "3, x"},
     "Seat values on the board: give distinct whole numbers from 1 to 20."),
    ({"game": "chess", "seats": "{a},{b}"}, "Select a valid choice."),
    ({"seats": "{a},{b}"}, "This field is required."),
])
def test_impossible_setups_are_explained_and_nothing_starts(host_client, night, family, data,
                                                            message):
    data = {key: value.format(a=family[0].pk, b=family[1].pk) for key, value in data.items()}
    response = host_client.post(reverse("play_new", args=[night.pk]), data | {"start": "1"})
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Play.objects.exists()


def test_players_not_present_are_ignored(host_client, household, family):
    night = GameNightFactory(household=household)
    night.players.set(family[:2])
    response = host_client.post(reverse("play_new", args=[night.pk]), {
        "game": "kniffel", "seats": f"{family[3].pk}", "start": "1"})
    assert response.status_code == 422
    assert not Play.objects.exists()


@pytest.mark.parametrize("game,rule", [
    ("kniffel", "The youngest player starts."),
    ("souriciere", "The youngest player starts."),
    ("mau_mau", "Whoever had the most recent birthday starts."),
])
def test_the_host_picks_who_starts_with_the_rule_as_the_reminder(host_client, night, family,
                                                                 game, rule):
    """The app knows no ages or birthdays: it names no start player the rule could
    contradict, and asks the host to tap the one the rule names."""
    url = reverse("play_new", args=[night.pk])
    seats = f"{family[1].pk},{family[0].pk}"
    page = host_client.post(url, {"game": game, "seats": seats}, **HTMX).content.decode()
    assert rule in page
    assert 'name="starter"' in page and "checked" not in page.split("Who starts?")[1].split(
        "</section>")[0]
    assert f"{family[1].name} starts." not in page and f"{family[0].name} starts." not in page

    refused = host_client.post(url, {"game": game, "seats": seats, "start": "1"}, **HTMX)
    assert refused.status_code == 422 and "Tap who starts." in refused.content.decode()
    assert not Play.objects.exists()

    chosen = host_client.post(url, {"game": game, "seats": seats, "starter": family[0].pk},
                              **HTMX).content.decode()
    assert f"{family[0].name} starts." in chosen
    host_client.post(url, {"game": game, "seats": seats, "starter": family[0].pk, "start": "1"})
    assert Play.objects.get().starter().player == family[0]


def test_a_game_whose_rules_name_no_starter_starts_with_the_first_seat(host_client, night,
                                                                       family):
    response = host_client.post(reverse("play_new", args=[night.pk]), {
        "game": "maus_im_nacken", "seats": f"{family[1].pk},{family[0].pk}", "start": "1"})
    assert response.status_code == 302
    assert Play.objects.get().starter().player == family[1]


def test_the_library_offers_the_household_s_own_games_tonight_s_and_most_played_first(
        host_client, household, night, family):
    skyjo = OwnGameFactory(household=household, name="Skyjo", scoring="fewest_points",
                           min_players=2, max_players=8)
    uno = OwnGameFactory(household=household, name="Uno")
    OwnGameFactory(household=HouseholdFactory(), name="Dixit")
    for _ in range(2):
        start_play(household=household, game="generic", own_game=uno, players=family[:2],
                   game_night=GameNightFactory(household=household))
    start_play(household=household, game="generic", own_game=skyjo, players=family[:2],
               game_night=night)
    page = host_client.get(reverse("play_new", args=[night.pk])).content.decode()
    names = [name.strip() for name in re.findall(r'<span class="game-name">([^<]+)', page)]
    assert names[:2] == ["Skyjo", "Uno"]  # tonight's, then the most played
    assert "Dixit" not in page and "Own game" not in names
    assert "2–8 players" in page

    response = host_client.post(reverse("play_new", args=[night.pk]), {
        "game": f"own-{skyjo.pk}", "seats": f"{family[1].pk},{family[0].pk}", "start": "1"})
    play = Play.objects.latest("pk")
    assert response.status_code == 302 and play.own_game == skyjo
    assert play.house_rules["scoring"] == "fewest_points"


def test_a_game_of_one_s_own_is_added_from_the_new_game_screen_and_chosen(
        host_client, household, night, family):
    url = reverse("play_new", args=[night.pk])
    seats = f"{family[0].pk},{family[1].pk}"
    typed = host_client.post(url, {"seats": seats, "new_game-name": "Wizard",
                                   "new_game-scoring": "most_points"}, **HTMX)
    assert 'value="Wizard"' in typed.content.decode()  # kept through a tap
    added = host_client.post(url, {"seats": seats, "tap": "add_game",
                                   "new_game-name": " Wizard ",
                                   "new_game-scoring": "most_points"}, **HTMX)
    wizard = OwnGame.objects.get(household=household)
    assert wizard.name == "Wizard"
    assert f'value="own-{wizard.pk}" checked' in added.content.decode()
    again = host_client.post(url, {"seats": seats, "tap": "add_game",
                                   "new_game-name": "wizard",
                                   "new_game-scoring": "most_points"}, **HTMX)
    assert again.status_code == 422
    assert "Your library has a game of this name already." in again.content.decode()
    assert OwnGame.objects.count() == 1


def test_another_household_s_own_game_cannot_be_started(host_client, night, family):
    other = OwnGameFactory(household=HouseholdFactory(), name="Secret")
    response = host_client.post(reverse("play_new", args=[night.pk]), {
        "game": f"own-{other.pk}", "seats": f"{family[1].pk},{family[0].pk}", "start": "1"})
    assert response.status_code == 422 and not Play.objects.exists()


def test_start_tapped_twice_or_sent_again_starts_one_game(host_client, night, family):
    """The form's key goes with every tap: a second "Start the game", or a retry after a
    dropped connection, finds the game the first one started."""
    url = reverse("play_new", args=[night.pk])
    page = host_client.get(url).content.decode()
    once = re.search(r'name="once" value="([^"]+)"', page)[1]
    tapped = host_client.post(url, {"game": "maus_im_nacken", "seats": str(family[0].pk),
                                    "tap": f"seat:{family[1].pk}", "once": once}, **HTMX)
    assert f'name="once" value="{once}"' in tapped.content.decode()
    data = {"game": "maus_im_nacken", "seats": f"{family[0].pk},{family[1].pk}", "start": "1",
            "once": once}
    first = host_client.post(url, data)
    second = host_client.post(url, data)
    play = Play.objects.get()
    assert first["Location"] == second["Location"] == play.get_absolute_url()
    another = host_client.post(url, {**data, "once": "x" * 20})
    assert another.status_code == 302 and Play.objects.count() == 2


def test_a_start_key_used_again_returns_the_game_it_started(household, night, family):
    from tracker.table.recording import start_play

    first = start_play(household=household, game="maus_im_nacken", players=family[:2],
                       game_night=night, start_key="k" * 20)
    again = start_play(household=household, game="maus_im_nacken", players=family[:2],
                       game_night=night, start_key="k" * 20)
    assert again == first and Play.objects.count() == 1
