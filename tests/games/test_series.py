import pytest

import games
from games import (
    Cut,
    Outcome,
    TieBreak,
    final_table_cut,
    ranks_with_final,
    series_standings,
    tiebreaks_used,
)
from games.base import places_by_points


def maus(**elephants):
    return games.get("maus_im_nacken").score({"players": list(elephants),
                                              "elephants": elephants})


def rows_by_player(rows):
    return {row.player: row for row in rows}


RACE_1 = maus(anna=["home:1", "seat:8", "caught", "caught"],      # 21
              ben=["home:2", "seat:3", "caught", "pyramid"],      # 15
              carl=["seat:6", "caught", "caught", "caught"])      # 6
RACE_2 = maus(anna=["seat:3", "caught", "caught", "caught"],      # 3
              ben=["home:1", "home:2", "caught", "caught"],       # 25
              carl=["home:3", "seat:7", "caught", "caught"])      # 18


def test_totals_race_points_and_lead():
    rows = series_standings([RACE_1, RACE_2])
    assert [(row.player, row.total, row.race_points, row.rank, row.behind) for row in rows] == [
        ("ben", 40, [15, 25], 1, 0),
        ("anna", 24, [21, 3], 2, 16),  # level with carl on points, ahead on race wins
        ("carl", 24, [6, 18], 3, 16),
    ]


def test_maus_ties_break_on_wins_then_elephants_home():
    a = maus(anna=["home:1", "caught", "caught", "caught"], ben=["seat:8", "seat:5", "caught",
                                                                 "caught"])  # 13 / 13
    b = maus(anna=["seat:8", "caught", "caught", "caught"], ben=["seat:6", "caught", "caught",
                                                                 "caught"])  # 8 / 6
    c = maus(anna=["seat:3", "caught", "caught", "caught"], ben=["seat:5", "caught", "caught",
                                                                 "caught"])  # 3 / 5
    rows = series_standings([a, b, c])
    assert [(r.player, r.total, r.wins, r.rank) for r in rows] == [
        ("anna", 24, 2, 1), ("ben", 24, 2, 2)]  # both 2 wins (shared first in race a)
    assert rows_by_player(rows)["anna"].elephants_home == 1
    assert [r.rank for r in series_standings([a, b, c], tiebreaks=("points", "wins"))] == [1, 1]


def test_missed_race_scores_zero_and_absent_players_still_listed():
    late = maus(anna=["seat:5", "caught", "caught", "caught"],
                dora=["seat:4", "caught", "caught", "caught"])
    rows = rows_by_player(series_standings([RACE_1, late], players=["anna", "ben", "carl",
                                                                    "dora", "emil"]))
    assert rows["dora"].race_points == [0, 4]
    assert rows["ben"].race_points == [15, 0]
    assert rows["emil"].race_points == [0, 0] and rows["emil"].races_played == 0


def test_finishing_order_games_score_places_through_a_table():
    madn = games.get("mensch_aergere_dich_nicht")
    first = madn.score({"players": ["anna", "ben", "carl"], "order": ["carl", "anna", "ben"]})
    second = madn.score({"players": ["anna", "ben", "carl"], "order": ["anna"]})
    rows = rows_by_player(series_standings([first, second]))
    assert rows["anna"].race_points == [7, 10]
    assert rows["carl"].race_points == [10, 7]
    custom = rows_by_player(series_standings([first, second], place_points=(3, 1)))
    assert custom["ben"].total == 0 + 1
    assert custom["anna"].total == 1 + 3


def test_penalty_series_fewest_points_lead():
    mau = games.get("mau_mau")
    game = mau.score({"players": ["anna", "ben"], "hands": [{"anna": 0, "ben": 9}],
                      "house_rules": {"scoring": "penalty_points"}})
    rows = series_standings([game, game])
    assert [(r.player, r.total, r.rank) for r in rows] == [("anna", 0, 1), ("ben", 18, 2)]


def test_unknown_metric_is_a_programming_error():
    with pytest.raises(ValueError):
        series_standings([RACE_1], tiebreaks=("points", "style"))


def test_empty_series_has_rows_for_its_players():
    rows = series_standings([], players=["anna", "ben"])
    assert [(r.player, r.total, r.rank) for r in rows] == [("anna", 0, 1), ("ben", 0, 1)]


def race(**points):
    """A race of a points game: most points win, ties share a place."""
    return Outcome(game="generic", points=points, places=places_by_points(points))


# anna, dora, ben and carl all end on 20 points: anna has 2 race wins, dora 1, ben
# and carl none and four second places each; emil is far behind.
LEVEL_AT_THE_TOP = [
    race(anna=10, dora=5, ben=5, carl=5, emil=0),
    race(anna=10, dora=5, ben=5, carl=5, emil=0),
    race(anna=0, dora=10, ben=5, carl=5, emil=5),
    race(anna=0, dora=0, ben=5, carl=5, emil=6),
]
TIEBREAKS = ("points", "wins", "seconds")


def test_the_standings_say_which_tiebreak_ordered_equal_totals():
    rows = series_standings(LEVEL_AT_THE_TOP, TIEBREAKS)
    assert [(row.player, row.total, row.rank) for row in rows] == [
        ("anna", 20, 1), ("dora", 20, 2), ("ben", 20, 3), ("carl", 20, 3), ("emil", 11, 5)]
    assert tiebreaks_used(rows, TIEBREAKS) == [
        TieBreak(("anna",), ("dora",), "wins"),
        TieBreak(("dora",), ("ben", "carl"), "wins"),
    ]
    assert tiebreaks_used(rows, ("points",)) == []


@pytest.mark.parametrize("seats,tiebreaks,seated,tied,open_seats,decided", [
    # anna and dora win on race wins; ben and carl are level on everything for one seat
    (3, TIEBREAKS, ("anna", "dora"), ("ben", "carl"), 1, None),
    (2, TIEBREAKS, ("anna", "dora"), (), 0,
     TieBreak(("anna", "dora"), ("ben", "carl"), "wins")),
    (1, TIEBREAKS, ("anna",), (), 0, TieBreak(("anna",), ("dora", "ben", "carl"), "wins")),
    (4, TIEBREAKS, ("anna", "dora", "ben", "carl"), (), 0, None),  # the cut is on points
    (3, ("points",), (), ("anna", "dora", "ben", "carl"), 3, None),  # no tie-break at all
    (6, TIEBREAKS, ("anna", "dora", "ben", "carl", "emil"), (), 0, None),
])
def test_the_final_table_cut_applies_the_tiebreaks(seats, tiebreaks, seated, tied, open_seats,
                                                   decided):
    rows = series_standings(LEVEL_AT_THE_TOP, tiebreaks)
    assert final_table_cut(rows, seats, tiebreaks) == Cut(seated, tied, open_seats, decided)


@pytest.mark.parametrize("final_places,expected", [
    ({}, [("anna", 1), ("dora", 2), ("ben", 3), ("carl", 3), ("emil", 5)]),
    ({"dora": 1, "anna": 2}, [("dora", 1), ("anna", 2), ("ben", 3), ("carl", 3), ("emil", 5)]),
    ({"emil": 1, "anna": 1, "dora": 3},
     [("anna", 1), ("emil", 1), ("dora", 3), ("ben", 4), ("carl", 4)]),
])
def test_after_the_final_players_level_outside_it_share_their_place(final_places, expected):
    rows = series_standings(LEVEL_AT_THE_TOP, TIEBREAKS)
    assert [(row.player, rank) for row, rank in ranks_with_final(rows, final_places)] == expected
