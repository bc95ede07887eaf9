"""How long a game takes: the middle half of its lengths, per number of players, on its page."""

import pytest

from tests.factories import GameNightFactory
from tests.tracker.looking_back.stats_fixtures import finish_generic, uno_key
from tracker.looking_back.lengths import typical_lengths
from tracker.table.models import Play
from tracker.table.recording import abandon_play

pytestmark = pytest.mark.django_db


def uno(household, players, minutes, **fields):
    """A finished game of Uno of ``players`` that took ``minutes``."""
    night = GameNightFactory(household=household)
    play = finish_generic(household, night, [(player, 10 - seat)
                                             for seat, player in enumerate(players)])
    Play.objects.filter(pk=play.pk).update(length_minutes=minutes, **fields)
    return play


def test_the_middle_half_of_the_lengths_per_number_of_players(household, family):
    for minutes in (20, 25, 30, 35, 90):
        uno(household, family, minutes)
    for minutes in (10, 15):
        uno(household, family[:2], minutes)
    for minutes in (30, 30, 30):
        uno(household, family[:3], minutes)
    lengths = typical_lengths(household, uno_key(household))
    assert [(row.players, row.plays, row.shortest, row.longest) for row in lengths] == [
        (3, 3, 30, 30), (4, 5, 25, 35)]


def test_abandoned_plays_plays_out_of_statistics_and_unknown_lengths_do_not_count(
        household, family):
    for minutes in (20, 30):
        uno(household, family[:2], minutes)
    uno(household, family[:2], None)
    uno(household, family[:2], 40, in_statistics=False)
    gone = uno(household, family[:2], 50)
    abandon_play(gone, expected_version=gone.version)
    assert typical_lengths(household, uno_key(household)) == []
    uno(household, family[:2], 40)
    assert [(row.plays, row.shortest, row.longest)
            for row in typical_lengths(household, uno_key(household))] == [(3, 25, 35)]


def test_the_game_page_says_how_long_the_game_takes(host_client, household, family):
    for minutes in (25, 30, 40):
        uno(household, family, minutes)
    for minutes in (10, 10, 10):
        uno(household, family[:2], minutes)
    page = host_client.get(f"/games/{uno_key(household)}/").content.decode()
    assert "How long it takes" in page
    assert "Uno takes about 10 minutes with 2 players." in page
    assert "Uno takes 28–35 minutes with 4 players." in page


def test_a_game_page_without_lengths_says_nothing_of_them(host_client, household, family):
    uno(household, family, 30)
    page = host_client.get(f"/games/{uno_key(household)}/").content.decode()
    assert "How long it takes" not in page
