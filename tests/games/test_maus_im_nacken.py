import pytest

import games
from games.maus_im_nacken import home_points

RULES = games.get("maus_im_nacken")


def race(**elephants):
    return {"players": list(elephants), "elephants": elephants}


@pytest.mark.parametrize("rank,points", [(1, 13), (2, 12), (3, 11), (4, 10), (9, 10)])
def test_home_points_follow_arrival_over_all_players(rank, points):
    assert home_points(rank) == points


@pytest.mark.parametrize("result,points,places", [
    (race(anna=["home:1", "seat:5", "caught", "pyramid"],
          ben=["home:2", "seat:8", "seat:3", "caught"]),
     {"anna": 18, "ben": 23}, {"anna": 2, "ben": 1}),
    (race(anna=["home:1", "home:3", "home:5", "home:7"],
          ben=["home:2", "home:4", "home:6", "home:8"],
          carl=["caught", "caught", "pyramid", "pyramid"]),
     {"anna": 44, "ben": 42, "carl": 0}, {"anna": 1, "ben": 2, "carl": 3}),
    (race(anna=["seat:8", "seat:3", "caught", "caught"],
          ben=["seat:6", "seat:5", "caught", "pyramid"]),
     {"anna": 11, "ben": 11}, {"anna": 1, "ben": 1}),
])
def test_race_points_and_places(result, points, places):
    outcome = RULES.score(result)
    assert outcome.points == points
    assert outcome.places == places


def test_details_count_each_elephants_fate():
    outcome = RULES.score(race(anna=["home:1", "seat:5", "caught", "pyramid"],
                               ben=["home:2", "seat:8", "seat:3", "caught"]))
    assert outcome.details["anna"] | {} == {
        "home": 1, "seated": 1, "caught": 1, "pyramid": 1, "home_points": 13,
        "seat_points": 5, "first_home": True,
        "elephants": ["home:1", "seat:5", "caught", "pyramid"],
    }
    assert outcome.details["ben"]["first_home"] is False


def test_a_board_with_other_seat_values_is_a_house_rule():
    result = race(anna=["seat:10", "caught", "caught", "caught"],
                  ben=["seat:2", "caught", "caught", "caught"])
    assert [p.code for p in RULES.validate(result)] == ["elephants.seat_value"] * 2
    result["house_rules"] = {"seat_values": [2, 4, 6, 10]}
    assert RULES.score(result).points == {"anna": 10, "ben": 2}


@pytest.mark.parametrize("result,messages", [
    (race(anna=["home:1", "seat:5", "caught"], ben=["home:2", "caught", "caught", "caught"]),
     ["anna: enter all four elephants, not 3."]),
    (race(anna=["home:1", "caught", "caught", "caught"],
          ben=["home:1", "caught", "caught", "caught"]),
     ["ben: elephant 1 cannot come home in place 1: another elephant is already there."]),
    (race(anna=["home:1", "home:3", "caught", "caught"],
          ben=["caught", "caught", "caught", "caught"]),
     ["anna: elephant 2 came home in place 3, but no elephant came home in place 2."]),
    (race(anna=["seat:9", "caught", "caught", "caught"],
          ben=["home:0", "caught", "caught", "flying"]),
     ["anna: elephant 1 is on a seat worth 9, but the seats are worth 3 to 8.",
      "ben: elephant 1 came home in place 0; home places start at 1.",
      "ben: elephant 4 must be home, on a seat, caught or on the pyramid."]),
    ({"players": ["anna", "ben"], "elephants": {"anna": ["caught"] * 4}},
     ["ben: the result is missing."]),
    ({"players": ["anna"], "elephants": {"anna": ["caught"] * 4}},
     ["Die Maus im Nacken is for 2 to 4 players. This result has 1."]),
    (race(anna=["caught"] * 4, ben=["caught"] * 4, carl=["caught"] * 4, dora=["caught"] * 4,
          emil=["caught"] * 4),
     ["Die Maus im Nacken is for 2 to 4 players. This result has 5."]),
    ({"players": ["anna", "ben"], "elephants": {"anna": ["caught"] * 4, "ben": ["caught"] * 4,
                                                "zoe": ["caught"] * 4}},
     ["zoe is not playing in this game."]),
])
def test_impossible_races_are_explained(result, messages):
    assert [str(problem) for problem in RULES.validate(result)] == messages


def test_problem_points_at_the_elephant_that_caused_it():
    [problem] = RULES.validate(race(anna=["home:1", "caught", "caught", "caught"],
                                    ben=["caught", "home:1", "caught", "caught"]))
    assert (problem.player, problem.field) == ("ben", "elephants.1")
    assert problem.in_language("de", {"ben": "Ben"}) == (
        "Ben: Elefant 2 kann nicht als 1. ins Ziel kommen: dort ist schon ein anderer Elefant.")


@pytest.mark.parametrize("players,square", [(2, 2), (3, 3), (4, 4)])
def test_setup_hint_says_where_the_mouse_starts(players, square):
    hint = RULES.setup_hint(players)
    assert f"square {square}." in hint
    assert f"Feld {square}." in hint.in_language("de")
