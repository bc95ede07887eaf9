"""Every registered game honours the engine's public API."""

import json
import subprocess
import sys

import pytest

import games
from games import InvalidResult, Outcome, UnknownGame
from tests.games.examples import VALID_RESULTS

ALL_GAMES = games.all_games()


def test_registry_offers_every_game_of_the_family_in_display_order():
    assert [rules.key for rules in ALL_GAMES] == [
        "maus_im_nacken", "kniffel", "weltraum_kniffel", "mouse_trap", "alles_fuer_die_katz",
        "souriciere", "mensch_aergere_dich_nicht", "entenspiel", "mau_mau", "generic",
    ]


def test_unknown_key_is_a_lookup_error():
    with pytest.raises(UnknownGame):
        games.get("chess")
    with pytest.raises(LookupError):
        games.get("")


def test_importing_the_engine_does_not_import_django():
    code = "import sys, games; games.get('kniffel'); print('django' in sys.modules)"
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout
    assert output.strip() == "False"


@pytest.mark.parametrize("rules", ALL_GAMES, ids=lambda rules: rules.key)
def test_rules_describe_themselves_in_english_and_german(rules):
    assert rules is games.get(rules.key)
    assert rules.name and rules.name.in_language("de")
    assert rules.description and rules.description.in_language("de") != rules.description
    assert 1 <= rules.min_players <= rules.max_players
    for n in range(rules.min_players, rules.max_players + 1):
        assert rules.setup_hint(n).in_language("de") != str(rules.setup_hint(n))
    for option in rules.house_rules:
        assert option.label.in_language("de") != option.label


@pytest.mark.parametrize("rules", ALL_GAMES, ids=lambda rules: rules.key)
def test_setup_hint_for_too_many_players_says_how_many_can_play(rules):
    hint = rules.setup_hint(rules.max_players + 1)
    assert str(rules.min_players) in hint and str(rules.max_players) in hint


@pytest.mark.parametrize("key,result", VALID_RESULTS, ids=[key for key, _ in VALID_RESULTS])
def test_a_valid_result_scores_every_player(key, result):
    rules = games.get(key)
    assert rules.validate(result) == []
    outcome = rules.score(json.loads(json.dumps(result)))
    assert isinstance(outcome, Outcome)
    assert outcome.game == key
    assert set(outcome.points) == set(outcome.places) == set(result["players"])
    assert all(isinstance(points, int) for points in outcome.points.values())
    table_lost = all(detail.get("won") is False for detail in outcome.details.values())
    assert min(outcome.places.values()) == (2 if table_lost else 1)
    assert set(outcome.details) == set(result["players"])
    json.dumps(outcome.details)


@pytest.mark.parametrize("rules", ALL_GAMES, ids=lambda rules: rules.key)
@pytest.mark.parametrize("result", [None, [], "kniffel", {}, {"players": "anna"},
                                    {"players": ["anna", "anna"]}, {"players": []}])
def test_unreadable_results_are_refused_with_problems(rules, result):
    problems = rules.validate(result)
    assert problems
    with pytest.raises(InvalidResult) as refused:
        rules.score(result)
    assert refused.value.problems == problems


@pytest.mark.parametrize("rules", ALL_GAMES, ids=lambda rules: rules.key)
def test_unknown_house_rule_is_refused(rules):
    result = {"players": ["anna", "ben"], "house_rules": {"cheating": True}}
    problems = rules.validate(result)
    assert [p.code for p in problems] == ["house_rules.unknown"]
    assert "cheating" in str(problems[0])


@pytest.mark.parametrize("rules", ALL_GAMES, ids=lambda rules: rules.key)
def test_setup_is_checked_before_the_game_starts(rules):
    players = [f"p{n}" for n in range(rules.min_players)]
    assert rules.validate_setup(players, rules.default_house_rules()) == []
    too_many = [f"p{n}" for n in range(rules.max_players + 1)]
    assert [p.code for p in rules.validate_setup(too_many)] == ["players.count"]


@pytest.mark.parametrize("names,codes", [
    (["José", "Jose\u0301"], ["players.unclear_name", "players.duplicate"]),
    (["anna", "anna "], ["players.unclear_name", "players.duplicate"]),
    (["anna", "an\u200bna"], ["players.unclear_name", "players.duplicate"]),
    (["anna", "\u200b"], ["players.invalid"]),
    (["anna", "\u00a0 "], ["players.invalid"]),
    (["anna", "ben\u2060"], ["players.unclear_name"]),
    (["José", "Anna Lena"], []),
])
def test_player_names_that_look_the_same_or_are_invisible_are_refused(names, codes):
    rules = games.get("generic")
    problems = rules.validate_setup(names)
    assert [problem.code for problem in problems] == codes
    result = {"players": names, "scores": dict.fromkeys(names, 1)}
    assert [problem.code for problem in rules.validate(result)] == codes


def test_a_name_with_an_accent_in_two_characters_is_refused_with_how_it_looks():
    problems = games.get("generic").validate_setup(["Jose\u0301", "ben"])
    assert [str(problem) for problem in problems] == [
        "“Jose\u0301” has invisible characters, extra spaces or an accent written as two "
        "characters: write it as “José”."]


@pytest.mark.parametrize("key,result", VALID_RESULTS, ids=[key for key, _ in VALID_RESULTS])
def test_an_unknown_key_in_a_result_is_a_problem(key, result):
    problems = games.get(key).validate({**result, "extra_kniffels ": {}})
    assert [(p.code, p.field) for p in problems] == [("result.unknown_key", "extra_kniffels ")]
    assert "“extra_kniffels ”" in str(problems[0])


@pytest.mark.parametrize("key,result,problem", [
    ("weltraum_kniffel", {"players": ["mia"], "extra_kniffels": {"mia": 1}},
     "Space Kniffel results have no “extra_kniffels”."),
    ("kniffel", {"players": ["anna"], "house_rules": {"jokers": "free"}},
     "Kniffel has no house rule called “jokers”."),
    ("kniffel", {"players": ["anna"], "house_rules": {"joker": "yahtzee"}},
     "Further Kniffels as a joker: choose one of the listed options."),
    ("entenspiel", {"players": ["anna", "ben"], "winner": "anna", "squre": {"ben": 3}},
     "Entenspiel results have no “squre”."),
])
def test_misspelt_keys_and_unknown_values_are_problems(key, result, problem):
    assert [str(p) for p in games.get(key).validate(result)] == [problem]


@pytest.mark.parametrize("key,result,points", [
    ("mouse_trap", {"players": ["anna", "ben"], "captures": [{"mice": ["ben"], "by": "anna"}],
                    "cheese": None}, None),
    ("mouse_trap", {"players": ["anna", "ben"], "captures": [{"mice": ["ben"], "by": "anna"}],
                    "cheese": {"anna": 4, "ben": None}}, None),
    ("entenspiel", {"players": ["anna", "ben"], "winner": "anna", "squares": None}, None),
    ("entenspiel", {"players": ["anna", "ben"], "winner": "anna", "squares": {"ben": None}},
     None),
    ("kniffel", {"players": ["anna"], "sheets": {"anna": {"ones": 3}}, "extra_kniffels": None,
                 "dice": None, "house_rules": None}, {"anna": 3}),
    ("kniffel", {"players": ["anna"], "sheets": {"anna": {"ones": 3}},
                 "extra_kniffels": {"anna": None}, "dice": {"anna": {"ones": None}}},
     {"anna": 3}),
    ("kniffel", {"players": ["anna"], "sheets": None}, {"anna": 0}),
    ("alles_fuer_die_katz", {"players": ["anna", "ben"], "first_home": None,
                             "mice": {"anna": {"home": 0, "trapped": 4},
                                      "ben": {"home": 0, "trapped": 4}}}, {"anna": 0, "ben": 0}),
])
def test_null_means_absent_for_optional_fields(key, result, points):
    outcome = games.get(key).score(result)
    if points is not None:
        assert outcome.points == points


def test_null_means_absent_for_required_fields_too():
    """A Mouse Trap result needs a capture: null captures are as missing as none."""
    rules = games.get("mouse_trap")
    absent = rules.validate({"players": ["anna", "ben"]})
    assert rules.validate({"players": ["anna", "ben"], "captures": None}) == absent
    assert [problem.code for problem in absent] == ["captures.missing"]


@pytest.mark.parametrize("rules", ALL_GAMES, ids=lambda rules: rules.key)
@pytest.mark.parametrize("count", [2.5, "3", None, True, [2]])
def test_setup_hint_for_a_player_count_that_is_not_a_whole_number(rules, count):
    with pytest.raises(InvalidResult) as refused:
        rules.setup_hint(count)
    assert [problem.code for problem in refused.value.problems] == ["players.count"]
