"""An own game written down by categories (Wingspan: birds, bonus cards, eggs ...), and the
short sums a family types into a cell."""

import pytest

import games
from games.sums import is_sum, read_short_sum

RULES = games.get("generic")
PLAYERS = ["ada", "bruno", "carla"]
WINGSPAN = [{"name": "Birds", "minus": False}, {"name": "Eggs", "minus": False},
            {"name": "Food", "minus": False}, {"name": "Penalties", "minus": True}]


def sheet(rows, *, sheet="categories", **rules):
    return {"players": PLAYERS, "rounds": rows, "finished": True,
            "house_rules": {"sheet": sheet, "categories": WINGSPAN} | rules}


def messages(result):
    return [str(problem) for problem in RULES.validate(result)]


@pytest.mark.parametrize("typed,value", [
    ("3+6+2", 11), ("12-3", 9), ("-4", -4), ("+5", 5), (" 3 + 4 ", 7), ("10−2", 8), ("0", 0),
])
def test_a_short_sum_adds_up_whole_numbers(typed, value):
    assert read_short_sum(typed) == value


@pytest.mark.parametrize("typed", [
    "", "3+", "+", "3++4", "2*3", "1e3", "3.5", "__import__('os')", "(3+4)", "12345678",
    "1+" * 40 + "1", "٣+٦+٢", "３+６", "1 2", "5\n6", "3 +4 5", "²+1",
])
def test_anything_else_is_no_sum(typed):
    assert read_short_sum(typed) is None


def test_a_sum_is_told_from_a_single_number():
    assert is_sum("3+6") and is_sum("12-3") and not is_sum("-4") and not is_sum("7")


def test_categories_add_up_and_a_minus_category_takes_off():
    outcome = RULES.score(sheet([{"ada": 38, "bruno": 30, "carla": 41},
                                 {"ada": 9, "bruno": 12, "carla": 4},
                                 {"ada": 3, "bruno": 5, "carla": 2},
                                 {"ada": -2, "bruno": 0, "carla": -3}]))
    assert outcome.points == {"ada": 48, "bruno": 47, "carla": 44}
    assert outcome.places == {"ada": 1, "bruno": 2, "carla": 3}
    assert outcome.details["ada"]["rounds"] is None


def test_the_tie_break_category_decides_a_tie_and_a_level_one_is_shared():
    rows = [{"ada": 30, "bruno": 28, "carla": 30}, {"ada": 5, "bruno": 7, "carla": 5},
            {"ada": 2, "bruno": 2, "carla": 2}, {}]
    assert RULES.score(sheet(rows)).places == {"ada": 1, "bruno": 1, "carla": 1}
    assert RULES.score(sheet(rows, tiebreak="Eggs")).places == {
        "bruno": 1, "ada": 2, "carla": 2}
    rows[0], rows[1] = {"ada": 30, "bruno": 28, "carla": 31}, {"ada": 5, "bruno": 7, "carla": 4}
    assert RULES.score(sheet(rows, tiebreak="Eggs")).places == {
        "bruno": 1, "ada": 2, "carla": 3}


def test_a_penalty_cannot_add_and_the_sheet_has_no_row_beyond_its_categories():
    assert messages(sheet([{}, {}, {}, {"ada": 3}])) == [
        "ada: Penalties is taken off the total; it cannot add to it."]
    assert messages(sheet([{}] * 5)) == ["The sheet has 4 categories, not more."]


def test_categories_in_each_round_repeat_the_rows():
    rows = [{"ada": 1}, {"ada": 2}, {"ada": 3}, {"ada": -1}, {"ada": 10}]
    outcome = RULES.score(sheet(rows, sheet="category_rounds"))
    assert outcome.points["ada"] == 15 and outcome.details["ada"]["rounds"] == 2


def test_a_sum_kept_with_a_cell_must_give_its_points():
    rows = [{"ada": 11}, {}, {}, {"ada": -5}]
    assert messages(sheet(rows) | {"sums": [{"ada": "3+6+2"}, {}, {}, {"ada": "2+3"}]}) == []
    assert messages(sheet(rows) | {"sums": [{"ada": "3+6"}]}) == [
        "ada: the sum 3+6 does not give the points stored."]
    assert messages(sheet(rows) | {"sums": [{"ada": "os.system()"}]}) == [
        "ada: the sum os.system() does not give the points stored."]


@pytest.mark.parametrize("rules,message", [
    ({"categories": []}, "Name the categories the game is scored by, one per line."),
    ({"scoring": "places"}, "Only a game with points is written down by categories."),
    ({"tiebreak": "Wood"}, "The category that breaks a tie must be one of the categories."),
    ({"end": "rounds", "end_at": 3},
     "A game scored by categories at the end has no rounds to end after."),
    ({"categories": [{"name": "Birds"}, {"name": "birds"}]},
     "The category birds is listed twice."),
    ({"categories": [{"name": " "}]}, "Give each category a name of up to 40 characters."),
])
def test_a_sheet_by_categories_is_defined_sensibly(rules, message):
    house_rules = {"sheet": "categories", "categories": WINGSPAN} | rules
    assert message in [str(p) for p in RULES.validate_house_rules(house_rules)]


def test_every_category_entered_is_the_end_of_the_sheet():
    rows = [{"ada": 1, "bruno": 2, "carla": 3}] * 3 + [{"ada": 0, "bruno": 0}]
    assert RULES.end_reached(sheet(rows) | {"finished": False}) is None
    rows[3] = {"ada": 0, "bruno": 0, "carla": 0}
    assert str(RULES.end_reached(sheet(rows) | {"finished": False})) == (
        "Every category is entered.")


WINGSPAN_TIE = [{"ada": 40, "bruno": 40, "carla": 38}, {"ada": 12, "bruno": 12, "carla": 14},
                {"ada": 8, "bruno": 8, "carla": 6}, {}]  # 60, 60, 58


def test_a_tie_break_count_decides_a_tie_only_once_entered():
    """Wingspan: a tie goes to the most food tokens left, counted only when totals tie."""
    rules = {"tiebreak_count": "Food tokens left"}
    assert RULES.score(sheet(WINGSPAN_TIE, **rules)).places == {
        "ada": 1, "bruno": 1, "carla": 3}
    counted = sheet(WINGSPAN_TIE, **rules) | {"tie_counts": {"ada": 1, "bruno": 3}}
    assert RULES.score(counted).places == {"bruno": 1, "ada": 2, "carla": 3}


def test_a_count_breaks_only_a_tie_it_covers_and_a_level_count_is_shared():
    rows = [{"ada": 30, "bruno": 30, "carla": 20}, {}, {}, {}]
    rules = {"tiebreak_count": "Food tokens left"}
    assert RULES.score(sheet(rows, **rules) | {"tie_counts": {"ada": 2, "bruno": 5}}
                       ).places == {"bruno": 1, "ada": 2, "carla": 3}
    assert RULES.score(sheet(rows, **rules) | {"tie_counts": {"ada": 2, "bruno": 2}}
                       ).places == {"ada": 1, "bruno": 1, "carla": 3}
    # Only one of the tied counted: the tie stands until both are.
    assert RULES.score(sheet(rows, **rules) | {"tie_counts": {"bruno": 5}}
                       ).places == {"ada": 1, "bruno": 1, "carla": 3}
    # The category comes first, the count after it.
    rows[1] = {"ada": 4, "bruno": 1}
    rows[0] = {"ada": 26, "bruno": 29, "carla": 20}
    both = sheet(rows, tiebreak="Eggs", **rules) | {"tie_counts": {"ada": 0, "bruno": 9}}
    assert RULES.score(both).places == {"ada": 1, "bruno": 2, "carla": 3}


def test_a_count_is_a_whole_number_of_a_player_in_a_game_that_has_one():
    rows = [{"ada": 30, "bruno": 30}, {}, {}, {}]
    assert messages(sheet(rows) | {"tie_counts": {"ada": 2}}) == [
        "This game has no count that breaks a tie."]
    counted = sheet(rows, tiebreak_count="Food tokens left")
    assert messages(counted | {"tie_counts": {"ada": -1, "zoe": 2}}) == [
        "ada: The count that breaks the tie must be a whole number from 0 to 1000000.",
        "zoe is not playing in this game."]
    assert "Only a game with points has totals to be tied." in [
        str(p) for p in RULES.validate_house_rules({"scoring": "places",
                                                    "tiebreak_count": "Food"})]
