"""One valid result per game, as the web app would store it."""

FULL_KNIFFEL = {
    "ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
    "three_of_a_kind": 22, "four_of_a_kind": 0, "full_house": 25, "small_straight": 30,
    "large_straight": 0, "kniffel": 50, "chance": 24,
}

VALID_RESULTS = [
    ("maus_im_nacken", {"players": ["anna", "ben"], "elephants": {
        "anna": ["home:1", "seat:5", "caught", "pyramid"],
        "ben": ["home:2", "seat:8", "seat:3", "caught"]}}),
    ("kniffel", {"players": ["anna", "ben"],
                 "sheets": {"anna": FULL_KNIFFEL, "ben": {"sixes": 24}}}),
    ("weltraum_kniffel", {"players": ["mia", "leo"],
                          "sheets": {"mia": {"ufo": 3, "two_pairs": 3}, "leo": {}}}),
    ("mouse_trap", {"players": ["anna", "ben", "carl"],
                    "captures": [{"mice": ["carl"], "by": "anna"}, {"mice": ["ben"], "by": "anna"}],
                    "cheese": {"anna": 30, "ben": 0, "carl": 0}}),
    ("alles_fuer_die_katz", {"players": ["anna", "ben"],
                             "mice": {"anna": {"home": 2, "trapped": 2},
                                      "ben": {"home": 3, "trapped": 1}},
                             "first_home": ["anna", "ben"]}),
    ("souriciere", {"players": ["anna", "ben", "carl"], "order": ["ben"]}),
    ("mensch_aergere_dich_nicht", {"players": ["anna", "ben", "carl"],
                                   "order": ["carl", "anna"]}),
    ("entenspiel", {"players": ["anna", "ben", "carl"], "winner": "ben",
                    "squares": {"anna": 40}}),
    ("mau_mau", {"players": ["anna", "ben"], "winner": "ben"}),
    ("generic", {"players": ["anna", "ben"], "scores": {"anna": 12, "ben": -3}}),
    ("generic", {"players": ["anna", "ben", "carl"], "teams": {"A": ["anna"], "B": ["ben", "carl"]},
                 "rounds": [{"A": 10, "B": 5}, {"A": 3}], "finished": True,
                 "house_rules": {"teams": True, "end": "target", "end_at": 100}}),
    ("generic", {"players": ["anna", "ben"], "won": False, "score": 3,
                 "house_rules": {"scoring": "cooperative"}}),
]
