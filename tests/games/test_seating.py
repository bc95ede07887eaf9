"""Tournament seating: everyone seated, tables even, opponents varied, seats rotated."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.seating import repeated_meetings, table_sizes_for


@pytest.mark.parametrize("count,sizes", [
    (2, [2]), (4, [4]), (5, [3, 2]), (7, [4, 3]), (8, [4, 4]), (9, [3, 3, 3]),
    (10, [4, 3, 3]), (13, [4, 3, 3, 3]), (64, [4] * 16), (65, [4] * 14 + [3] * 3),
])
def test_tables_are_as_few_and_as_even_as_the_game_allows(count, sizes):
    assert table_sizes_for(count, (2, 4)) == sizes


@pytest.mark.parametrize("count,table_sizes", [(1, (2, 4)), (0, (2, 4)), (5, (3, 3)),
                                               (7, (4, 4))])
def test_impossible_tables_are_refused(count, table_sizes):
    with pytest.raises(ValueError):
        table_sizes_for(count, table_sizes)


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 40), rounds=st.integers(1, 6), seed=st.integers(0, 1000))
def test_everyone_is_seated_once_each_round_at_tables_within_limits(count, rounds, seed):
    players = [f"p{n}" for n in range(count)]
    seating = games.seat_rounds(players, rounds, (2, 4), seed=seed)
    assert len(seating) == rounds
    for tables in seating:
        seated = [player for table in tables for player in table]
        assert sorted(seated) == sorted(players)
        sizes = [len(table) for table in tables]
        assert all(2 <= size <= 4 for size in sizes)
        assert max(sizes) - min(sizes) <= 1


@pytest.mark.parametrize("count,rounds,table_sizes,bound", [
    # Measured with seed 0; the least possible is given for comparison.
    (12, 4, (2, 4), 18),  # 3 tables of 4: 72 pairings over 66 pairs, at least 6
    (10, 5, (2, 4), 15),  # 4 + 3 + 3: 60 pairings over 45 pairs, at least 15 (optimal)
    (16, 5, (2, 4), 0),   # 4 tables of 4: a schedule without repeats exists
    (8, 3, (2, 4), 12),   # 2 tables of 4: 36 pairings over 28 pairs, at least 8
    (64, 10, (2, 4), 0),
])
def test_opponents_repeat_as_little_as_measured(count, rounds, table_sizes, bound):
    players = list(range(count))
    seating = games.seat_rounds(players, rounds, table_sizes, seed=0)
    assert repeated_meetings(seating) <= bound


def test_first_seat_and_seat_order_rotate():
    players = list(range(8))
    seating = games.seat_rounds(players, 6, (4, 4), seed=3)
    firsts = Counter(table[0] for tables in seating for table in tables)
    assert max(firsts.values()) - min(firsts.get(p, 0) for p in players) <= 1


def test_same_seed_same_seating_other_seed_other_seating():
    players = [f"p{n}" for n in range(12)]
    assert games.seat_rounds(players, 4, seed=7) == games.seat_rounds(players, 4, seed=7)
    assert games.seat_rounds(players, 4, seed=7) != games.seat_rounds(players, 4, seed=8)


def test_a_drop_out_re_seats_the_next_round_remembering_who_met():
    players = list(range(9))
    first_two = games.seat_rounds(players, 2, (2, 4), seed=1)
    remaining = [p for p in players if p != 4]
    third = games.seat_rounds(remaining, 1, (2, 4), seed=1, history=first_two)
    assert sorted(p for table in third[0] for p in table) == remaining
    fresh = games.seat_rounds(remaining, 1, (2, 4), seed=1)
    assert repeated_meetings(first_two + third) <= repeated_meetings(first_two + fresh)


def test_players_must_be_distinct():
    with pytest.raises(ValueError):
        games.seat_rounds(["a", "a", "b"], 1)
