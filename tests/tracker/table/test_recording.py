"""Results reach the database only through the rules engine, and never overwrite silently."""

from datetime import date, datetime

import pytest
from django.db import transaction

from games import InvalidResult
from tests.factories import GameNightFactory, SeriesFactory
from tracker.table.models import KniffelCell, Play, PlayChange
from tracker.table.recording import (
    EditConflict,
    PlayAbandoned,
    abandon_play,
    lock_sheet,
    record_result,
    start_play,
    write_cell,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(household):
    return GameNightFactory(household=household)


@pytest.fixture
def race(household, night, family):
    return start_play(household=household, game="maus_im_nacken", players=family[:2],
                      game_night=night)


def elephants(family, first, second):
    return {"elephants": {family[0].key: first, family[1].key: second}}


def test_an_accepted_result_stores_points_and_places(race, family, host):
    record_result(race, elephants(family, ["home:1", "seat:5", "caught", "pyramid"],
                                  ["home:2", "seat:8", "seat:3", "caught"]),
                  expected_version=race.version, user=host)
    race.refresh_from_db()
    assert race.status == Play.Status.FINISHED
    assert race.version == 2
    stored = {p.player.name: (p.points, p.place) for p in race.participants.all()}
    assert stored == {"Anna": (18, 2), "Ben": (23, 1)}
    assert race.result["elephants"][family[0].key][0] == "home:1"


def test_a_rejected_result_saves_nothing(race, family):
    with pytest.raises(InvalidResult) as refused:
        record_result(race, elephants(family, ["home:1", "caught", "caught", "caught"],
                                      ["home:1", "caught", "caught", "caught"]),
                      expected_version=race.version)
    assert refused.value.problems[0].in_language("en", race.player_names()).startswith("Ben:")
    race.refresh_from_db()
    assert (race.status, race.version, race.result) == (Play.Status.IN_PROGRESS, 1, {})
    assert [p.points for p in race.participants.all()] == [None, None]


def test_a_result_based_on_an_old_version_is_a_conflict(race, family):
    first = elephants(family, ["home:1", "caught", "caught", "caught"], ["caught"] * 4)
    record_result(race, first, expected_version=1)
    second = elephants(family, ["caught"] * 4, ["home:1", "caught", "caught", "caught"])
    with pytest.raises(EditConflict):
        record_result(race, second, expected_version=1)
    race.refresh_from_db()
    assert race.result == first


def test_setup_outside_the_rules_is_refused(household, night, family):
    with pytest.raises(InvalidResult):
        start_play(household=household, game="maus_im_nacken", players=family[:1],
                   game_night=night)
    with pytest.raises(InvalidResult):
        start_play(household=household, game="kniffel", players=family, game_night=night,
                   house_rules={"joker": "anything goes"})
    assert not Play.objects.exists()


@pytest.fixture
def kniffel(household, night, family):
    return start_play(household=household, game="kniffel", players=family[:2], game_night=night)


def test_cells_add_up_on_the_play(kniffel, family, host):
    write_cell(kniffel, family[0], "sixes", 24, expected_version=None, dice=[6, 6, 6, 6, 1],
               user=host)
    write_cell(kniffel, family[1], "full_house", 25, expected_version=None, user=host)
    kniffel.refresh_from_db()
    assert {p.player.name: p.points for p in kniffel.participants.all()} == {"Anna": 24,
                                                                             "Ben": 25}
    assert kniffel.status == Play.Status.IN_PROGRESS
    cell = KniffelCell.objects.get(player=family[0])
    assert (cell.dice, cell.entered_by, cell.version) == ([6, 6, 6, 6, 1], host, 1)


def test_an_impossible_cell_is_not_saved(kniffel, family):
    with pytest.raises(InvalidResult) as refused:
        write_cell(kniffel, family[1], "full_house", 24, expected_version=None)
    assert str(refused.value.problems[0]).endswith("Full House scores 0 or 25, not 24.")
    assert not KniffelCell.objects.exists()


def test_two_tablets_writing_the_same_cell_do_not_overwrite_each_other(kniffel, family):
    write_cell(kniffel, family[0], "chance", 20, expected_version=None)
    with pytest.raises(EditConflict):
        write_cell(kniffel, family[0], "chance", 22, expected_version=None)
    write_cell(kniffel, family[0], "chance", 23, expected_version=1)
    with pytest.raises(EditConflict):
        write_cell(kniffel, family[0], "chance", 5, expected_version=1)
    cell = KniffelCell.objects.get()
    assert (cell.points, cell.version) == (23, 2)


def test_a_correction_on_an_older_version_changes_nothing_and_names_the_stored_cell(
        kniffel, family, host):
    write_cell(kniffel, family[0], "chance", 20, expected_version=None, user=host)
    write_cell(kniffel, family[0], "chance", 23, expected_version=1, user=host)
    before = Play.objects.get(pk=kniffel.pk)
    with pytest.raises(EditConflict) as conflict:
        write_cell(kniffel, family[0], "chance", 5, expected_version=1, user=host)
    assert (conflict.value.current.points, conflict.value.current.version) == (23, 2)
    after = Play.objects.get(pk=kniffel.pk)
    assert (after.version, after.updated_at, after.result) == (
        before.version, before.updated_at, before.result)
    assert kniffel.changes.count() == 3  # started, entered, corrected


def test_a_cell_on_an_abandoned_play_is_refused(kniffel, family):
    abandon_play(kniffel, expected_version=kniffel.version)
    with pytest.raises(PlayAbandoned):
        write_cell(kniffel, family[0], "chance", 20, expected_version=None)
    assert not KniffelCell.objects.exists()


def test_a_cell_its_correction_and_their_history_keep_dice_dates_and_who(kniffel, family,
                                                                         host):
    first = write_cell(kniffel, family[0], "sixes", 24, expected_version=None,
                       dice=[6, 6, 6, 6, 1], user=host)
    entered = KniffelCell.objects.get()
    kniffel.refresh_from_db()
    saved_at = kniffel.updated_at
    corrected = write_cell(kniffel, family[0], "sixes", 18, expected_version=1, user=host)
    assert (first.pk, first.version, corrected.version) == (entered.pk, 1, 2)
    cell = KniffelCell.objects.get()
    assert (cell.points, cell.dice, cell.version, cell.entered_by) == (18, None, 2, host)
    assert KniffelCell.objects.filter(dice__isnull=True).count() == 1  # SQL NULL, no JSON null
    assert isinstance(cell.entered_at, datetime) and cell.entered_at >= entered.entered_at
    kniffel.refresh_from_db()
    assert (kniffel.version, kniffel.result["sheets"][family[0].key]["sixes"]) == (3, 18)
    assert kniffel.updated_at >= saved_at and isinstance(kniffel.played_on, date)
    assert kniffel.result.get("dice", {}) == {}
    history = list(kniffel.changes.order_by("id").values_list("action", "data", "changed_by"))
    assert history[1:] == [
        (PlayChange.Action.CELL, {"player": family[0].key, "field": "sixes", "points": 24,
                                  "dice": [6, 6, 6, 6, 1]}, host.pk),
        (PlayChange.Action.CELL_CORRECTED, {
            "player": family[0].key, "field": "sixes", "points": 18, "dice": None,
            "previous": {"points": 24, "dice": [6, 6, 6, 6, 1]}}, host.pk)]
    assert all(change.changed_at for change in kniffel.changes.all())
    totals = {p.player_id: (p.points, p.place, p.details["upper_sum"])
              for p in kniffel.participants.all()}
    assert totals == {family[0].pk: (18, None, 18), family[1].pk: (0, None, 0)}


def test_a_locked_sheet_is_the_play_as_stored_with_its_players_in_seat_order(
        kniffel, family, host, django_assert_num_queries):
    write_cell(kniffel, family[1], "chance", 15, expected_version=None, dice=[1, 2, 3, 4, 5])
    stored = Play.objects.get(pk=kniffel.pk)
    with transaction.atomic(), django_assert_num_queries(2):
        locked = lock_sheet(kniffel.pk, member=host)
        seated = [(p.seat, p.player.name, p.play is locked) for p in locked.participants.all()]
    assert seated == [(0, "Anna", True), (1, "Ben", True)]
    for field in Play._meta.concrete_fields:
        assert getattr(locked, field.attname) == getattr(stored, field.attname), field.name
    assert locked.result["dice"] == {family[1].key: {"chance": [1, 2, 3, 4, 5]}}


def test_a_sheet_is_locked_only_for_a_member_of_its_household(kniffel, stranger):
    with transaction.atomic(), pytest.raises(Play.DoesNotExist):
        lock_sheet(kniffel.pk, member=stranger)


def test_series_standings_read_stored_points(household, family):
    series = SeriesFactory(household=household, races_planned=2)
    series.players.set(family[:3])
    for number, homes in enumerate([(1, 2, 3), (3, 1, 2)], start=1):
        play = start_play(household=household, game="maus_im_nacken", players=family[:3],
                          series=series, race_number=number)
        record_result(play, {"elephants": {
            player.key: [f"home:{home}", "caught", "caught", "caught"]
            for player, home in zip(family[:3], homes, strict=True)}}, expected_version=1)
    rows = [(r.player, r.total, r.rank) for r in series.standings()]
    anna, ben, carla = (p.key for p in family[:3])
    assert rows == [(ben, 25, 1), (anna, 24, 2), (carla, 23, 3)]
