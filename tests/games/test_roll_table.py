"""The roll table a device answers dice with: what all 252 rolls score in each open field."""

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.kniffel import UPPER

KNIFFEL = games.get("kniffel")
SPACE = games.get("weltraum_kniffel")
DICE_GAMES = [KNIFFEL, SPACE]


def at(rules, table, field, roll):
    """What ``roll`` (in any order) scores in ``field`` by ``table``."""
    ordered = tuple(sorted(roll, key=rules.faces.index))
    return table[field][rules.rolls.index(ordered)]


@pytest.mark.parametrize("rules", DICE_GAMES, ids=lambda rules: rules.key)
def test_every_roll_of_five_dice_once_sorted_by_the_faces(rules):
    assert len(rules.rolls) == 252
    every_roll = {tuple(sorted(roll, key=rules.faces.index))
                  for roll in product(rules.faces, repeat=5)}
    assert set(rules.rolls) == every_roll and len(set(rules.rolls)) == 252
    assert rules.rolls[0] == (rules.faces[0],) * 5 and rules.rolls[-1] == (rules.faces[-1],) * 5
    assert rules.rolls[1] == (rules.faces[0],) * 4 + (rules.faces[1],)


@pytest.mark.parametrize("sheet,house_rules,roll,expected", [
    # An empty sheet: every field, what the dice show there.
    ({}, {}, [3, 3, 2, 2, 2], {"full_house": 25, "twos": 6, "threes": 6, "chance": 12,
                               "kniffel": 0, "ones": 0, "three_of_a_kind": 12}),
    ({}, {}, [4, 4, 4, 4, 4], {"kniffel": 50, "full_house": 0, "fours": 20}),
    ({}, {}, [6, 5, 4, 3, 2], {"large_straight": 40, "small_straight": 30, "chance": 20}),
    # A further Kniffel with the matching upper field open must go there (Schmidt).
    ({"kniffel": 50}, {}, [4, 4, 4, 4, 4], {"fours": 20, "full_house": None, "ones": None,
                                            "chance": None}),
    # ... and into the lower part at full value once it is filled.
    ({"kniffel": 50, "fours": 12}, {}, [4, 4, 4, 4, 4],
     {"full_house": 25, "large_straight": 40, "chance": 20, "ones": None}),
    # Verhoeff: anywhere, but Full House only at full value once the upper field is filled.
    ({"kniffel": 50}, {"joker": "free_after_upper"}, [4, 4, 4, 4, 4],
     {"fours": 20, "full_house": 0, "ones": 0, "chance": 20}),
    ({"kniffel": 50}, {"joker": "free"}, [4, 4, 4, 4, 4],
     {"fours": 20, "full_house": 25, "ones": 0}),
    # Not five alike: the joker changes nothing.
    ({"kniffel": 50}, {}, [4, 4, 4, 4, 1], {"fours": 16, "full_house": 0, "ones": 1}),
])
def test_the_classic_table_follows_the_rules_and_the_joker(sheet, house_rules, roll, expected):
    table = KNIFFEL.roll_table(sheet, house_rules)
    for field, points in expected.items():
        assert at(KNIFFEL, table, field, roll) == points, field


@pytest.mark.parametrize("house_rules,roll,expected", [
    # Where it scores the most (the rule text): only there.
    ({}, ["ufo", "ufo", "ufo", "rocket", "rocket"],
     {"three_and_pair": 4, "ufo": None, "three_alike": None, "two_pairs": None}),
    ({}, ["ufo", "rocket", "nebula", "star", "sun"], {"all_different": 5, "ufo": None}),
    ({}, ["sun"] * 5, {"space_kniffel": 10, "sun": None}),
    # A roll that fits no lower field: the upper field where it brings the most.
    ({}, ["ufo", "ufo", "rocket", "nebula", "star"], {"ufo": 2, "rocket": None}),
    # Free choice: every open field, 0 where the roll does not fit.
    ({"field_choice": "free"}, ["ufo", "ufo", "ufo", "rocket", "rocket"],
     {"three_and_pair": 4, "ufo": 3, "rocket": 2, "sun": 0, "two_pairs": 3,
      "all_different": 0}),
    ({"field_choice": "free", "full_is_two_pairs": False},
     ["ufo", "ufo", "ufo", "rocket", "rocket"], {"two_pairs": 0}),
    ({"field_choice": "free", "five_alike_is_three_alike": False}, ["sun"] * 5,
     {"three_alike": 0, "space_kniffel": 10}),
])
def test_the_space_table_honours_the_house_rules(house_rules, roll, expected):
    table = SPACE.roll_table({}, house_rules)
    for field, points in expected.items():
        assert at(SPACE, table, field, roll) == points, field


@pytest.mark.parametrize("rules,sheet", [
    (KNIFFEL, {"ones": 3, "chance": 20, "kniffel": 50}),
    (SPACE, {"ufo": 3, "space_kniffel": 0, "two_pairs": None}),
])
def test_filled_fields_are_left_out(rules, sheet):
    table = rules.roll_table(sheet)
    filled = {key for key, points in sheet.items() if points is not None}
    assert set(table) == set(rules.field_keys) - filled
    assert all(len(column) == 252 for column in table.values())


def test_a_full_sheet_leaves_nothing():
    assert KNIFFEL.roll_table(dict.fromkeys(KNIFFEL.field_keys, 0)) == {}


def test_the_table_is_not_shared_with_its_caller():
    table = KNIFFEL.roll_table({})
    table.pop("ones")
    assert "ones" in KNIFFEL.roll_table({})


sheets = st.dictionaries(st.sampled_from(KNIFFEL.field_keys), st.sampled_from([0, 5, 50]))
jokers = st.sampled_from(["schmidt", "forced_upper", "free", "free_after_upper"])


@settings(max_examples=25, deadline=None)
@given(sheet=sheets, joker=jokers, bonus=st.sampled_from([0, 50, 100]))
def test_every_entry_is_what_the_editor_offers_for_that_roll(sheet, joker, bonus):
    house_rules = {"joker": joker, "extra_kniffel_bonus": bonus}
    table = KNIFFEL.roll_table(sheet, house_rules)
    for index, roll in enumerate(KNIFFEL.rolls):
        offered = KNIFFEL.options(roll, sheet, house_rules)
        assert {key: column[index] for key, column in table.items()
                if column[index] is not None} == offered


def test_five_alike_with_the_kniffel_filled_go_into_the_upper_field_only():
    table = KNIFFEL.roll_table({"kniffel": 50})
    for face, key in enumerate(UPPER, start=1):
        index = KNIFFEL.rolls.index((face,) * 5)
        assert [field for field, column in table.items() if column[index] is not None] == [key]
