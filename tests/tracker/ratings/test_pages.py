"""Where the ratings show: the ratings page and its CSV, a player's page, a game under way
and the TV board; a household that switches them off sees none; a correction is counted at
once."""

import csv
import io

import pytest
from django.urls import reverse

from tests.factories import OwnGameFactory, played_own_game
from tracker.room.models import ShareLink
from tracker.table.models import Play
from tracker.table.recording import abandon_play, record_result, start_play

pytestmark = pytest.mark.django_db


def scores(players, *points):
    return {"scores": {player.key: value for player, value in zip(players, points,
                                                                   strict=True)}}


@pytest.fixture
def uno(household):
    return OwnGameFactory(household=household, name="Uno")


def plays(household, night, game, players, results):
    return [played_own_game(household, night, game, players, scores(players, *points))
            for points in results]


def csv_of(client):
    response = client.get(reverse("ratings_csv"))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.DictReader(io.StringIO(response.content.decode().lstrip("\ufeff"))))


def test_the_ratings_page_ranks_the_rated_and_names_the_provisional(host_client, household,
                                                                     night, family, uno):
    anna, ben, carla = family[:3]
    plays(household, night, uno, [anna, ben], [(10, 5)] * 5)
    plays(household, night, uno, [anna, carla], [(3, 8)])
    page = host_client.get(reverse("ratings")).content.decode()
    assert "Over all games" in page and "Uno" in page
    overall = page[page.index('id="overall"'):page.index('id="game-')]
    assert overall.index("Anna") < overall.index("Ben")
    assert "provisional: 4 more games to a rating" in overall  # Carla, one game
    rows = {(row["player"], row["game"]): row for row in csv_of(host_client)}
    assert list(csv_of(host_client)[0]) == ["player", "game", "rating", "mu", "sigma",
                                            "plays", "provisional"]
    assert rows[("Anna", "")]["plays"] == "6" and rows[("Anna", "")]["provisional"] == "false"
    assert rows[("Carla", "Uno")]["provisional"] == "true"
    assert float(rows[("Anna", "Uno")]["rating"]) > float(rows[("Ben", "Uno")]["rating"])


def test_co_operative_abandoned_and_ignored_plays_rate_nobody(host_client, household, night,
                                                             family):
    hanabi = OwnGameFactory(household=household, name="Hanabi", scoring="cooperative")
    played_own_game(household, night, hanabi, family[:3], {"won": True, "score": 20})
    kniffel = start_play(household=household, game="mensch_aergere_dich_nicht",
                         players=family[:2], game_night=night)
    record_result(kniffel, {"order": [family[0].key]}, expected_version=kniffel.version)
    abandon_play(kniffel, expected_version=Play.objects.get(pk=kniffel.pk).version)
    uno = OwnGameFactory(household=household, name="Uno")
    ignored = played_own_game(household, night, uno, family[:2], scores(family[:2], 5, 3))
    Play.objects.filter(pk=ignored.pk).update(in_statistics=False)
    assert csv_of(host_client) == []
    assert "No rated game yet" in host_client.get(reverse("ratings")).content.decode()


def test_a_correction_is_counted_at_once(host_client, household, night, family, uno):
    anna, ben = family[:2]
    [first] = plays(household, night, uno, [anna, ben], [(10, 5)])
    before = {row["player"]: float(row["rating"]) for row in csv_of(host_client)
              if row["game"] == "Uno"}
    assert before["Anna"] > before["Ben"]
    first.refresh_from_db()
    record_result(first, scores([anna, ben], 1, 9), expected_version=first.version)
    after = {row["player"]: float(row["rating"]) for row in csv_of(host_client)
             if row["game"] == "Uno"}
    assert after["Ben"] > after["Anna"]
    Play.objects.filter(pk=first.pk).delete()
    assert csv_of(host_client) == []


def test_teams_rate_as_teams(host_client, household, night, family):
    canasta = OwnGameFactory(household=household, name="Canasta", teams=True)
    anna, ben, carla, david = family
    played_own_game(household, night, canasta, family, {
        "teams": {"Rot": [anna.key, carla.key], "Blau": [ben.key, david.key]},
        "scores": {"Rot": 500, "Blau": 300}})
    rows = {row["player"]: float(row["mu"]) for row in csv_of(host_client)
            if row["game"] == "Canasta"}
    assert rows["Anna"] == rows["Carla"] > rows["Ben"] == rows["David"]


def test_a_player_page_shows_their_rating_per_game(host_client, household, night, family,
                                                   uno):
    plays(household, night, uno, family[:2], [(10, 5)] * 5)
    page = host_client.get(reverse("player_detail", args=[family[0].pk])).content.decode()
    assert reverse("player_ratings", args=[family[0].pk]) in page
    section = host_client.get(reverse("player_ratings", args=[family[0].pk])).content.decode()
    assert "Over all games" in section and "Uno" in section and "<svg" not in section[:50]
    assert "1.</td>" in section


def test_a_game_under_way_names_the_favourite_and_everyone_s_chance(
        host_client, client, household, night, family, uno):
    anna, ben, carla = family[:3]
    plays(household, night, uno, [anna, ben, carla], [(10, 5, 1)] * 6)
    play = start_play(household=household, game="generic", own_game=uno,
                      players=[carla, ben, anna], game_night=night)
    page = host_client.get(play.get_absolute_url()).content.decode()
    chances = page[page.index('id="chances"'):]
    chances = chances[:chances.index("</p>")]
    assert "Favourite: Anna." in chances
    assert chances.index("Anna") < chances.index("Ben") < chances.index("Carla")
    link = ShareLink.objects.create(household=household, play=play)
    assert "Favourite: Anna." in client.get(reverse("board", args=[link.token])).content.decode()


def test_a_household_can_switch_ratings_off(host_client, client, household, night, family,
                                            uno):
    plays(household, night, uno, family[:2], [(10, 5)] * 2)
    play = start_play(household=household, game="generic", own_game=uno, players=family[:2],
                      game_night=night)
    response = host_client.post(reverse("ratings_switch"), {"shown": "0"})
    assert response.status_code == 302
    household.refresh_from_db()
    assert not household.ratings_shown
    assert "switched off" in host_client.get(reverse("ratings")).content.decode()
    assert csv_of(host_client) == []
    player_page = host_client.get(reverse("player_detail", args=[family[0].pk]))
    assert reverse("player_ratings", args=[family[0].pk]) not in player_page.content.decode()
    ratings = host_client.get(reverse("player_ratings", args=[family[0].pk]))
    assert 'id="ratings"' not in ratings.content.decode()
    assert "Favourite" not in host_client.get(play.get_absolute_url()).content.decode()
    link = ShareLink.objects.create(household=household, play=play)
    assert "Favourite" not in client.get(reverse("board", args=[link.token])).content.decode()
    host_client.post(reverse("ratings_switch"), {"shown": "1"})
    assert "Favourite" in host_client.get(play.get_absolute_url()).content.decode()


def test_another_household_s_ratings_and_chances_stay_its_own(client, stranger, household,
                                                              night, family, uno):
    plays(household, night, uno, family[:2], [(10, 5)])
    play = start_play(household=household, game="generic", own_game=uno, players=family[:2],
                      game_night=night)
    client.force_login(stranger)
    assert client.get(play.get_absolute_url()).status_code == 404
    assert client.get(reverse("player_ratings", args=[family[0].pk])).status_code == 404
    assert "Anna" not in client.get(reverse("ratings")).content.decode()
    assert client.post(reverse("ratings_switch"), {"shown": "0"}).status_code == 302
    household.refresh_from_db()
    assert household.ratings_shown


def test_ratings_need_a_login_and_the_switch_a_post(client, host):
    assert client.get(reverse("ratings")).status_code == 302
    assert client.get(reverse("ratings_csv")).status_code == 302
    client.force_login(host)
    assert client.get(reverse("ratings_switch")).status_code == 405


def test_the_ratings_csv_writes_names_that_look_like_formulas_as_text(host_client, household,
                                                                       night, family):
    """A player called "=1+1" or a game "@SUM(1+1)" is text in a spreadsheet, as in the
    plays' CSV: a formula in a file a family opens would run."""
    anna, ben = family[:2]
    anna.name, ben.name = "=HYPERLINK(\"x\")", "+1+1"
    anna.save()
    ben.save()
    game = OwnGameFactory(household=household, name="@SUM(1+1)")
    plays(household, night, game, [anna, ben], [(10, 5)])

    rows = csv_of(host_client)

    assert {row["player"] for row in rows} == {"'=HYPERLINK(\"x\")", "'+1+1"}
    assert {row["game"] for row in rows} == {"", "'@SUM(1+1)"}


def test_nobody_is_the_favourite_where_the_chances_are_even(host_client, household, night,
                                                            family, uno):
    """A new game where nobody has played yet: 25% each, and no favourite named."""
    play = start_play(household=household, game="generic", own_game=uno, players=family[:4],
                      game_night=night)

    page = host_client.get(play.get_absolute_url()).content.decode()

    chances = page[page.index('id="chances"'):]
    chances = chances[:chances.index("</p>")]
    assert "Chances to win" in chances and "25%" in chances
    assert "Favourite" not in chances


def test_the_ratings_page_says_what_its_numbers_are(host_client, household, night, family,
                                                    uno):
    """Jan at -0.3 on a page that said ratings start at 0 and rise; a newcomer's chance above
    Opa's, unexplained. The words now say both."""
    plays(household, night, uno, family[:2], [(10, 5)])

    page = host_client.get(reverse("ratings")).content.decode()

    assert "starts at 0 and rises" not in page
    assert "can take it below 0" in page
    assert "a newcomer counts as an average player" in page
