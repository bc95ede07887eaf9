"""Series and tournaments of the family's own games: points, fewest points and places; a
co-operative game has nobody to rank and is refused."""

import pytest
from django.urls import reverse

from tests.factories import HouseholdFactory, OwnGameFactory, PlayerFactory
from tests.tracker.paper.conftest import read_pdf
from tracker.evenings.models import Series, Tournament, TournamentEntry
from tracker.evenings.recording import start_tournament_round
from tracker.table.models import Play
from tracker.table.recording import record_result

pytestmark = pytest.mark.django_db


@pytest.fixture
def skyjo(household):
    return OwnGameFactory(household=household, name="Skyjo", scoring="fewest_points",
                          min_players=2, max_players=8)


@pytest.fixture
def uno(household):
    return OwnGameFactory(household=household, name="Uno", scoring="places", max_players=4)


@pytest.fixture
def hanabi(household):
    return OwnGameFactory(household=household, name="Hanabi", scoring="cooperative",
                          max_players=5)


def create_series(client, players, game, **extra):
    return client.post(reverse("series_new"), {
        "name": "Autumn", "game": game, "races_planned": "3",
        "players": [p.pk for p in players], "tiebreak_1": "points", "tiebreak_2": "wins",
        "create": "1"} | extra)


def race(client, series, result):
    """Start the series' next race and record ``result`` built from its players' keys."""
    client.post(reverse("series_race", args=[series.pk]))
    play = Play.objects.get(series=series, status=Play.Status.IN_PROGRESS)
    record_result(play, result, expected_version=play.version)
    return play


def scores(players, *points):
    return {"scores": {p.key: value for p, value in zip(players, points, strict=True)}}


def test_the_series_form_offers_own_games_beside_the_rules_games(host_client, skyjo, uno,
                                                                 hanabi):
    page = host_client.get(reverse("series_new")).content.decode()
    assert f'value="own-{skyjo.pk}"' in page and f'value="own-{uno.pk}"' in page
    assert 'value="maus_im_nacken"' in page
    assert f'value="own-{hanabi.pk}"' not in page and 'value="generic"' not in page
    assert "Not offered: Hanabi." in page


def test_a_series_of_an_own_game_with_fewest_points_ranks_the_lowest_first(
        host_client, family, skyjo):
    anna, ben, carla = family[:3]
    response = create_series(host_client, family[:3], f"own-{skyjo.pk}",
                             rule_seat_values="1, 2")
    series = Series.objects.get()
    assert response.status_code == 302
    assert (series.game, series.own_game, series.tiebreaks) == ("generic", skyjo,
                                                                 ["points", "wins"])
    assert series.house_rules == skyjo.house_rules
    # Races are played in name order: Anna, Ben, Carla.
    first = race(host_client, series, scores(family[:3], 30, 12, 25))
    race(host_client, series, scores(family[:3], 20, 15, 5))
    assert first.own_game == skyjo and first.get_game_display() == "Skyjo"
    rows = series.standings()
    assert [(row.player, row.total, row.rank) for row in rows] == [
        (ben.key, 27, 1), (carla.key, 30, 2), (anna.key, 50, 3)]
    page = host_client.get(series.get_absolute_url()).content.decode()
    assert "Skyjo ·" in page and "Ben leads by 3 points" in page
    assert "The fewest points lead." in page
    pdf = host_client.get(reverse("print_series", args=[series.pk]), {"lang": "de"})
    text = " ".join(read_pdf(pdf.content)[0])
    assert "Skyjo" in text and "Eigenes Spiel" not in text


def test_a_series_of_an_own_game_without_points_counts_points_per_place(host_client, family,
                                                                        uno):
    anna, ben, carla = family[:3]
    create_series(host_client, family[:3], f"own-{uno.pk}")
    series = Series.objects.get()
    race(host_client, series, {"order": [carla.key, anna.key, ben.key]})
    race(host_client, series, {"order": [carla.key, ben.key, anna.key]})
    assert [(row.player, row.total) for row in series.standings()] == [
        (carla.key, 20), (anna.key, 12), (ben.key, 12)]
    page = host_client.get(series.get_absolute_url()).content.decode()
    assert "Uno ·" in page and "Carla leads by 8 points" in page
    assert "The fewest points lead." not in page


@pytest.mark.parametrize("game,message", [
    ("hanabi", "Hanabi is co-operative: the table wins or loses together, so nobody can win a "
               "series or a tournament of it."),
    ("generic", "Select a valid choice."),
    ("own:99999999999999999999", "Select a valid choice."),
    ("stranger", "Select a valid choice."),
    ("", "This field is required."),
])
def test_series_of_games_that_cannot_be_ranked_are_refused(host_client, family, hanabi, game,
                                                           message):
    if game == "hanabi":
        game = f"own-{hanabi.pk}"
    elif game == "stranger":
        game = f"own-{OwnGameFactory(household=HouseholdFactory(), name='Wizard').pk}"
    response = create_series(host_client, family[:3], game)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Series.objects.exists()


def test_an_own_game_in_a_series_keeps_to_its_number_of_players(host_client, family, skyjo):
    response = create_series(host_client, family[:1], f"own-{skyjo.pk}")
    assert response.status_code == 422
    assert "Skyjo is for 2 to 8 players." in response.content.decode()


def test_the_form_shows_no_house_rules_for_an_own_game(host_client, family, skyjo):
    response = host_client.post(reverse("series_new"), {"game": f"own-{skyjo.pk}"},
                                HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 200 and 'name="rule_' not in page
    assert 'name="rule_seat_values"' in host_client.post(
        reverse("series_new"), {"game": "maus_im_nacken"}, HTTP_HX_REQUEST="true"
    ).content.decode()


@pytest.mark.parametrize("races", [1, 6])
def test_the_page_of_an_own_game_series_runs_a_constant_number_of_queries(
        host_client, family, skyjo, races, django_assert_max_num_queries):
    create_series(host_client, family[:3], f"own-{skyjo.pk}", races_planned="6")
    series = Series.objects.get()
    for number in range(races):
        race(host_client, series, scores(family[:3], number, 2, 3))
    with django_assert_max_num_queries(12):
        assert host_client.get(series.get_absolute_url()).status_code == 200
    with django_assert_max_num_queries(6):
        assert host_client.get(reverse("series_list")).status_code == 200


# Tournaments ---------------------------------------------------------------------------


def kids(household, count):
    return [PlayerFactory(household=household, name=f"Kid {n:02}") for n in range(count)]


def create_tournament(client, players, game, **extra):
    return client.post(reverse("tournament_new"), {
        "name": "Party", "game": game, "rounds_planned": "2",
        "players": [p.pk for p in players]} | extra)


def play_round(tournament, result_for):
    for play in start_tournament_round(tournament):
        seats = [p.player_key for p in sorted(play.participants.all(), key=lambda p: p.seat)]
        record_result(play, result_for(seats), expected_version=play.version)


def test_a_tournament_of_an_own_game_seats_tables_of_its_size(host_client, household, uno):
    players = kids(household, 8)
    response = create_tournament(host_client, players, f"own-{uno.pk}")
    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert (tournament.game, tournament.own_game) == ("generic", uno)
    assert tournament.house_rules == uno.house_rules
    play_round(tournament, lambda seats: {"order": seats})
    tables = list(tournament.plays.all())
    assert [len(play.participants.all()) for play in tables] == [4, 4]
    assert all(play.own_game == uno for play in tables)
    page = host_client.get(tournament.get_absolute_url()).content.decode()
    assert "Uno ·" in page
    assert "place 4: 3 points." in page and "place 5" not in page
    winners = [item["row"] for item in tournament.standings() if item["rank"] == 1]
    assert [row.total for row in winners] == [10, 10]


def test_a_fewest_points_tournament_ranks_the_lowest_first_and_prints_its_game(
        host_client, household, skyjo):
    players = kids(household, 6)
    create_tournament(host_client, players, f"own-{skyjo.pk}")
    tournament = Tournament.objects.get()
    play_round(tournament, lambda seats: {"scores": {key: int(key) for key in seats}})
    standings = tournament.standings()
    totals = [item["row"].total for item in standings]
    assert totals == sorted(totals) and standings[0]["player"] == players[0].key
    page = host_client.get(tournament.get_absolute_url()).content.decode()
    assert "The points scored at each table add up; the fewest points lead." in page
    pdf = host_client.get(reverse("print_tournament", args=[tournament.pk]), {"lang": "en"})
    text = " ".join(read_pdf(pdf.content)[0])
    assert "Skyjo" in text and "Own game" not in text


@pytest.mark.parametrize("game,count,message", [
    ("hanabi", 8, "Hanabi is co-operative: the table wins or loses together"),
    ("open", 8, "say in the library how many players at most play Wizard."),
    ("uno", 9, "A final table seats 1 to 4 players."),
    ("generic", 8, "Select a valid choice."),
])
def test_tournaments_of_own_games_that_cannot_be_seated_are_refused(
        host_client, household, uno, hanabi, game, count, message):
    keys = {"uno": f"own-{uno.pk}", "hanabi": f"own-{hanabi.pk}", "generic": "generic",
            "open": f"own-{OwnGameFactory(household=household, name='Wizard').pk}"}
    response = create_tournament(host_client, kids(household, count), keys[game],
                                 final_table="6" if game == "uno" else "")
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("count", [8, 32])
def test_the_page_of_an_own_game_tournament_runs_a_constant_number_of_queries(
        host_client, household, skyjo, count, django_assert_max_num_queries):
    tournament = Tournament.objects.create(household=household, name="Party", game="generic",
                                           own_game=skyjo, house_rules=skyjo.house_rules,
                                           rounds_planned=3)
    for player in kids(household, count):
        TournamentEntry.objects.create(tournament=tournament, player=player)
    for _round in range(2):
        play_round(tournament, lambda seats: {"scores": {key: 5 for key in seats}})
    with django_assert_max_num_queries(12):
        assert host_client.get(tournament.get_absolute_url()).status_code == 200
