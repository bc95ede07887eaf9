"""Whatever a tablet sends, every game either scores it or explains why not."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games import InvalidResult, Outcome, Problem
from tests.games.examples import VALID_RESULTS

NAMES = ["anna", "ben", "carl", "dora", "emil"]
RESULT_KEYS = ["elephants", "sheets", "extra_kniffels", "house_rules", "captures", "cheese",
               "mice", "first_home", "order", "winner", "squares", "hands", "scores", "rounds",
               "teams", "won", "score", "winners", "finished"]
WORDS = ["home:1", "home:2", "home:3", "home:0", "seat:3", "seat:8", "seat:9", "caught",
         "pyramid", "home", "trapped", "mouse", "by", "schmidt", "free", "forced_upper",
         "free_after_upper",
         "joker", "extra_kniffel_bonus", "scoring", "penalty_points", "single_hand", "edition",
         "bookmark", "trap_square", "pieces", "seat_values", "most_points", "fewest_points",
         "places", "cooperative", "teams", "end", "end_at", "target", "rounds",
         *games.get("kniffel").field_keys, *games.get("weltraum_kniffel").field_keys]

names = st.sampled_from(NAMES)
scalars = (st.none() | st.booleans() | st.integers(-3, 70) | st.sampled_from([0, 25, 50, 100])
           | st.floats(allow_nan=False, allow_infinity=False) | names | st.sampled_from(WORDS)
           | st.text(max_size=4))
keys = names | st.sampled_from(WORDS) | st.text(max_size=3)
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(keys, children,
                                                                       max_size=5),
    max_leaves=25,
)
results = st.fixed_dictionaries(
    {"players": st.lists(names, max_size=5, unique=True) | json_values},
    optional={key: json_values for key in RESULT_KEYS},
)


def mutated(result: dict, data) -> dict:
    """A valid result with one value somewhere replaced by an arbitrary one."""
    copy = json.loads(json.dumps(result))
    node, path = copy, []
    while isinstance(node, dict | list) and node and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(list(node) if isinstance(node, dict)
                                        else list(range(len(node)))))
        path.append((node, key))
        node = node[key]
    if path:
        parent, key = path[-1]
        parent[key] = data.draw(json_values)
    return copy


def assert_scores_or_explains(rules, result):
    problems = rules.validate(result)
    assert all(isinstance(problem, Problem) for problem in problems)
    for problem in problems:
        assert str(problem) and problem.in_language("de")
    try:
        outcome = rules.score(result)
    except InvalidResult as refused:
        assert refused.problems == problems and problems
        return
    assert problems == []
    won = {detail.get("won") for detail in outcome.details.values()}
    if won == {False}:
        # A co-operative game the table lost: the game took place 1, the players share 2.
        assert set(outcome.places.values()) == {2}
    elif won == {True}:
        # Won together: everyone first, the table's score (if any) the same for everyone.
        assert set(outcome.places.values()) == {1} and len(set(outcome.points.values())) == 1
    elif not result.get("winners"):
        # Recorded winners stand where the family decided against the scores.
        assert_places_agree_with_points(outcome)


def assert_places_agree_with_points(outcome: Outcome):
    """Places rank the sides (each player, or each team as one): 1, 1, 3 between sides."""
    places, points = outcome.places, outcome.points
    assert set(places) == set(points)
    side_of = {player: (detail or {}).get("team") or player
               for player, detail in outcome.details.items()}
    side_places = {side_of[player]: place for player, place in places.items()}
    for player, place in places.items():
        assert side_places[side_of[player]] == place
    for place in side_places.values():
        assert place == 1 + sum(1 for other in side_places.values() if other < place)
    sign = -1 if outcome.lower_is_better else 1
    for a in points:
        for b in points:
            if sign * points[a] > sign * points[b]:
                assert places[a] < places[b]
    if not outcome.scored_by_points:
        assert set(points.values()) <= {0}


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(list(games.GAMES)), result=results | json_values)
def test_arbitrary_input_scores_or_raises_invalid_result(key, result):
    assert_scores_or_explains(games.get(key), result)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(example=st.sampled_from(VALID_RESULTS), data=st.data())
def test_almost_valid_results_score_or_raise_invalid_result(example, data):
    key, result = example
    assert_scores_or_explains(games.get(key), mutated(result, data))


@settings(max_examples=200)
@given(st.lists(st.sampled_from(["home", "seat", "caught", "pyramid"]), min_size=8,
                max_size=16).filter(lambda fates: len(fates) % 4 == 0),
       st.sampled_from([3, 4, 5, 6, 7, 8]))
def test_any_real_maus_race_scores(fates, seat):
    players = NAMES[: len(fates) // 4]
    rank = iter(range(1, 17))
    elephants = {player: [] for player in players}
    for index, fate in enumerate(fates):
        if fate == "home":
            entry = f"home:{next(rank)}"
        elif fate == "seat":
            entry = f"seat:{seat}"
        else:
            entry = fate
        elephants[players[index // 4]].append(entry)
    outcome = games.get("maus_im_nacken").score({"players": players, "elephants": elephants})
    homes = fates.count("home")
    expected = sum((13, 12, 11)[: homes]) + 10 * max(homes - 3, 0) + seat * fates.count("seat")
    assert sum(outcome.points.values()) == expected
    assert_places_agree_with_points(outcome)


@settings(max_examples=200)
@given(st.lists(st.integers(1, 6), min_size=5, max_size=5),
       st.dictionaries(st.sampled_from(games.get("kniffel").field_keys), st.just(0)))
def test_every_kniffel_option_is_a_value_the_sheet_accepts(dice, sheet):
    rules = games.get("kniffel")
    for joker in ("schmidt", "free", "forced_upper", "free_after_upper", "free_after_upper"):
        options = games.kniffel.options(dice, sheet, {"joker": joker})
        assert bool(options) == (len(sheet) < 13)  # somewhere to go while a field is open
        for field, points in options.items():
            assert sheet.get(field) is None
            assert points in rules.allowed_points[field]
