"""An own game written down by categories on the score pad: the rows are the categories, a
cell takes a short sum, a penalty is taken off, the pad moves across or down as the family
prefers, and the sheet ends when every category is entered."""

import re

import pytest
from django.urls import reverse

from tests.factories import OwnGameFactory
from tracker.table.models import Play
from tracker.table.recording import start_play
from tracker.table.rounds import undo_round
from tracker.table.score_pad import apply_key

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
WINGSPAN = [{"name": "Birds", "minus": False}, {"name": "Eggs", "minus": False},
            {"name": "Food", "minus": False}, {"name": "Penalties", "minus": True}]


@pytest.fixture
def wingspan(household):
    return OwnGameFactory(household=household, name="Flügelschlag", sheet="categories",
                          categories=WINGSPAN, tiebreak="Food")


def play_of(game, household, night, players):
    return start_play(household=household, game="generic", own_game=game, players=players,
                      game_night=night)


@pytest.fixture
def sheet(wingspan, household, night, family):
    return play_of(wingspan, household, night, family[:3])


def save(client, play, number, side, typed, **headers):
    play.refresh_from_db()
    return client.post(reverse("pad_cell", args=[play.pk, number, side]),
                       {"points": typed, "save": "1", "version": play.version}, **headers)


def rows(play):
    play.refresh_from_db()
    names = {p.player_key: p.player.name for p in play.participants.select_related("player")}
    return [{names[key]: points for key, points in row.items()}
            for row in play.result.get("rounds", [])]


def test_the_sheet_shows_its_categories_and_opens_on_the_first_cell(host_client, sheet):
    page = host_client.get(sheet.get_absolute_url()).content.decode()
    for category in ("Birds", "Eggs", "Food", "Penalties"):
        assert f"{category}</span>" in page
    assert "Anna · Birds" in page
    assert "Anna, Eggs: empty" in page and "(taken off)" in page
    assert "Enter only the final scores" not in page and "Undo round" not in page
    assert 'value="plus"' in page and 'value="subtract"' in page


def test_a_short_sum_is_added_up_kept_and_shown_when_the_cell_opens_again(host_client, sheet):
    body = save(host_client, sheet, 1, 0, "3+6+2", **HTMX).content.decode()
    assert "Ben · Birds" in body  # on to the next player
    assert "Birds · Anna: 3+6+2 = 11" in body
    assert rows(sheet) == [{"Anna": 11}]
    opened = host_client.get(reverse("pad_cell", args=[sheet.pk, 1, 0]), **HTMX)
    assert 'value="3+6+2"' in opened.content.decode()
    # Corrected to one number, the sum is forgotten.
    save(host_client, sheet, 1, 0, "12", **HTMX)
    sheet.refresh_from_db()
    assert rows(sheet) == [{"Anna": 12}] and "sums" not in sheet.result


@pytest.mark.parametrize("typed", ["3*4", "3++4", "__import__('os')", "1e9", "abc"])
def test_anything_but_a_short_sum_is_refused_beside_the_cell_and_kept(host_client, sheet,
                                                                       typed):
    response = save(host_client, sheet, 1, 0, typed, **HTMX)
    body = response.content.decode()
    assert response.status_code == 422
    assert "a short sum such as 3+6+2" in body
    assert 'value="' + typed.replace("'", "&#x27;") + '"' in body  # what was typed stays
    assert rows(sheet) == []


def test_a_penalty_is_taken_off_and_cannot_be_typed_with_a_minus(host_client, sheet):
    assert save(host_client, sheet, 4, 1, "2+1", **HTMX).status_code == 200
    assert rows(sheet) == [{}, {}, {}, {"Ben": -3}]
    opened = host_client.get(reverse("pad_cell", args=[sheet.pk, 4, 1]), **HTMX)
    assert 'value="2+1"' in opened.content.decode()
    assert "taken off the total" in opened.content.decode()
    refused = save(host_client, sheet, 4, 2, "-2", **HTMX)
    assert refused.status_code == 422
    assert "Penalties is taken off the total: type the points without a minus." in (
        refused.content.decode())


def test_the_pad_goes_down_the_column_when_the_family_prefers(host_client, wingspan, sheet):
    wingspan.pad_moves = "next_row"
    wingspan.save()
    body = save(host_client, sheet, 1, 0, "30", **HTMX).content.decode()
    assert "Anna · Eggs" in body


def test_the_sheet_is_finished_once_every_category_is_entered(host_client, sheet):
    for number, typed in enumerate(["38", "9", "3", "2"], start=1):
        for side in range(3):
            body = save(host_client, sheet, number, side, typed, **HTMX).content.decode()
    assert "Every category is entered." in body and "Finish the game" in body
    assert "Or play on" not in body  # a sheet by categories at the end has no next round
    sheet.refresh_from_db()
    finish = host_client.post(reverse("pad_finish", args=[sheet.pk]),
                              {"version": sheet.version})
    assert finish.status_code == 302
    sheet.refresh_from_db()
    assert sheet.status == Play.Status.FINISHED
    assert {p.player.name: (p.points, p.place) for p in sheet.participants.all()} == {
        "Anna": (48, 1), "Ben": (48, 1), "Carla": (48, 1)}


def test_the_tie_break_category_decides_the_places(host_client, sheet):
    for number, points in enumerate([(30, 31, 20), (5, 5, 5), (3, 2, 2), (0, 0, 0)], start=1):
        for side, typed in enumerate(points):
            save(host_client, sheet, number, side, str(typed), **HTMX)
    sheet.refresh_from_db()
    host_client.post(reverse("pad_finish", args=[sheet.pk]), {"version": sheet.version})
    places = {p.player.name: p.place for p in sheet.participants.all()}
    assert places == {"Anna": 1, "Ben": 2, "Carla": 3}  # 38 each for Anna and Ben; food 3-2

    page = host_client.get(sheet.get_absolute_url()).content.decode()
    totals = page[page.index('id="pad-totals"'):page.index("</tr>", page.index('id="pad-totals"'))]
    assert "Anna, Ben both have 38: the most Food decided." in page
    # Ben, second on the tie-break, no longer carries the leader's star or colour.
    assert "★" not in totals and "leader" not in totals
    assert totals.count("winner") == 1


def test_no_row_beyond_the_categories(host_client, sheet):
    response = host_client.get(reverse("pad_cell", args=[sheet.pk, 5, 0]), **HTMX)
    assert response.status_code == 404
    assert save(host_client, sheet, 5, 0, "3", **HTMX).status_code == 409
    assert rows(sheet) == []


def test_categories_in_each_round_start_a_new_round_of_rows(host_client, household, night,
                                                            family):
    game = OwnGameFactory(household=household, name="Rundenspiel", sheet="category_rounds",
                          categories=WINGSPAN[:2], end="rounds", end_at=2)
    play = play_of(game, household, night, family[:2])
    page = host_client.get(play.get_absolute_url()).content.decode()
    assert "Round 1</th>" in page and "Anna · Round 1 · Birds" in page
    for number in (1, 2):
        for side in (0, 1):
            body = save(host_client, play, number, side, "5", **HTMX).content.decode()
    assert "Anna · Round 2 · Birds" in body
    page = host_client.get(play.get_absolute_url()).content.decode()
    assert "Undo round 1" in page
    play.refresh_from_db()
    undo_round(play, expected_version=play.version)
    assert rows(play) == []


@pytest.mark.parametrize("typed,key,shown", [
    ("3", "plus", "3+"), ("3+", "plus", "3+"), ("3+", "subtract", "3-"), ("", "plus", ""),
    ("", "subtract", "-"), ("3+6", "2", "3+62"), ("3+0", "5", "3+5"), ("3+6", "back", "3+"),
    ("1+1234567", "8", "1+1234567"),
])
def test_the_number_pad_types_short_sums(typed, key, shown):
    assert apply_key(typed, key) == shown


def test_a_sheet_by_categories_is_defined_in_the_library(host_client, household):
    response = host_client.post(reverse("own_game_add"), {
        "name": "Wingspan", "scoring": "most_points", "end": "host", "end_at": "0",
        "sheet": "categories", "categories": "Birds\nBonus cards\n − Penalties\n\n",
        "tiebreak": "Birds", "pad_moves": "next_row"})
    assert response.status_code == 302
    game = household.own_games.get()
    assert game.categories == [{"name": "Birds", "minus": False},
                               {"name": "Bonus cards", "minus": False},
                               {"name": "Penalties", "minus": True}]
    assert game.pad_moves == "next_row" and game.tiebreak == "Birds"
    edit = host_client.get(reverse("own_game_edit", args=[game.pk])).content.decode()
    assert re.search(r"Birds\s*Bonus cards\s*−Penalties</textarea>", edit)


@pytest.mark.parametrize("fields,message", [
    ({"categories": ""}, "Name the categories the game is scored by"),
    ({"tiebreak": "Wood"}, "must be one of the categories"),
    ({"scoring": "places"}, "Only a game with points is written down by categories."),
])
def test_a_sheet_without_sense_is_refused_by_the_library(host_client, household, fields,
                                                         message):
    response = host_client.post(reverse("own_game_add"), {
        "name": "Wingspan", "scoring": "most_points", "end": "host", "end_at": "0",
        "sheet": "categories", "categories": "Birds\nEggs"} | fields)
    assert response.status_code == 422 and message in response.content.decode()
    assert not household.own_games.exists()


def test_the_page_of_a_sheet_in_progress_is_kept_and_never_stale(host_client, wingspan,
                                                                  sheet,
                                                                  django_assert_num_queries):
    host_client.get(sheet.get_absolute_url())
    with django_assert_num_queries(1):
        kept = host_client.get(sheet.get_absolute_url())
    assert "Flügelschlag" in kept.content.decode()
    save(host_client, sheet, 1, 0, "38", **HTMX)
    assert "Anna, Birds: 38" in host_client.get(sheet.get_absolute_url()).content.decode()
    wingspan.name = "Wingspan"
    wingspan.save()
    assert "<h1>Wingspan" in host_client.get(sheet.get_absolute_url()).content.decode()


@pytest.fixture
def counted_sheet(household, night, family):
    """Wingspan as its rules have it: a tie goes to the most food tokens left, a count that
    is no category of the sheet."""
    game = OwnGameFactory(household=household, name="Wingspan", sheet="categories",
                          categories=WINGSPAN, tiebreak_count="food tokens left")
    return play_of(game, household, night, family[:3])


def finish_level(client, play):
    """Anna and Ben 38 each, Carla 27, and the game finished."""
    for number, points in enumerate([(30, 31, 20), (5, 5, 5), (3, 2, 2), (0, 0, 0)], start=1):
        for side, typed in enumerate(points):
            save(client, play, number, side, str(typed), **HTMX)
    play.refresh_from_db()
    client.post(reverse("pad_finish", args=[play.pk]), {"version": play.version})
    play.refresh_from_db()


def test_a_tie_is_broken_by_a_count_asked_only_when_the_totals_tie(host_client,
                                                                    counted_sheet):
    page = host_client.get(counted_sheet.get_absolute_url()).content.decode()
    assert "breaks the tie" not in page  # under way, nothing is tied yet
    finish_level(host_client, counted_sheet)
    places = {p.player.name: p.place for p in counted_sheet.participants.all()}
    assert places == {"Anna": 1, "Ben": 1, "Carla": 3}
    page = host_client.get(counted_sheet.get_absolute_url()).content.decode()
    assert "Anna, Ben both have 38: the most food tokens left breaks the tie." in page
    assert 'name="count-0"' in page and 'name="count-1"' in page
    assert 'name="count-2"' not in page  # Carla is not tied

    answer = host_client.post(reverse("pad_tie_counts", args=[counted_sheet.pk]),
                              {"version": counted_sheet.version, "count-0": "1",
                               "count-1": "4"}, **HTMX)
    assert answer.status_code == 200
    assert "Anna, Ben both have 38: the most food tokens left decided (4 to 1)." in \
        answer.content.decode()
    places = {p.player.name: p.place for p in counted_sheet.participants.all()}
    assert places == {"Ben": 1, "Anna": 2, "Carla": 3}
    assert counted_sheet.changes.filter(action="tie_broken").count() == 1
    assert "<strong>Tie broken</strong> Anna 1, Ben 4<" in host_client.get(
        counted_sheet.get_absolute_url()).content.decode()


def test_a_count_that_is_no_whole_number_is_refused_and_changes_nothing(host_client,
                                                                         counted_sheet):
    finish_level(host_client, counted_sheet)
    version = counted_sheet.version
    for typed in ("-1", "drei", "٣", "99999999"):
        answer = host_client.post(reverse("pad_tie_counts", args=[counted_sheet.pk]),
                                  {"version": version, "count-0": typed, "count-1": "2"},
                                  **HTMX)
        assert answer.status_code == 422, typed
        assert "Anna: enter the count as a whole number of 0 or more" in \
            answer.content.decode()
    counted_sheet.refresh_from_db()
    assert counted_sheet.version == version and "tie_counts" not in counted_sheet.result
    # A count for only one of the tied keeps the tie for now.
    host_client.post(reverse("pad_tie_counts", args=[counted_sheet.pk]),
                     {"version": version, "count-1": "2"}, **HTMX)
    assert {p.place for p in counted_sheet.participants.all()
            if p.player.name != "Carla"} == {1}


def test_a_count_left_blank_takes_back_the_one_entered_and_the_tie_stands(host_client,
                                                                          counted_sheet):
    finish_level(host_client, counted_sheet)
    url = reverse("pad_tie_counts", args=[counted_sheet.pk])
    host_client.post(url, {"version": counted_sheet.version, "count-0": "1", "count-1": "4"},
                     **HTMX)
    counted_sheet.refresh_from_db()
    host_client.post(url, {"version": counted_sheet.version, "count-0": "", "count-1": "4"},
                     **HTMX)
    counted_sheet.refresh_from_db()
    assert counted_sheet.result["tie_counts"] == {str(counted_sheet.participants.get(
        player__name="Ben").player_id): 4}
    assert {p.player.name: p.place for p in counted_sheet.participants.all()} == {
        "Anna": 1, "Ben": 1, "Carla": 3}


def test_three_level_the_category_parts_one_and_the_count_the_other_two(host_client,
                                                                        household, night,
                                                                        family):
    """Anna, Ben and Carla 38 each; Carla has the fewest eggs; the food tokens decide
    between Anna and Ben: the sentence names the two the count decided."""
    game = OwnGameFactory(household=household, name="Wingspan", sheet="categories",
                          categories=WINGSPAN, tiebreak="Eggs",
                          tiebreak_count="food tokens left")
    play = play_of(game, household, night, family[:3])
    for number, points in enumerate([(30, 30, 31), (5, 5, 4), (3, 3, 3), (0, 0, 0)],
                                    start=1):
        for side, typed in enumerate(points):
            save(host_client, play, number, side, str(typed), **HTMX)
    play.refresh_from_db()
    host_client.post(reverse("pad_finish", args=[play.pk]), {"version": play.version})
    play.refresh_from_db()
    page = host_client.post(reverse("pad_tie_counts", args=[play.pk]),
                            {"version": play.version, "count-0": "2", "count-1": "6"},
                            **HTMX).content.decode()
    assert "Anna, Ben both have 38: the most food tokens left decided (6 to 2)." in page
    assert {p.player.name: p.place for p in play.participants.all()} == {
        "Ben": 1, "Anna": 2, "Carla": 3}


def test_a_stored_result_the_engine_refuses_still_shows_the_pad(host_client, counted_sheet):
    finish_level(host_client, counted_sheet)
    rounds = counted_sheet.result["rounds"]
    rounds[3] = {side: 10**9 for side in rounds[3]}  # beyond any score the engine takes
    Play.objects.filter(pk=counted_sheet.pk).update(
        result={**counted_sheet.result, "rounds": rounds})
    assert host_client.get(counted_sheet.get_absolute_url()).status_code == 200
