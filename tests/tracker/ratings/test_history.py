"""The household's ratings kept in the cache: a result entered tonight is added on to them,
anything else rates the whole history again, and either way they are the history's own."""

from datetime import UTC, date, datetime

import pytest
from django.core.cache import cache

from tests.factories import GameNightFactory, OwnGameFactory, played_own_game
from tracker.ratings import history
from tracker.ratings.history import household_ratings, read_history
from tracker.ratings.skill import Rater, rate_history
from tracker.table.models import Play
from tracker.table.recording import record_result, start_play

pytestmark = pytest.mark.django_db


@pytest.fixture
def uno(household):
    return OwnGameFactory(household=household, name="Uno")


@pytest.fixture
def rated(monkeypatch):
    """The plays rated, one by one: a list to look at and empty."""
    plays = []
    add = Rater.add
    monkeypatch.setattr(Rater, "add", lambda rater, play: plays.append(play) or add(rater, play))
    return plays


def rated_by(rated, household):
    """How many plays the household's ratings rated to be shown."""
    rated.clear()
    household_ratings(household)
    return len(rated)


def uno_play(household, night, uno, players, *points):
    return played_own_game(household, night, uno, players, {
        "scores": {player.key: value for player, value in zip(players, points, strict=True)}})


def assert_the_history_s_own(household):
    """The ratings shown are those of the whole history rated at once."""
    shown = household_ratings(household)
    fresh = rate_history(play.rated for play in read_history(household).values() if play.rated)
    assert shown.skills == fresh.skills
    assert shown.months == fresh.months


def test_a_result_entered_tonight_is_added_on(household, night, family, uno, rated):
    anna, ben, carla = family[:3]
    uno_play(household, night, uno, [anna, ben], 10, 5)
    assert rated_by(rated, household) == 1
    uno_play(household, night, uno, [ben, carla], 8, 2)
    uno_play(household, night, uno, [carla, anna], 9, 1)
    assert rated_by(rated, household) == 2
    assert household_ratings(household).skill("", carla.pk).plays == 2
    assert_the_history_s_own(household)
    assert rated_by(rated, household) == 0


def test_a_correction_of_an_earlier_play_rates_the_history_again(household, night, family, uno,
                                                                  rated):
    anna, ben = family[:2]
    first = uno_play(household, night, uno, [anna, ben], 10, 5)
    uno_play(household, night, uno, [anna, ben], 7, 6)
    anna_before = household_ratings(household).skill("", anna.pk).mu
    first.refresh_from_db()
    record_result(first, {"scores": {anna.key: 1, ben.key: 9}}, expected_version=first.version)
    assert rated_by(rated, household) == 2
    assert household_ratings(household).skill("", anna.pk).mu < anna_before
    assert_the_history_s_own(household)


def test_a_correction_counts_even_when_the_clock_went_back(household, night, family, uno,
                                                           rated):
    """A home server without a clock of its own may start in the past: a correction is
    told by its play's version, not its time."""
    anna, ben = family[:2]
    first = uno_play(household, night, uno, [anna, ben], 10, 5)
    uno_play(household, night, uno, [anna, ben], 7, 6)
    household_ratings(household)
    first.refresh_from_db()
    record_result(first, {"scores": {anna.key: 1, ben.key: 9}}, expected_version=first.version)
    Play.objects.filter(pk=first.pk).update(updated_at=datetime(2001, 1, 1, tzinfo=UTC))
    assert rated_by(rated, household) == 2
    assert_the_history_s_own(household)


def test_a_correction_of_the_newest_play_rates_the_history_again(household, night, family, uno,
                                                                 rated):
    anna, ben = family[:2]
    uno_play(household, night, uno, [anna, ben], 10, 5)
    newest = uno_play(household, night, uno, [anna, ben], 7, 6)
    household_ratings(household)
    newest.refresh_from_db()
    record_result(newest, {"scores": {anna.key: 1, ben.key: 9}}, expected_version=newest.version)
    assert rated_by(rated, household) == 2
    assert_the_history_s_own(household)


def test_a_play_deleted_or_left_out_rates_the_history_again(household, night, family, uno,
                                                            rated):
    anna, ben = family[:2]
    first = uno_play(household, night, uno, [anna, ben], 10, 5)
    second = uno_play(household, night, uno, [anna, ben], 10, 5)
    third = uno_play(household, night, uno, [anna, ben], 10, 5)
    household_ratings(household)
    Play.objects.filter(pk=first.pk).delete()
    assert rated_by(rated, household) == 2
    second.in_statistics = False
    second.save()
    assert rated_by(rated, household) == 1
    assert household_ratings(household).skill("", anna.pk).plays == 1
    assert_the_history_s_own(household)
    Play.objects.filter(pk=third.pk).delete()
    assert rated_by(rated, household) == 0
    assert household_ratings(household).skill("", anna.pk).plays == 0


def test_a_game_started_before_the_last_one_rated_rates_the_history_again(
        household, night, family, uno, rated):
    """Two tables at once: the game started first ends last, and takes its place by its
    start among the plays rated."""
    anna, ben, carla, david = family
    started_first = start_play(household=household, game="generic", own_game=uno,
                               players=[anna, ben], game_night=night)
    uno_play(household, night, uno, [carla, david], 4, 6)
    household_ratings(household)
    record_result(started_first, {"scores": {anna.key: 3, ben.key: 5}},
                  expected_version=started_first.version)
    assert rated_by(rated, household) == 2
    assert household_ratings(household).skill("", ben.pk).plays == 1
    assert_the_history_s_own(household)


def test_the_cache_emptied_reads_the_history_again(household, night, family, uno, rated):
    anna, ben = family[:2]
    uno_play(household, night, uno, [anna, ben], 10, 5)
    household_ratings(household)
    cache.clear()
    assert rated_by(rated, household) == 1
    assert household_ratings(household).skill("", anna.pk).plays == 1


def test_a_seat_changed_in_the_admin_counts(household, night, family, uno, rated):
    """The admin saves a play without counting its version up: its latest change tells."""
    anna, ben, carla = family[:3]
    first = uno_play(household, night, uno, [anna, ben], 10, 5)
    uno_play(household, night, uno, [anna, ben], 7, 6)
    household_ratings(household)
    seat = first.participants.get(player=ben)
    seat.player = carla
    seat.save()
    Play.objects.get(pk=first.pk).save()
    assert household_ratings(household).skill("", carla.pk).plays == 1
    assert_the_history_s_own(household)


def test_a_night_moved_to_another_day_rates_in_the_new_order(household, family, uno, rated):
    anna, ben = family[:2]
    earlier = GameNightFactory(household=household, date=date(2026, 3, 1))
    later = GameNightFactory(household=household, date=date(2026, 3, 8))
    uno_play(household, earlier, uno, [anna, ben], 10, 5)
    uno_play(household, later, uno, [anna, ben], 3, 9)
    household_ratings(household)
    earlier.date = date(2026, 3, 15)
    earlier.save()
    assert set(household_ratings(household).months[("", anna.pk)]) == {"2026-03"}
    assert_the_history_s_own(household)
    uno_play(household, earlier, uno, [anna, ben], 4, 8)
    assert_the_history_s_own(household)


def test_ratings_kept_by_another_version_of_the_app_are_made_again(household, night, family,
                                                                   uno):
    anna, ben = family[:2]
    uno_play(household, night, uno, [anna, ben], 10, 5)
    key = f"ratings:{history.KEPT_FORMAT}.{Rater.FORMAT}:{household.pk}"
    cache.set(key, {"an older": "shape"})
    assert household_ratings(household).skill("", anna.pk).plays == 1
    cache._cache[cache.make_and_validate_key(key)] = b"not a pickle"  # as a file cache may hold
    assert household_ratings(household).skill("", anna.pk).plays == 1


def test_team_and_co_operative_plays_are_added_on_as_rated_at_once(household, night, family,
                                                                    uno, rated):
    anna, ben, carla, david = family
    uno_play(household, night, uno, [anna, ben], 10, 5)
    household_ratings(household)
    canasta = OwnGameFactory(household=household, name="Canasta", teams=True)
    played_own_game(household, night, canasta, family, {
        "teams": {"Rot": [anna.key, carla.key], "Blau": [ben.key, david.key]},
        "scores": {"Rot": 500, "Blau": 300}})
    hanabi = OwnGameFactory(household=household, name="Hanabi", scoring="cooperative")
    played_own_game(household, night, hanabi, family[:3], {"won": True, "score": 20})
    assert rated_by(rated, household) == 1  # the team play; the co-operative one rates nobody
    assert household_ratings(household).skill("", carla.pk).plays == 1
    assert_the_history_s_own(household)
