import pytest
from django.urls import reverse

from tests.factories import PlayerFactory
from tracker.models import ShareLink, Tournament, TournamentEntry
from tracker.recording import record_result, start_tournament_round

pytestmark = pytest.mark.django_db


def kids(household, count):
    return [PlayerFactory(household=household, name=f"Kid {n:02}") for n in range(count)]


def make(household, count, rounds=3, **extra):
    tournament = Tournament.objects.create(household=household, name="Party",
                                           rounds_planned=rounds, **extra)
    for player in kids(household, count):
        TournamentEntry.objects.create(tournament=tournament, player=player)
    return tournament


def finish_round(tournament):
    for play in start_tournament_round(tournament):
        seats = sorted(play.participants.all(), key=lambda p: p.seat)
        elephants = {p.player_key: ["caught"] * 4 for p in seats}
        elephants[seats[-1].player_key] = ["home:1", "seat:6", "caught", "caught"]
        record_result(play, {"elephants": elephants}, expected_version=play.version)


def test_create_a_tournament(host_client, household):
    players = kids(household, 10)
    response = host_client.post(reverse("tournament_new"), {
        "name": "Birthday", "game": "maus_im_nacken", "rounds_planned": "3",
        "players": [p.pk for p in players]})
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == tournament.get_absolute_url()
    assert tournament.entries.count() == 10


@pytest.mark.parametrize("count,extra,message", [
    (1, {}, "1 players cannot sit at tables of 2 to 4."),
    (8, {"final_table": "6"}, "A final table seats 2 to 4 players."),
    (8, {"rounds_planned": "0"}, "Ensure this value is greater than or equal to 1."),
])
def test_impossible_tournaments_are_explained(host_client, household, count, extra, message):
    players = kids(household, count)
    response = host_client.post(reverse("tournament_new"), {
        "name": "Birthday", "game": "maus_im_nacken", "rounds_planned": "3",
        "players": [p.pk for p in players]} | extra)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_page_shows_where_everyone_sits_and_seats_the_next_round(host_client, household):
    tournament = make(household, 10)
    url = tournament.get_absolute_url()
    assert "Seat round 1" in host_client.get(url).content.decode()
    host_client.post(reverse("tournament_round", args=[tournament.pk]))
    page = host_client.get(url).content.decode()
    assert "Round 1: where everyone sits" in page and page.count("Table ") >= 3
    assert "Enter the result" in page and "Seat round 2" not in page
    refused = host_client.post(reverse("tournament_round", args=[tournament.pk]), follow=True)
    assert "Every table of this round needs its result first." in refused.content.decode()


def test_a_player_drops_out_between_rounds(host_client, household):
    tournament = make(household, 9)
    finish_round(tournament)
    leaving = tournament.players.order_by("name").first()
    host_client.post(reverse("tournament_drop_out", args=[tournament.pk]),
                     {"player": leaving.pk})
    host_client.post(reverse("tournament_round", args=[tournament.pk]))
    seated = {p.player_id for play in tournament.plays.filter(round_number=2)
              for p in play.participants.all()}
    assert leaving.pk not in seated and len(seated) == 8
    assert "dropped out" in host_client.get(tournament.get_absolute_url()).content.decode()


def test_the_winner_after_the_last_round(host_client, household):
    tournament = make(household, 8, rounds=2)
    finish_round(tournament)
    finish_round(tournament)
    page = host_client.get(tournament.get_absolute_url()).content.decode()
    assert "wins the tournament!" in page and "Seat round" not in page


@pytest.mark.parametrize("count", [8, 64])
def test_standings_and_projection_run_a_constant_number_of_queries(
        host_client, client, household, count, django_assert_max_num_queries):
    tournament = make(household, count)
    finish_round(tournament)
    finish_round(tournament)
    with django_assert_max_num_queries(12):
        assert host_client.get(tournament.get_absolute_url()).status_code == 200
    link = ShareLink.objects.create(household=household, tournament=tournament)
    with django_assert_max_num_queries(8):
        assert client.get(reverse("board", args=[link.token])).status_code == 200


def test_seating_and_standings_print(host_client, household):
    from tests.printing.conftest import read_pdf

    tournament = make(household, 10)
    finish_round(tournament)
    response = host_client.get(reverse("print_tournament", args=[tournament.pk]),
                               {"lang": "en"})
    pages, _ = read_pdf(response.content)
    text = " ".join(pages)
    assert "Party" in text and "Round 1" in text and "Table 3" in text and "Kid 00" in text


def test_other_households_tournaments_do_not_exist(client, stranger, household):
    tournament = make(household, 4)
    client.force_login(stranger)
    for url in (reverse("tournament_detail", args=[tournament.pk]),
                reverse("print_tournament", args=[tournament.pk])):
        assert client.get(url).status_code == 404
    assert client.post(reverse("tournament_round", args=[tournament.pk])).status_code == 404
    assert not tournament.plays.exists()
