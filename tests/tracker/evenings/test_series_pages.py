import pytest
from django.urls import reverse

from tests.factories import SeriesFactory
from tests.tracker.paper.conftest import read_pdf
from tracker.evenings.models import Series, SeriesChange
from tracker.room.models import ShareLink
from tracker.table.models import Play
from tracker.table.recording import record_result

pytestmark = pytest.mark.django_db


def create(client, family, **extra):
    data = {"name": "Winter Cup", "game": "maus_im_nacken", "races_planned": "3",
            "players": [p.pk for p in family[:3]], "tiebreak_1": "points",
            "tiebreak_2": "elephants_home", "tiebreak_3": "wins", "create": "1"} | extra
    return client.post(reverse("series_new"), data)


def test_create_a_series_with_its_tiebreak_order(host_client, family):
    page = host_client.get(reverse("series_new")).content.decode()
    assert "Seat values on the board" in page and "Elephants home" in page
    response = create(host_client, family, rule_seat_values="3, 4, 5, 6, 7, 8, 10")
    series = Series.objects.get()
    assert response.status_code == 302 and response["Location"] == series.get_absolute_url()
    assert series.tiebreaks == ["points", "elephants_home", "wins"]
    assert series.house_rules == {"seat_values": [3, 4, 5, 6, 7, 8, 10]}
    assert set(series.players.all()) == set(family[:3])


@pytest.mark.parametrize("extra,message", [
    ({"tiebreak_2": "points"}, "Choose each tie-break once."),
    ({"players": []}, "This field is required."),
    ({"races_planned": "0"}, "Ensure this value is greater than or equal to 1."),
    ({"rule_seat_values": "x"}, "Seat values on the board: give distinct whole numbers"),
])
def test_impossible_series_are_explained(host_client, family, extra, message):
    response = create(host_client, family, **extra)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Series.objects.exists()


def test_too_many_players_for_the_game_are_refused(host_client, household, family):
    from tests.factories import PlayerFactory

    everyone = family + [PlayerFactory(household=household, name="Emil")]
    response = create(host_client, everyone, players=[p.pk for p in everyone])
    assert response.status_code == 422
    assert "Die Maus im Nacken is for 2 to 4 players. This result has 5." in \
        response.content.decode()


def play_race(client, series, family, winner):
    response = client.post(reverse("series_race", args=[series.pk]))
    race = Play.objects.get(series=series, status=Play.Status.IN_PROGRESS)
    assert response["Location"] == race.get_absolute_url()
    elephants = {p.key: ["caught"] * 4 for p in family[:3]}
    elephants[winner.key] = ["home:1", "seat:8", "caught", "caught"]
    record_result(race, {"elephants": elephants}, expected_version=race.version)
    return race


def test_standings_after_every_race_lead_and_races_left(host_client, family):
    create(host_client, family)
    series = Series.objects.get()
    play_race(host_client, series, family, family[1])
    page = host_client.get(series.get_absolute_url()).content.decode()
    assert "Ben leads by 21 points" in page and "2 races left." in page
    assert "Record race 2" in page
    play_race(host_client, series, family, family[0])
    play_race(host_client, series, family, family[1])
    page = host_client.get(series.get_absolute_url()).content.decode()
    assert "Ben wins the series!" in page
    assert host_client.post(reverse("series_race", args=[series.pk])).status_code == 302
    assert Play.objects.filter(series=series).count() == 3


def test_a_race_can_be_corrected_and_standings_follow(host_client, family):
    create(host_client, family)
    series = Series.objects.get()
    race = play_race(host_client, series, family, family[1])
    elephants = {p.key: ["caught"] * 4 for p in family[:3]}
    elephants[family[2].key] = ["home:1", "caught", "caught", "caught"]
    record_result(race, {"elephants": elephants}, expected_version=race.version)
    assert "Carla leads by 13 points" in host_client.get(series.get_absolute_url()).content.decode()


def test_end_early_and_extend_are_recorded(host_client, family, host):
    create(host_client, family)
    series = Series.objects.get()
    play_race(host_client, series, family, family[0])
    host_client.post(reverse("series_length", args=[series.pk]), {"action": "extended"})
    series.refresh_from_db()
    assert series.races_planned == 4
    host_client.post(reverse("series_length", args=[series.pk]), {"action": "ended_early"})
    series.refresh_from_db()
    assert (series.status, series.races_planned) == (Series.Status.ENDED_EARLY, 1)
    changes = list(series.changes.order_by("changed_at", "id").values_list(
        "action", "races_before", "races_after"))
    assert changes == [(SeriesChange.Action.EXTENDED, 3, 4),
                       (SeriesChange.Action.ENDED_EARLY, 4, 1)]
    page = host_client.get(series.get_absolute_url()).content.decode()
    assert "Anna wins the series!" in page and "Record race" not in page
    host_client.post(reverse("series_length", args=[series.pk]), {"action": "extended"})
    series.refresh_from_db()
    assert (series.status, series.races_planned) == (Series.Status.RUNNING, 2)


def test_series_page_runs_a_constant_number_of_queries(host_client, household, family,
                                                       django_assert_max_num_queries):
    create(host_client, family)
    series = Series.objects.get()
    for winner in (family[0], family[1], family[2]):
        play_race(host_client, series, family, winner)
    with django_assert_max_num_queries(12):
        assert host_client.get(series.get_absolute_url()).status_code == 200


def test_other_households_series_do_not_exist(client, stranger, household):
    series = SeriesFactory(household=household)
    client.force_login(stranger)
    assert client.get(reverse("series_detail", args=[series.pk])).status_code == 404
    assert client.post(reverse("series_race", args=[series.pk])).status_code == 404
    assert client.post(reverse("series_length", args=[series.pk]),
                       {"action": "ended_early"}).status_code == 404


def test_the_standings_say_which_tiebreak_ordered_equal_totals(host_client, client, household,
                                                                family):
    create(host_client, family)  # tie-breaks: points, then elephants home, then wins
    series = Series.objects.get()
    anna, ben, carla = family[:3]
    for elephants in ({anna: ["home:1", "seat:8"]}, {ben: ["seat:8", "seat:8", "seat:5"]}):
        host_client.post(reverse("series_race", args=[series.pk]))
        race = Play.objects.get(series=series, status=Play.Status.IN_PROGRESS)
        result = {p.key: (elephants.get(p, []) + ["caught"] * 4)[:4] for p in (anna, ben, carla)}
        record_result(race, {"elephants": result}, expected_version=race.version)
    line = "Level on “Total points”: Anna ahead of Ben on “Elephants home”."
    assert line in host_client.get(series.get_absolute_url()).content.decode()
    link = ShareLink.objects.create(household=household, series=series)
    assert line in client.get(reverse("board", args=[link.token])).content.decode()
    pages, _ = read_pdf(host_client.get(reverse("print_series", args=[series.pk]),
                                        {"lang": "en"}).content)
    assert line in pages[0]
