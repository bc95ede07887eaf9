"""Statistics count a team or a co-operative table as the family does: a team's record is
held by its players, a team's score counts once, and a co-operative game shows how the table
fared against the game instead of the seats' fairness."""

import datetime

import pytest

from tests.factories import GameNightFactory, OwnGameFactory, played_own_game
from tracker.looking_back import stats
from tracker.looking_back.game_page import game_stats
from tracker.table.models import game_key_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def spades(household, family):
    """Two plays of a team game: North (Anna, Carla) 42 against East (Ben, David) 37, then
    East 50 against North 30."""
    anna, ben, carla, david = family
    game = OwnGameFactory(household=household, name="Spades", teams=True)
    night = GameNightFactory(household=household, date=datetime.date(2025, 2, 1))
    teams = {"North": [anna.key, carla.key], "East": [ben.key, david.key]}
    played_own_game(household, night, game, family, {"teams": teams,
                                            "scores": {"North": 42, "East": 37}})
    played_own_game(household, night, game, family, {"teams": teams,
                                            "scores": {"North": 30, "East": 50}})
    return game_key_of("generic", game.pk)


@pytest.fixture
def hanabi(household, family):
    """Five plays of a co-operative game, in order: won, won, lost, won, won; Anna and Ben at
    every one, Carla at the first three, David at the last two."""
    anna, ben, carla, david = family
    game = OwnGameFactory(household=household, name="Hanabi", scoring="cooperative")
    for day, (won, third, score) in enumerate([(True, carla, 21), (True, carla, 23),
                                                (False, carla, 12), (True, david, 25),
                                                (True, david, 19)], start=1):
        night = GameNightFactory(household=household, date=datetime.date(2025, 3, day))
        played_own_game(household, night, game, [anna, ben, third], {"won": won, "score": score})
    return game_key_of("generic", game.pk)


def test_a_team_record_names_every_player_of_the_team(household, family, spades):
    players = {player.pk: player for player in family}
    records = game_stats(household, spades, players)["records"]
    assert [(record.label, record.points, [p.name for p in record.holders])
            for record in records] == [("Most points", 50, ["Ben", "David"])]


def test_a_team_score_counts_once_in_the_distribution(household, spades):
    counts = {row["label"]: row["count"]
              for row in stats.score_distribution(household, spades) if row["count"]}
    assert sum(counts.values()) == 4  # two plays, two teams each: not eight


def test_the_team_record_page_links_both_players(host_client, household, family, spades):
    html = host_client.get(f"/games/{spades}/").content.decode()
    ben, david = family[1], family[3]
    record_row = next(row for row in html.split("<tr") if "Most points" in row)
    assert f"/players/{ben.pk}/" in record_row and f"/players/{david.pk}/" in record_row


def test_a_co_operative_game_shows_the_table_s_record(household, family, hanabi):
    players = {player.pk: player for player in family}
    numbers = game_stats(household, hanabi, players)
    table = numbers["table"]
    assert (table.plays, table.won, table.lost) == (5, 4, 1)
    assert (table.longest_won, table.longest_lost, table.current_run, table.last_won) == (
        2, 1, 2, True)
    assert [(c.player.name, c.plays, c.won) for c in table.companions] == [
        ("Anna", 5, 4), ("Ben", 5, 4), ("Carla", 3, 2), ("David", 2, 2)]
    assert "fairness" not in numbers and "leaderboard" not in numbers
    assert [(r.label, r.points, sorted(p.name for p in r.holders))
            for r in numbers["records"]] == [("Best score together", 25,
                                              ["Anna", "Ben", "David"])]


def test_a_co_operative_game_page_says_how_often_the_table_won(host_client, hanabi):
    html = host_client.get(f"/games/{hanabi}/").content.decode()
    assert "The table won 4 of 5 games (80%)." in html
    assert "Fairness" not in html and "Seat 1" not in html
    assert "won 2 games in a row" in html


def test_a_co_operative_score_counts_once_per_play(household, hanabi):
    counts = [row["count"] for row in stats.score_distribution(household, hanabi)]
    assert sum(counts) == 5


def test_fairness_in_a_team_game_counts_the_teams(household, family):
    """Two teams of two, each winning half of twelve games: every seat won 50% against a
    fair share of 50%, not 25%, and starting is no advantage."""
    from tracker.looking_back.fairness import fairness

    anna, ben, carla, david = family
    game = OwnGameFactory(household=household, name="Spades", teams=True)
    night = GameNightFactory(household=household, date=datetime.date(2025, 4, 1))
    teams = {"North": [anna.key, carla.key], "East": [ben.key, david.key]}
    for number in range(12):
        scores = {"North": 10, "East": 5} if number % 2 else {"North": 5, "East": 10}
        played_own_game(household, night, game, family, {"teams": teams, "scores": scores})
    fair = fairness(household, game_key_of("generic", game.pk))
    assert {row.fair_rate for row in fair["seats"]} == {0.5}
    assert {row.win_rate for row in fair["seats"]} == {0.5}
    assert fair["start"].verdict == "none"
