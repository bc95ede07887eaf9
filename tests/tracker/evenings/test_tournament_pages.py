import re

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory
from tests.tracker.paper.conftest import read_pdf
from tracker.evenings.models import Tournament, TournamentEntry
from tracker.evenings.recording import start_tournament_round
from tracker.room.models import ShareLink
from tracker.table.recording import record_result

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


def elephants_for(points, home_rank=None):
    """Four elephants worth ``points``; with ``home_rank``, one of them came home that rank."""
    elephants = []
    if home_rank:
        elephants.append(f"home:{home_rank}")
        points -= (13, 12, 11)[home_rank - 1]
    while points:
        seat = points if points <= 8 else min(8, points - 3)
        elephants.append(f"seat:{seat}")
        points -= seat
    return elephants + ["caught"] * (4 - len(elephants))


def score_tables(plays, points, home=()):
    """Every player scores ``points[name]``; the players in ``home`` bring an elephant home."""
    for play in plays:
        seated = sorted(play.participants.all(), key=lambda p: p.seat)
        ranks = iter(range(1, 5))
        elephants = {p.player_key: elephants_for(points[p.player.name],
                                                 next(ranks) if p.player.name in home else None)
                     for p in seated}
        record_result(play, {"elephants": elephants}, expected_version=play.version)


def places_shown(html):
    """(place, name) of each standings row, top to bottom."""
    return re.findall(r'<td class="num">(\d+)\.</td><td>.*?(Kid \d\d)', html)


def test_players_level_outside_the_final_table_share_their_place_everywhere(
        host_client, client, household):
    tournament = make(household, 8, rounds=1, final_table=4)
    score_tables(start_tournament_round(tournament), {
        "Kid 00": 20, "Kid 01": 18, "Kid 02": 16, "Kid 03": 14,
        "Kid 04": 10, "Kid 05": 10, "Kid 06": 5, "Kid 07": 3})
    score_tables(start_tournament_round(tournament),
                 {"Kid 03": 20, "Kid 02": 15, "Kid 01": 10, "Kid 00": 5})
    expected = [("1", "Kid 03"), ("2", "Kid 02"), ("3", "Kid 01"), ("4", "Kid 00"),
                ("5", "Kid 04"), ("5", "Kid 05"), ("7", "Kid 06"), ("8", "Kid 07")]
    assert places_shown(host_client.get(tournament.get_absolute_url()).content.decode()) \
        == expected
    link = ShareLink.objects.create(household=household, tournament=tournament)
    assert places_shown(client.get(reverse("board", args=[link.token])).content.decode()) \
        == expected
    pages, _ = read_pdf(host_client.get(reverse("print_tournament", args=[tournament.pk]),
                                        {"lang": "en"}).content)
    assert re.findall(r"(\d+)\. (Kid \d\d)", pages[0])[:8] == expected


def test_the_tiebreak_that_decided_the_final_table_is_shown(host_client, household):
    tournament = make(household, 8, rounds=1, final_table=2)
    score_tables(start_tournament_round(tournament), {
        "Kid 00": 17, "Kid 01": 17, "Kid 02": 17, "Kid 03": 17,
        "Kid 04": 5, "Kid 05": 5, "Kid 06": 5, "Kid 07": 5}, home={"Kid 00", "Kid 02"})
    decided = ("Level on “Total points”: Kid 00, Kid 02 ahead of Kid 01, Kid 03 on "
               "“Elephants home”.")
    page = host_client.get(tournament.get_absolute_url()).content.decode()
    assert "Who sits at the final table" in page and decided in page
    host_client.post(reverse("tournament_round", args=[tournament.pk]))
    final = tournament.plays.get(round_number=2)
    assert {p.player.name for p in final.participants.all()} == {"Kid 00", "Kid 02"}
    page = host_client.get(tournament.get_absolute_url()).content.decode()
    assert "Final table" in page and decided in page
    pages, _ = read_pdf(host_client.get(reverse("print_tournament", args=[tournament.pk]),
                                        {"lang": "en"}).content)
    assert decided in pages[0]


def test_players_level_on_every_tiebreak_at_the_cut_are_chosen_by_the_organiser(
        host_client, household):
    tournament = make(household, 8, rounds=1, final_table=3)
    score_tables(start_tournament_round(tournament), {
        "Kid 00": 17, "Kid 01": 17, "Kid 02": 17, "Kid 03": 17,
        "Kid 04": 5, "Kid 05": 5, "Kid 06": 5, "Kid 07": 5})
    page = host_client.get(tournament.get_absolute_url()).content.decode()
    assert page.count('<li value="1">') == 4  # the table cards number places, shared too
    assert ("Kid 00, Kid 01, Kid 02, Kid 03 are level on every tie-break: Total points, "
            "Wins, Elephants home.") in page
    assert "Choose 3 of them for the final table." in page
    assert page.count('name="finalist"') == 4
    refused = host_client.post(reverse("tournament_round", args=[tournament.pk]), follow=True)
    assert ("Choose 3 players for the final table from those level on every tie-break."
            in refused.content.decode())
    assert not tournament.plays.filter(round_number=2).exists()
    chosen = tournament.players.filter(name__in=["Kid 00", "Kid 02", "Kid 03"])
    host_client.post(reverse("tournament_round", args=[tournament.pk]),
                     {"finalist": [str(player.pk) for player in chosen]})
    final = tournament.plays.get(round_number=2)
    assert {p.player_id for p in final.participants.all()} == {p.pk for p in chosen}
    page = host_client.get(tournament.get_absolute_url()).content.decode()
    assert "The organiser chose Kid 00, Kid 02, Kid 03." in page


def test_the_final_table_is_named_so_in_the_evenings_games(host_client, household):
    tournament = make(household, 4, rounds=1, final_table=2)
    score_tables(start_tournament_round(tournament),
                 {"Kid 00": 20, "Kid 01": 15, "Kid 02": 10, "Kid 03": 5})
    [final] = start_tournament_round(tournament)
    page = host_client.get(final.game_night.get_absolute_url()).content.decode()
    assert "Die Maus im Nacken · Party, final table" in page
    assert "Party, round 2" not in page and "Party, round 1, table 1" in page


def test_games_without_points_show_places_and_what_each_place_earns(
        host_client, client, household):
    tournament = make(household, 8, rounds=1, game="mensch_aergere_dich_nicht")
    for play in start_tournament_round(tournament):
        seated = sorted(play.participants.all(), key=lambda p: p.seat)
        record_result(play, {"order": [p.player_key for p in seated]},
                      expected_version=play.version)
    earns = ("Points for each place at a table: place 1: 10 points · place 2: 7 points · "
             "place 3: 5 points · place 4: 3 points.")
    page = host_client.get(tournament.get_absolute_url()).content.decode()
    assert earns in page
    assert "<strong>place 1</strong>" in page and "<strong>0</strong>" not in page
    link = ShareLink.objects.create(household=household, tournament=tournament)
    board = client.get(reverse("board", args=[link.token])).content.decode()
    assert "<strong>place 4</strong>" in board and "<strong>0</strong>" not in board
    pages, _ = read_pdf(host_client.get(reverse("print_tournament", args=[tournament.pk]),
                                        {"lang": "en"}).content)
    assert earns in pages[0]


def test_a_game_with_points_says_they_add_up(host_client, household):
    tournament = make(household, 8)
    page = host_client.get(tournament.get_absolute_url()).content.decode()
    assert ("The points scored at each table add up. Ties are broken by: Wins, "
            "Elephants home.") in page


def test_nobody_is_ticked_for_a_new_tournament(host_client, household, night, family):
    night.players.set(family)

    page = host_client.get(reverse("tournament_new")).content.decode()

    assert family[0].name in page
    assert " checked" not in page[page.index('name="players"') - 200:]


def test_a_player_withdrawn_before_round_1_is_not_in_the_standings(host_client, household):
    tournament = make(household, 9)
    leaving = tournament.players.order_by("name").first()
    host_client.post(reverse("tournament_drop_out", args=[tournament.pk]),
                     {"player": leaving.pk})
    finish_round(tournament)

    page = host_client.get(tournament.get_absolute_url()).content.decode()

    assert len(tournament.standings()) == 8
    assert leaving.name not in page[page.index("standings"):]
