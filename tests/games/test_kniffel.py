import pytest

import games
from games import InvalidResult, kniffel
from tests.games.examples import FULL_KNIFFEL

RULES = games.get("kniffel")


@pytest.mark.parametrize("field,dice,points", [
    ("ones", [1, 1, 3, 4, 1], 3),
    ("sixes", [6, 6, 6, 2, 6], 24),
    ("twos", [1, 3, 4, 5, 6], 0),
    ("three_of_a_kind", [4, 4, 4, 2, 1], 15),
    ("three_of_a_kind", [4, 4, 2, 2, 1], 0),
    ("four_of_a_kind", [5, 5, 5, 5, 5], 25),
    ("four_of_a_kind", [5, 5, 5, 2, 2], 0),
    ("full_house", [3, 3, 2, 2, 2], 25),
    ("full_house", [3, 3, 3, 3, 3], 0),
    ("small_straight", [1, 2, 3, 4, 6], 30),
    ("small_straight", [3, 4, 5, 6, 6], 30),
    ("small_straight", [1, 2, 3, 5, 6], 0),
    ("large_straight", [2, 3, 4, 5, 6], 40),
    ("large_straight", [1, 2, 3, 4, 6], 0),
    ("kniffel", [2, 2, 2, 2, 2], 50),
    ("kniffel", [2, 2, 2, 2, 3], 0),
    ("chance", [1, 2, 3, 4, 6], 16),
])
def test_points_of_five_dice(field, dice, points):
    assert kniffel.points(field, dice) == points


@pytest.mark.parametrize("dice", [[1, 2, 3, 4], [1, 2, 3, 4, 7], [0, 1, 1, 1, 1], "12345",
                                  [True, 1, 1, 1, 1], None])
def test_points_refuse_anything_but_five_dice(dice):
    with pytest.raises(InvalidResult) as refused:
        kniffel.points("chance", dice)
    assert refused.value.problems[0].field == "dice"


def test_options_offer_every_open_field():
    sheet = {"ones": 3, "chance": 20}
    options = kniffel.options([2, 3, 4, 5, 5], sheet)
    assert set(options) == set(RULES.field_keys) - {"ones", "chance"}
    assert options["small_straight"] == 30
    assert options["large_straight"] == 0
    assert options["fives"] == 10


@pytest.mark.parametrize("joker,sheet,expected", [
    # Matching upper field open: the further Kniffel must go there.
    ("schmidt", {"kniffel": 50}, {"fours": 20}),
    ("forced_upper", {"kniffel": 0}, {"fours": 20}),
    # Matching upper field filled: any open lower field at full value.
    ("schmidt", {"kniffel": 50, "fours": 12, "chance": 22, "three_of_a_kind": 0},
     {"four_of_a_kind": 20, "full_house": 25, "small_straight": 30, "large_straight": 40}),
    # Lower part full: an upper field must be struck.
    ("schmidt", {"kniffel": 50, "fours": 12, "three_of_a_kind": 0, "four_of_a_kind": 0,
                 "full_house": 25, "small_straight": 30, "large_straight": 40, "chance": 20,
                 "ones": 3},
     {"twos": 0, "threes": 0, "fives": 0, "sixes": 0}),
    # Free choice: any open field, lower ones at full value.
    ("free", {"kniffel": 50, "ones": 3, "twos": 4, "threes": 9, "fives": 15, "sixes": 18,
              "three_of_a_kind": 20, "four_of_a_kind": 20, "chance": 20},
     {"fours": 20, "full_house": 25, "small_straight": 30, "large_straight": 40}),
    # Verhoeff's reading: any open field; full value in the lower part only once the matching
    # upper field is filled.
    ("free_after_upper", {"kniffel": 0, "ones": 3, "twos": 4, "threes": 9, "fives": 15,
                          "sixes": 18, "three_of_a_kind": 20, "four_of_a_kind": 20, "chance": 20},
     {"fours": 20, "full_house": 0, "small_straight": 0, "large_straight": 0}),
    ("free_after_upper", {"kniffel": 50, "fours": 12, "chance": 22, "three_of_a_kind": 0},
     {"ones": 0, "twos": 0, "threes": 0, "fives": 0, "sixes": 0, "four_of_a_kind": 20,
      "full_house": 25, "small_straight": 30, "large_straight": 40}),
])
def test_joker_rules_for_a_further_kniffel(joker, sheet, expected):
    assert kniffel.options([4, 4, 4, 4, 4], sheet, {"joker": joker}) == expected


def test_first_kniffel_is_no_joker():
    options = kniffel.options([4, 4, 4, 4, 4], {})
    assert options["kniffel"] == 50
    assert options["full_house"] == 0


def test_totals_bonus_and_winner():
    ben = dict(FULL_KNIFFEL, sixes=24, chance=23)  # upper 69: bonus
    outcome = RULES.score({"players": ["anna", "ben"],
                           "sheets": {"anna": FULL_KNIFFEL, "ben": ben}})
    anna = outcome.details["anna"]
    assert (anna["upper_sum"], anna["bonus"], anna["upper_total"]) == (63, 35, 98)
    assert (anna["lower_sum"], anna["lower_total"], anna["total"]) == (151, 151, 249)
    assert outcome.details["ben"]["total"] == 249 + 6 - 1
    assert outcome.points == {"anna": 249, "ben": 254}
    assert outcome.places == {"anna": 2, "ben": 1}
    assert outcome.finished


def test_upper_part_below_63_has_no_bonus():
    outcome = RULES.score({"players": ["anna"], "sheets": {"anna": dict(FULL_KNIFFEL, sixes=12)}})
    assert outcome.details["anna"]["upper_sum"] == 57
    assert outcome.details["anna"]["bonus"] == 0


@pytest.mark.parametrize("sheet,missing", [
    ({}, 63),
    ({"ones": 3, "twos": 6, "threes": 9}, 45),
    ({"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}, 0),
    ({"sixes": 30, "fives": 25, "fours": 8}, 0),
    ({"ones": None, "sixes": 24}, 39),
    ({"ones": 0, "twos": 0, "threes": 0, "fours": 20, "fives": 25}, 18),
    # The open sixes could still bring 30, exactly what is missing.
    ({"ones": 0, "twos": 0, "threes": 0, "fours": 8, "fives": 25}, 30),
    # 35 missing, but the open sixes bring 30 at most.
    ({"ones": 0, "twos": 0, "threes": 0, "fours": 8, "fives": 20, "sixes": None}, None),
    ({"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 12}, None),
    ({"ones": 0, "twos": 0, "threes": 0, "fours": 0, "fives": 0, "chance": 30}, None),
])
def test_what_the_upper_part_still_needs_for_the_bonus(sheet, missing):
    assert kniffel.upper_bonus_missing(sheet) == missing


def test_partial_sheets_are_a_game_in_progress():
    outcome = RULES.score({"players": ["anna", "ben"],
                           "sheets": {"anna": {"ones": 2, "twos": None}}})
    assert not outcome.finished
    assert outcome.points == {"anna": 2, "ben": 0}
    assert outcome.details["anna"]["open"] == 12
    assert RULES.next_player(["anna", "ben"], {"anna": {"ones": 2}}) == "ben"
    assert RULES.next_player(["anna", "ben"], {"anna": {"ones": 2}, "ben": {"ones": 1}}) == "anna"


#: Every field at its best: all upper fields five of their face, every lower field what five
#: alike can score there (975 points with 12 further Kniffels at 50 was once accepted).
BEST_SHEET = {"ones": 5, "twos": 10, "threes": 15, "fours": 20, "fives": 25, "sixes": 30,
              "three_of_a_kind": 30, "four_of_a_kind": 30, "full_house": 25,
              "small_straight": 30, "large_straight": 40, "kniffel": 50, "chance": 30}


@pytest.mark.parametrize("bonus,sheet,extra,total_extra", [
    (50, dict(FULL_KNIFFEL, threes=15, sixes=30), 2, 100),
    (50, dict(BEST_SHEET), 6, 300),
    (100, dict(FULL_KNIFFEL), 1, 100),
    (100, dict(BEST_SHEET), 12, 1200),
    (100, {"kniffel": 50, "full_house": 25}, 1, 100),
    (100, {"kniffel": 50, "twos": 0}, 1, 100),
    ((100, "free_after_upper"), {"kniffel": 50, "full_house": 0, "large_straight": 0}, 2, 200),
])
def test_further_kniffels_earn_the_house_bonus(bonus, sheet, extra, total_extra):
    bonus, joker = bonus if isinstance(bonus, tuple) else (bonus, "schmidt")
    outcome = RULES.score({"players": ["anna"], "sheets": {"anna": sheet},
                           "extra_kniffels": {"anna": extra},
                           "house_rules": {"extra_kniffel_bonus": bonus, "joker": joker}})
    anna = outcome.details["anna"]
    assert anna["extra_kniffel_bonus"] == total_extra
    assert anna["lower_total"] == anna["lower_sum"] + total_extra


SCHMIDT_TOO_MANY = ("anna: {count} further Kniffels, but only {holding} upper fields hold five "
                    "of their own face, as this game's house rules require.")
YAHTZEE_TOO_MANY = ("anna: {count} further Kniffels, but only {holding} fields hold what five "
                    "alike can score there.")
NEEDS_FIFTY = "anna: further Kniffels earn a bonus only while the Kniffel field holds 50."


@pytest.mark.parametrize("house_rules,sheet,dice,extra,message", [
    ({"extra_kniffel_bonus": 0}, FULL_KNIFFEL, {}, 1,
     "anna: this game's house rules give no bonus for further Kniffels."),
    ({"extra_kniffel_bonus": 100}, dict(FULL_KNIFFEL, kniffel=0), {}, 1, NEEDS_FIFTY),
    ({}, dict(BEST_SHEET, kniffel=0), {}, 1, NEEDS_FIFTY),
    ({}, {"ones": 5}, {}, 1, NEEDS_FIFTY),
    ({}, BEST_SHEET, {}, 12, SCHMIDT_TOO_MANY.format(count=12, holding=6)),
    ({}, FULL_KNIFFEL, {}, 1, SCHMIDT_TOO_MANY.format(count=1, holding=0)),
    ({}, {"kniffel": 50, "ones": 5, "full_house": 25}, {}, 2,
     SCHMIDT_TOO_MANY.format(count=2, holding=1)),
    ({}, {"kniffel": 50, "fours": 20}, {"fours": [4, 4, 4, 4, 4]}, 2,
     SCHMIDT_TOO_MANY.format(count=2, holding=1)),
    ({"extra_kniffel_bonus": 100}, {"kniffel": 50, "chance": 22, "full_house": 25,
                                    "three_of_a_kind": 25}, {"full_house": [2, 2, 3, 3, 3]}, 2,
     YAHTZEE_TOO_MANY.format(count=2, holding=1)),
    ({"extra_kniffel_bonus": 100}, {"kniffel": 50, "fours": 20, "small_straight": 0}, {}, 2,
     YAHTZEE_TOO_MANY.format(count=2, holding=1)),
    ({}, FULL_KNIFFEL, {}, -1, "anna: further Kniffels must be a whole number, 0 or more."),
])
def test_impossible_further_kniffels(house_rules, sheet, dice, extra, message):
    result = {"players": ["anna"], "sheets": {"anna": sheet}, "extra_kniffels": {"anna": extra},
              "dice": {"anna": dice}, "house_rules": house_rules}
    assert [str(p) for p in RULES.validate(result)] == [message]


@pytest.mark.parametrize("bonus,field,dice,points,sheet,earns", [
    # Schmidt: only five alike written into their own, still open upper field.
    (50, "fives", [5, 5, 5, 5, 5], 25, {"kniffel": 50}, True),
    (50, "four_of_a_kind", [5, 5, 5, 5, 5], 25, {"kniffel": 50, "fives": 10}, False),
    (50, "fives", [5, 5, 5, 5, 5], 25, {"kniffel": 0}, False),
    (50, "fives", [5, 5, 5, 5, 2], 20, {"kniffel": 50}, False),
    # Yahtzee-style: wherever it is written, while the Kniffel field holds 50.
    (100, "four_of_a_kind", [5, 5, 5, 5, 5], 25, {"kniffel": 50, "fives": 10}, True),
    (100, "large_straight", [2, 2, 2, 2, 2], 40, {"kniffel": 50}, True),
    (100, "ones", [3, 3, 3, 3, 3], 0, {"kniffel": 50}, True),
    (100, "chance", [3, 3, 3, 3, 3], 15, {}, False),
    (0, "fives", [5, 5, 5, 5, 5], 25, {"kniffel": 50}, False),
    (50, "kniffel", [5, 5, 5, 5, 5], 50, {}, False),
    # Verhoeff's joker: five alike in Full House while their upper field is open score 0 there,
    # and still earn the 100 (the forced and Schmidt's jokers never write them there).
    ((100, "free_after_upper"), "full_house", [4, 4, 4, 4, 4], 0, {"kniffel": 50}, True),
    (100, "full_house", [4, 4, 4, 4, 4], 0, {"kniffel": 50}, False),
    # Typed points: could they be one?
    (50, "sixes", None, 30, {"kniffel": 50}, True),
    (50, "sixes", None, 24, {"kniffel": 50}, False),
    (100, "chance", None, 20, {"kniffel": 50}, True),
    (100, "chance", None, 22, {"kniffel": 50}, False),
])
def test_when_a_further_kniffel_earns_its_bonus(bonus, field, dice, points, sheet, earns):
    bonus, joker = bonus if isinstance(bonus, tuple) else (bonus, "schmidt")
    house_rules = {"extra_kniffel_bonus": bonus, "joker": joker}
    assert RULES.further_kniffel(field, dice, points, sheet, house_rules) is earns


@pytest.mark.parametrize("field,dice,points,message", [
    ("full_house", [2, 2, 3, 3, 3], 25, None),
    ("full_house", [4, 4, 4, 4, 4], 25,
     "anna: Full House holds 25, but its dice 4 4 4 4 4 score 0."),
    ("chance", [4, 4, 4, 4, 4], 20, None),
    ("fours", [4, 4, 4, 1, 1], 12, None),
    ("fours", [4, 4, 4, 1, 1], 16, "anna: Fours holds 16, but its dice 4 4 4 1 1 score 12."),
    ("small_straight", [1, 2, 3, 4, 6], 0,
     "anna: Small straight holds 0, but its dice 1 2 3 4 6 score 30."),
    ("chance", [1, 2, 3, 4, 7], 17, "anna: the dice kept for Chance are not five known faces."),
    ("twos", [2, 2, 2, 2, 2], 10, None),
])
def test_dice_kept_with_a_cell_must_score_its_points(field, dice, points, message):
    result = {"players": ["anna"], "sheets": {"anna": {field: points}},
              "dice": {"anna": {field: dice}}}
    assert [str(p) for p in RULES.validate(result)] == ([message] if message else [])


@pytest.mark.parametrize("house_rules,sheet,field,dice,problem", [
    # Five alike score as a joker only once the Kniffel field is filled.
    ({}, {"full_house": 25}, "full_house", [3] * 5, "dice.points"),
    ({}, {"full_house": 25, "kniffel": 50, "threes": 9}, "full_house", [3] * 5, None),
    # Schmidt's and the forced joker: the matching upper field first while it is open.
    ({}, {"large_straight": 40, "kniffel": 50}, "large_straight", [4] * 5, "dice.not_playable"),
    ({"joker": "forced_upper"}, {"large_straight": 40, "kniffel": 50}, "large_straight",
     [4] * 5, "dice.not_playable"),
    ({}, {"large_straight": 40, "kniffel": 50, "fours": 8}, "large_straight", [4] * 5, None),
    ({"joker": "free"}, {"large_straight": 40, "kniffel": 50}, "large_straight", [4] * 5, None),
    # Verhoeff: full value in Full House only once Threes is filled.
    ({"joker": "free_after_upper", "extra_kniffel_bonus": 100},
     {"full_house": 25, "kniffel": 50}, "full_house", [3] * 5, "dice.points"),
    ({"joker": "free_after_upper", "extra_kniffel_bonus": 100},
     {"full_house": 25, "kniffel": 50, "threes": 6}, "full_house", [3] * 5, None),
])
def test_dice_kept_with_a_cell_were_playable_there_when_it_was_filled(
        house_rules, sheet, field, dice, problem):
    """Fields are never emptied: a field open now was open when the cell was filled."""
    result = {"players": ["anna"], "sheets": {"anna": sheet}, "dice": {"anna": {field: dice}},
              "house_rules": house_rules}
    assert [p.code for p in RULES.validate(result)] == ([problem] if problem else [])


def test_a_refused_joker_says_where_the_roll_had_to_go():
    [problem] = RULES.validate({"players": ["anna"],
                                "sheets": {"anna": {"large_straight": 40, "kniffel": 50}},
                                "dice": {"anna": {"large_straight": [4] * 5}}})
    assert str(problem) == ("anna: the dice 4 4 4 4 4 could not go into Large straight: the "
                            "rules put them into Fours (20).")
    assert problem.in_language("de").endswith("Vierer (20).")


def test_dice_for_an_open_field_are_refused():
    result = {"players": ["anna"], "sheets": {"anna": {}},
              "dice": {"anna": {"chance": [1, 2, 3, 4, 5]}}}
    assert [str(p) for p in RULES.validate(result)] == [
        "anna: dice are kept for chance, but it is not filled."]


@pytest.mark.parametrize("house_rules,english,german", [
    ({}, "the youngest starts.", "der Jüngste beginnt."),
    ({"start_player": "highest_roll"}, "the highest total starts.", "die höchste Summe beginnt."),
])
def test_start_player_is_a_house_rule(house_rules, english, german):
    hint = RULES.setup_hint(3, house_rules)
    assert hint.endswith(english)
    assert hint.in_language("de").endswith(german)


@pytest.mark.parametrize("field,value,message,german", [
    ("full_house", 24, "Ben: Full House scores 0 or 25, not 24.",
     "Ben: Full-House zählt 0 oder 25, nicht 24."),
    ("twos", 7, "Ben: Twos scores 0, 2, 4, 6, 8 or 10, not 7.",
     "Ben: Zweier zählt 0, 2, 4, 6, 8 oder 10, nicht 7."),
    ("chance", 0, "Ben: Chance scores 5 to 30, not 0.", "Ben: Chance zählt 5 bis 30, nicht 0."),
    ("three_of_a_kind", 31, "Ben: Three of a kind scores 0 or 5 to 30, not 31.",
     "Ben: Dreierpasch zählt 0 oder 5 bis 30, nicht 31."),
    ("large_straight", 30, "Ben: Large straight scores 0 or 40, not 30.",
     "Ben: Große Straße zählt 0 oder 40, nicht 30."),
    ("kniffel", "50", "Ben: Kniffel scores 0 or 50, not 50.",
     "Ben: Kniffel zählt 0 oder 50, nicht 50."),
    ("sixes", 25.0, "Ben: Sixes scores 0, 6, 12, 18, 24 or 30, not 25.0.",
     "Ben: Sechser zählt 0, 6, 12, 18, 24 oder 30, nicht 25.0."),
])
def test_typed_values_must_be_scorable(field, value, message, german):
    [problem] = RULES.validate({"players": ["Ben"], "sheets": {"Ben": {field: value}}})
    assert (problem.player, problem.field, problem.code) == ("Ben", field,
                                                             "sheets.impossible_value")
    assert str(problem) == message
    assert problem.in_language("de") == german


def test_every_upper_value_a_roll_can_give_is_accepted():
    for face, field in enumerate(kniffel.UPPER, start=1):
        assert RULES.allowed_points[field] == {face * n for n in range(6)}
    assert RULES.allowed_points["four_of_a_kind"] == {0, *range(5, 31)}
    assert RULES.allowed_points["small_straight"] == {0, 30}


def test_unknown_field_is_named():
    [problem] = RULES.validate({"players": ["Ben"], "sheets": {"Ben": {"yahtzee": 50}}})
    assert str(problem) == "Ben: the sheet has no field “yahtzee”."
