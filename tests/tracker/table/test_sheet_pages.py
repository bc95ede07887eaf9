import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import UserFactory
from tracker.households.models import COLOURS
from tracker.room.models import ShareLink
from tracker.table.models import KniffelCell, Play
from tracker.table.recording import record_result, start_play, write_cell

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def editor_url(play, player, field):
    return reverse("cell_editor", args=[play.pk, player.pk, field])


def test_the_sheet_has_a_row_per_field_and_the_current_player(host_client, kniffel, family):
    write_cell(kniffel, family[0], "chance", 20, expected_version=None)
    page = host_client.get(kniffel.get_absolute_url()).content.decode()
    for label in ("Ones", "Sixes", "Bonus at 63 or more (+35)", "Full House", "Grand total"):
        assert label in page
    assert "Ben&#x27;s turn" in page or "Ben's turn" in page
    assert editor_url(kniffel, family[1], "full_house") in page


def test_dice_taps_show_what_every_open_field_scores(host_client, kniffel, family):
    url = editor_url(kniffel, family[0], "full_house")
    page = host_client.post(url, {"dice": "3,3,2,2", "tap": "die:2"}, **HTMX).content.decode()
    assert 'name="dice" value="3,3,2,2,2"' in page
    assert 'name="choose" value="full_house"' in page and "<strong>25</strong>" in page
    assert 'value="chance"' in page and "<strong>12</strong>" in page
    fewer = host_client.post(url, {"dice": "3,3,2,2,2", "tap": "undie:0"}, **HTMX)
    assert 'name="dice" value="3,2,2,2"' in fewer.content.decode()


def asks_whose_turn(page: str) -> bool:
    return "turn. Enter this for" in page


def test_an_empty_cell_out_of_turn_asks_first(host_client, kniffel, family):
    anna, ben = family[:2]
    page = host_client.get(editor_url(kniffel, ben, "full_house"), **HTMX).content.decode()
    assert "It is Anna's turn. Enter this for Ben anyway?" in page
    assert 'class="dice-form"' not in page and "<html" not in page
    anyway = editor_url(kniffel, ben, "full_house") + "?anyway=1"
    assert f'href="{anyway}" hx-get="{anyway}"' in page and "Enter for Ben" in page
    back = editor_url(kniffel, anna, "full_house")
    assert f'href="{back}" hx-get="{back}"' in page and "Back to Anna" in page
    german = host_client.get(editor_url(kniffel, ben, "full_house"), HTTP_ACCEPT_LANGUAGE="de",
                             **HTMX).content.decode()
    assert "Anna ist an der Reihe. Trotzdem für Ben eintragen?" in german

    confirmed = host_client.get(anyway, **HTMX).content.decode()
    assert not asks_whose_turn(confirmed) and 'class="dice-form"' in confirmed
    tapped = host_client.post(editor_url(kniffel, ben, "full_house"), {"dice": "3,3,2,2",
                              "tap": "die:2"}, **HTMX).content.decode()
    assert not asks_whose_turn(tapped) and 'name="choose" value="full_house"' in tapped
    saved = host_client.post(editor_url(kniffel, ben, "full_house"),
                             {"dice": "3,3,2,2,2", "choose": "full_house", "version": ""}, **HTMX)
    assert saved.status_code == 200 and KniffelCell.objects.get().player == ben


def test_no_question_for_the_player_in_turn_or_a_filled_cell(host_client, kniffel, family):
    anna, ben = family[:2]
    write_cell(kniffel, ben, "chance", 20, expected_version=None)
    for player, field in ((anna, "full_house"), (ben, "chance")):
        page = host_client.get(editor_url(kniffel, player, field), **HTMX).content.decode()
        assert not asks_whose_turn(page) and 'class="dice-form"' in page
    write_cell(kniffel, anna, "full_house", 25, expected_version=None)
    write_cell(kniffel, anna, "ones", 3, expected_version=None)
    page = host_client.get(editor_url(kniffel, anna, "twos"), **HTMX).content.decode()
    assert "It is Ben's turn. Enter this for Anna anyway?" in page


def test_the_turn_goes_round_from_the_start_player(host_client, kniffel, family):
    anna, ben = family[:2]
    Play.objects.filter(pk=kniffel.pk).update(start_seat=1)
    assert not asks_whose_turn(host_client.get(editor_url(kniffel, ben, "ones")).content.decode())
    page = host_client.get(editor_url(kniffel, anna, "ones"), **HTMX).content.decode()
    assert "It is Ben's turn. Enter this for Anna anyway?" in page


def test_going_back_closes_the_editor_when_that_row_is_filled_for_the_player_in_turn(
        host_client, kniffel, family):
    anna, ben = family[:2]
    write_cell(kniffel, anna, "chance", 20, expected_version=None)
    write_cell(kniffel, ben, "ones", 2, expected_version=None)
    page = host_client.get(editor_url(kniffel, ben, "chance"), **HTMX).content.decode()
    url = kniffel.get_absolute_url()
    assert f'href="{url}" hx-get="{url}" hx-select="#editor"' in page and "Back to Anna" in page


def test_without_javascript_the_question_is_on_the_sheet_page(host_client, kniffel, family):
    page = host_client.get(editor_url(kniffel, family[1], "sixes")).content.decode()
    assert "<html" in page and "Ben · Sixes" in page and asks_whose_turn(page)
    assert 'id="sheet-table"' in page
    page = host_client.get(editor_url(kniffel, family[1], "sixes") + "?anyway=1").content
    assert 'class="dice-form"' in page.decode()


def test_a_finished_game_never_asks(host_client, household, night, family):
    play = start_play(household=household, game="weltraum_kniffel", players=family[:2],
                      game_night=night)
    for field in play.rules.field_keys:
        write_cell(play, family[0], field, 0 if field != "ufo" else 3, expected_version=None)
    page = host_client.get(editor_url(play, family[0], "ufo")).content.decode()
    assert not asks_whose_turn(page)


def test_the_joker_shows_in_the_options(host_client, kniffel, family):
    write_cell(kniffel, family[0], "kniffel", 50, expected_version=None)
    write_cell(kniffel, family[0], "fours", 16, expected_version=None)
    page = host_client.post(editor_url(kniffel, family[0], "large_straight"),
                            {"dice": "4,4,4,4,4"}, **HTMX).content.decode()
    assert 'value="large_straight"' in page and "<strong>40</strong>" in page
    assert 'value="ones"' not in page


def test_choosing_an_option_writes_the_cell_and_updates_the_sheet_in_place(host_client,
                                                                         kniffel, family):
    response = host_client.post(editor_url(kniffel, family[0], "full_house"),
                                {"dice": "3,3,2,2,2", "choose": "chance", "version": ""}, **HTMX)
    assert response.status_code == 200
    cell = KniffelCell.objects.get()
    assert (cell.field, cell.points, cell.dice) == ("chance", 12, [3, 3, 2, 2, 2])
    fragment = response.content.decode()
    assert "<html" not in fragment and len(fragment) < 6 * 1024
    assert 'id="editor" class="editor empty"' in fragment
    assert f'<td id="c-{family[0].pk}-chance" hx-swap-oob="true">' in fragment
    assert f'<td id="sum-total-{family[0].pk}" data-total hx-swap-oob="true">12</td>' in fragment
    assert f'id="sum-total-{family[1].pk}"' not in fragment
    assert "Ben&#x27;s turn" in fragment or "Ben's turn" in fragment
    assert 'id="sheet-actions" hx-swap-oob="true"' in fragment


def test_after_the_first_entry_a_save_sends_only_the_new_version_to_the_forms(
        host_client, kniffel, family):
    write_cell(kniffel, family[0], "chance", 12, expected_version=None)
    response = host_client.post(editor_url(kniffel, family[1], "ones"),
                                {"points": "3", "save": "1", "version": ""}, **HTMX)
    fragment = response.content.decode()
    kniffel.refresh_from_db()
    assert 'id="sheet-actions"' not in fragment
    assert (f'<input type="hidden" name="version" value="{kniffel.version}" class="play-version"'
            ' hx-swap-oob="outerHTML:#sheet-actions .play-version">') in fragment
    assert f'<td id="sum-total-{family[1].pk}" data-total hx-swap-oob="true">3</td>' in fragment


def saved_parts(fragment: str) -> set[str]:
    """The ids of the elements a saved cell's answer puts in place on the sheet."""
    return set(re.findall(r'id="([^"]+)"[^>]*hx-swap-oob="true"', fragment))


def test_a_save_sends_the_totals_it_changed_and_the_bonus_only_after_an_upper_field(
        host_client, kniffel, family):
    anna = family[0]
    write_cell(kniffel, family[1], "chance", 12, expected_version=None)
    lower = host_client.post(editor_url(kniffel, anna, "chance"),
                             {"points": "20", "save": "1", "version": ""}, **HTMX)
    assert saved_parts(lower.content.decode()) == {
        f"c-{anna.pk}-chance", "sheet-cols", "turn",
        f"sum-lower-total-{anna.pk}", f"sum-total-{anna.pk}"}

    upper = host_client.post(editor_url(kniffel, anna, "threes"),
                             {"points": "9", "save": "1", "version": ""}, **HTMX)
    assert saved_parts(upper.content.decode()) == {
        f"c-{anna.pk}-threes", "sheet-cols", "turn", f"sum-bonus-{anna.pk}",
        f"sum-upper-{anna.pk}", f"sum-upper-total-{anna.pk}", f"sum-upper-again-{anna.pk}",
        f"sum-total-{anna.pk}"}
    assert f'<td id="sum-bonus-{anna.pk}" hx-swap-oob="true"><span class="to-go">54 to go' in (
        upper.content.decode())

    version = KniffelCell.objects.get(player=anna, field="threes").version
    same = host_client.post(editor_url(kniffel, anna, "threes"),
                            {"points": "9", "save": "1", "version": str(version)}, **HTMX)
    assert saved_parts(same.content.decode()) == {
        f"c-{anna.pk}-threes", "sheet-cols", "turn", f"sum-bonus-{anna.pk}"}


def test_the_client_cannot_choose_its_own_points(host_client, kniffel, family):
    response = host_client.post(editor_url(kniffel, family[0], "full_house"),
                                {"dice": "3,3,2,2", "choose": "full_house", "points": "25"},
                                **HTMX)
    assert response.status_code == 422
    assert "Enter all five dice" in response.content.decode()
    assert not KniffelCell.objects.exists()


@pytest.mark.parametrize("typed,message", [
    ("24", "Ben: Full House scores 0 or 25, not 24."),
    ("lots", "Type the points as a whole number."),
    ("", "Type the points as a whole number."),
    ("99999999999999999999", "Ben: Full House scores 0 or 25"),
])
def test_typed_points_outside_the_rules_are_explained_and_kept(host_client, kniffel, family,
                                                              typed, message):
    response = host_client.post(editor_url(kniffel, family[1], "full_house"),
                                {"points": typed, "save": "1", "version": ""}, **HTMX)
    page = response.content.decode()
    assert response.status_code == 422
    assert message in page
    assert f'value="{typed}"' in page
    assert not KniffelCell.objects.exists()
    # The field says it is the one refused, and which message says why.
    error = "editor-error-full_house-1"
    assert f'id="{error}"' in page
    if typed:
        assert f'aria-invalid="true" aria-describedby="{error}"' in page


def test_a_cell_written_meanwhile_on_another_tablet_is_a_conflict(host_client, kniffel, family):
    write_cell(kniffel, family[1], "chance", 20, expected_version=None)
    response = host_client.post(editor_url(kniffel, family[1], "chance"),
                                {"points": "22", "save": "1", "version": ""}, **HTMX)
    assert response.status_code == 409
    assert "entered on another tablet in the meantime (20)" in response.content.decode()
    assert KniffelCell.objects.get().points == 20
    corrected = host_client.post(editor_url(kniffel, family[1], "chance"),
                                 {"points": "22", "save": "1", "version": "1"}, **HTMX)
    assert corrected.status_code == 200
    assert KniffelCell.objects.get().points == 22


def test_without_javascript_the_editor_opens_on_the_sheet_page(host_client, kniffel, family):
    page = host_client.get(editor_url(kniffel, family[0], "sixes")).content.decode()
    assert "<html" in page and "Anna · Sixes" in page and 'class="dice-form"' in page
    response = host_client.post(editor_url(kniffel, family[0], "sixes"),
                                {"points": "18", "save": "1", "version": ""})
    assert response.status_code == 302 and response["Location"] == kniffel.get_absolute_url()


STRUCK = '<span class="struck" role="img" aria-label="struck" title="struck">✗</span>'


def test_a_field_holding_0_is_struck_on_the_sheet_and_the_scoreboard(host_client, client,
                                                                     kniffel, family):
    write_cell(kniffel, family[0], "large_straight", 0, expected_version=None)
    write_cell(kniffel, family[1], "large_straight", 40, expected_version=None)
    page = host_client.get(kniffel.get_absolute_url()).content.decode()
    struck = re.search(rf'<td id="c-{family[0].pk}-large_straight">.*?</td>', page).group()
    assert STRUCK in struck and ">0<" not in struck
    assert f'<td id="c-{family[1].pk}-large_straight">' in page and ">40</a>" in page
    link = ShareLink.objects.create(household=kniffel.household, play=kniffel)
    board = client.get(reverse("board", args=[link.token])).content.decode()
    assert f'<td id="c-{family[0].pk}-large_straight">{STRUCK}</td>' in board
    # Ben's 40 was entered last: the board lights it up.
    assert f'<td id="c-{family[1].pk}-large_straight" class="fresh">40</td>' in board
    assert f'<td id="sum-total-{family[0].pk}" data-total>0</td>' in board

    response = host_client.post(editor_url(kniffel, family[0], "kniffel"),
                                {"points": "0", "save": "1", "version": ""}, **HTMX)
    assert STRUCK in re.search(r'<td id="c-\d+-kniffel" hx-swap-oob="true">.*?</td>',
                               response.content.decode()).group()


def bonus_row(page: str) -> list[str]:
    row = re.search(r'<tr id="sum-bonus".*?</tr>', page, re.S).group()
    return [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]


def test_the_bonus_row_shows_what_the_upper_part_still_needs(host_client, kniffel, family):
    anna, ben = family[:2]
    assert bonus_row(host_client.get(kniffel.get_absolute_url()).content.decode()) == [
        "63 to go", "63 to go"]
    for field, points in {"sixes": 24, "fives": 20}.items():
        write_cell(kniffel, anna, field, points, expected_version=None)
    for field in ("ones", "twos", "threes", "fours", "fives"):
        write_cell(kniffel, ben, field, 0, expected_version=None)
    page = host_client.get(kniffel.get_absolute_url()).content.decode()
    assert bonus_row(page) == ["19 to go", "0"]
    assert '<span class="to-go">19 to go</span>' in page

    response = host_client.post(editor_url(kniffel, anna, "fours"),
                                {"points": "20", "save": "1", "version": ""}, **HTMX)
    assert f'<td id="sum-bonus-{anna.pk}" hx-swap-oob="true">35</td>' in (
        response.content.decode())
    assert bonus_row(host_client.get(kniffel.get_absolute_url()).content.decode()) == [
        "35", "0"]


def test_the_bonus_row_in_german(host_client, kniffel, family):
    write_cell(kniffel, family[0], "sixes", 24, expected_version=None)
    page = host_client.get(kniffel.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content
    assert bonus_row(page.decode()) == ["noch 39", "noch 63"]


def test_undo_the_last_entry(host_client, kniffel, family):
    write_cell(kniffel, family[0], "chance", 20, expected_version=None)
    write_cell(kniffel, family[1], "chance", 21, expected_version=None)
    kniffel.refresh_from_db()
    stale = host_client.post(reverse("sheet_undo", args=[kniffel.pk]),
                             {"version": kniffel.version - 1}, **HTMX)
    assert stale.status_code == 409 and KniffelCell.objects.count() == 2
    response = host_client.post(reverse("sheet_undo", args=[kniffel.pk]),
                                {"version": kniffel.version}, **HTMX)
    assert response.status_code == 200
    assert list(KniffelCell.objects.values_list("points", flat=True)) == [20]
    kniffel.refresh_from_db()
    assert [p.points for p in kniffel.participants.order_by("seat")] == [20, 0]


def test_undo_after_a_correction_gives_the_cell_its_old_points_then_empties_it(
        host_client, kniffel, family):
    write_cell(kniffel, family[0], "chance", 20, expected_version=None)
    write_cell(kniffel, family[1], "sixes", 18, dice=[6, 6, 6, 2, 1], expected_version=None)
    write_cell(kniffel, family[1], "sixes", 24, dice=[6, 6, 6, 6, 1], expected_version=1)

    def undo():
        kniffel.refresh_from_db()
        response = host_client.post(reverse("sheet_undo", args=[kniffel.pk]),
                                    {"version": kniffel.version}, **HTMX)
        assert response.status_code == 200
        return {(cell.player_id, cell.field): (cell.points, cell.dice)
                for cell in KniffelCell.objects.all()}

    assert undo() == {(family[0].pk, "chance"): (20, None),
                      (family[1].pk, "sixes"): (18, [6, 6, 6, 2, 1])}
    kniffel.refresh_from_db()
    assert [p.points for p in kniffel.participants.order_by("seat")] == [20, 18]
    assert undo() == {(family[0].pk, "chance"): (20, None)}
    assert undo() == {}
    kniffel.refresh_from_db()
    assert host_client.post(reverse("sheet_undo", args=[kniffel.pk]),
                            {"version": kniffel.version}, **HTMX).status_code == 409


def test_further_kniffels(host_client, kniffel, family):
    write_cell(kniffel, family[0], "kniffel", 50, expected_version=None)
    write_cell(kniffel, family[0], "sixes", 30, expected_version=None)
    kniffel.refresh_from_db()
    url = reverse("sheet_extra_kniffels", args=[kniffel.pk])
    ok = host_client.post(url, {"set": f"{family[0].pk}:1", "version": kniffel.version},
                          **HTMX)
    assert ok.status_code == 200
    assert kniffel.participants.get(player=family[0]).points == 130
    refused = host_client.post(url, {"set": f"{family[1].pk}:1",
                                     "version": kniffel.version + 1}, **HTMX)
    assert refused.status_code == 422
    assert "Ben: further Kniffels earn a bonus only while the Kniffel field holds 50." in \
        refused.content.decode()
    for bad in ({"set": "x:1", "version": "1"}, {"set": f"{family[0].pk}:²", "version": "1"},
                {"version": "1"}):
        assert host_client.post(url, bad, **HTMX).status_code == 400


def test_a_finished_sheet_celebrates_the_winner(host_client, household, night, family):
    play = start_play(household=household, game="weltraum_kniffel", players=family[:1],
                      game_night=night)
    fields = play.rules.field_keys
    for field in fields:
        write_cell(play, family[0], field, 0 if field != "ufo" else 3, expected_version=None)
    play.refresh_from_db()
    assert play.status == Play.Status.FINISHED
    page = host_client.get(play.get_absolute_url()).content.decode()
    assert "🏆" in page and "Anna" in page and "wins!" in page


@pytest.mark.parametrize("players", [2, 6])
def test_sheet_page_runs_a_constant_number_of_queries(host_client, household, night, players,
                                                      django_assert_max_num_queries):
    from tests.factories import PlayerFactory

    family = [PlayerFactory(household=household, name=f"P{n}") for n in range(players)]
    play = start_play(household=household, game="kniffel", players=family, game_night=night)
    for player in family:
        for field in ("ones", "twos", "chance"):
            write_cell(play, player, field, {"ones": 2, "twos": 4, "chance": 20}[field],
                       expected_version=None)
    with django_assert_max_num_queries(10):
        assert host_client.get(play.get_absolute_url()).status_code == 200


def test_the_sheet_is_only_for_kniffel_and_only_for_its_household(client, host, stranger,
                                                                  household, night, family,
                                                                  kniffel):
    race = start_play(household=household, game="maus_im_nacken", players=family[:2],
                      game_night=night)
    record_result(race, {"elephants": {p.key: ["caught"] * 4 for p in family[:2]}},
                  expected_version=1)
    client.force_login(host)
    assert client.get(editor_url(race, family[0], "chance")).status_code == 404
    assert client.get(editor_url(kniffel, family[0], "yahtzee")).status_code == 404
    assert client.get(editor_url(kniffel, family[3], "chance")).status_code == 404
    client.force_login(stranger)
    assert client.get(editor_url(kniffel, family[0], "chance")).status_code == 404
    assert client.post(reverse("sheet_undo", args=[kniffel.pk])).status_code == 404


@pytest.mark.parametrize("players", [2, 4])
def test_a_cell_save_reads_and_writes_in_seven_queries_whatever_the_sheet_holds(
        host_client, household, night, family, players):
    play = start_play(household=household, game="kniffel", players=family[:players],
                      game_night=night)
    for player in family[:players]:
        for field in ("ones", "twos", "chance"):
            write_cell(play, player, field, {"ones": 2, "twos": 4, "chance": 20}[field],
                       expected_version=None)
    host_client.get(play.get_absolute_url())
    for field, version in (("sixes", ""), ("chance", "1")):
        with CaptureQueriesContext(connection) as queries:
            response = host_client.post(editor_url(play, family[0], field),
                                        {"points": "18", "save": "1", "version": version},
                                        **HTMX)
        assert response.status_code == 200
        statements = [q["sql"] for q in queries
                      if not q["sql"].startswith(("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT"))]
        # The play with its players (two), the cell, the play, the player's totals, the
        # history and the household's version that the devices following it compare.
        assert len(statements) <= 7, statements


def extra_kniffels(play, player):
    return play.participants.get(player=player).details.get("extra_kniffels", 0)


@pytest.mark.parametrize("bonus,filled,field,dice,counted", [
    # Schmidt's rule sheet: five alike into their own, still open upper field.
    (50, {}, "fives", "5,5,5,5,5", 1),
    (50, {"fives": 15}, "four_of_a_kind", "5,5,5,5,5", 0),
    # Yahtzee-style: 100 wherever it goes while the Kniffel field holds 50.
    (100, {"fives": 15}, "four_of_a_kind", "5,5,5,5,5", 1),
    (100, {"fives": 15}, "full_house", "5,5,5,5,5", 1),
    (100, {}, "four_of_a_kind", "5,5,5,5,2", 0),
    (0, {}, "fives", "5,5,5,5,5", 0),
])
def test_five_alike_entered_with_the_dice_count_a_further_kniffel(
        host_client, household, night, family, bonus, filled, field, dice, counted):
    anna = family[0]
    play = start_play(household=household, game="kniffel", players=family[:1], game_night=night,
                      house_rules={"extra_kniffel_bonus": bonus})
    for key, points in {"kniffel": 50, **filled}.items():
        write_cell(play, anna, key, points, expected_version=None)
    response = host_client.post(editor_url(play, anna, field),
                                {"dice": dice, "choose": field, "version": ""}, **HTMX)
    assert response.status_code == 200
    assert KniffelCell.objects.get(play=play, field=field).dice == [
        int(die) for die in dice.split(",")]
    assert extra_kniffels(play, anna) == counted
    # The counter under the sheet follows the cell that earned the bonus, without a reload.
    counter = re.search(rf'<div class="stepper-row" id="extras-{anna.pk}" hx-swap-oob="true">'
                        r'.*?</div>', response.content.decode(), re.S)
    if counted:
        assert f'<span class="stepper-value">{counted}</span>' in counter[0]
        # Each player's buttons say whose count they change.
        assert 'aria-label="One more for Anna"' in counter[0]
        assert 'aria-label="One fewer for Anna"' in counter[0]
    else:
        assert counter is None
    play.refresh_from_db()
    assert play.result["dice"] == {anna.key: {field: [int(die) for die in dice.split(",")]}}
    assert play.participants.get(player=anna).details["extra_kniffel_bonus"] == counted * bonus


def test_undoing_a_further_kniffel_entered_with_the_dice_takes_its_bonus_back(
        host_client, kniffel, family):
    anna = family[0]
    write_cell(kniffel, anna, "kniffel", 50, expected_version=None)
    write_cell(kniffel, anna, "sixes", 30, expected_version=None, dice=[6, 6, 6, 6, 6])
    assert extra_kniffels(kniffel, anna) == 1
    kniffel.refresh_from_db()
    undone = host_client.post(reverse("sheet_undo", args=[kniffel.pk]),
                              {"version": kniffel.version}, **HTMX)
    assert undone.status_code == 200
    assert extra_kniffels(kniffel, anna) == 0
    assert not KniffelCell.objects.filter(play=kniffel, field="sixes").exists()


def test_correcting_a_further_kniffel_cell_by_typing_takes_its_bonus_back(kniffel, family):
    anna = family[0]
    write_cell(kniffel, anna, "kniffel", 50, expected_version=None)
    cell = write_cell(kniffel, anna, "sixes", 30, expected_version=None, dice=[6, 6, 6, 6, 6])
    write_cell(kniffel, anna, "sixes", 24, expected_version=cell.version)
    assert extra_kniffels(kniffel, anna) == 0


@pytest.mark.parametrize("field,typed,asks", [
    ("sixes", "30", True),
    ("sixes", "24", False),
    ("four_of_a_kind", "30", False),
])
def test_typed_points_that_could_be_a_further_kniffel_ask_the_host(
        host_client, kniffel, family, field, typed, asks):
    anna = family[0]
    write_cell(kniffel, anna, "kniffel", 50, expected_version=None)
    saved = host_client.post(editor_url(kniffel, anna, field),
                             {"points": typed, "save": "1", "version": ""}, **HTMX)
    assert saved.status_code == 200
    page = saved.content.decode()
    assert ("Were these points five alike, a further Kniffel?" in page) is asks
    assert extra_kniffels(kniffel, anna) == 0
    if not asks:
        return
    kniffel.refresh_from_db()
    answer = re.search(r'name="set" value="([^"]+)"[^>]*>Yes, count a further Kniffel', page)[1]
    yes = host_client.post(reverse("sheet_extra_kniffels", args=[kniffel.pk]),
                           {"set": answer, "version": kniffel.version}, **HTMX)
    assert yes.status_code == 200
    assert extra_kniffels(kniffel, anna) == 1
    assert kniffel.participants.get(player=anna).points == 50 + 30 + 50


def test_every_tablet_gets_the_shared_sheet_with_its_own_csrf_token(client, host, household,
                                                                   kniffel, family,
                                                                   django_assert_max_num_queries):
    from django.test import Client

    write_cell(kniffel, family[0], "chance", 20, expected_version=None)
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    for tablet in (first, second):
        tablet.force_login(host)
    first.get(kniffel.get_absolute_url())
    with django_assert_max_num_queries(1):
        page = second.get(kniffel.get_absolute_url()).content.decode()
    assert "csrf-slot" not in page
    assert f'<td id="sum-total-{family[0].pk}" data-total>20</td>' in page
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response = second.post(editor_url(kniffel, family[1], "ones"),
                           {"points": "3", "save": "1", "version": "",
                            "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert f'<td id="sum-total-{family[1].pk}" data-total>3</td>' in (
        first.get(kniffel.get_absolute_url()).content.decode())


def test_the_shared_sheet_names_each_visitor_as_themselves(client, host, household, kniffel):
    """The device keeps its waiting entries under the user its page names."""
    other = UserFactory(username="oma")
    household.members.add(other)
    pages = []
    for user in (host, other):
        client.force_login(user)
        pages.append(client.get(kniffel.get_absolute_url()).content.decode())
    assert [re.search(r'data-user="(\d+)"', page)[1] for page in pages] == [
        str(host.pk), str(other.pk)]
    assert "user-slot" not in pages[1]


def test_a_new_share_link_shows_on_the_cached_sheet_at_once(host_client, kniffel):
    assert "Share a scoreboard" in host_client.get(kniffel.get_absolute_url()).content.decode()
    host_client.post(reverse("share_create", args=["play", kniffel.pk]))
    link = ShareLink.objects.get()
    page = host_client.get(kniffel.get_absolute_url()).content.decode()
    assert reverse("board", args=[link.token]) in page
    host_client.post(reverse("share_revoke", args=[link.token]))
    assert "Share a scoreboard" in host_client.get(kniffel.get_absolute_url()).content.decode()


def test_a_renamed_player_shows_on_the_cached_sheet_at_once(host_client, kniffel, family):
    free_colour = next(colour for colour, _ in COLOURS
                       if colour not in {player.colour for player in family})
    assert "Anna" in host_client.get(kniffel.get_absolute_url()).content.decode()
    response = host_client.post(reverse("player_edit", args=[family[0].pk]),
                                {f"player-{family[0].pk}-name": "Annika",
                                 f"player-{family[0].pk}-colour": free_colour}, **HTMX)
    assert response.status_code == 200
    page = host_client.get(kniffel.get_absolute_url()).content.decode()
    assert "Annika" in page and "Anna ·" not in page
    assert free_colour.removeprefix("#") in page


def test_a_finished_sheet_shows_no_empty_editor_but_a_cell_still_opens_one(
        host_client, household, night, family):
    anna = family[0]
    play = start_play(household=household, game="weltraum_kniffel", players=[anna],
                      game_night=night)
    for field in play.rules.field_keys:
        write_cell(play, anna, field, 0, expected_version=None)
    page = host_client.get(play.get_absolute_url()).content.decode()
    assert 'class="sheet-layout done"' in page
    assert "Tap a cell to enter the dice or the points." not in page
    editor = host_client.get(editor_url(play, anna, "ufo"), **HTMX).content.decode()
    assert 'id="editor" class="editor"' in editor and "Or type the points" in editor


def test_the_lower_total_stays_empty_until_a_lower_field_is_filled(host_client, kniffel,
                                                                    family):
    anna, ben = family[:2]
    write_cell(kniffel, anna, "sixes", 24, expected_version=None)
    page = host_client.get(kniffel.get_absolute_url()).content.decode()
    assert f'<td id="sum-lower-total-{anna.pk}"></td>' in page
    assert f'<td id="sum-upper-total-{anna.pk}">24</td>' in page

    struck = host_client.post(editor_url(kniffel, ben, "kniffel"),
                              {"points": "0", "save": "1", "version": ""}, **HTMX)
    assert f'<td id="sum-lower-total-{ben.pk}" hx-swap-oob="true">0</td>' in (
        struck.content.decode())
    page = host_client.get(kniffel.get_absolute_url()).content.decode()
    assert f'<td id="sum-lower-total-{ben.pk}">0</td>' in page
    assert f'<td id="sum-lower-total-{anna.pk}"></td>' in page
