"""The database itself refuses what must never be stored."""

import pytest
from django.db import IntegrityError, transaction

from tests.factories import GameNightFactory, HouseholdFactory, PlayerFactory, SeriesFactory
from tracker.households.models import Player
from tracker.table.models import KniffelCell, Participant, Play
from tracker.table.recording import start_play

pytestmark = pytest.mark.django_db


def refused(create):
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


def test_player_names_are_unique_in_a_household_whatever_the_case(household):
    PlayerFactory(household=household, name="Anna")
    refused(lambda: PlayerFactory(household=household, name="anna"))
    refused(lambda: PlayerFactory(household=household, name="  ANNA "))
    assert PlayerFactory(household=HouseholdFactory(), name="Anna").pk


def test_player_name_is_tidied_and_never_empty(household):
    assert PlayerFactory(household=household, name="  Anna   Lena ").name == "Anna Lena"
    refused(lambda: PlayerFactory(household=household, name="   "))
    refused(lambda: Player.objects.create(household=household, name="Zoe", colour="#123456"))


@pytest.fixture
def night(household):
    return GameNightFactory(household=household)


@pytest.fixture
def kniffel(household, night, family):
    return start_play(household=household, game="kniffel", players=family[:2], game_night=night)


def test_one_kniffel_cell_per_player_and_field(kniffel, family):
    KniffelCell.objects.create(play=kniffel, player=family[0], field="chance", points=20)
    refused(lambda: KniffelCell.objects.create(play=kniffel, player=family[0], field="chance",
                                               points=21))
    assert KniffelCell.objects.create(play=kniffel, player=family[1], field="chance", points=21)


@pytest.mark.parametrize("values", [{"points": -1}, {"version": 0}, {"field": "yahtzee"}])
def test_kniffel_cell_values_are_checked(kniffel, family, values):
    refused(lambda: KniffelCell.objects.create(
        play=kniffel, player=family[0], **({"field": "chance", "points": 20} | values)))


def test_stale_cell_version_updates_nothing(kniffel, family):
    cell = KniffelCell.objects.create(play=kniffel, player=family[0], field="chance", points=20)
    assert KniffelCell.objects.filter(pk=cell.pk, version=1).update(points=22, version=2) == 1
    assert KniffelCell.objects.filter(pk=cell.pk, version=1).update(points=25, version=2) == 0
    cell.refresh_from_db()
    assert (cell.points, cell.version) == (22, 2)


def test_a_play_belongs_to_a_night_or_a_series(household):
    refused(lambda: Play.objects.create(household=household, game="kniffel"))


def test_a_play_is_of_a_registered_game(household, night):
    refused(lambda: Play.objects.create(household=household, game_night=night, game="chess"))
    refused(lambda: Play.objects.create(household=household, game_night=night, game="kniffel",
                                        status="lost"))


def test_one_play_per_race_of_a_series(household):
    series = SeriesFactory(household=household)
    Play.objects.create(household=household, series=series, race_number=1, game="maus_im_nacken")
    refused(lambda: Play.objects.create(household=household, series=series, race_number=1,
                                        game="maus_im_nacken"))
    refused(lambda: Play.objects.create(household=household, series=series, race_number=0,
                                        game="maus_im_nacken"))


def test_a_seat_holds_one_player_who_plays_once(kniffel, family):
    refused(lambda: Participant.objects.create(play=kniffel, player=family[2], seat=0))
    refused(lambda: Participant.objects.create(play=kniffel, player=family[0], seat=5))
    refused(lambda: Participant.objects.create(play=kniffel, player=family[2], seat=3, place=0))


def test_series_races_are_agreed_between_1_and_100(household):
    refused(lambda: SeriesFactory(household=household, races_planned=0))
    refused(lambda: SeriesFactory(household=household, game="chess"))
