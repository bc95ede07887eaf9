"""What a game's page shows: its records, leaderboard and distribution, and either the
seats' fairness or, for a co-operative game, the table's record against the game."""

from __future__ import annotations

from typing import Any

from tracker.households.models import Household, Player
from tracker.looking_back.categories import deciding_category
from tracker.looking_back.cooperative import best_score, table_record
from tracker.looking_back.fairness import fairness
from tracker.looking_back.lengths import typical_lengths
from tracker.looking_back.stats import (
    LEADERBOARD_MIN_PLAYS,
    CountedGame,
    counted_game,
    counted_plays,
    distribution_of,
    game_records,
    leaderboard,
)


def game_stats(household: Household, key: str, players: dict[int, Player],
               game: CountedGame | None = None) -> dict[str, Any]:
    """Everything a game's page shows (``game``: the game of ``key``, when read already).

    A co-operative game has no leaderboard and no fairness by seat: every player at the
    table wins or loses together, so only the table's record says anything."""
    game = game or counted_game(household, key) or CountedGame(key, key, True)
    numbers: dict[str, Any] = {
        "plays": counted_plays(household).filter(game_key=key).count(),
        "records": game_records(household, key),
        "min_plays": LEADERBOARD_MIN_PLAYS,
        # Won or lost together is the table's record below, not a chart of places.
        "distribution": (distribution_of(household, key, game.scored_by_points)
                         if game.scored_by_points or not game.cooperative else []),
        "cooperative": game.cooperative,
        "lengths": typical_lengths(household, key),
    }
    if game.cooperative:
        numbers["table"] = table_record(household, key, players)
        best = best_score(household, key)
        numbers["records"] = [best] if best is not None else []
    else:
        numbers["leaderboard"] = leaderboard(household, key, players)
        numbers["fairness"] = fairness(household, key, game.name)
        numbers["deciding"] = deciding_category(household, key)
    return numbers
