"""The numbers behind the statistics pages, on the hand-worked history of stats_fixtures."""

import datetime

import pytest
from django.utils import translation

from tests.factories import GameNightFactory
from tests.tracker.looking_back.stats_fixtures import build_history, finish_generic, uno_key
from tracker.looking_back import stats
from tracker.looking_back.fairness import fairness, wilson
from tracker.looking_back.game_page import game_stats
from tracker.table import tallies
from tracker.table.models import KniffelCell, Participant, Play, PlayStatus


@pytest.fixture
def history(household, family):
    return build_history(household, family)


@pytest.fixture
def players(family):
    return {player.pk: player for player in family}


def test_a_player_counts_finished_plays_with_shared_wins_and_series_races(history, family,
                                                                          players):
    anna = stats.player_stats(family[0], players)
    assert (anna["plays"], anna["wins"]) == (5, 3)
    assert [(line.name, line.plays, line.wins) for line in anna["games"]] == [
        ("Uno", 3, 2), ("Die Maus im Nacken", 2, 1)]
    assert anna["places"] == [{"place": 1, "count": 3}, {"place": 2, "count": 2}]
    assert anna["favourite"].name == "Uno"
    assert anna["last_played"] == datetime.date(2024, 3, 8)


def test_winning_streaks_follow_the_order_of_play(history, family, players):
    anna = stats.player_stats(family[0], players)
    assert (anna["current_streak"], anna["longest_streak"]) == (2, 2)
    assert stats.winning_streaks([1, 1, 1, 2, 1, None]) == (0, 3)


def test_a_shared_place_counts_for_both_players(history, family, players):
    ben = stats.player_stats(family[1], players)
    carla = stats.player_stats(family[2], players)
    assert (ben["plays"], ben["wins"]) == (3, 2)
    assert carla["places"] == [{"place": 1, "count": 1}, {"place": 2, "count": 2},
                               {"place": 3, "count": 1}]


def test_maus_races_give_points_and_shares_of_elephants(history, family, players):
    maus = stats.player_stats(family[0], players)["maus"]
    assert maus == {"races": 2, "points": 25.5, "home": 3 / 8, "caught": 2 / 8}


def test_head_to_head_counts_who_placed_higher_per_game(history, family, players):
    lines = {line.opponent.name: line for line in
             stats.player_stats(family[0], players)["head_to_head"]}
    assert set(lines) == {"Ben", "Carla"}
    ben, carla = lines["Ben"], lines["Carla"]
    assert (ben.together, ben.ahead, ben.behind, ben.level) == (3, 1, 1, 1)
    assert (carla.together, carla.ahead, carla.behind, carla.level) == (4, 3, 1, 0)
    assert sorted((g["name"], g["ahead"], g["behind"]) for g in carla.by_game) == [
        ("Die Maus im Nacken", 1, 1), ("Uno", 2, 0)]


def test_a_player_with_no_plays_has_empty_numbers(history, family, players):
    david = stats.player_stats(family[3], players)
    assert (david["plays"], david["wins"], david["win_rate"]) == (0, 0, None)
    assert david["head_to_head"] == [] and david["favourite"] is None
    assert (david["current_streak"], david["longest_streak"]) == (0, 0)


def test_renaming_a_player_changes_no_number(history, family, players):
    before = stats.player_stats(family[0], players)
    family[0].name = "Annabel"
    family[0].save()
    after = stats.player_stats(family[0], players)
    assert {k: v for k, v in after.items() if k != "head_to_head"} == {
        k: v for k, v in before.items() if k != "head_to_head"}
    carla = stats.player_stats(family[2], players)["head_to_head"]
    assert [(line.opponent.name, line.together) for line in carla] == [
        ("Annabel", 4), ("Ben", 2)]


def test_game_records_leave_the_abandoned_play_out(history, household, players):
    numbers = game_stats(household, uno_key(household), players)
    assert numbers["plays"] == 3
    assert [(r.label, r.points, r.participant.player.name) for r in numbers["records"]] == [
        ("Most points", 10, "Anna")]
    assert [(row["rank"], row["player"].name, row["plays"], row["wins"])
            for row in numbers["leaderboard"]] == [(1, "Anna", 3, 2), (1, "Ben", 3, 2)]


def test_score_distribution_counts_each_score(history, household):
    bins = stats.score_distribution(household, uno_key(household))
    assert {b["label"]: b["count"] for b in bins if b["count"]} == {
        "3": 1, "5": 1, "7": 2, "8": 2, "9": 1, "10": 1}


def test_fairness_by_seat_and_start_player(history, household):
    fair = fairness(household, uno_key(household))
    assert [(row.label, row.plays, row.wins) for row in fair["seats"]] == [
        ("Seat 1", 3, 2), ("Seat 2", 3, 2), ("Seat 3", 2, 0)]
    start = fair["start"]
    assert (start.plays, start.wins) == (3, 2)
    # Fair shares 1/3 + 1/2 + 1/3 of three plays: 39%.
    assert start.fair_rate == pytest.approx(7 / 18)
    assert fair["sentence"] == ("Uno: the start player won 2 of 3 games "
                                "(67%, 21–94%): no clear advantage (a fair share is 39%).")
    with translation.override("de"):
        german = fairness(household, uno_key(household))["sentence"]
    assert german.startswith("Uno: Der Startspieler hat 2 von 3 Partien gewonnen")


def test_wilson_interval_of_31_wins_in_80_games():
    low, high = wilson(31, 80)
    assert (round(low * 100), round(high * 100)) == (29, 50)
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_clear_start_player_advantage_is_named(household, family):
    night = GameNightFactory(household=household)
    for _ in range(12):
        finish_generic(household, night, [(family[0], 10), (family[1], 1)], start_seat=0)
    fair = fairness(household, uno_key(household))
    assert fair["start"].verdict == "advantage"
    assert "starting is an advantage" in fair["sentence"]
    assert fair["seats"][1].verdict == "disadvantage"


def test_a_game_with_no_plays_has_no_numbers(history, household, players):
    numbers = game_stats(household, "mau_mau", players)
    assert (numbers["plays"], numbers["records"], numbers["leaderboard"],
            numbers["distribution"]) == (0, [], [], [])
    assert numbers["fairness"]["sentence"] == (
        "Mau Mau(s): no finished game yet, so nothing can be said about fairness.")


def test_year_review_counts_champions_records_and_the_best_night(history, household, players):
    review = stats.year_review(household, 2024, players)
    assert (review["nights"], review["plays"]) == (2, 5)
    assert review["most_played"]["name"] == "Uno"
    assert [(c["name"], [p.name for p in c["players"]], c["wins"])
            for c in review["champions"]] == [("Die Maus im Nacken", ["Anna", "Carla"], 1),
                                              ("Uno", ["Anna", "Ben"], 2)]
    assert sorted((r["name"], r["points"], [p.player.name for p in r["by"]])
                  for r in review["records"]) == [("Die Maus im Nacken", 33, ["Anna"]),
                                                  ("Uno", 10, ["Anna"])]
    assert review["best_night"] == history["nights"][1]


def test_a_record_from_an_earlier_year_is_not_set_again(history, household, family, players):
    earlier = GameNightFactory(household=household, date=datetime.date(2023, 12, 31))
    finish_generic(household, earlier, [(family[1], 12), (family[2], 2)])
    review = stats.year_review(household, 2024, players)
    assert [r["key"] for r in review["records"]] == ["maus_im_nacken"]
    assert stats.year_review(household, 2023, players)["records"][0]["points"] == 12
    assert stats.years_played(household) == [2024, 2023]


def test_kniffel_profile_from_stored_totals_and_cells(household, family, night, players):
    anna, ben = family[:2]

    def kniffel(scores, status=PlayStatus.FINISHED):
        play = Play.objects.create(household=household, game="kniffel", game_night=night,
                                   status=status)
        for seat, (player, total, details, cells) in enumerate(scores):
            Participant.objects.create(play=play, player=player, seat=seat, points=total,
                                       place=1 if seat == 0 else 2, details=details)
            KniffelCell.objects.bulk_create(KniffelCell(play=play, player=player, field=field,
                                                        points=points)
                                            for field, points in cells.items())

    kniffel([(anna, 250, {"bonus": 35, "extra_kniffels": 1}, {"ones": 3, "kniffel": 50}),
             (ben, 200, {"bonus": 0, "extra_kniffels": 0}, {"ones": 5, "kniffel": 0})])
    kniffel([(anna, 180, {"bonus": 0, "extra_kniffels": 0}, {"ones": 1, "kniffel": 0})])
    kniffel([(anna, 300, {"bonus": 35, "extra_kniffels": 2}, {"ones": 4, "kniffel": 50})],
            status=PlayStatus.ABANDONED)
    tallies.rebuild()  # the plays were written past the recording layer
    profile = stats.player_stats(anna, players)["kniffel"]
    assert (profile["plays"], profile["average"], profile["best"]) == (2, 215, 250)
    assert (profile["kniffels"], profile["bonus"], profile["bonus_rate"]) == (2, 1, 0.5)
    fields = {field["key"]: field for field in profile["fields"]}
    assert (fields["ones"]["mine"], fields["ones"]["household"]) == (2, 3)
    assert fields["kniffel"]["mine"] == 25
    assert fields["kniffel"]["household"] == pytest.approx(50 / 3)
    assert stats.player_stats(family[2], players)["kniffel"] is None
