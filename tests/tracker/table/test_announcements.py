"""What a screen reader hears when a game changes: the latest entry, who leads (a team, the
fewest points), whose turn it is, who won."""

import pytest

from tests.factories import OwnGameFactory
from tracker.table.recording import record_result, start_play, write_cell
from tracker.table.rounds import add_round, finish_own_game
from tracker.table.score_pad import pad_context
from tracker.table.sheet import sheet_context

pytestmark = pytest.mark.django_db


def sheet_said(play) -> str:
    play.refresh_from_db()
    return sheet_context(play)["sheet"].announcement


def test_a_kniffel_entry_says_the_points_the_leader_and_the_turn(household, night, family):
    anna, ben = family[:2]
    play = start_play(household=household, game="kniffel", players=[anna, ben],
                      game_night=night)
    assert sheet_said(play) == "Anna's turn."
    write_cell(play, anna, "full_house", 25, expected_version=None)
    assert sheet_said(play) == "Anna: Full House 25. Anna leads with 25. Ben's turn."
    write_cell(play, ben, "kniffel", 0, expected_version=None)
    assert sheet_said(play) == "Ben: Kniffel struck. Anna leads with 25. Anna's turn."


def test_a_team_leads_with_its_name(household, night, family):
    game = OwnGameFactory(household=household, name="Canasta", teams=True, end="target",
                          end_at=5000)
    play = start_play(household=household, game="generic", own_game=game, players=family,
                      game_night=night)
    a, b, c, d = (p.key for p in family)
    record_result(play, {"teams": {"Red": [a, c], "Blue": [b, d]}, "rounds": [],
                         "finished": False}, expected_version=play.version)
    add_round(play, 1, {"Red": 1200, "Blue": 800}, expected_version=play.version)
    assert pad_context(play)["announcement"] == "Round 1: Red 1200, Blue 800. Red leads with 1200."


def test_the_fewest_points_lead_and_win(household, night, family):
    game = OwnGameFactory(household=household, name="Skyjo", scoring="fewest_points",
                          end="target", end_at=100)
    play = start_play(household=household, game="generic", own_game=game,
                      players=family[:2], game_night=night)
    a, b = family[0].key, family[1].key
    add_round(play, 1, {a: 40, b: 25}, expected_version=play.version)
    assert pad_context(play)["announcement"].endswith("Ben leads with 25.")
    add_round(play, 2, {a: 30, b: 80}, expected_version=play.version)
    finish_own_game(play, expected_version=play.version)
    play.refresh_from_db()
    assert pad_context(play)["announcement"].endswith("Anna wins!")
