"""A family's own game: the scoring modes, teams, co-op, rounds and the end condition."""

import pytest

import games

RULES = games.get("generic")
PLAYERS = ["anna", "ben", "carl", "dora"]
TEAMS = {"Red": ["anna", "carl"], "Blue": ["ben", "dora"]}


def score(result, **house_rules):
    return RULES.score({"players": PLAYERS, **result, "house_rules": house_rules})


def messages(result, **house_rules):
    return [str(problem) for problem in RULES.validate(
        {"players": PLAYERS, **result, "house_rules": house_rules})]


@pytest.mark.parametrize("scoring,places", [
    ("most_points", {"anna": 1, "ben": 4, "carl": 1, "dora": 3}),
    ("fewest_points", {"anna": 3, "ben": 1, "carl": 3, "dora": 2}),
])
def test_final_scores_most_or_fewest_win_and_ties_share(scoring, places):
    outcome = score({"scores": {"anna": 12, "ben": -3, "carl": 12, "dora": 5}},
                    scoring=scoring)
    assert outcome.places == places and outcome.finished
    assert outcome.lower_is_better is (scoring == "fewest_points")
    assert outcome.points == {"anna": 12, "ben": -3, "carl": 12, "dora": 5}


def test_rounds_add_up_and_a_round_may_lack_a_player():
    outcome = score({"rounds": [{"anna": 10, "ben": 5, "carl": 0, "dora": 7},
                                {"anna": -2, "ben": 20}], "finished": True})
    assert outcome.points == {"anna": 8, "ben": 25, "carl": 0, "dora": 7}
    assert outcome.places == {"ben": 1, "anna": 2, "dora": 3, "carl": 4}
    assert outcome.details["anna"]["rounds"] == 2


def test_a_game_kept_round_by_round_is_under_way_until_the_host_finishes_it():
    assert not score({"rounds": [{"anna": 10}]}).finished
    assert score({"rounds": [{"anna": 10}], "finished": True}).finished


def test_teams_share_their_score_and_place():
    """Teams are ranked as teams: the second team's members share place 2, not 3."""
    outcome = score({"teams": TEAMS, "rounds": [{"Red": 120, "Blue": 80},
                                                {"Red": -20, "Blue": 140}],
                     "finished": True}, teams=True)
    assert outcome.points == {"anna": 100, "carl": 100, "ben": 220, "dora": 220}
    assert outcome.places == {"ben": 1, "dora": 1, "anna": 2, "carl": 2}
    assert outcome.winners == ["ben", "dora"]
    assert outcome.details["anna"]["team"] == "Red"


def test_a_team_game_without_points_places_the_teams():
    outcome = score({"teams": TEAMS, "order": ["Blue"]}, teams=True, scoring="places")
    assert outcome.places == {"ben": 1, "dora": 1, "anna": 2, "carl": 2}
    assert not outcome.scored_by_points


def test_three_teams_are_placed_one_two_three():
    teams = {"Red": ["anna"], "Blue": ["ben", "carl"], "Green": ["dora"]}
    outcome = score({"teams": teams, "scores": {"Red": 10, "Blue": 30, "Green": 20}},
                    teams=True)
    assert outcome.places == {"ben": 1, "carl": 1, "dora": 2, "anna": 3}


def test_a_team_of_many_against_a_team_of_one_is_second_not_fourth():
    """Village against werewolf: the werewolf who lost is 2nd, not 4th."""
    teams = {"Village": ["anna", "ben", "carl"], "Werewolves": ["dora"]}
    outcome = score({"teams": teams, "order": ["Village"]}, teams=True, scoring="places")
    assert outcome.places == {"anna": 1, "ben": 1, "carl": 1, "dora": 2}


def test_win_or_lose_only_places_by_finishing_order():
    outcome = score({"order": ["carl", "anna"]}, scoring="places")
    assert outcome.places == {"carl": 1, "anna": 2, "ben": 3, "dora": 3}
    assert outcome.points == {p: 0 for p in PLAYERS}


@pytest.mark.parametrize("won,place", [(True, 1), (False, 2)])
def test_cooperative_the_table_wins_or_loses_together(won, place):
    outcome = score({"won": won, "score": 17}, scoring="cooperative")
    assert outcome.places == {p: place for p in PLAYERS}
    assert outcome.points == {p: 17 for p in PLAYERS}
    assert all(outcome.details[p]["won"] is won for p in PLAYERS)


def test_recorded_winners_stand_even_where_the_scores_say_otherwise():
    """An import keeps the winner the family recorded."""
    outcome = score({"scores": {"anna": 30, "ben": 10, "carl": 20, "dora": 20},
                     "winners": ["ben"]})
    assert outcome.places == {"ben": 1, "anna": 2, "carl": 3, "dora": 3}


@pytest.mark.parametrize("result,house_rules,expected", [
    ({"scores": {"anna": 1, "ben": 2, "carl": 3}}, {}, ["dora: the result is missing."]),
    ({"scores": {"anna": 1, "ben": 2, "carl": 3, "dora": "x"}}, {},
     ["dora: Score must be a whole number from -1000000 to 1000000."]),
    ({"rounds": [{"anna": 1}], "scores": {p: 1 for p in PLAYERS}}, {},
     ["Enter the points round by round or as final scores, not both."]),
    ({"rounds": [{"zoe": 4}]}, {}, ["zoe is not playing in this game."]),
    ({"rounds": ["x"]}, {}, ["Round 1 is unreadable."]),
    ({"teams": {"Red": ["anna", "carl"], "Blue": ["ben", "carl"]}, "scores": {"Red": 1,
                                                                            "Blue": 2}},
     {"teams": True}, ["carl is in two teams.", "dora is in no team."]),
    ({"teams": {"Red": PLAYERS}, "scores": {"Red": 1}}, {"teams": True},
     ["Put the players into at least two teams."]),
    ({"teams": TEAMS, "scores": {p: 1 for p in PLAYERS}}, {},
     ["This game is not played in teams."]),
    ({}, {"scoring": "cooperative"}, ["Say whether the table won or lost."]),
    ({}, {"scoring": "places"}, ["Tap the players in the order they finished, at least "
                                 "the winner."]),
    ({"won": True}, {"scoring": "cooperative", "teams": True},
     ["A co-operative game is played by the whole table: it has no teams."]),
    ({"scores": {p: 1 for p in PLAYERS}}, {"end": "rounds"},
     ["Say after how many rounds, or at which score, the game ends."]),
    ({"order": ["anna"]}, {"scoring": "places", "end": "target", "end_at": 5},
     ["Only a game with points can end at a score."]),
    ({"scores": {p: 1 for p in PLAYERS}}, {"end_at": -1},
     ["Rounds, or the score that ends it: give a whole number from 0 to 1000000."]),
])
def test_impossible_results_are_explained(result, house_rules, expected):
    assert messages(result, **house_rules) == expected


@pytest.mark.parametrize("house_rules,rounds,reached", [
    ({"end": "target", "end_at": 500}, [{"anna": 300, "ben": 200}, {"anna": 212}],
     "anna reached 512."),
    ({"end": "target", "end_at": 500}, [{"anna": 300, "ben": 200}], None),
    ({"end": "target", "end_at": 100, "scoring": "fewest_points"},
     [{"anna": 40, "ben": 104}], "ben reached 104."),
    ({"end": "rounds", "end_at": 2}, [{"anna": 1}, {"anna": 2}], "2 rounds are played."),
    ({"end": "rounds", "end_at": 3}, [{"anna": 1}, {"anna": 2}], None),
    ({"end": "host"}, [{"anna": 1000}], None),
])
def test_the_end_condition_is_watched(house_rules, rounds, reached):
    result = {"players": PLAYERS, "rounds": rounds, "house_rules": house_rules}
    said = RULES.end_reached(result)
    assert (str(said) if said else None) == reached


def test_a_reached_target_is_said_with_the_players_name_in_german():
    said = RULES.end_reached({"players": PLAYERS, "rounds": [{"anna": 512}],
                              "house_rules": {"end": "target", "end_at": 500}})
    assert said.in_language("de", {"anna": "Anna"}) == "Anna hat 512 erreicht."


@pytest.mark.parametrize("key,house_rules,fewer_win", [
    ("generic", {"scoring": "fewest_points"}, True),
    ("generic", {"scoring": "most_points"}, False),
    ("generic", {"scoring": "places"}, False),
    ("mau_mau", {"scoring": "penalty_points"}, True),
    ("mau_mau", {"scoring": "single_hand"}, False),
    ("maus_im_nacken", {}, False),
])
def test_which_games_let_the_fewest_points_win(key, house_rules, fewer_win):
    rules = games.get(key)
    assert rules.fewer_points_win(rules.default_house_rules() | house_rules) is fewer_win


def test_a_player_without_a_score_is_placed_after_those_with_one():
    """Henrik had to leave early: no score, placed after everyone who has one."""
    outcome = score({"scores": {"anna": 30, "ben": 12, "carl": 40}, "unscored": ["dora"]})
    assert outcome.places == {"carl": 1, "anna": 2, "ben": 3, "dora": 4}
    assert outcome.points["dora"] is None and outcome.details["dora"]["score"] is None
    assert messages({"scores": {"anna": 30, "ben": 12, "carl": 40}}) == [
        "dora: the result is missing."]
    assert messages({"scores": {"anna": 30, "ben": 12, "carl": 40, "dora": 3},
                     "unscored": ["dora"]}) == ["dora has a score and is listed without one."]
    assert messages({"scores": {"anna": 30}, "unscored": "dora"}) == [
        "List the players without a score.", "ben: the result is missing.",
        "carl: the result is missing.", "dora: the result is missing."]


def test_a_recorded_winner_without_a_score_still_wins():
    outcome = score({"scores": {"anna": 30, "ben": 12, "carl": 40}, "unscored": ["dora"],
                     "winners": ["dora"]}, scoring="fewest_points")
    assert outcome.places == {"dora": 1, "ben": 2, "anna": 3, "carl": 4}


def test_recorded_places_stand_so_nobody_wins_what_they_did_not_win():
    """The winner was left out of the play (an import did not know them): Ben, second,
    stays second and nobody takes place 1, whatever the scores of those left say."""
    outcome = score({"scores": {"anna": 20, "ben": 25, "carl": 10, "dora": 5},
                     "places": {"anna": 3, "ben": 2, "carl": 4, "dora": 5}})
    assert outcome.places == {"anna": 3, "ben": 2, "carl": 4, "dora": 5}
    assert outcome.winners == []
    assert outcome.points["ben"] == 25


@pytest.mark.parametrize("places,scoring", [
    ({"anna": 1, "ben": 2, "carl": 3}, "most_points"),
    ({"anna": 1, "ben": 2, "carl": 3, "dora": 0}, "most_points"),
    ({"anna": 1, "ben": 2, "carl": 3, "dora": "4"}, "places"),
    ({"anna": 1, "ben": 2, "carl": 3, "dora": 101}, "most_points"),
    ({"anna": 1, "ben": 1, "carl": 1, "dora": 1}, "cooperative"),
])
def test_recorded_places_name_every_player_with_a_place(places, scoring):
    result = {"places": places, "order": ["anna"], "won": True,
              "scores": {"anna": 3, "ben": 2, "carl": 1, "dora": 0}}
    if scoring == "places":
        del result["scores"]
    if scoring != "cooperative":
        del result["won"]
    if scoring != "places":
        del result["order"]
    if scoring == "cooperative":
        del result["scores"]
    assert messages(result, scoring=scoring)
