"""The ratings' arithmetic: openskill's Weng-Lin Plackett-Luce model, fair to newcomers."""

import pickle
from datetime import date

import pytest

from tracker.ratings.skill import (
    MODEL,
    OVERALL,
    PROVISIONAL_BELOW,
    RatedPlay,
    Rater,
    rate_history,
    win_chances,
)

DAY = date(2026, 1, 10)


def play(order, game="skyjo", day=DAY):
    """Players (ids) in the order they finished, each a side of their own."""
    return RatedPlay(game, day, tuple((player,) for player in order),
                     tuple(range(1, len(order) + 1)))


def test_the_numbers_are_openskill_s_own():
    plays = [play([1, 2, 3]), play([3, 1]), play([2, 3, 1, 4]),
             RatedPlay("skyjo", DAY, ((1, 2), (3, 4)), (2, 1)), play([4, 1], game="uno")]
    reference = {}
    for rated in plays:
        for game in (rated.game, OVERALL):
            teams = [[reference.get((game, p)) or MODEL.rating() for p in side]
                     for side in rated.sides]
            for side, team in zip(rated.sides, MODEL.rate(teams, ranks=list(rated.places)),
                                  strict=True):
                reference |= {(game, p): r for p, r in zip(side, team, strict=True)}
    ours = rate_history(plays)
    assert set(ours.skills) == set(reference)
    for key, rating in reference.items():
        assert ours.skills[key].mu == pytest.approx(rating.mu, abs=1e-12)
        assert ours.skills[key].sigma == pytest.approx(rating.sigma, abs=1e-12)


def test_second_of_five_is_more_than_a_loss():
    ratings = rate_history([play([1, 2, 3, 4, 5])])
    second, last = ratings.skill("skyjo", 2), ratings.skill("skyjo", 5)
    assert second.mu > MODEL.mu > last.mu
    assert ratings.skill("skyjo", 1).mu > second.mu


def test_a_newcomer_starts_low_and_a_loss_to_the_best_costs_little():
    plays = [play([1, 2]) for _ in range(10)] + [play([1, 3])]
    ratings = rate_history(plays)
    best, newcomer = ratings.skill("skyjo", 1), ratings.skill("skyjo", 3)
    assert round(MODEL.rating().ordinal(), 6) == 0  # mu - 3 sigma of nobody yet
    assert newcomer.rating < best.rating
    regular = ratings.skill("skyjo", 2)
    assert MODEL.mu - newcomer.mu < (MODEL.mu - regular.mu) / 5
    assert newcomer.provisional and newcomer.plays_to_go == PROVISIONAL_BELOW - 1
    assert not best.provisional


def test_team_members_share_their_team_s_result():
    ratings = rate_history([RatedPlay("canasta", DAY, ((1, 3), (2, 4)), (1, 2))])
    assert ratings.skill("canasta", 1).mu == ratings.skill("canasta", 3).mu > MODEL.mu
    assert ratings.skill("canasta", 2).mu == ratings.skill("canasta", 4).mu < MODEL.mu
    assert ratings.skill(OVERALL, 1).plays == 1


def test_ratings_are_per_game_and_over_all_games():
    ratings = rate_history([play([1, 2]), play([2, 1], game="uno")])
    assert ratings.skill("skyjo", 1).mu > ratings.skill("skyjo", 2).mu
    assert ratings.skill("uno", 2).mu > ratings.skill("uno", 1).mu
    assert ratings.skill(OVERALL, 1).plays == 2
    assert ratings.months[("skyjo", 1)] == {"2026-01": ratings.skill("skyjo", 1).rating}


def test_win_chances_favour_the_stronger_and_add_up_to_one():
    ratings = rate_history([play([1, 2, 3]) for _ in range(8)])
    chances = win_chances(ratings, "skyjo", [[1], [2], [3], [9]])
    assert chances[0] == max(chances) and sum(chances) == pytest.approx(1)
    assert win_chances(ratings, "skyjo", [[1]]) == [1.0]


def test_ratings_carried_on_after_a_look_equal_those_rated_at_once():
    later = date(2026, 2, 3)
    before = [play([1, 2, 3]), play([2, 1])]
    after = [play([3, 1, 2]), play([1, 3], game="uno"), play([2, 3], day=later)]
    rater = Rater()
    rater.add_all(before)
    rater.ratings()  # a page looks mid-month
    carried = pickle.loads(pickle.dumps(rater))  # as the cache keeps it
    carried.add_all(after)
    at_once = rate_history(before + after)
    assert carried.ratings().skills == at_once.skills
    assert carried.ratings().months == at_once.months
    assert set(at_once.months[("skyjo", 1)]) == {"2026-01"}
    assert set(at_once.months[(OVERALL, 2)]) == {"2026-01", "2026-02"}
