import pytest

import games
from games import weltraum_kniffel

RULES = games.get("weltraum_kniffel")


@pytest.mark.parametrize("field,dice,points", [
    ("ufo", ["ufo", "ufo", "ufo", "star", "rocket"], 3),
    ("star", ["ufo", "ufo", "ufo", "star", "rocket"], 1),
    ("planet", ["ufo", "ufo", "ufo", "star", "rocket"], 0),
    ("three_alike", ["sun", "sun", "sun", "star", "rocket"], 2),
    ("three_alike", ["sun", "sun", "sun", "sun", "rocket"], 2),
    ("three_alike", ["sun", "sun", "star", "star", "rocket"], 0),
    ("two_pairs", ["sun", "sun", "star", "star", "rocket"], 3),
    ("two_pairs", ["sun", "sun", "sun", "sun", "rocket"], 0),
    ("three_and_pair", ["sun", "sun", "sun", "star", "star"], 4),
    ("three_and_pair", ["sun", "sun", "sun", "sun", "sun"], 0),
    ("all_different", ["ufo", "rocket", "nebula", "star", "sun"], 5),
    ("all_different", ["ufo", "rocket", "nebula", "star", "star"], 0),
    ("space_kniffel", ["planet"] * 5, 10),
])
def test_points_of_five_symbol_dice(field, dice, points):
    assert weltraum_kniffel.points(field, dice) == points


@pytest.mark.parametrize("house_rules,field,dice,points", [
    ({}, "three_alike", ["sun"] * 5, 2),
    ({"five_alike_is_three_alike": False}, "three_alike", ["sun"] * 5, 0),
    ({}, "two_pairs", ["sun", "sun", "sun", "star", "star"], 3),
    ({"full_is_two_pairs": False}, "two_pairs", ["sun", "sun", "sun", "star", "star"], 0),
])
def test_overlaps_the_rules_leave_open_are_house_rules(house_rules, field, dice, points):
    assert weltraum_kniffel.points(field, dice, house_rules) == points


FULL = ["sun", "sun", "sun", "star", "star"]


@pytest.mark.parametrize("sheet,options", [
    ({"sun": 2}, {"three_and_pair": 4}),
    ({"sun": 2, "three_and_pair": 4}, {"two_pairs": 3}),
    # Two fields where the roll scores the most: either.
    ({"sun": 2, "three_and_pair": 4, "three_alike": 2}, {"two_pairs": 3}),
    ({"three_and_pair": 4, "two_pairs": 3}, {"sun": 3}),
    ({"three_and_pair": 4, "two_pairs": 3, "sun": 3}, {"three_alike": 2, "star": 2}),
    # Fits no open field: 0 into any of them.
    ({key: 0 for key in ("sun", "star", "three_alike", "two_pairs", "three_and_pair")},
     {"ufo": 0, "rocket": 0, "nebula": 0, "planet": 0, "all_different": 0, "space_kniffel": 0}),
])
def test_a_roll_goes_where_it_scores_the_most(sheet, options):
    """"Ihr tragt eine Kombination möglichst immer dort ein, wo sie am meisten Punkte bringt";
    0 only where the roll scores in no open field."""
    assert weltraum_kniffel.options(FULL, sheet) == options


def test_free_choice_offers_every_open_field():
    options = weltraum_kniffel.options(FULL, {"sun": 2}, {"field_choice": "free"})
    assert "sun" not in options
    assert options == {"ufo": 0, "rocket": 0, "nebula": 0, "star": 2, "planet": 0,
                       "three_alike": 2, "two_pairs": 3, "three_and_pair": 4,
                       "all_different": 0, "space_kniffel": 0}


@pytest.mark.parametrize("house_rules,field,points,problem", [
    ({}, "ufo", 0, "dice.not_playable"),
    ({}, "star", 2, "dice.not_playable"),
    ({}, "three_and_pair", 4, None),
    ({"field_choice": "free"}, "ufo", 0, None),
    ({"field_choice": "free"}, "star", 2, None),
])
def test_dice_kept_with_a_cell_must_have_gone_where_they_score_the_most(
        house_rules, field, points, problem):
    result = {"players": ["Mia"], "sheets": {"Mia": {field: points}},
              "dice": {"Mia": {field: FULL}}, "house_rules": house_rules}
    assert [p.code for p in RULES.validate(result)] == ([problem] if problem else [])


def test_the_message_says_where_the_roll_had_to_go():
    [problem] = RULES.validate({"players": ["Mia"], "sheets": {"Mia": {"ufo": 0}},
                                "dice": {"Mia": {"ufo": FULL}}})
    assert str(problem) == ("Mia: the dice sun sun sun star star could not go into UFO: the "
                            "rules put them into Three alike and a pair (4).")
    assert problem.field == "ufo"


def test_tie_gives_several_winners():
    full = {"ufo": 3, "rocket": 2, "nebula": 1, "star": 0, "sun": 4, "planet": 2,
            "three_alike": 2, "two_pairs": 3, "three_and_pair": 0, "all_different": 5,
            "space_kniffel": 0}
    outcome = RULES.score({"players": ["mia", "leo", "ida"],
                           "sheets": {"mia": full, "leo": dict(full),
                                      "ida": dict(full, ufo=1)}})
    assert outcome.finished
    assert outcome.points == {"mia": 22, "leo": 22, "ida": 20}
    assert outcome.places == {"mia": 1, "leo": 1, "ida": 3}
    assert outcome.winners == ["mia", "leo"]


@pytest.mark.parametrize("field,value,message", [
    ("ufo", 6, "Mia: UFO scores 0 to 5, not 6."),
    ("two_pairs", 2, "Mia: Two pairs scores 0 or 3, not 2."),
    ("space_kniffel", 50, "Mia: Space Kniffel scores 0 or 10, not 50."),
])
def test_typed_values_must_be_scorable(field, value, message):
    [problem] = RULES.validate({"players": ["Mia"], "sheets": {"Mia": {field: value}}})
    assert str(problem) == message


def test_german_field_names_in_messages():
    [problem] = RULES.validate({"players": ["Mia"], "sheets": {"Mia": {"nebula": 7}}})
    assert problem.in_language("de") == "Mia: Galaktischer Nebel zählt 0 bis 5, nicht 7."
