import io

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tests.factories import OwnGameFactory, PlayerFactory, SeriesFactory
from tracker.evenings.models import Tournament, TournamentEntry
from tracker.evenings.recording import drop_out, start_tournament_round
from tracker.room.models import ShareLink
from tracker.room.sharing import qr_svg
from tracker.table.recording import abandon_play, record_result, start_play, write_cell
from tracker.table.rounds import add_round, set_round_points
from tracker.table.score_pad import BOARD_ROUNDS

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


def follow(client, url: str, etag: str):
    """What an open board asks: anything new since the state it shows?"""
    return client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)


def test_a_board_answers_304_while_nothing_changes(client, kniffel, family,
                                                   django_assert_num_queries):
    link = ShareLink.objects.create(household=kniffel.household, play=kniffel)
    url = reverse("board", args=[link.token])
    page = client.get(url)
    etag = page["ETag"]
    assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in page.content.decode()
    with django_assert_num_queries(1):
        unchanged = follow(client, url, etag)
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert unchanged["ETag"] == etag

    write_cell(kniffel, family[0], "chance", 23, expected_version=None)
    changed = follow(client, url, etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    html = changed.content.decode()
    assert "<html" not in html and ">23<" in html
    assert f'id="c-{family[0].pk}-chance" class="fresh"' in html
    assert follow(client, url, changed["ETag"]).status_code == 304


def test_an_open_board_shows_a_renamed_player(client, kniffel, family):
    link = ShareLink.objects.create(household=kniffel.household, play=kniffel)
    url = reverse("board", args=[link.token])
    etag = client.get(url)["ETag"]
    family[1].name = "Benjamin"
    family[1].save()
    changed = follow(client, url, etag)
    assert changed.status_code == 200 and "Benjamin" in changed.content.decode()


def test_the_board_shows_the_leader_and_whose_turn_it_is(client, kniffel, family):
    write_cell(kniffel, family[0], "chance", 23, expected_version=None)
    link = ShareLink.objects.create(household=kniffel.household, play=kniffel)
    html = client.get(reverse("board", args=[link.token])).content.decode()
    leader = html.split('class="board-leader"')[1].split("</p>")[0]
    turn = html.split('class="board-turn"')[1].split("</p>")[0]
    assert "Leading" in leader and "Anna" in leader and "23" in leader
    assert "Ben's turn" in turn


def test_a_board_follows_a_tournament_drop_out(client, household, family):
    tournament = Tournament.objects.create(household=household, name="Party",
                                           game="maus_im_nacken", rounds_planned=2)
    for player in family:
        TournamentEntry.objects.create(tournament=tournament, player=player)
    start_tournament_round(tournament)
    link = ShareLink.objects.create(household=household, tournament=tournament)
    url = reverse("board", args=[link.token])
    etag = client.get(url)["ETag"]
    assert follow(client, url, etag).status_code == 304
    drop_out(tournament, family[3])
    changed = follow(client, url, etag)
    assert changed.status_code == 200 and "dropped out" in changed.content.decode()


def test_the_night_board_lists_the_latest_games(client, household, night, family):
    for _ in range(8):
        race = start_play(household=household, game="maus_im_nacken", players=family[:2],
                          game_night=night)
        record_result(race, {"elephants": {family[0].key: ["caught"] * 4,
                                           family[1].key: ["home:1", "caught", "caught",
                                                           "caught"]}}, expected_version=1)
    link = ShareLink.objects.create(household=household, game_night=night)
    html = client.get(reverse("board", args=[link.token])).content.decode()
    assert html.count('<li class="item') == 6 and "and 2 earlier games" in html
    # The latest game comes first and lights up.
    assert html.count("item fresh") == 1 and html.index("item fresh") == html.index("\"item") + 1
    assert "Ben" in html.split('class="board-leader"')[1].split("</p>")[0]


def test_share_link_shows_a_qr_code_and_prints_a_card(host_client, kniffel):
    host_client.post(reverse("share_create", args=["play", kniffel.pk]))
    link = ShareLink.objects.get()
    address = f"http://testserver/board/{link.token}/"
    page = host_client.get(kniffel.get_absolute_url()).content.decode()
    assert qr_svg(address) in page and address in page
    board = Client().get(reverse("board", args=[link.token])).content.decode()
    assert qr_svg(address) in board

    card = host_client.get(reverse("share_card", args=[link.token]))
    assert card.status_code == 200 and card["Content-Type"] == "application/pdf"
    text = PdfReader(io.BytesIO(card.content)).pages[0].extract_text()
    assert "Scan to follow the scores" in text and link.token in text.replace("\n", "")
    german = host_client.get(reverse("share_card", args=[link.token]), {"lang": "de"})
    assert "Scannen" in PdfReader(io.BytesIO(german.content)).pages[0].extract_text()


@pytest.mark.parametrize("paper,size", [("a4", (595, 842)), ("letter", (612, 792))])
def test_the_card_prints_on_a4_or_us_letter_on_one_page(host_client, kniffel, paper, size):
    host_client.post(reverse("share_create", args=["play", kniffel.pk]))
    link = ShareLink.objects.get()
    page = host_client.get(kniffel.get_absolute_url()).content.decode()
    card_url = reverse("share_card", args=[link.token])
    assert f'href="{card_url}?paper=letter">US Letter</a>' in page

    card = host_client.get(card_url, {"paper": paper})

    [sheet] = PdfReader(io.BytesIO(card.content)).pages
    assert (round(float(sheet.mediabox.width)), round(float(sheet.mediabox.height))) == size
    assert "Scan to follow the scores" in sheet.extract_text()
    assert card["Content-Disposition"].endswith(f'-{paper}.pdf"')


def test_a_card_only_for_the_households_live_links(host_client, stranger, kniffel):
    link = ShareLink.objects.create(household=kniffel.household, play=kniffel)
    card = reverse("share_card", args=[link.token])
    assert host_client.get(reverse("share_card", args=["no-such-token"])).status_code == 404
    visitor = Client()
    assert visitor.get(card).status_code == 302  # to the login page
    visitor.force_login(stranger)
    assert visitor.get(card).status_code == 404
    host_client.post(reverse("share_revoke", args=[link.token]))
    assert host_client.get(card).status_code == 404
    assert visitor.get(reverse("board", args=[link.token]), HTTP_IF_NONE_MATCH='"p1-en"',
                      **HTMX).status_code == 404


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
    assert '<th class="num fresh">1</th>' in page  # the race saved last lights up
    assert "1 of 5 races played" in page


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


def own_game_play(household, night, players, **definition):
    game = OwnGameFactory(household=household, **definition)
    return start_play(household=household, game="generic", own_game=game, players=players,
                      game_night=night)


def test_an_own_games_board_shows_the_running_totals_and_follows_each_round(
        client, household, night, family):
    play = own_game_play(household, night, family[:3], name="Skyjo", scoring="fewest_points",
                         end="target", end_at=100)
    a, b, c = (p.key for p in family[:3])
    add_round(play, 1, {a: 12, b: 20, c: 7}, expected_version=play.version)
    link = ShareLink.objects.create(household=household, play=play)
    url = reverse("board", args=[link.token])
    page = client.get(url)
    html = page.content.decode()
    assert "Skyjo" in html and "<th scope=\"col\" class=\"round-no\">Round</th>" in html
    leader = html.split('class="board-leader"')[1].split("</p>")[0]
    assert "Leading" in leader and "Carla" in leader and "· 7" in leader
    play.refresh_from_db()
    set_round_points(play, 2, a, -3, expected_version=play.version)
    changed = follow(client, url, page["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != page["ETag"]
    body = changed.content.decode()
    assert "9 <small class=\"gain\">-3</small>" in body  # 12, then -3: 9 so far
    assert '<td class="num leader"><span class="crown" aria-hidden="true">★</span>7' in body
    assert follow(client, url, changed["ETag"]).status_code == 304


def test_a_long_own_game_shows_its_latest_rounds_and_the_totals_before_them(
        client, household, night, family):
    play = own_game_play(household, night, family[:2], name="Rommé")
    a, b = (p.key for p in family[:2])
    record_result(play, {"rounds": [{a: 10, b: 1}] * (BOARD_ROUNDS + 3), "finished": True},
                  expected_version=play.version)
    link = ShareLink.objects.create(household=household, play=play)
    html = client.get(reverse("board", args=[link.token])).content.decode()
    assert '<th scope="row" class="round-no">1–3</th><td class="num">30</td>' in html
    assert html.count('<th scope="row" class="round-no">') == BOARD_ROUNDS + 2  # and Total
    winner = html.split('class="board-leader"')[1].split("</p>")[0]
    assert "Winner" in winner and "Anna" in winner and str(10 * (BOARD_ROUNDS + 3)) in winner


def test_a_team_games_board_names_each_teams_players(client, household, night, family):
    play = own_game_play(household, night, family, name="Canasta", teams=True, end="target",
                         end_at=5000)
    a, b, c, d = (p.key for p in family)
    record_result(play, {"teams": {"Red": [a, c], "Blue": [b, d]},
                         "rounds": [{"Red": 1200, "Blue": 800}], "finished": False},
                  expected_version=play.version)
    link = ShareLink.objects.create(household=household, play=play)
    html = client.get(reverse("board", args=[link.token])).content.decode()
    assert 'Red<small class="members">Anna, Carla</small>' in html
    assert 'Blue<small class="members">Ben, David</small>' in html
    leader = html.split('class="board-leader"')[1].split("</p>")[0]
    assert "Red · 1200" in leader


@pytest.mark.parametrize("won,says", [(True, "The table won together!"),
                                      (False, "The game won this time.")])
def test_a_cooperative_games_board_says_whether_the_table_won(client, household, night,
                                                               family, won, says):
    play = own_game_play(household, night, family[:3], name="Hanabi", scoring="cooperative")
    record_result(play, {"won": won, "score": 23}, expected_version=play.version)
    link = ShareLink.objects.create(household=household, play=play)
    html = client.get(reverse("board", args=[link.token])).content.decode()
    assert says in html and "23 points" in html and 'class="board-leader"' not in html


def fewest_points_mid_round(household, night, family):
    """Skyjo: after round 1 Papa (Anna) 36, Finn (Ben) 37, Zoë (Carla) 40; in round 2 Anna
    took 10 and Ben 0, Carla is not entered yet."""
    play = own_game_play(household, night, family[:3], name="Skyjo", scoring="fewest_points",
                         end="target", end_at=100)
    a, b, c = (p.key for p in family[:3])
    add_round(play, 1, {a: 36, b: 37, c: 40}, expected_version=play.version)
    play.refresh_from_db()
    set_round_points(play, 2, a, 10, expected_version=play.version)
    play.refresh_from_db()
    set_round_points(play, 2, b, 0, expected_version=play.version)
    return play


def test_mid_round_the_lead_counts_only_the_rounds_everyone_completed(
        client, household, night, family):
    """Ben's 37 after a 0 in round 2 is no lead while Carla's round 2 is missing: Anna led
    with 36 after the last full round and still leads on the TV."""
    play = fewest_points_mid_round(household, night, family)
    link = ShareLink.objects.create(household=household, play=play)
    html = client.get(reverse("board", args=[link.token])).content.decode()
    leader = html.split('class="board-leader"')[1].split("</p>")[0]
    assert "Leading" in leader and "Anna" in leader and "· 36" in leader
    assert "Ben" not in leader


@pytest.mark.parametrize("kind", ["kniffel", "own game"])
def test_an_abandoned_game_s_board_says_so_and_shows_no_leader(
        client, household, night, family, kniffel, kind):
    if kind == "kniffel":
        play = kniffel
        write_cell(play, family[0], "chance", 23, expected_version=None)
    else:
        play = own_game_play(household, night, family[:3], name="Uno", end="host")
        a, b, c = (p.key for p in family[:3])
        add_round(play, 1, {a: 12, b: 42, c: 7}, expected_version=play.version)
    play.refresh_from_db()
    abandon_play(play, expected_version=play.version)
    link = ShareLink.objects.create(household=household, play=play)
    html = client.get(reverse("board", args=[link.token])).content.decode()
    assert "Leading" not in html and "🏆" not in html
    assert "No winner: the game was abandoned" in html
    assert "board-turn" not in html
