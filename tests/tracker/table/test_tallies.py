"""The running totals behind the player pages follow every finish, correction and abandonment."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.tracker.looking_back.stats_fixtures import build_history, finish_generic, uno_key
from tracker.households.models import Player
from tracker.looking_back import stats
from tracker.table import tallies
from tracker.table.models import HeadToHeadTally, KniffelFieldTally
from tracker.table.recording import abandon_play, record_result, start_play, undo_cell, write_cell

SHEET = {"ones": 3, "twos": 4, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
         "three_of_a_kind": 20, "four_of_a_kind": 0, "full_house": 25, "small_straight": 30,
         "large_straight": 40, "kniffel": 50, "chance": 22}


def fill(play, player, sheet):
    for field, points in sheet.items():
        play.refresh_from_db()
        write_cell(play, player, field, points, expected_version=None)


def kniffel_game(household, night, players, sheets):
    play = start_play(household=household, game="kniffel", players=players, game_night=night)
    for player, sheet in zip(players, sheets, strict=True):
        fill(play, player, sheet)
    play.refresh_from_db()
    return play


def stored() -> tuple[set, set]:
    fields = {row for row in KniffelFieldTally.objects.values_list(
        "player", "game", "field", "cells", "points", "scored") if row[3]}
    meetings = {row for row in HeadToHeadTally.objects.values_list(
        "player", "opponent", "game", "together", "ahead", "behind") if row[3]}
    return fields, meetings


@pytest.fixture
def players(family):
    return {player.pk: player for player in family}


def test_the_running_totals_equal_a_rebuild_after_finishes_corrections_and_abandonments(
        household, night, family):
    anna, ben, carla, _david = family
    history = build_history(household, family)
    first = kniffel_game(household, night, [anna, ben], [SHEET, {**SHEET, "kniffel": 0}])
    second = kniffel_game(household, night, [anna, carla], [SHEET, SHEET])
    write_cell(first, ben, "chance", 30, expected_version=1)  # a finished sheet corrected
    second.refresh_from_db()
    undo_cell(second, expected_version=second.version)  # back under way: out of the numbers
    second.refresh_from_db()
    write_cell(second, carla, "chance", 5, expected_version=None)  # finished again
    third = kniffel_game(household, night, [ben, carla], [SHEET, SHEET])
    abandon_play(third, expected_version=third.version)  # a finished game abandoned
    p1 = history["plays"][0]
    p1.refresh_from_db()
    record_result(p1, {"scores": {anna.key: 1, ben.key: 7, carla.key: 9}},
                  expected_version=p1.version)  # places corrected
    finish_generic(household, night, [(ben, 4), (carla, 4)])
    incremental = stored()

    tallies.rebuild()

    assert stored() == incremental
    assert not any(row[:3] == (ben.pk, carla.pk, "kniffel") for row in incremental[1])


def test_a_corrected_result_turns_the_head_to_head_round(household, night, family, players):
    anna, ben = family[:2]
    play = finish_generic(household, night, [(anna, 10), (ben, 3)])

    def against_ben():
        line = next(line for line in stats.player_stats(anna, players)["head_to_head"]
                    if line.opponent == ben)
        return line.together, line.ahead, line.behind

    assert against_ben() == (1, 1, 0)
    record_result(play, {"scores": {anna.key: 2, ben.key: 3}}, expected_version=play.version)
    assert against_ben() == (1, 0, 1)
    play.refresh_from_db()
    abandon_play(play, expected_version=play.version)
    assert stats.player_stats(anna, players)["head_to_head"] == []


def test_field_averages_follow_a_corrected_cell_and_leave_an_abandoned_game_out(
        household, night, family, players):
    anna, ben = family[:2]
    play = kniffel_game(household, night, [anna, ben], [SHEET, {**SHEET, "chance": 10}])

    def chance():
        profile = stats.player_stats(anna, players)["kniffel"]
        field = next(field for field in profile["fields"] if field["key"] == "chance")
        return field["mine"], field["household"], profile["kniffels"]

    assert chance() == (22, 16, 1)
    write_cell(play, anna, "chance", 30, expected_version=1)
    assert chance() == (30, 20, 1)
    play.refresh_from_db()
    abandon_play(play, expected_version=play.version)
    assert stats.player_stats(anna, players)["kniffel"] is None


def test_a_game_under_way_adds_nothing_until_it_is_finished(household, night, family, players):
    anna, ben = family[:2]
    play = start_play(household=household, game="kniffel", players=[anna, ben],
                      game_night=night)
    fill(play, anna, SHEET)
    assert stored() == (set(), set())


def test_renaming_a_player_keeps_the_totals(household, night, family, players, host_client):
    anna, ben = family[:2]
    finish_generic(household, night, [(anna, 10), (ben, 3)])
    ben.name = "Benjamin"
    ben.save()
    page = host_client.get(reverse("player_detail", args=[anna.pk])).content.decode()
    assert "Benjamin" in page
    assert stored()[1] == {(anna.pk, ben.pk, uno_key(household), 1, 1, 0),
                           (ben.pk, anna.pk, uno_key(household), 1, 0, 1)}


def test_the_rebuild_command_repairs_totals_changed_past_the_recording_layer(
        household, night, family):
    anna, ben = family[:2]
    finish_generic(household, night, [(anna, 10), (ben, 3)])
    expected = stored()
    HeadToHeadTally.objects.update(together=99)
    Player.objects.filter(pk=anna.pk).update(name="Anne")

    call_command("rebuild_tallies", stdout=io.StringIO())

    assert stored() == expected
