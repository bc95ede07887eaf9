"""Kniffel games played to the end for the tests of the coach's pages."""

from games import coach
from tracker.management.commands.seed_demo import KNIFFEL_DICE, KNIFFEL_SHEETS
from tracker.table.models import Play
from tracker.table.recording import start_play, write_cell


def finished_kniffel(household, night, players, *, with_dice=(True, False)):
    """A classic game of two players under the Yahtzee rules (the coach's table of the test
    session): the first player's turns entered with the dice, the second's typed in."""
    play = start_play(household=household, game="kniffel", players=players, game_night=night,
                      house_rules=coach.YAHTZEE)
    sheets = list(KNIFFEL_SHEETS.values())[:len(players)]
    dice = [KNIFFEL_DICE["Julia"], KNIFFEL_DICE["Tobias"]]
    for turn in range(13):
        for seat, player in enumerate(players):
            field, points = list(sheets[seat].items())[turn]
            write_cell(play, player, field, points, expected_version=None,
                       dice=dice[seat][turn] if with_dice[seat] else None)
    play.refresh_from_db()
    assert play.status == Play.Status.FINISHED
    return play
