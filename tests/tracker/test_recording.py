"""Results reach the database only through the rules engine, and never overwrite silently."""

import pytest

from games import InvalidResult
from tests.factories import GameNightFactory, SeriesFactory
from tracker.models import KniffelCell, Play
from tracker.recording import EditConflict, record_result, start_play, write_cell

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
