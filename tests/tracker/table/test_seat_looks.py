"""Everyone at a table looks different from the others there: a colour taken at the table is
swapped for a free one, and past ten players a colour comes again with a marker."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import OwnGameFactory, PlayerFactory
from tracker.households.models import COLOURS, seat_looks
from tracker.room.models import ShareLink
from tracker.table.recording import record_result, start_play

pytestmark = pytest.mark.django_db
RED, BLUE, YELLOW = (colour for colour, _label in COLOURS[:3])


def test_the_first_keeps_a_colour_and_a_later_one_takes_a_free_one():
    assert seat_looks([RED, BLUE, RED]) == [(RED, 0), (BLUE, 0), (YELLOW, 0)]


def test_twelve_players_of_one_colour_all_look_different():
    looks = seat_looks([RED] * 12)
    assert len(set(looks)) == 12
    assert looks[0] == (RED, 0) and looks[10:] == [(RED, 1), (BLUE, 1)]


def test_a_table_of_cousins_shows_each_look_and_says_which_changed(host_client, household,
                                                                    night):
    cousins = [PlayerFactory(household=household, name=f"Cousin {number}", colour=RED)
               for number in range(1, 13)]
    game = OwnGameFactory(household=household, name="Skyjo")
    play = start_play(household=household, game="generic", own_game=game, players=cousins,
                      game_night=night)
    page = host_client.get(play.get_absolute_url()).content.decode()
    heads = page[page.index("<thead>"):page.index("</thead>")]
    looks = [heads.count(f"colour-{colour.removeprefix('#')}") for colour, _l in COLOURS]
    assert looks == [2, 2] + [1] * 8  # red and blue twice, once with a ring
    assert heads.count("marker-1") == 2
    assert "So that nobody at this table looks like another:" in page
    assert "Cousin 2 is Blue here" in page
    assert "Cousin 11 is Red with a ring here" in page
    assert "Cousin 1 is" not in page  # the first keeps her colour


def test_a_table_whose_colours_differ_says_nothing(host_client, household, night):
    players = [PlayerFactory(household=household, name=name, colour=colour)
               for name, colour in (("Ada", RED), ("Bea", BLUE))]
    play = start_play(household=household, game="kniffel", players=players, game_night=night)
    page = host_client.get(play.get_absolute_url()).content.decode()
    assert "looks like another" not in page


def test_the_room_s_board_shows_each_player_as_the_table_does(household, night):
    """Mau Mau's places on the TV: Ben, red like Anna at home, is blue at this table, on
    the board as on the tablets, and the winner's dot on top is the same as in the list."""
    anna, ben = (PlayerFactory(household=household, name=name, colour=RED)
                 for name in ("Ada", "Bo"))
    play = start_play(household=household, game="mau_mau", players=[anna, ben],
                      game_night=night)
    record_result(play, {"winner": ben.key}, expected_version=play.version)
    link = ShareLink.objects.create(household=household, play=play)
    board = Client().get(reverse("board", args=[link.token])).content.decode()
    rows = board[board.index("<tbody>"):board.index("</tbody>")]
    assert rows.count("colour-d62828") == 1 and rows.count("colour-1d4ed8") == 1
    leader = board[board.index('class="board-leader"'):board.index("</p>",
                                                                    board.index("board-leader"))]
    assert "colour-1d4ed8" in leader  # Bo won, in blue
