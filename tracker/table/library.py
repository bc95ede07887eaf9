"""The household's game library: the games the app knows by rule and the family's own games,
as the new-game screen offers them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Model

import games
from tracker.common.engine_text import say
from tracker.households.models import Household
from tracker.table.models import OwnGame, Play, game_key_of


@dataclass(frozen=True)
class LibraryGame:
    """One game the household can start: a rules game, or one of its own. ``key`` is the key
    the statistics count its plays under."""

    key: str
    name: str
    description: str
    min_players: int
    max_players: int
    rules: games.Rules
    own_game: OwnGame | None = None

    @property
    def house_rules_to_choose(self) -> tuple[games.Option, ...]:
        """The house rules the host chooses when starting: an own game's are its definition."""
        return () if self.own_game else self.rules.house_rules

    @property
    def cooperative(self) -> bool:
        """Whether the table wins or loses together: nobody to rank in a series or tournament."""
        return self.own_game is not None and self.own_game.scoring == "cooperative"

    @property
    def game(self) -> str:
        """The engine's key of the game: ``generic`` for an own game."""
        return self.rules.key


def own_library_game(own_game: OwnGame) -> LibraryGame:
    rules = games.get("generic")
    return LibraryGame(
        key=game_key_of("generic", own_game.pk), name=own_game.name,
        description=own_game.note or own_game.get_scoring_display(),
        min_players=own_game.min_players or rules.min_players,
        max_players=own_game.max_players or rules.max_players,
        rules=rules, own_game=own_game)


def rules_library_game(rules: games.Rules) -> LibraryGame:
    return LibraryGame(key=rules.key, name=say(rules.name), description=say(rules.description),
                       min_players=rules.min_players, max_players=rules.max_players,
                       rules=rules)


def every_game(household: Household) -> list[LibraryGame]:
    """The games the app knows by rule and the household's own (one query), unordered. The
    generic engine is not a game of its own: the household's own games are played with it."""
    return ([rules_library_game(rules) for rules in games.all_games() if rules.key != "generic"]
            + [own_library_game(own) for own in household.own_games.all()])


def library(household: Household, night: Model | None = None) -> list[LibraryGame]:
    """Every game the household can start, in one list: the games of ``night`` (a game
    night) first, the latest first, then the most played, then by name. Three queries."""
    entries = every_game(household)
    played = {row["game_key"]: row["count"] for row in (
        Play.objects.filter(household=household).exclude(status=Play.Status.ABANDONED)
        .values("game_key").annotate(count=Count("id")).order_by())}
    tonight: list[str] = []
    if night is not None:
        tonight = list(dict.fromkeys(night.plays.order_by("-created_at", "-id")
                                     .values_list("game_key", flat=True)))
    rank = {key: index for index, key in enumerate(tonight)}
    return sorted(entries, key=lambda entry: (rank.get(entry.key, len(rank)),
                                              -played.get(entry.key, 0), entry.name.lower()))


def find(entries: list[LibraryGame], key: Any) -> LibraryGame | None:
    return next((entry for entry in entries if entry.key == key), None)
