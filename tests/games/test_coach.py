"""The coach: its dice arithmetic, its reading of the engine, and its values against brute force
and against the published optimum."""

from __future__ import annotations

import itertools
import random
from functools import cache

import numpy as np
import pytest

import games
from games import coach
from games.coach import Coach, Model
from games.dice_sheet import DICE

KNIFFEL = games.get("kniffel")
SPACE = games.get("weltraum_kniffel")


def test_the_dice_of_a_turn():
    assert len(coach.KEPT) == 462
    assert len(coach.ROLLS) == 252
    assert coach.ROLL_PROBABILITY.sum() == pytest.approx(1.0)
    # Five alike: 1 way in 7776; five different faces: 120 ways.
    assert coach.ROLL_PROBABILITY[coach.ROLL_INDEX[(5, 0, 0, 0, 0, 0)]] == pytest.approx(1 / 7776)
    assert coach.ROLL_PROBABILITY[coach.ROLL_INDEX[(1, 1, 1, 1, 1, 0)]] == pytest.approx(
        120 / 7776)


@cache
def _model(game, house_rules):
    return Model(games.get(game), dict(house_rules))


def model_of(rules, house_rules):
    """The model, built once per module: reading the engine takes about a second."""
    return _model(rules.key, tuple(sorted(house_rules.items())))


@pytest.fixture(scope="module")
def yahtzee_model():
    return model_of(KNIFFEL, coach.YAHTZEE)


@pytest.mark.parametrize("rules,house_rules", [
    (KNIFFEL, {}),
    (KNIFFEL, {"joker": "free", "extra_kniffel_bonus": 100}),
    (KNIFFEL, coach.YAHTZEE),
    (KNIFFEL, {"joker": "forced_upper", "extra_kniffel_bonus": 100}),
    (SPACE, {}),
    (SPACE, {"five_alike_is_three_alike": False, "full_is_two_pairs": False}),
    (SPACE, {"field_choice": "free"}),
])
def test_the_coach_scores_every_roll_in_every_field_as_the_engine_does(rules, house_rules):
    """For sheets with any fields filled: each of the 252 rolls may go where the engine's
    options allow, for the points they name."""
    model = model_of(rules, house_rules)
    randomly = random.Random(17)
    count = len(model.fields)
    for filled in [0, (1 << count) - 2, *randomly.sample(range(1 << count), 40)]:
        sheet = {key: 0 for index, key in enumerate(model.fields) if filled >> index & 1}
        forbidden = model.not_scoring_most(filled)
        for roll, dice in enumerate(model.dice):
            expected = rules.options(list(dice), sheet, model.house_rules)
            face = np.flatnonzero(coach.FIVE_ALIKE == roll)
            seen = {}
            for index, key in enumerate(model.fields):
                if filled >> index & 1:
                    continue
                if face.size:
                    points = model.five_alike_points[filled, face[0], index]
                elif forbidden is not None and forbidden[index, roll]:
                    points = coach.NOT_ALLOWED
                else:
                    points = model.plain[index, roll]
                if points != coach.NOT_ALLOWED:
                    seen[key] = int(points)
            assert seen == expected, (sheet, dice)


# An independent brute force: every reroll enumerated die by die, every keep as a choice of
# dice positions, the bonuses read from the engine's totals. Slow, so only for the last turns.

def brute_force_value(rules, house_rules, sheet, extras=0):
    """Expected points still to come on ``sheet`` with optimal play, by enumeration."""
    return _brute_force(rules.key, tuple(sorted(house_rules.items())),
                        tuple(sorted(sheet.items())), extras)


@cache
def _brute_force(game, house_rules, sheet_items, extras):
    rules = games.get(game)
    sheet = dict(sheet_items)
    rules_now = rules.default_house_rules() | dict(house_rules)
    open_fields = [key for key in rules.field_keys if key not in sheet]
    if not open_fields:
        return 0.0
    total_before = rules.totals(sheet, extras, rules_now)["total"]

    @cache
    def final(roll):
        best = -1.0
        for field, points in rules.options(list(roll), sheet, rules_now).items():
            further = rules.further_kniffel(field, roll, points, sheet, rules_now)
            after = {**sheet, field: points}
            gained = rules.totals(after, extras + further, rules_now)["total"] - total_before
            best = max(best, gained + _brute_force(game, house_rules,
                                                   tuple(sorted(after.items())),
                                                   extras + further))
        return best

    @cache
    def rolling(kept, rerolls_left):
        outcomes = list(itertools.product(rules.faces, repeat=DICE - len(kept)))
        return sum(choosing(tuple(sorted(kept + outcome, key=rules.faces.index)), rerolls_left)
                   for outcome in outcomes) / len(outcomes)

    @cache
    def choosing(roll, rerolls_left):
        if rerolls_left == 0:
            return final(roll)
        keeps = {tuple(roll[i] for i in chosen)
                 for size in range(6) for chosen in itertools.combinations(range(5), size)}
        return max(rolling(keep, rerolls_left - 1) for keep in keeps)

    return rolling((), 2)


def table_for(rules, house_rules):
    model = model_of(rules, house_rules)
    return Coach(model, coach.solve(model))


@pytest.fixture(scope="module")
def space_coach():
    return table_for(SPACE, {})


@pytest.mark.parametrize("sheet", [
    # The last turn: only one field open.
    {key: 0 for key in SPACE.field_keys if key != "space_kniffel"},
    {key: 0 for key in SPACE.field_keys if key != "sun"},
    # The last two turns.
    {key: 0 for key in SPACE.field_keys if key not in ("two_pairs", "all_different")},
    {key: 0 for key in SPACE.field_keys if key not in ("rocket", "three_and_pair")},
])
@pytest.mark.parametrize("house_rules", [{}, {"field_choice": "free"}])
def test_last_turns_of_space_kniffel_agree_with_brute_force(house_rules, sheet):
    """Both readings of where a roll goes: where it scores the most, and free choice."""
    space_coach = table_for(SPACE, house_rules)
    assert space_coach.expected(sheet) == pytest.approx(
        brute_force_value(SPACE, house_rules, sheet))


def test_the_space_coach_never_writes_zero_while_a_field_would_score(space_coach):
    """By the rule text a roll goes where it scores the most: 0 only where it scores nowhere."""
    randomly = random.Random(5)
    for _ in range(40):
        sheet = {key: 0 for key in randomly.sample(SPACE.field_keys, randomly.randrange(11))}
        dice = [randomly.choice(SPACE.faces) for _ in range(DICE)]
        advice = space_coach.advise(sheet, dice)
        most = max(SPACE.options(dice, sheet, {"field_choice": "free"}).values())
        assert all(option.points == most for option in advice.fields), (sheet, dice)


def test_free_choice_lets_the_coach_give_a_field_away():
    """Free choice: the coach may strike a field to keep a better one open."""
    free_coach = table_for(SPACE, {"field_choice": "free"})
    final = free_coach.advise({}, ["ufo", "ufo", "ufo", "sun", "star"])
    assert {option.field for option in final.fields} == set(SPACE.field_keys)


def test_the_last_turn_for_a_kniffel_is_worth_fifty_times_its_chance(yahtzee_model):
    """Five alike within three rolls: 2,783,176 in 60,466,176 (the published probability)."""
    values = coach.solve(yahtzee_model, open_at_most=1)
    sheet = {key: 0 for key in KNIFFEL.field_keys if key != "kniffel"}
    assert Coach(yahtzee_model, values).expected(sheet) == pytest.approx(
        50 * 2_783_176 / 60_466_176, abs=1e-9)


@pytest.mark.parametrize("house_rules,sheet", [
    # Sixes left, 45 in the upper part: three sixes bring the bonus.
    (coach.YAHTZEE, {**{key: 0 for key in KNIFFEL.field_keys if key != "sixes"},
                     "ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15}),
    # Fours and Full House left, Kniffel holds 50: a further Kniffel earns 100 and the joker.
    (coach.YAHTZEE, {**{key: 0 for key in KNIFFEL.field_keys
                        if key not in ("fours", "full_house")},
                     "kniffel": 50, "ones": 3, "twos": 6, "threes": 9, "fives": 20, "sixes": 12}),
    # Schmidt's 50 for a further Kniffel in its own upper field, threes and chance left.
    ({}, {**{key: 0 for key in KNIFFEL.field_keys if key not in ("threes", "chance")},
          "kniffel": 50, "ones": 3, "twos": 6, "fours": 16, "fives": 20, "sixes": 18}),
    # The forced joker with the Kniffel struck: fives and the large straight left.
    ({"joker": "forced_upper", "extra_kniffel_bonus": 100},
     {**{key: 0 for key in KNIFFEL.field_keys if key not in ("fives", "large_straight")},
      "sixes": 30, "fours": 16}),
])
def test_last_turns_of_kniffel_agree_with_brute_force(house_rules, sheet):
    model = model_of(KNIFFEL, house_rules)
    values = coach.solve(model, open_at_most=len(KNIFFEL.field_keys) - len(sheet))
    assert Coach(model, values).expected(sheet) == pytest.approx(
        brute_force_value(KNIFFEL, house_rules, sheet), abs=1e-9)


def test_advice_names_the_best_field_and_the_dice_to_keep(space_coach):
    advice = space_coach.advise({}, ["ufo", "ufo", "ufo", "sun", "star"], rolls_left=2)
    assert advice.reroll
    assert advice.best_keep.dice == ("ufo", "ufo", "ufo")
    assert [keep.worth for keep in advice.keeps] == sorted(
        (keep.worth for keep in advice.keeps), reverse=True)
    assert len(advice.keeps) == 2 ** 3 * 2  # every part of 3 ufos, a sun and a star
    final = space_coach.advise({}, ["ufo", "ufo", "ufo", "sun", "star"])
    assert final.keeps == [] and not final.reroll
    assert [option.field for option in final.fields] == ["ufo"]  # three points, the most
    assert final.best_field.worth == max(option.worth for option in final.fields)


def test_advice_refuses_what_it_cannot_read(space_coach):
    with pytest.raises(games.InvalidResult):
        space_coach.advise({}, ["ufo", "ufo"], 0)
    with pytest.raises(ValueError):
        space_coach.advise({}, ["ufo"] * 5, 3)
    with pytest.raises(ValueError):
        space_coach.advise({key: 0 for key in SPACE.field_keys}, ["ufo"] * 5, 0)


def test_a_review_splits_luck_from_choices(space_coach):
    turns = [("space_kniffel", 10, ("sun",) * 5),  # five alike: the best field, lucky
             ("ufo", 1, ("ufo", "rocket", "nebula", "star", "sun")),  # five different: a waste
             ("planet", 2, None)]  # typed in: not weighed
    kniffel_turn, wasted, typed = space_coach.review(turns)
    assert kniffel_turn.best.field == "space_kniffel" and kniffel_turn.lost == 0
    assert kniffel_turn.luck > 0
    assert wasted.best.field == "all_different" and wasted.lost > 0
    assert wasted.change == pytest.approx(wasted.luck - wasted.lost)
    assert typed.best is None and typed.luck is None and typed.lost is None


def test_tables_are_stored_and_read_back(space_coach, tmp_path):
    coach.store(space_coach, tmp_path)
    loaded = coach.load(SPACE, {}, tmp_path)
    assert np.array_equal(loaded.values, space_coach.values, equal_nan=True)
    assert coach.load(SPACE, {"full_is_two_pairs": False}, tmp_path) is None
    assert coach.load(KNIFFEL, {}, tmp_path) is None
    (tmp_path / coach.table_name(SPACE, {})).write_bytes(b"not a table")
    assert coach.load(SPACE, {}, tmp_path) is None


def test_house_rules_that_play_alike_share_a_table():
    assert coach.table_name(KNIFFEL, {"start_player": "highest_roll", "coach_hint": True}) \
        == coach.table_name(KNIFFEL, {})
    assert coach.table_name(KNIFFEL, {"joker": "free"}) != coach.table_name(KNIFFEL, {})
    schmidt = model_of(KNIFFEL, {})
    assert model_of(KNIFFEL, {"joker": "forced_upper"}).plays_like(schmidt)
    assert not model_of(KNIFFEL, {"joker": "free", "extra_kniffel_bonus": 100}).plays_like(
        schmidt)


def test_the_whole_game_reproduces_the_published_optimum(coach_tables):
    """Verhoeff (1999) and Glenn (2006): 254.5896 for the official Yahtzee rules as they
    read them. The whole game is computed once for the test session (a few seconds)."""
    yahtzee = coach.load(KNIFFEL, coach.YAHTZEE, coach_tables)
    assert round(yahtzee.expected({}), 4) == 254.5896
    # The opening roll 1-2-3-4-5 belongs in the large straight (Verhoeff's advisor: 261.53).
    advice = yahtzee.advise({}, [1, 2, 3, 4, 5])
    assert advice.best_field.field == "large_straight"
    assert round(advice.best_field.worth, 2) == 261.53


@pytest.mark.parametrize("game,house_rules", [
    ("kniffel", {}),
    ("kniffel", {"joker": "free", "extra_kniffel_bonus": 100}),
    ("weltraum_kniffel", {}),
])
def test_the_advice_and_the_compiled_solver_agree_on_every_state_they_share(game, house_rules):
    """Advice works out a state's final rolls and keeps with numpy, the solver compiled: from
    the values of the states after it, both find the value of the state the table holds."""
    model = model_of(games.get(game), house_rules)
    values = coach.solve(model)
    randomly = random.Random(11)
    full = (1 << len(model.fields)) - 1
    checked = 0
    while checked < 150:
        filled = randomly.randrange(full)
        upper, flag = (int(randomly.choice(options)) for options in model.states_of(filled))
        if not np.isfinite(values[filled, upper, flag]):
            continue
        final = model.worths(values, coach.State(filled, upper, flag)).max(axis=0)
        turn = coach.with_rolls_left(final, coach.ROLLS_PER_TURN - 1)[0]
        assert turn == pytest.approx(values[filled, upper, flag], abs=1e-9)
        checked += 1


def test_a_table_computed_in_a_process_of_its_own_is_the_same():
    apart = coach.compute_apart(SPACE, {"field_choice": "free", "coach_hint": True})
    here = coach.solve(model_of(SPACE, {"field_choice": "free"}))
    assert np.array_equal(apart.values, here, equal_nan=True)
    with pytest.raises(RuntimeError):
        coach.compute_apart(SPACE, {}, timeout=0.01)
