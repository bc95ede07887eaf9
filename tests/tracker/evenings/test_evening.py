"""The evening as one whole: what is played tonight belongs to tonight, and everything ends."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import GameNightFactory, PlayerFactory, SeriesFactory
from tracker.evenings.models import GameNight, Series, Tournament, TournamentEntry
from tracker.evenings.recording import (
    change_series_length,
    end_tournament,
    start_rematch,
    start_series_race,
    start_tournament_round,
)
from tracker.table.models import Play, PlayChange
from tracker.table.recording import (
    EditConflict,
    PlayAbandoned,
    abandon_play,
    record_result,
    start_play,
)

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def maus_result(race, winner):
    """Everyone caught, except ``winner``'s first elephant home and second on an 8."""
    elephants = {p.player_key: ["caught"] * 4 for p in race.participants.all()}
    elephants[winner.key] = ["home:1", "seat:8", "caught", "caught"]
    return {"elephants": elephants}


def finish(race, winner):
    record_result(race, maus_result(race, winner), expected_version=race.version)
    race.refresh_from_db()
    return race


@pytest.fixture
def series(household, family):
    series = SeriesFactory(household=household, name="Winter Cup", races_planned=2)
    series.players.set(family[:3])
    return series


def test_a_series_race_joins_tonights_night_created_with_the_series_players(series, family):
    race = start_series_race(series)
    night = GameNight.objects.get()
    assert race.game_night == night and night.date == timezone.localdate()
    assert set(night.players.all()) == set(family[:3])


def test_a_series_race_joins_the_night_already_running(series, night, family):
    race = start_series_race(series)
    assert race.game_night == night
    assert GameNight.objects.count() == 1


def test_series_races_show_on_the_night_page_standings_and_board(host_client, series, family):
    race = finish(start_series_race(series), family[1])
    night = race.game_night
    page = host_client.get(night.get_absolute_url()).content.decode()
    assert "Die Maus im Nacken · Winter Cup, race 1" in page
    standings = page[page.index("standings</h2>"):page.index("Games</h2>")]
    assert "Ben" in standings and "<td class=\"num strong\">1</td>" in standings
    host_client.post(reverse("share_create", args=["night", night.pk]))
    board = host_client.get(reverse("board", args=[night.share_links.get().token]))
    assert "Winter Cup, race 1" in board.content.decode()


def test_the_series_is_finished_with_its_last_agreed_race(host_client, series, family):
    finish(start_series_race(series), family[0])
    series.refresh_from_db()
    assert series.status == Series.Status.RUNNING
    finish(start_series_race(series), family[0])
    series.refresh_from_db()
    assert series.status == Series.Status.FINISHED
    page = host_client.get(series.get_absolute_url()).content.decode()
    assert "Anna wins the series!" in page and "Finished" in page
    assert "races left" not in page and "End the series now" not in page
    with pytest.raises(EditConflict):
        start_series_race(series)


def test_one_more_race_reopens_a_finished_series(series, family):
    for _ in range(2):
        finish(start_series_race(series), family[0])
    change_series_length(series, "extended")
    assert (series.status, series.races_planned) == (Series.Status.RUNNING, 3)
    race = finish(start_series_race(series), family[1])
    series.refresh_from_db()
    assert series.status == Series.Status.FINISHED and race.race_number == 3


def test_correcting_a_race_of_a_finished_series_recomputes_and_keeps_it_finished(series,
                                                                                   family):
    first = finish(start_series_race(series), family[0])
    finish(start_series_race(series), family[1])
    record_result(first, maus_result(first, family[2]), expected_version=first.version)
    series.refresh_from_db()
    assert series.status == Series.Status.FINISHED
    totals = {row.player: row.total for row in series.standings()}
    assert totals[family[2].key] == 21 and totals[family[0].key] == 0


def test_ending_early_abandons_the_race_under_way(series, family):
    finish(start_series_race(series), family[0])
    open_race = start_series_race(series)
    change_series_length(series, "ended_early")
    open_race.refresh_from_db()
    assert series.status == Series.Status.ENDED_EARLY and series.races_planned == 1
    assert open_race.status == Play.Status.ABANDONED
    assert open_race.changes.filter(action=PlayChange.Action.ABANDONED).exists()
    with pytest.raises(PlayAbandoned):
        record_result(open_race, maus_result(open_race, family[1]),
                      expected_version=open_race.version)
    open_race.refresh_from_db()
    assert open_race.status == Play.Status.ABANDONED
    series.refresh_from_db()
    assert series.status == Series.Status.ENDED_EARLY


def test_series_races_rotate_the_start_player(series, family):
    seats = []
    for _ in range(2):
        race = start_series_race(series)
        seats.append(race.starter().player.name)
        finish(race, family[0])
    assert seats == ["Anna", "Ben"]


def test_the_series_form_proposes_tonights_players(host_client, night, family):
    night.players.set(family[1:3])
    page = host_client.get(reverse("series_new")).content.decode()
    checked = re.findall(r'name="players" value="(\d+)"[^>]*checked', page)
    assert sorted(map(int, checked)) == sorted([family[1].pk, family[2].pk])


def make_tournament(household, rounds=1):
    tournament = Tournament.objects.create(household=household, name="Party",
                                           rounds_planned=rounds)
    for player in PlayerFactory.create_batch(4, household=household):
        TournamentEntry.objects.create(tournament=tournament, player=player)
    return tournament


def test_a_tournament_is_finished_after_its_last_round_and_lives_in_tonights_night(household):
    tournament = make_tournament(household)
    [table] = start_tournament_round(tournament)
    assert table.game_night.date == timezone.localdate()
    winner = table.participants.first().player
    finish(table, winner)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_a_tournament_ended_early_abandons_its_open_tables(host_client, household):
    tournament = make_tournament(household, rounds=3)
    [table] = start_tournament_round(tournament)
    host_client.post(reverse("tournament_end", args=[tournament.pk]))
    tournament.refresh_from_db()
    table.refresh_from_db()
    assert tournament.status == Tournament.Status.ENDED_EARLY
    assert table.status == Play.Status.ABANDONED
    with pytest.raises(EditConflict):
        end_tournament(tournament)


def test_finished_and_ended_series_and_tournaments_stay_reachable(host_client, household,
                                                                  series, family):
    for _ in range(2):
        finish(start_series_race(series), family[0])
    ended = SeriesFactory(household=household, name="Short Cup", status=Series.Status.ENDED_EARLY)
    tournament = make_tournament(household)
    home = host_client.get(reverse("home")).content.decode()
    assert series.get_absolute_url() in home and ended.get_absolute_url() in home
    assert tournament.get_absolute_url() in home
    listing = host_client.get(reverse("series_list")).content.decode()
    assert "Winter Cup" in listing and "Short Cup" in listing and "Party" in listing
    assert "Ended early" in listing and "Finished" in listing


def test_the_list_runs_a_constant_number_of_queries(host_client, household, family,
                                                    django_assert_max_num_queries):
    for n in range(12):
        SeriesFactory(household=household, name=f"Cup {n}").players.set(family[:2])
        make_tournament(household)
    with django_assert_max_num_queries(6):
        assert host_client.get(reverse("series_list")).status_code == 200


@pytest.mark.parametrize("game", ["kniffel", "maus_im_nacken"])
def test_a_game_never_saved_can_be_abandoned_from_its_page(host_client, household, night,
                                                           family, game):
    play = start_play(household=household, game=game, players=family[:2], game_night=night)
    page = host_client.get(play.get_absolute_url()).content.decode()
    assert reverse("play_abandon", args=[play.pk]) in page and "Abandon this game?" in page
    response = host_client.post(reverse("play_abandon", args=[play.pk]),
                                {"version": play.version, "next": reverse("home")})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    play.refresh_from_db()
    assert play.status == Play.Status.ABANDONED
    assert Play.objects.filter(pk=play.pk).exists()


def test_abandoning_twice_or_with_an_old_version_changes_nothing(household, night, family):
    play = start_play(household=household, game="kniffel", players=family[:2], game_night=night)
    abandon_play(play, expected_version=play.version)
    with pytest.raises(EditConflict):
        abandon_play(play, expected_version=play.version)
    assert play.changes.filter(action=PlayChange.Action.ABANDONED).count() == 1


def test_an_abandoned_play_leaves_the_night_standings(host_client, household, night, family):
    play = start_play(household=household, game="maus_im_nacken", players=family[:2],
                      game_night=night)
    finish(play, family[0])
    abandon_play(play, expected_version=play.version)
    page = host_client.get(night.get_absolute_url()).content.decode()
    assert "No game finished yet tonight." in page and "Abandoned" in page


def test_home_shows_tonights_games_and_older_unfinished_ones_with_their_date(
        host_client, household, night, family):
    tonight_play = start_play(household=household, game="kniffel", players=family[:2],
                              game_night=night)
    old_night = GameNightFactory(household=household, date=datetime.date(2026, 10, 3))
    old_play = start_play(household=household, game="entenspiel", players=family[:2],
                          game_night=old_night)
    page = host_client.get(reverse("home")).content.decode()
    tonight_part = page[page.index("Games in progress tonight"):
                        page.index("Unfinished games of earlier evenings")]
    older_part = page[page.index("Unfinished games of earlier evenings"):]
    assert tonight_play.get_absolute_url() in tonight_part
    assert old_play.get_absolute_url() in older_part and "Oct. 3, 2026" in older_part
    assert older_part.count(reverse("play_abandon", args=[old_play.pk])) == 1


def test_home_offers_to_start_tonight_when_only_past_nights_exist(host_client, household):
    GameNightFactory(household=household, date=datetime.date(2026, 1, 1))
    page = host_client.get(reverse("home")).content.decode()
    assert "Start a game night" in page


def test_starting_a_second_night_today_opens_the_one_running(host_client, night):
    response = host_client.get(reverse("night_new"))
    assert response.status_code == 302 and response["Location"] == night.get_absolute_url()


def test_a_late_arrival_joins_and_someone_who_left_keeps_their_results(host_client, household,
                                                                       night, family):
    night.players.set(family[:3])
    play = start_play(household=household, game="maus_im_nacken", players=family[1:3],
                      game_night=night)
    finish(play, family[2])
    late = PlayerFactory(household=household, name="Emil")
    response = host_client.post(reverse("night_players", args=[night.pk]),
                                {"players": [family[0].pk, family[1].pk, late.pk]})
    assert response.status_code == 302
    assert set(night.players.all()) == {family[0], family[1], late}
    page = host_client.get(night.get_absolute_url()).content.decode()
    assert "Carla" in page[page.index("standings</h2>"):]
    new_game = host_client.get(reverse("play_new", args=[night.pk])).content.decode()
    assert f'value="seat:{late.pk}"' in new_game and f'value="seat:{family[2].pk}"' not in new_game


def test_the_players_page_refuses_an_empty_table(host_client, night, family):
    response = host_client.post(reverse("night_players", args=[night.pk]), {"players": []})
    assert response.status_code == 422
    assert "Tap the players who are here." in response.content.decode()
    assert night.players.count() == 4


def test_a_stranger_cannot_change_who_is_here(client, stranger, night):
    client.force_login(stranger)
    assert client.get(reverse("night_players", args=[night.pk])).status_code == 404
    assert client.post(reverse("night_players", args=[night.pk]), {}).status_code == 404


def test_after_a_series_race_the_next_race_is_one_tap(host_client, series, family):
    race = start_series_race(series)
    response = host_client.post(reverse("play_entry", args=[race.pk]), {
        "draft": '{"elephants": {}}', "version": race.version, "save": "1"}, **HTMX)
    assert response.status_code == 422
    finish(race, family[0])
    page = host_client.get(race.get_absolute_url()).content.decode()
    assert "Race 2" in page and reverse("series_race", args=[series.pk]) in page
    assert "Series standings" in page and "Back to the evening" in page
    assert "Rematch" not in page


def test_a_rematch_moves_the_start_player_on(host_client, household, night, family):
    play = start_play(household=household, game="entenspiel", players=family[:3],
                      game_night=night, start_seat=2)
    record_result(play, {"winner": family[0].key,
                         "squares": {family[1].key: 30, family[2].key: 20}},
                  expected_version=play.version)
    page = host_client.get(play.get_absolute_url()).content.decode()
    assert "Rematch" in page and "Carla starts." in page
    response = host_client.post(reverse("play_rematch", args=[play.pk]))
    rematch = Play.objects.exclude(pk=play.pk).get()
    assert response["Location"] == rematch.get_absolute_url()
    assert [p.player for p in rematch.in_turn_order()] == family[:3]
    assert rematch.start_seat == 0 and rematch.game_night == night
    assert start_rematch(rematch).starter().player == family[1]


def test_a_series_race_has_no_rematch(host_client, series, family):
    race = finish(start_series_race(series), family[0])
    assert host_client.post(reverse("play_rematch", args=[race.pk])).status_code == 404


def test_the_new_game_page_records_who_starts_and_says_so(host_client, night, family):
    data = {"game": "maus_im_nacken", "seats": f"{family[0].pk},{family[1].pk},{family[2].pk}",
            "starter": str(family[1].pk)}
    page = host_client.post(reverse("play_new", args=[night.pk]), data, **HTMX).content.decode()
    assert "Who starts?" in page and "Ben starts." in page
    host_client.post(reverse("play_new", args=[night.pk]), data | {"start": "1"})
    play = Play.objects.get()
    assert play.start_seat == 1 and play.starter().player == family[1]


def test_the_new_game_page_offers_tonights_games_first(host_client, household, night, family):
    start_play(household=household, game="mau_mau", players=family[:2], game_night=night)
    page = host_client.get(reverse("play_new", args=[night.pk])).content.decode()
    assert page.index('value="mau_mau"') < page.index('value="maus_im_nacken"')
    assert "played tonight" in page


def test_the_nights_games_list_players_in_result_order(host_client, household, night, family):
    play = start_play(household=household, game="maus_im_nacken", players=family[:3],
                      game_night=night)
    finish(play, family[2])
    page = host_client.get(night.get_absolute_url()).content.decode()
    assert "🏆 Carla (21), Anna (0), Ben (0)" in page
