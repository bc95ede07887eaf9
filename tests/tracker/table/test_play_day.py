"""Each play's day: the night's date, or the household's local day, kept right when things move."""

import datetime
from unittest import mock

from django.utils import timezone

from tests.factories import GameNightFactory, OwnGameFactory, SeriesFactory
from tracker.table.models import Play
from tracker.table.recording import start_play


def test_a_play_of_a_night_is_dated_by_the_night(household, family):
    night = GameNightFactory(household=household, date=datetime.date(2024, 3, 1))
    play = start_play(household=household, game="generic",
                      own_game=OwnGameFactory(household=household),
                      players=family[:2], game_night=night)
    assert Play.objects.get(pk=play.pk).played_on == datetime.date(2024, 3, 1)


def test_a_series_race_late_in_the_evening_counts_for_the_local_day(household, family):
    # 23:30 UTC on New Year's Eve is already New Year's Day in Berlin.
    late = datetime.datetime(2024, 12, 31, 23, 30, tzinfo=datetime.UTC)
    series = SeriesFactory(household=household)
    with mock.patch.object(timezone, "now", return_value=late):
        race = start_play(household=household, game="maus_im_nacken", players=family[:2],
                          series=series, race_number=1)
    assert Play.objects.get(pk=race.pk).played_on == datetime.date(2025, 1, 1)


def test_a_play_moved_to_another_night_takes_its_date(household, family):
    first = GameNightFactory(household=household, date=datetime.date(2024, 3, 1))
    second = GameNightFactory(household=household, date=datetime.date(2024, 3, 8))
    play = start_play(household=household, game="generic",
                      own_game=OwnGameFactory(household=household),
                      players=family[:2], game_night=first)
    play = Play.objects.get(pk=play.pk)
    play.game_night = second
    play.save()
    assert Play.objects.get(pk=play.pk).played_on == datetime.date(2024, 3, 8)


def test_a_night_moved_to_another_date_takes_its_plays_along(household, family, host_client):
    night = GameNightFactory(household=household, date=datetime.date(2024, 3, 1))
    play = start_play(household=household, game="generic",
                      own_game=OwnGameFactory(household=household),
                      players=family[:2], game_night=night)
    night = type(night).objects.get(pk=night.pk)
    night.date = datetime.date(2024, 2, 29)
    night.save()
    assert Play.objects.get(pk=play.pk).played_on == datetime.date(2024, 2, 29)
    response = host_client.get("/history/?since=2024-02-29&until=2024-02-29")
    assert [entry["object"].pk for entry in response.context["entries"]
            if entry["kind"] == "play"] == [play.pk]
