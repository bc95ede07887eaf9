import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, SeriesFactory
from tracker.models import ShareLink
from tracker.recording import record_result, start_play, write_cell

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_host_shares_and_revokes_a_scoreboard(host_client, client, kniffel, family):
    response = host_client.post(reverse("share_create", args=["play", kniffel.pk]))
    assert response.status_code == 302
    link = ShareLink.objects.get()
    page = host_client.get(kniffel.get_absolute_url()).content.decode()
    assert reverse("board", args=[link.token]) in page and "Revoke the link" in page
    host_client.post(reverse("share_create", args=["play", kniffel.pk]))
    assert ShareLink.objects.count() == 1

    board = client.get(reverse("board", args=[link.token]))
    assert board.status_code == 200 and "Anna" in board.content.decode()
    host_client.post(reverse("share_revoke", args=[link.token]))
    assert client.get(reverse("board", args=[link.token])).status_code == 404


def test_a_board_answers_204_while_nothing_changes(client, kniffel, family):
    link = ShareLink.objects.create(household=kniffel.household, play=kniffel)
    page = client.get(reverse("board", args=[link.token])).content.decode()
    state = page.split("?since=")[1].split('"')[0]
    url = reverse("board", args=[link.token])
    unchanged = client.get(url, {"since": state}, **HTMX)
    assert unchanged.status_code == 204 and unchanged.content == b""
    write_cell(kniffel, family[0], "chance", 23, expected_version=None)
    changed = client.get(url, {"since": state}, **HTMX)
    assert changed.status_code == 200
    assert ">23<" in changed.content.decode() and "<html" not in changed.content.decode()


def test_night_and_series_boards(client, household, night, family):
    race = start_play(household=household, game="maus_im_nacken", players=family[:2],
                      game_night=night)
    record_result(race, {"elephants": {family[0].key: ["home:1", "caught", "caught", "caught"],
                                       family[1].key: ["caught"] * 4}}, expected_version=1)
    night_link = ShareLink.objects.create(household=household, game_night=night)
    page = client.get(reverse("board", args=[night_link.token])).content.decode()
    assert "Die Maus im Nacken" in page and "Anna" in page

    series = SeriesFactory(household=household, name="Winter Cup")
    series.players.set(family[:2])
    series_race = start_play(household=household, game="maus_im_nacken", players=family[:2],
                             series=series, race_number=1)
    record_result(series_race, {"elephants": {
        family[0].key: ["caught"] * 4, family[1].key: ["seat:8", "caught", "caught", "caught"]}},
        expected_version=1)
    series_link = ShareLink.objects.create(household=household, series=series)
    page = client.get(reverse("board", args=[series_link.token])).content.decode()
    assert "Winter Cup" in page and page.index("Ben") < page.index("Anna")


def test_unknown_or_foreign_share_actions_are_refused(client, host_client, stranger, kniffel):
    assert client.get(reverse("board", args=["no-such-token"])).status_code == 404
    assert host_client.post(reverse("share_create", args=["chess", 1])).status_code == 404
    client.force_login(stranger)
    assert client.post(reverse("share_create", args=["play", kniffel.pk])).status_code == 404
    link = ShareLink.objects.create(household=kniffel.household, play=kniffel)
    assert client.post(reverse("share_revoke", args=[link.token])).status_code == 404
    link.refresh_from_db()
    assert link.revoked_at is None


@pytest.mark.parametrize("players", [2, 6])
def test_boards_run_a_constant_number_of_queries(client, household, night, players,
                                                 django_assert_max_num_queries):
    family = [PlayerFactory(household=household, name=f"P{n}") for n in range(players)]
    play = start_play(household=household, game="kniffel", players=family, game_night=night)
    for player in family:
        write_cell(play, player, "chance", 20, expected_version=None)
    for _ in range(players):
        race = start_play(household=household, game="maus_im_nacken", players=family[:4],
                          game_night=night)
        record_result(race, {"elephants": {p.key: ["caught"] * 4 for p in family[:4]}},
                      expected_version=1)
    links = [ShareLink.objects.create(household=household, play=play),
             ShareLink.objects.create(household=household, game_night=night)]
    for link in links:
        with django_assert_max_num_queries(8):
            assert client.get(reverse("board", args=[link.token])).status_code == 200


def test_a_running_series_can_be_shown_on_the_tv(host_client, client, household, family):
    series = SeriesFactory(household=household, name="Winter Cup")
    series.players.set(family[:2])
    assert "Share a scoreboard" in host_client.get(reverse("home")).content.decode()
    host_client.post(reverse("share_create", args=["series", series.pk]))
    link = ShareLink.objects.get(series=series)
    assert reverse("board", args=[link.token]) in host_client.get(reverse("home")).content.decode()
    assert "Winter Cup" in client.get(reverse("board", args=[link.token])).content.decode()
