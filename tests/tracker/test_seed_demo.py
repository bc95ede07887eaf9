from io import StringIO

import pytest
from django.core.management import call_command

from tracker.models import GameNight, Household, KniffelCell, Play, Player, Series

pytestmark = pytest.mark.django_db


def counts():
    return [model.objects.count() for model in (Household, Player, GameNight, Series, Play,
                                                KniffelCell)]


def test_demo_family_is_loaded_once():
    call_command("seed_demo", stdout=StringIO())
    first = counts()
    output = StringIO()
    call_command("seed_demo", stdout=output)
    assert "nothing to do" in output.getvalue()
    assert counts() == first


def test_demo_has_a_finished_series_and_open_and_finished_kniffel():
    call_command("seed_demo", stdout=StringIO())
    series = Series.objects.get()
    assert series.status == Series.Status.FINISHED
    assert series.plays.filter(status=Play.Status.FINISHED).count() == 5
    standings = series.standings()
    assert standings[0].rank == 1 and standings[0].total > standings[-1].total
    kniffel = Play.objects.filter(game="kniffel")
    assert {play.status for play in kniffel} == {Play.Status.FINISHED, Play.Status.IN_PROGRESS}
