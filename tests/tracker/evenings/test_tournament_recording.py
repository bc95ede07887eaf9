import pytest

from tests.factories import PlayerFactory
from tracker.evenings.models import Tournament, TournamentEntry
from tracker.evenings.recording import (
    FinalTableChoice,
    drop_out,
    start_tournament_round,
    tournament_rounds,
)
from tracker.table.models import Play
from tracker.table.recording import EditConflict, record_result

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(household):
    tournament = Tournament.objects.create(household=household, name="Party", rounds_planned=2,
                                           game="maus_im_nacken")
    for n in range(10):
        TournamentEntry.objects.create(tournament=tournament,
                                       player=PlayerFactory(household=household, name=f"K{n}"))
    return tournament


def finish(plays, winner_seat=0):
    for play in plays:
        participants = sorted(play.participants.all(), key=lambda p: p.seat)
        elephants = {p.player_key: ["caught"] * 4 for p in participants}
        elephants[participants[winner_seat].player_key] = ["home:1", "seat:8", "caught",
                                                          "caught"]
        record_result(play, {"elephants": elephants}, expected_version=play.version)


def test_rounds_are_seated_by_the_engine_and_wait_for_every_table(tournament):
    first = start_tournament_round(tournament)
    assert sorted(len(list(play.participants.all())) for play in first) == [3, 3, 4]
    with pytest.raises(EditConflict):
        start_tournament_round(tournament)
    finish(first)
    second = start_tournament_round(tournament)
    assert [play.round_number for play in second] == [2, 2, 2]
    finish(second)
    with pytest.raises(EditConflict):
        start_tournament_round(tournament)
    standings = tournament.standings()
    assert len(standings) == 10
    assert sum(item["row"].total for item in standings) == 6 * 21  # one winner per table
    assert all(sum(points or 0 for points in item["rounds"]) == item["row"].total
               for item in standings)
    firsts = [item for item in standings if item["row"].total == 21]
    assert len(firsts) == 6  # the first seat rotated: six different players sat first


def test_a_drop_out_is_not_seated_again(tournament):
    finish(start_tournament_round(tournament))
    leaving = tournament.players.order_by("name").first()
    drop_out(tournament, leaving)
    second = start_tournament_round(tournament)
    seated = {p.player_id for play in second for p in play.participants.all()}
    assert leaving.pk not in seated and len(seated) == 9
    assert len(tournament_rounds(tournament)) == 2


def test_a_final_table_for_the_top_decides_the_winner(tournament):
    tournament.final_table = 3
    tournament.save()
    finish(start_tournament_round(tournament))
    finish(start_tournament_round(tournament))
    cut = tournament.final_cut()  # six table winners level on everything for three seats
    assert (len(cut.seated), len(cut.tied), cut.open_seats) == (0, 6, 3)
    with pytest.raises(FinalTableChoice):
        start_tournament_round(tournament)
    chosen = cut.tied[3:]
    [final] = start_tournament_round(tournament, finalists=chosen)
    finalists = [p.player_key for p in sorted(final.participants.all(), key=lambda p: p.seat)]
    assert finalists == list(chosen)
    finish([final], winner_seat=2)
    standings = tournament.standings()
    assert standings[0]["player"] == finalists[2] and standings[0]["rank"] == 1
    assert Play.objects.filter(tournament=tournament).count() == 7


def test_a_player_who_dropped_out_does_not_sit_at_the_final_table(tournament):
    tournament.final_table = 3
    tournament.save()
    finish(start_tournament_round(tournament))
    finish(start_tournament_round(tournament))
    cut = tournament.final_cut()
    leader = (cut.seated or cut.tied)[0]
    drop_out(tournament, tournament.players.get(pk=leader))
    cut = tournament.final_cut()
    [final] = start_tournament_round(tournament, finalists=cut.tied[:cut.open_seats])
    seated = [p.player_key for p in final.participants.all()]
    assert leader not in seated and len(seated) == 3
