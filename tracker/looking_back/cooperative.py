"""A co-operative game's record: the table plays against the game, so what counts is how
often the table won, its streaks, and with whom at the table it won; seats and leaderboards
say nothing when everyone wins or loses together."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import IntegerField
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils.translation import gettext as _

from tracker.households.models import Household, Player
from tracker.looking_back.stats import Record, counted_participations, rate


@dataclass
class Companion:
    """One player at the table: how many of the game they played and how many the table won."""

    player: Player
    plays: int = 0
    won: int = 0

    @property
    def win_rate(self) -> float | None:
        return rate(self.won, self.plays)


@dataclass
class TableRecord:
    """The table against the game: wins and losses, oldest first, and its players.

    A play is won when the table won it (every player first); lost otherwise. A streak is a
    run of plays won (or lost) one after the other, in the order they were played.
    """

    outcomes: list[bool] = field(default_factory=list)
    companions: list[Companion] = field(default_factory=list)

    @property
    def plays(self) -> int:
        return len(self.outcomes)

    @property
    def won(self) -> int:
        return sum(self.outcomes)

    @property
    def lost(self) -> int:
        return self.plays - self.won

    @property
    def win_rate(self) -> float | None:
        return rate(self.won, self.plays)

    def longest_run(self, won: bool) -> int:
        longest = current = 0
        for outcome in self.outcomes:
            current = current + 1 if outcome is won else 0
            longest = max(longest, current)
        return longest

    @property
    def longest_won(self) -> int:
        return self.longest_run(True)

    @property
    def longest_lost(self) -> int:
        return self.longest_run(False)

    @property
    def current_run(self) -> int:
        """How many of the latest plays ended the way the latest one did."""
        run = 0
        for outcome in reversed(self.outcomes):
            if outcome is not self.outcomes[-1]:
                break
            run += 1
        return run

    @property
    def last_won(self) -> bool | None:
        return self.outcomes[-1] if self.outcomes else None


def table_record(household: Household, key: str, players: dict[int, Player]) -> TableRecord:
    """The household's record at the co-operative game ``key`` (one query): its plays in the
    order they were played, and each player's plays and wins, most played first."""
    seats = (counted_participations(household).filter(play__game_key=key)
             .order_by("play__played_on", "play__created_at", "play_id")
             .values_list("play_id", "player_id", "place"))
    outcomes: dict[int, bool] = {}
    companions: dict[int, Companion] = {}
    for play_id, player_id, place in seats:
        won = place == 1
        outcomes[play_id] = won
        companion = companions.setdefault(player_id, Companion(players[player_id]))
        companion.plays += 1
        companion.won += won
    ranked = sorted(companions.values(),
                    key=lambda c: (-c.plays, -(c.win_rate or 0), c.player.name.lower()))
    return TableRecord(list(outcomes.values()), ranked)


def best_score(household: Household, key: str) -> Record | None:
    """The best score the table reached together at the co-operative game ``key`` (the
    earliest when tied), held by everyone at that table; None without a score."""
    best = (counted_participations(household).filter(play__game_key=key)
            .exclude(details__score=None).annotate(score=Cast(KT("details__score"),
                                                               IntegerField()))
            .filter(score__isnull=False).select_related("play__game_night")
            .order_by("-score", "play__created_at", "id").first())
    if best is None:
        return None
    table = [seat.player for seat in best.play.participants.select_related("player")]
    return Record(_("Best score together"), best.score, best, table)
