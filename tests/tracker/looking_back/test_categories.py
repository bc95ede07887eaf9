"""Sheets by categories looked back on: a player's average and best per category, the
category that decides the game most often, and the sheet on the TV board."""

import re

import pytest
from django.urls import reverse

from tests.factories import OwnGameFactory, played_own_game
from tracker.room.models import ShareLink
from tracker.table.models import Play
from tracker.table.recording import start_play
from tracker.table.rounds import set_round_points

pytestmark = pytest.mark.django_db
CATEGORIES = [{"name": "Birds", "minus": False}, {"name": "Eggs", "minus": False},
              {"name": "Penalties", "minus": True}]


@pytest.fixture
def wingspan(household):
    return OwnGameFactory(household=household, name="Flügelschlag", sheet="categories",
                          categories=CATEGORIES)


def sheet_play(household, night, game, players, rows):
    """A finished play with ``rows``: per category, each player's points in seat order."""
    keys = [player.key for player in players]
    return played_own_game(household, night, game, players, {
        "rounds": [dict(zip(keys, row, strict=True)) for row in rows], "finished": True})


def test_a_player_page_shows_the_average_and_best_per_category(host_client, household, night,
                                                               family, wingspan):
    anna, ben = family[:2]
    sheet_play(household, night, wingspan, [anna, ben], [(38, 30), (9, 12), (-2, 0)])
    sheet_play(household, night, wingspan, [anna, ben], [(52, 41), (5, 3), (0, -4)])
    page = host_client.get(reverse("player_detail", args=[anna.pk])).content.decode()
    section = page[page.index('id="categories"'):]
    assert "Flügelschlag" in section
    assert re.search(r"Birds</th><td[^>]*>45</td><td[^>]*>52</td><td[^>]*>2</td>", section)
    assert re.search(r"Eggs</th><td[^>]*>7</td><td[^>]*>9</td>", section)
    assert re.search(r"− Penalties</th><td[^>]*>-1</td><td[^>]*>0</td>", section)


def test_a_team_member_is_counted_with_the_team_s_points(host_client, household, night, family):
    game = OwnGameFactory(household=household, name="Team-Wertung", teams=True,
                          sheet="categories", categories=CATEGORIES[:2])
    anna, ben, carla, david = family
    played_own_game(household, night, game, family, {
        "teams": {"Rot": [anna.key, carla.key], "Blau": [ben.key, david.key]},
        "rounds": [{"Rot": 20, "Blau": 25}, {"Rot": 4, "Blau": 1}], "finished": True})
    page = host_client.get(reverse("player_detail", args=[carla.pk])).content.decode()
    assert re.search(r"Birds</th><td[^>]*>20</td>", page[page.index('id="categories"'):])


def test_the_game_page_names_the_category_that_decides_most_often(host_client, household,
                                                                  night, family, wingspan):
    anna, ben = family[:2]
    sheet_play(household, night, wingspan, [anna, ben], [(40, 30), (5, 6), (0, 0)])
    sheet_play(household, night, wingspan, [anna, ben], [(30, 35), (9, 2), (0, -3)])
    sheet_play(household, night, wingspan, [anna, ben], [(30, 39), (2, 2), (0, 0)])
    sheet_play(household, night, wingspan, [anna, ben], [(30, 30), (2, 2), (0, 0)])  # a tie
    page = host_client.get(reverse("game_stats", args=[f"own-{wingspan.pk}"])).content.decode()
    assert "Birds decided 2 of 3 games with one winner" in page


def test_an_ignored_or_abandoned_sheet_counts_nowhere(host_client, household, night, family,
                                                     wingspan):
    anna, ben = family[:2]
    play = sheet_play(household, night, wingspan, [anna, ben], [(40, 30), (5, 6), (0, 0)])
    Play.objects.filter(pk=play.pk).update(in_statistics=False)
    page = host_client.get(reverse("player_detail", args=[anna.pk])).content.decode()
    assert 'id="categories"' not in page


def test_the_board_shows_the_sheet_by_categories(client, household, night, family, wingspan):
    play = start_play(household=household, game="generic", own_game=wingspan,
                      players=family[:2], game_night=night)
    set_round_points(play, 1, family[0].key, 38, expected_version=play.version)
    set_round_points(play, 3, family[1].key, -4, expected_version=play.version)
    link = ShareLink.objects.create(household=household, play=play)
    board = client.get(reverse("board", args=[link.token])).content.decode()
    assert re.search(r'Birds</th><td class="num">38</td><td class="num"><span class="to-go">',
                     board)
    assert re.search(r"− Penalties</th><td[^>]*><span[^>]*>–</span></td><td[^>]*>-4</td>",
                     board)


def test_where_the_fewest_points_win_the_best_is_the_least(host_client, household, night,
                                                           family):
    golf = OwnGameFactory(household=household, name="Minigolf", scoring="fewest_points",
                          sheet="categories", categories=CATEGORIES[:2])
    anna, ben = family[:2]
    sheet_play(household, night, golf, [anna, ben], [(30, 40), (5, 5)])
    sheet_play(household, night, golf, [anna, ben], [(24, 40), (9, 5)])
    page = host_client.get(reverse("player_detail", args=[anna.pk])).content.decode()
    assert re.search(r"Birds</th><td[^>]*>27</td><td[^>]*>24</td>",
                     page[page.index('id="categories"'):])
