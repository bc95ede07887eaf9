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
    assert min(outcome.places.values()) == 1
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
