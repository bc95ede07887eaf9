"""Mouse Trap, Alles für die Katz, La souricière, Mensch ärgere dich nicht, Entenspiel,
Mau Mau and the generic scorer."""

import itertools

import pytest

import games


def check(key, result):
    outcome = games.get(key).score(result)
    return outcome.points, outcome.places


def messages(key, result):
    return [str(problem) for problem in games.get(key).validate(result)]


# Mouse Trap ------------------------------------------------------------


def test_mouse_trap_last_uncaptured_wins_earlier_captures_place_lower():
    outcome = games.get("mouse_trap").score({
        "players": ["anna", "ben", "carl", "dora"],
        "captures": [{"mice": ["carl"], "by": "anna"}, {"mice": ["dora"], "by": "ben"},
                     {"mice": ["ben"], "by": "anna"}],
        "cheese": {"anna": 40}})
    assert outcome.places == {"anna": 1, "ben": 2, "dora": 3, "carl": 4}
    assert outcome.finished
    assert not outcome.scored_by_points
    assert outcome.details["anna"] == {"captured_by": None, "captured_as": None,
                                       "captures": 2, "cheese": 40}
    assert outcome.details["carl"]["captured_by"] == "anna"


def test_mouse_trap_in_progress_uncaptured_share_first_place():
    outcome = games.get("mouse_trap").score({
        "players": ["anna", "ben", "carl"], "captures": [{"mice": ["carl"], "by": "anna"}]})
    assert outcome.places == {"anna": 1, "ben": 1, "carl": 3}
    assert not outcome.finished


@pytest.mark.parametrize("captures,places,captured_as,finished", [
    # Two mice on the Cheese Wheel caught together share their place.
    ([{"mice": ["carl", "dora"], "by": "anna"}],
     {"anna": 1, "ben": 1, "carl": 3, "dora": 3}, {"carl": 1, "dora": 1}, False),
    ([{"mice": ["carl", "dora"], "by": "anna"}, {"mice": ["anna"], "by": "ben"}],
     {"ben": 1, "anna": 2, "carl": 3, "dora": 3}, {"carl": 1, "dora": 1, "anna": 2}, True),
    ([{"mice": ["dora"], "by": "ben"}, {"mice": ["anna", "carl"], "by": "ben"}],
     {"ben": 1, "anna": 2, "carl": 2, "dora": 4}, {"dora": 1, "anna": 2, "carl": 2}, True),
    ([{"mice": ["anna", "carl", "dora"], "by": "ben"}],
     {"ben": 1, "anna": 2, "carl": 2, "dora": 2}, {"anna": 1, "carl": 1, "dora": 1}, True),
])
def test_mouse_trap_mice_caught_together_share_their_place(captures, places, captured_as,
                                                          finished):
    outcome = games.get("mouse_trap").score(
        {"players": ["anna", "ben", "carl", "dora"], "captures": captures})
    assert outcome.places == places
    assert {p: d["captured_as"] for p, d in outcome.details.items() if d["captured_as"]} == \
        captured_as
    assert outcome.finished is finished


MISSING_CAPTURES = ("Enter the captures: tap the mice the trap caught and who turned the "
                    "crank.")


@pytest.mark.parametrize("captures,cheese,expected", [
    ([{"mice": ["ben"], "by": "ben"}], {}, ["ben: nobody captures their own mouse."]),
    ([{"mice": ["ben", "carl"], "by": "carl"}], {}, ["carl: nobody captures their own mouse."]),
    ([{"mice": ["ben"], "by": "anna"}, {"mice": ["ben"], "by": "carl"}], {},
     ["ben: a mouse can be captured only once."]),
    ([{"mice": ["ben", "ben"], "by": "anna"}], {}, ["ben: a mouse can be captured only once."]),
    ([{"mice": ["ben"], "by": "anna"}, {"mice": ["carl"], "by": "ben"}], {},
     ["ben was already captured and cannot capture carl."]),
    ([{"mice": ["zoe"], "by": "anna"}], {},
     ["Capture 1: name the captured mice and who captured them."]),
    ([{"mice": [], "by": "anna"}], {},
     ["Capture 1: name the captured mice and who captured them."]),
    ([{"mouse": "ben", "by": "anna"}], {},
     ["Capture 1: name the captured mice and who captured them."]),
    ([], {}, [MISSING_CAPTURES]),
    ([], {"anna": 30, "ben": 30}, [MISSING_CAPTURES, "There are only 52 cheese pieces, not 60."]),
    ([{"mice": ["ben"], "by": "anna"}], {"ben": 3},
     ["ben: a captured mouse hands its cheese to whoever captured it."]),
    ([], {"anna": 53}, [MISSING_CAPTURES, "anna: Cheese must be a whole number from 0 to 52."]),
])
def test_mouse_trap_impossible_results(captures, cheese, expected):
    result = {"players": ["anna", "ben", "carl"], "captures": captures, "cheese": cheese}
    assert messages("mouse_trap", result) == expected


# Alles für die Katz ------------------------------------------------------


def katz(first_home=None, **mice):
    result = {"players": list(mice),
              "mice": {p: {"home": h, "trapped": t} for p, (h, t) in mice.items()}}
    if first_home is not None:
        result["first_home"] = first_home
    return result


@pytest.mark.parametrize("result,points,places", [
    (katz(["ben", "anna"], anna=(3, 1), ben=(1, 3)), {"anna": 3, "ben": 1},
     {"anna": 1, "ben": 2}),
    (katz(["ben", "anna"], anna=(2, 2), ben=(2, 2), carl=(0, 4)),
     {"anna": 2, "ben": 2, "carl": 0}, {"ben": 1, "anna": 2, "carl": 3}),
    # Carl was first home overall, but of the two tied leaders Ben got home before Anna.
    (katz(["carl", "ben", "anna"], anna=(2, 2), ben=(2, 2), carl=(1, 3)),
     {"anna": 2, "ben": 2, "carl": 1}, {"ben": 1, "anna": 2, "carl": 3}),
    (katz(["carl", "anna", "ben"], anna=(1, 3), ben=(1, 3), carl=(2, 2)),
     {"anna": 1, "ben": 1, "carl": 2}, {"carl": 1, "anna": 2, "ben": 3}),
    (katz(None, anna=(0, 4), ben=(0, 4)), {"anna": 0, "ben": 0}, {"anna": 1, "ben": 1}),
    (katz(["anna"], anna=(1, 3), ben=(0, 4), carl=(0, 4)), {"anna": 1, "ben": 0, "carl": 0},
     {"anna": 1, "ben": 2, "carl": 2}),
])
def test_katz_most_mice_home_tie_to_first_home(result, points, places):
    assert check("alles_fuer_die_katz", result) == (points, places)


def test_katz_all_trapped_is_out():
    outcome = games.get("alles_fuer_die_katz").score(katz(["anna"], anna=(1, 3), ben=(0, 4)))
    assert outcome.details["ben"]["out"] is True
    assert outcome.details["anna"]["out"] is False
    assert outcome.details["anna"]["home_order"] == 1
    assert outcome.details["ben"]["home_order"] is None


@pytest.mark.parametrize("result,expected", [
    (katz(["anna", "ben"], anna=(3, 0), ben=(4, 0)),
     ["anna: each of the four mice ends home or trapped; 3 home and 0 trapped make 3."]),
    (katz(None, anna=(1, 3), ben=(0, 4)),
     ["anna got a mouse home: tap when their first one got there."]),
    (katz(["ben"], anna=(1, 3), ben=(2, 2)),
     ["anna got a mouse home: tap when their first one got there."]),
    (katz(["ben", "anna"], anna=(1, 3), ben=(0, 4)),
     ["ben got no mouse home, so has no place in the order of first mice home."]),
    (katz(["anna", "anna"], anna=(1, 3), ben=(0, 4)),
     ["anna is in the order of first mice home twice."]),
    (katz("anna", anna=(1, 3), ben=(0, 4)),
     ["Tap the players in the order their first mouse got home."]),
    (katz(["anna", "zoe"], anna=(1, 3), ben=(0, 4)), ["zoe is not playing in this game."]),
    (katz(["anna"], anna=(5, -1), ben=(0, 4)),
     ["anna: Mice home must be a whole number from 0 to 4.",
      "anna: Mice trapped must be a whole number from 0 to 4."]),
])
def test_katz_impossible_results(result, expected):
    assert messages("alles_fuer_die_katz", result) == expected


# Finishing-order games ---------------------------------------------------


@pytest.mark.parametrize("key", ["souriciere", "mensch_aergere_dich_nicht"])
@pytest.mark.parametrize("order,places", [
    (["ben", "anna", "carl", "dora"], {"ben": 1, "anna": 2, "carl": 3, "dora": 4}),
    (["ben", "anna", "carl"], {"ben": 1, "anna": 2, "carl": 3, "dora": 4}),
    (["carl"], {"carl": 1, "anna": 2, "ben": 2, "dora": 2}),
])
def test_finishing_order_places(key, order, places):
    outcome = games.get(key).score({"players": ["anna", "ben", "carl", "dora"], "order": order})
    assert outcome.places == places
    assert not outcome.scored_by_points
    assert set(outcome.points.values()) == {0}


@pytest.mark.parametrize("order,expected", [
    ([], ["Tap the players in the order they finished, at least the winner."]),
    (["anna", "anna"], ["anna is in the finishing order twice."]),
    (["zoe"], ["zoe is not playing in this game."]),
])
def test_finishing_order_mistakes(order, expected):
    result = {"players": ["anna", "ben", "carl"], "order": order}
    assert messages("mensch_aergere_dich_nicht", result) == expected


SOURICIERE_RULES = games.get("souriciere").house_rules


@pytest.mark.parametrize("chosen", [
    dict(zip([option.key for option in SOURICIERE_RULES], values, strict=True))
    for values in itertools.product(*[list(option.choices) for option in SOURICIERE_RULES])
] + [{"edition": "bookmark"}, {"trap_square": False}, {}])
def test_souriciere_setup_and_result_agree_on_every_combination_of_house_rules(chosen):
    rules = games.get("souriciere")
    players = ["anna", "ben"]
    setup = rules.validate_setup(players, chosen)
    result = rules.validate({"players": players, "order": ["ben"], "house_rules": chosen})
    assert [p.code for p in setup] == [p.code for p in result]
    with_trap = {**rules.default_house_rules(), **chosen}
    refused = with_trap["edition"] == "bookmark" and with_trap["trap_square"]
    assert [p.field for p in setup] == (["house_rules.trap_square"] if refused else [])


def test_souriciere_records_edition_and_variants():
    rules = games.get("souriciere")
    result = {"players": ["anna", "ben"], "order": ["ben"],
              "house_rules": {"edition": "bookmark", "trap_square": False,
                              "exact_roll": False, "occupied": "next_free"}}
    assert rules.validate(result) == []
    result["house_rules"]["trap_square"] = True
    assert messages("souriciere", result) == [
        "The Bookmark edition has no trap square: switch it off."]
    result["house_rules"] = {"edition": "hasbro"}
    assert messages("souriciere", result) == ["Edition: choose one of the listed options."]


def test_mensch_pieces_house_rule_shows_in_setup_hint():
    rules = games.get("mensch_aergere_dich_nicht")
    assert "3 pieces" in rules.setup_hint(4)
    assert "4 Figuren" in rules.setup_hint(4, {"pieces": 4}).in_language("de")


# Entenspiel --------------------------------------------------------------


def test_entenspiel_winner_then_squares_reached():
    points, places = check("entenspiel", {"players": ["anna", "ben", "carl", "dora"],
                                          "winner": "carl", "squares": {"anna": 40, "ben": 52}})
    assert places == {"carl": 1, "ben": 2, "anna": 3, "dora": 4}


@pytest.mark.parametrize("square,target", [(15, 10), (39, 33), (58, 42)])
def test_entenspiel_no_losing_duck_stays_where_an_event_moves_it(square, target):
    result = {"players": ["anna", "ben"], "winner": "anna", "squares": {"ben": square}}
    assert messages("entenspiel", result) == [
        f"ben: no duck stays on square {square}; its event moves the duck on to square "
        f"{target}."]
    german = games.get("entenspiel").validate(result)[0].in_language("de", {"ben": "Ben"})
    assert german.startswith("Ben: ") and str(target) in german


@pytest.mark.parametrize("square", [3, 5, 6, 7, 12, 19, 42, 57, 62])
def test_entenspiel_ducks_can_stay_on_other_squares(square):
    """Squares 3 and 6 are offers ("Du darfst", "Du kannst"): a duck may decline and rest."""
    result = {"players": ["anna", "ben"], "winner": "anna", "squares": {"ben": square}}
    assert messages("entenspiel", result) == []


@pytest.mark.parametrize("result,expected", [
    ({"players": ["anna", "ben"]}, ["Choose who reached square 63 first."]),
    ({"players": ["anna", "ben"], "winner": "anna", "squares": {"ben": 63}},
     ["ben: Square reached must be a whole number from 0 to 62."]),
    ({"players": ["anna", "ben"], "winner": "anna", "squares": {"anna": 50}},
     ["anna won and so reached square 63."]),
])
def test_entenspiel_mistakes(result, expected):
    assert messages("entenspiel", result) == expected


# Mau Mau -----------------------------------------------------------------


def test_mau_mau_single_hand_first_out_wins():
    outcome = games.get("mau_mau").score({"players": ["anna", "ben", "carl"], "winner": "ben"})
    assert outcome.places == {"ben": 1, "anna": 2, "carl": 2}
    assert not outcome.scored_by_points


def test_mau_mau_penalty_points_fewest_win():
    outcome = games.get("mau_mau").score({
        "players": ["anna", "ben", "carl"],
        "hands": [{"anna": 0, "ben": 7, "carl": 3}, {"anna": 12, "ben": 0, "carl": 4}],
        "house_rules": {"scoring": "penalty_points"}})
    assert outcome.points == {"anna": 12, "ben": 7, "carl": 7}
    assert outcome.places == {"ben": 1, "carl": 1, "anna": 3}
    assert outcome.lower_is_better and outcome.scored_by_points
    assert outcome.details["anna"] == {"penalties": [0, 12], "hands_won": 1}


@pytest.mark.parametrize("hands,expected", [
    ([], ["Enter the penalty points of at least one hand."]),
    ([{"anna": 0, "ben": 0}], ["Hand 1: exactly one player went out and notes 0."]),
    ([{"anna": 0}], ["Hand 1: enter penalty points for every player."]),
    ([{"anna": 0, "ben": -2}], ["ben: hand 1 needs penalty points from 0 to 999."]),
])
def test_mau_mau_penalty_mistakes(hands, expected):
    result = {"players": ["anna", "ben"], "hands": hands,
              "house_rules": {"scoring": "penalty_points"}}
    assert messages("mau_mau", result) == expected
